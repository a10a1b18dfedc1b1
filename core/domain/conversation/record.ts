/**
 * One process's record and the view the merge makes of all of them (SPEC.md: What it stores, "A record
 * holds …"; One conversation, several processes): their shapes, a new record, the caps one record keeps
 * to, the edits a process makes to its own record (work, notes, Allow answers, sessions), and what it
 * keeps once its work is handed off. Pure.
 */
import type { HandoffState } from '../brief'
import { sameThing, type Work, type WorkEntry } from '../work'
import type { ConversationId } from './keys'

/**
 * A recorded piece of work: its number in the record that recorded it, when (epoch ms), and what.
 * `from` names that record when it is another (an idle record folded into this one); the entry is
 * pending while `n` is above the cursor of `from` (or of the record holding it).
 */
export interface Entry {
  readonly n: number
  readonly at: number
  readonly work: WorkEntry
  readonly from?: string
}

/** Claude's cleaned notes, numbered like the entries (and with `from` like them once folded). */
export interface Notes {
  readonly n: number
  readonly at: number
  readonly text: string
  readonly from?: string
}

/** One process's record (SPEC.md: What it stores: "A record holds …"). */
export interface ConversationRecord {
  /** The id sent to Hark as `params._meta.conversation`: 32 lower-case hex characters. */
  readonly conversationId: ConversationId
  /**
   * The load time of the record that created that id (0: this record's own, from its key). The
   * oldest id wins the merge, and keeps winning after the record that created it is pruned.
   */
  readonly idSince: number
  /** How many handoffs this conversation has had, as this process knows. */
  readonly segment: number
  /** When this record was last saved (epoch ms). */
  readonly savedAt: number
  /** The last number this record gave to an entry or to its notes. */
  readonly seq: number
  readonly entries: readonly Entry[]
  /** Per record key, the highest number already handed off. */
  readonly cursors: Readonly<Record<string, number>>
  /** Claude's latest notes, cleaned, numbered like the entries. */
  readonly notes?: Notes
  /** Keys of the decisions and non-goals allowed in the edit guard. */
  readonly allowed: readonly string[]
  /** When a brief was last fetched from Hark for this conversation (epoch ms; 0 = never). */
  readonly briefAt: number
  /** When a compaction asked for the recap, and when a recap was last given (epoch ms). */
  readonly recapAt: number
  readonly recapDoneAt: number
  /** When a Hark session was last opened (a request went through) and last closed (a handoff). */
  readonly openedAt: number
  readonly closedAt: number
  /** The handoff state and proposal count shown in the status line, and when they were learned. */
  readonly status?: { readonly state: HandoffState; readonly needYou: number; readonly at: number }
  /** Claude Code session ids that carried the conversation. */
  readonly sessions: readonly string[]
  /** The session that last joined, got a prompt or recorded work, and when. */
  readonly active?: { readonly session: string; readonly at: number }
}

/** The conversation as all its records say. */
export interface ConversationView {
  readonly conversationId?: ConversationId
  /** Where that id came from (see ConversationRecord.idSince). */
  readonly idSince: number
  readonly segment: number
  readonly cursors: Readonly<Record<string, number>>
  /**
   * Per record (by the key entries are numbered under), the highest number this view holds: a
   * record's `seq`, or a folded copy's `n`. What a handoff of this view's pending work covers, and
   * no more (see `markHandedOff`).
   */
  readonly heads: Readonly<Record<string, number>>
  /** Entries not yet handed off, oldest first, with the record each came from. */
  readonly pending: readonly { readonly record: string; readonly entry: Entry }[]
  /** The pending entries as Work. */
  readonly work: Work
  /** The newest notes not yet handed off. */
  readonly notes?: string
  readonly allowed: readonly string[]
  readonly briefAt: number
  /** The newest `savedAt` among the records that fetched a brief, other than the caller's. */
  readonly othersBriefSavedAt: number
  readonly recapPending: boolean
  readonly recapAt: number
  readonly recapDoneAt: number
  readonly sessionOpen: boolean
  readonly openedAt: number
  readonly closedAt: number
  readonly status?: { readonly state: HandoffState; readonly needYou: number; readonly at: number }
  readonly sessions: readonly string[]
  readonly active?: { readonly session: string; readonly at: number }
}

/** A new record under `conversationId`: every time and number 0, every list empty, no notes, status or `active`. */
export function newRecord(conversationId: ConversationId): ConversationRecord {
  return {
    conversationId,
    ...JSON.parse('{"idSince":0,"segment":0,"savedAt":0,"seq":0,"entries":[],"cursors":{},"allowed":[],"briefAt":0,"recapAt":0,"recapDoneAt":0,"openedAt":0,"closedAt":0,"sessions":[]}'),
  }
}

/** Most entries one record keeps; the oldest are dropped past it (one line says so where it matters). */
export const MAX_ENTRIES = 1_000
/** The other caps of one record: Allow answers, sessions, cursors, and the characters of its notes. */
export const MAX_ALLOWED = 500
export const MAX_SESSIONS = 50
export const MAX_CURSORS = 200
export const MAX_NOTES = 1_500

/** Adds a piece of work; an earlier entry of this record for the same file, commit or link goes. */
export function addEntry(record: ConversationRecord, work: WorkEntry, at: number): ConversationRecord {
  const n = record.seq + 1
  const kept = record.entries.filter((e) => !sameThing(e.work, work))
  const entries = [...kept, { n, at, work }].slice(-MAX_ENTRIES)
  return { ...record, seq: n, entries }
}

/** Replaces the notes (already cleaned). */
export function setNotes(record: ConversationRecord, text: string, at: number): ConversationRecord {
  const n = record.seq + 1
  return { ...record, seq: n, notes: { n, at, text: text.slice(0, MAX_NOTES) } }
}

export function allow(record: ConversationRecord, keys: readonly string[]): ConversationRecord {
  const allowed = [...record.allowed]
  for (const k of keys) if (!allowed.includes(k)) allowed.push(k)
  return { ...record, allowed: allowed.slice(-MAX_ALLOWED) }
}

export function noteSession(record: ConversationRecord, session: string, at: number): ConversationRecord {
  const sessions = record.sessions.includes(session) ? record.sessions : [...record.sessions, session].slice(-MAX_SESSIONS)
  return { ...record, sessions, active: { session, at } }
}

/**
 * What a record keeps once its segment's handoff is stored as done (the plugin's mark, or Claude's own
 * end_session): none of the work or notes handed off. Everything else stays, because the next segment
 * and the other processes read it: the conversation id and `idSince` (which id wins), the segment,
 * `seq` (this record's numbering goes on above its cursor), the cursors (another record still holding
 * an entry handed off would make it pending again without them), Allow answers, the brief, recap and
 * Hark session times, the status, the session ids and `active` (who carries the conversation after a
 * move), and whatever is still pending (an entry or notes numbered above their cursor).
 * Why: SPEC.md, What it stores, Who reads it: the store is a file other accounts on the machine may
 * read, kept 14 days, so what has reached Hark is not kept beside it. `cursors`: the handed-off
 * numbers, by default the record's own.
 */
export function keptAfterHandoff(record: ConversationRecord, selfKey: string, cursors: Readonly<Record<string, number>> = record.cursors): ConversationRecord {
  const pending = (e: Entry | Notes) => e.n > (cursors[e.from ?? selfKey] ?? 0)
  const { notes, ...kept } = record
  return { ...kept, entries: record.entries.filter(pending), ...(notes !== undefined && pending(notes) ? { notes } : {}) }
}
