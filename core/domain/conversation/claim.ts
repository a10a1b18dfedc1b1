/**
 * Claims (SPEC.md: One conversation, several processes): before work that must happen once (a segment's
 * handoff, folding idle records, sending a handoff kept for later), a process stores a claim, then reads the
 * store's keys. "The first claim the store holds wins: Claude Code writes the store under its own lock and
 * keeps keys in the order they were first set." "A claim older than 30 seconds was left by a process that
 * died mid-handoff, and is ignored." This file is the one place both rules are written. Pure.
 */
import { CLAIM_TAIL, claimPrefix, type ConversationKey } from './keys'

/** A claim older than this was left by a process that died mid-handoff (SPEC.md: 30 seconds). */
export const CLAIM_TTL_MS = 30_000

/**
 * A claim as the store showed it: `won` when it came first (or the first is one this process holds and passes
 * on to itself); `lost` to `winner` (undefined: the store shows no fresh claim, not even this one);
 * `refused` when the store did not take it in its wait, or the keys could
 * not be read after it (SPEC.md, Limits: "At exit, a claim still waiting on the store's lock after 150 ms
 * counts as refused").
 */
export type Claim =
  | { readonly outcome: 'won'; readonly key: string }
  | { readonly outcome: 'lost'; readonly key: string; readonly winner: string | undefined }
  | { readonly outcome: 'refused'; readonly key: string }

/** What storing a claim found: its key, whether the store took it in its wait, and the keys read after it. */
export interface ClaimAttempt {
  readonly key: string
  /** When it was made (epoch ms, the time in its key): other claims' 30 s are counted from it. */
  readonly at: number
  readonly stored: boolean
  /** Every key of the store, read once the claim was stored; undefined when the read failed. */
  readonly keys: readonly string[] | undefined
}

/**
 * The first fresh claim among the keys `<prefix><time>:<random>`, if any. Older than 30 s: left by a process
 * that died. Dated more than 30 s ahead of now: a clock or a writer gone wrong; neither may hold the work.
 */
export function firstClaim(keys: readonly string[], prefix: string, now: number): string | undefined {
  return keys.find((key) => {
    const at = key.startsWith(prefix) ? Number(CLAIM_TAIL.exec(key.slice(prefix.length))?.[1]) : Number.NaN
    return Number.isSafeInteger(at) && !(Math.abs(now - at) > CLAIM_TTL_MS)
  })
}

/** The winning claim's key for `segment` of the conversation, if any (`firstClaim`). */
export function claimWinner(keys: readonly string[], conversation: ConversationKey, segment: number, now: number): string | undefined {
  return firstClaim(keys, claimPrefix(conversation, segment), now)
}

/**
 * Judges a claim under `prefix`: won when the first fresh claim is this one, or one this process holds to pass
 * on to itself (`held`: the prune's, the one made ahead at classic.SessionEnd); refused when the store did
 * not take it or the keys were not read.
 */
export function judgeClaim(attempt: ClaimAttempt, prefix: string, held: ReadonlySet<string> = new Set()): Claim {
  const { key, stored, keys } = attempt
  if (!stored || keys === undefined) return { outcome: 'refused', key }
  const winner = firstClaim(keys, prefix, attempt.at)
  return winner === key || (winner !== undefined && held.has(winner)) ? { outcome: 'won', key } : { outcome: 'lost', key, winner }
}
