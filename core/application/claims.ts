/**
 * Storing claims (SPEC.md: One conversation, several processes): before work that must happen once (a
 * segment's handoff, folding idle records, sending a handoff kept for later), a process stores a claim, then
 * reads the keys; which claim wins is the domain's rule (core/domain/conversation/claim.ts). At exit a claim
 * still waiting after its wait counts as refused; outside the exit a slow claim is judged once it lands,
 * within LATE_WRITE_MS more.
 *
 * State: `HeldClaims`, for the conversation: the claims this process stored for its next handoff to take
 * over as its own. Claims, built for each hook call, is its only writer.
 */
import { judgeClaim, type ClaimAttempt } from '../domain/conversation/claim'
import { claimKey, claimPrefix } from '../domain/conversation/keys'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { ConversationReads } from './conversation-state'
import { within } from './deadline'
import { LATE_WRITE_MS, type StoreCallOptions, type StoreCalls } from './store-calls'

/**
 * Whose claim a handoff may take over as its own: any handoff of this process the prune's (it holds the segment
 * while it folds idle records), and the exit's handoff also the claim made ahead for it at classic.SessionEnd.
 */
export type PassOn = 'any-handoff' | 'exit'

/** The claims this process stored for its next handoff to take over, for the conversation. Written by Claims alone. */
export class HeldClaims {
  readonly forAny = new Set<string>()
  readonly forExit = new Set<string>()
}

export class Claims {
  constructor(
    private readonly calls: StoreCalls,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly conversation: ConversationReads,
    private readonly held: HeldClaims,
  ) {}

  /** The claims this process holds for a handoff to take over: the exit's (`exit`) or any other's. */
  heldFor(exit: boolean): ReadonlySet<string> {
    return exit ? new Set([...this.held.forAny, ...this.held.forExit]) : this.held.forAny
  }

  /**
   * SPEC.md: before handing off, store a claim for the segment, then read the keys (undefined: the
   * conversation is not open). `passOn`: which handoff of this process takes it over as its own when it finds it
   * first (see PassOn). Any other claim of this process (a handoff running beside this one) is not taken over.
   */
  async claim(segment: number, options: StoreCallOptions = {}, passOn?: PassOn): Promise<ClaimAttempt | undefined> {
    const open = this.conversation.open
    if (!open) return undefined
    const now = options.at ?? (await this.clock.now())
    const key = claimKey(open.key, segment, now, this.entropy.randomHex(8))
    // Noted before it is written: a claim the store takes late is still known.
    if (passOn !== undefined) (passOn === 'exit' ? this.held.forExit : this.held.forAny).add(key)
    return this.attempt(key, now, options)
  }

  /** Whether a handoff claim for `segment`, stored now, came first (for the prune, which folds under it). */
  async won(segment: number): Promise<boolean> {
    const open = this.conversation.open
    const attempt = await this.claim(segment, {}, 'any-handoff')
    return open !== undefined && attempt !== undefined && judgeClaim(attempt, claimPrefix(open.key, segment), this.held.forAny).outcome === 'won'
  }

  /** A first-wins claim under `prefix` (`<prefix><time>:<random>`), for other work than a segment's: whether this one came first. */
  async claimFirst(prefix: string, options: StoreCallOptions = {}): Promise<boolean> {
    const now = await this.clock.now()
    const attempt = await this.attempt(`${prefix}${now}:${this.entropy.randomHex(8)}`, now, options)
    return judgeClaim(attempt, prefix).outcome === 'won'
  }

  /** Removes a claim (work it was for is gone); false when the store did not take it. */
  release(key: string, options: StoreCallOptions = {}): Promise<boolean> {
    return this.calls.delete(key, options)
  }

  /** Stores `key`, then reads the keys. */
  private async attempt(key: string, at: number, options: StoreCallOptions): Promise<ClaimAttempt> {
    const written = await this.calls.set(key, true, options)
    // A late write is waited for a while longer (Claude Code gives up on its lock after about 0.7 s), not for ever.
    const late = typeof written === 'object' ? await within(this.clock, LATE_WRITE_MS, () => written.landed) : undefined
    const stored = written === 'stored' || (late !== undefined && late.done && late.value)
    return { key, at, stored, keys: stored ? await this.calls.keys(options) : undefined }
  }
}
