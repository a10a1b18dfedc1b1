/**
 * Claims (SPEC.md: One conversation, several processes): before work that must happen once (a segment's
 * handoff, folding idle records, sending a handoff kept for later), a process stores a claim, then reads the
 * keys; the first claim younger than 30 s wins (`firstClaim`, core/domain/conversation/keys.ts, the one
 * place that rule is written). At exit a claim still waiting after its wait counts as refused; outside the
 * exit a slow claim is judged once it lands, within LATE_WRITE_MS more. A refused handoff claim refuses the
 * conversation, as a refused record does (./hand-off).
 *
 * State: `HeldClaims`, for the conversation: the claims this process stored for its next handoff to take
 * over as its own. Claims, built for each hook call, is its only writer.
 */
import { claimKey, claimPrefix, firstClaim } from '../domain/conversation/keys'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { ConversationReads } from './conversation-state'
import { within } from './deadline'
import { LATE_WRITE_MS, type StoreCallOptions, type StoreCalls } from './store-calls'

/** A claim's outcome: `won` when it came first; `refused` when the store did not take it. `key`: the claim tried. */
export interface Claim {
  readonly key: string | undefined
  readonly won: boolean
  readonly refused: boolean
}

/** The claims this process stored for its next handoff to take over, for the conversation. Written by Claims alone. */
export class HeldClaims {
  readonly keys = new Set<string>()
}

export class Claims {
  constructor(
    private readonly calls: StoreCalls,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly conversation: ConversationReads,
    private readonly held: HeldClaims,
  ) {}

  /**
   * SPEC.md: before handing off, store a claim for the segment; the first claim the store holds wins.
   * `passOn`: a claim this process's next handoff takes over as its own when it finds it first: the prune's
   * (it holds one for the segment while it folds idle records) and the one stored ahead at
   * classic.SessionEnd. Any other claim of this process (a handoff running beside this one) is not taken over.
   */
  async claim(segment: number, options: StoreCallOptions = {}, passOn = false): Promise<Claim> {
    const open = this.conversation.open
    if (!open) return { key: undefined, won: false, refused: true }
    const now = options.at ?? (await this.clock.now())
    const key = claimKey(open.key, segment, now, this.entropy.randomHex(8))
    // Noted before it is written: a claim the store takes late is still known.
    if (passOn) this.held.keys.add(key)
    const winner = await this.first(key, claimPrefix(open.key, segment), now, options)
    // `held` holds keys only: a null or undefined winner is never in it.
    return { key, won: winner === key || this.held.keys.has(winner as string), refused: winner === null }
  }

  /** A first-wins claim under `prefix` (`<prefix><time>:<random>`), for other work than a segment's: whether this one came first. */
  async claimFirst(prefix: string, options: StoreCallOptions = {}): Promise<boolean> {
    const now = await this.clock.now()
    const key = `${prefix}${now}:${this.entropy.randomHex(8)}`
    return (await this.first(key, prefix, now, options)) === key
  }

  /** Removes a claim (work it was for is gone); false when the store did not take it. */
  release(key: string, options: StoreCallOptions = {}): Promise<boolean> {
    return this.calls.delete(key, options)
  }

  /** Stores `key`, then reads the keys: the first fresh claim under `prefix`, or null when the store refused. */
  private async first(key: string, prefix: string, now: number, options: StoreCallOptions): Promise<string | undefined | null> {
    const written = await this.calls.set(key, true, options)
    // A late write is waited for a while longer (Claude Code gives up on its lock after about 0.7 s), not for ever.
    const late = typeof written === 'object' ? await within(this.clock, LATE_WRITE_MS, () => written.landed) : undefined
    if (written === 'refused' || (late && !(late.done && late.value))) return null
    const keys = await this.calls.keys(options)
    return keys === undefined ? null : firstClaim(keys, prefix, now)
  }
}
