/**
 * The conversation's time windows (SPEC.md: session.start, the brief reuse rule; What it stores, the
 * pruning at session start): when a process may reuse the project's cached brief instead of calling
 * Hark, when another record counts as idle, and which store keys a session start folds and removes.
 * Pure.
 */
import { BRIEF_PREFIX, CLAIM_PREFIX, parseClaimKey, parseRecordKey, RECORD_PREFIX, type ConversationKey } from './keys'
import { fold } from './merge'
import type { ConversationRecord, ConversationView } from './record'
import { sanitizeCachedBrief, sanitizeRecord, type CachedBrief } from './sanitize'

/** How long another process's state counts as fresh for brief reuse (SPEC.md: 30 minutes). */
export const REUSE_WINDOW_MS = 30 * 60_000

/**
 * SPEC.md: reuse the cached brief, without calling Hark, when another process of the conversation
 * fetched one and saved its state less than 30 minutes ago, and the project's cached brief is at
 * least as new as the conversation's own last fetch.
 */
export function canReuseBrief(view: ConversationView, cached: CachedBrief | undefined, now: number): boolean {
  return cached !== undefined && view.briefAt !== 0 && view.othersBriefSavedAt !== 0 && now - view.othersBriefSavedAt < REUSE_WINDOW_MS && cached.fetchedAt >= view.briefAt
}

export const PRUNE_LIMIT = 20
export const IDLE_RECORD_MS = 30 * 60_000
/** 14 days. */
export const OLD_MS = 14 * 86_400_000
export const OLD_CLAIM_MS = 60 * 60_000

/** SPEC.md: another record of this conversation not saved for 30 minutes may be folded. */
export function isIdleRecord(record: ConversationRecord, now: number): boolean {
  return now - record.savedAt > IDLE_RECORD_MS
}

export interface PrunePlan {
  /** This conversation's idle records to fold into the caller's before removal. */
  readonly fold: readonly string[]
  /** Keys to remove, at most PRUNE_LIMIT, folded ones included. */
  readonly remove: readonly string[]
}

/**
 * SPEC.md, What it stores: at session start, after storing its own merged record, remove records not
 * saved for 14 days; this conversation's other records idle for 30 minutes (folded first); briefs
 * fetched more than 14 days ago; claims older than an hour; at most 20 entries per start. A value
 * under one of our prefixes that is not ours to read (damaged) is removed too; other keys are left.
 */
export function planPrune(now: number, values: ReadonlyMap<string, unknown>, selfKey: string, conversation: ConversationKey): PrunePlan {
  const fold: string[] = []
  const remove: string[] = []
  for (const [key, value] of values) {
    if (remove.length >= PRUNE_LIMIT) break
    if (key === selfKey) continue
    if (key.startsWith(RECORD_PREFIX)) {
      const parsed = parseRecordKey(key)
      const record = sanitizeRecord(value)
      if (!parsed || !record) remove.push(key)
      else if (parsed.conversation === conversation && isIdleRecord(record, now)) {
        // This conversation's: its pending work is folded first, however old.
        fold.push(key)
        remove.push(key)
      } else if (now - record.savedAt > OLD_MS) remove.push(key)
    } else if (key.startsWith(BRIEF_PREFIX)) {
      const brief = sanitizeCachedBrief(value)
      if (!brief || now - brief.fetchedAt > OLD_MS) remove.push(key)
    } else if (key.startsWith(CLAIM_PREFIX)) {
      const claim = parseClaimKey(key)
      if (!claim || Math.abs(now - claim.time) > OLD_CLAIM_MS) remove.push(key)
    }
  }
  return { fold, remove }
}

/**
 * The pruning's fold (SPEC.md: pruning folds a conversation's idle records into the newest): `self` with
 * the pending work of each of `keys` whose record in `others` is idle at `now` taken over (`fold`); the
 * keys folded are added to `folded`, so they are the ones removed once `self` is stored.
 */
export function foldIdle(self: ConversationRecord, keys: readonly string[], others: ReadonlyMap<string, ConversationRecord>, view: ConversationView, now: number, folded: Set<string>): ConversationRecord {
  let out = self
  for (const key of keys) {
    const other = others.get(key)
    if (other && isIdleRecord(other, now)) {
      out = fold(out, key, other, view)
      folded.add(key)
    }
  }
  return out
}
