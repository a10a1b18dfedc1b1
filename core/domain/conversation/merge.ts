/**
 * One conversation's state, shared by every process of it through the plugin's store
 * (SPEC.md: What it stores; One conversation, several processes).
 *
 * Each process (each plugin load) owns one record, `c:<conversation key>:<load time>:<random>`,
 * and never writes another's. The conversation is the merge of all its records:
 * - work entries are numbered per record (`n`, from the record's own `seq`); a handoff stores, per
 *   record, the highest number it handed off (`cursors`), and only up to what it read and sent
 *   (`heads`), so an entry recorded while another process hands off is never lost: its number is
 *   above that cursor, and it waits for the next handoff;
 * - an entry keeps the key of the record that first recorded it (`from`) when pruning folds an idle
 *   record into another, so the copy and the original are one piece of work under one cursor:
 *   handed off once, whichever process sends it;
 * - a later entry for the same file, commit or link replaces the earlier one in its record, so a
 *   file touched again after a handoff is handed off again;
 * - everything else (Allow answers, brief and recap times, the Hark session, the status) merges by
 *   union or by the newest time.
 * This file holds the merge and what follows from it: the conversation id, the record a process saves
 * (`absorb`), marking work handed off, a process's own pending work, and folding an idle record.
 * All functions are pure; values read from the store go through `sanitizeRecord` (sanitize.ts) first.
 */
import { workOf, type Work } from '../work'
import { parseRecordKey, type ConversationId } from './keys'
import { keptAfterHandoff, MAX_ALLOWED, MAX_CURSORS, MAX_ENTRIES, MAX_SESSIONS, type ConversationRecord, type ConversationView, type Entry, type Notes } from './record'

/**
 * Merges the conversation's records. `self` is the caller's own record (its in-memory version
 * wins over what the store holds under `selfKey`).
 */
export function mergeConversation(selfKey: string, self: ConversationRecord, stored: ReadonlyMap<string, ConversationRecord>): ConversationView {
  const all = new Map(stored).set(selfKey, self)
  const records = [...all.values()]
  const cursors: Record<string, number> = {}
  for (const r of records) raised(cursors, r.cursors)
  // Each of HIGHEST as the highest any record holds.
  const top = Object.fromEntries(HIGHEST.split(' ').map((f) => [f, Math.max(0, ...records.map((r) => r[f as keyof typeof top]))])) as Record<Names<typeof HIGHEST>, number>
  let othersBriefSavedAt = 0
  let status: ConversationView['status']
  let active: ConversationView['active']
  let notes: Notes | undefined
  const pending: { record: string; entry: Entry }[] = []
  const seen = new Set<string>()
  for (const [key, r] of all) {
    if (key !== selfKey && r.briefAt > 0) othersBriefSavedAt = Math.max(othersBriefSavedAt, r.savedAt)
    status = newer(status, r.status)
    active = newer(active, r.active)
    notes = newer(notes, notesOf(key, r, cursors))
    for (const entry of unseen(key, r, cursors, seen)) pending.push({ record: key, entry })
  }
  pending.sort((a, b) => a.entry.at - b.entry.at || a.entry.n - b.entry.n)
  // The optional fields (the id, notes, status, active session) are left out when there is none.
  return defined({
    ...idOf(all),
    ...top,
    cursors,
    heads: headsOf(all),
    pending,
    work: workOf(pending.map((p) => p.entry.work)),
    notes: notes?.text,
    allowed: [...new Set(records.flatMap((r) => r.allowed))],
    othersBriefSavedAt,
    recapPending: top.recapAt > top.recapDoneAt,
    sessionOpen: top.openedAt > top.closedAt,
    status,
    sessions: [...new Set(records.flatMap((r) => r.sessions))],
    active,
  })
}

/** The conversation's times (epoch ms), and with the segment the numbers that merge by the highest (space-separated). */
const TIMES = 'briefAt recapAt recapDoneAt openedAt closedAt'
const HIGHEST = `segment ${TIMES}` as const

/** `'a' | 'b'` for `'a b'`: the names of a space-separated list. */
type Names<S extends string> = S extends `${infer A} ${infer B}` ? A | Names<B> : S

/** `o` without its fields that hold undefined: an optional field of a record or a view is left out. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter((e) => e[1] !== undefined)) as T
}

/** The fields `names` (space-separated) of `o` that do not hold undefined, in that order. */
function pick<T extends object, S extends string>(o: T, names: S): Partial<Pick<T, Names<S> & keyof T>> {
  return defined(Object.fromEntries(names.split(' ').map((f) => [f, o[f as keyof T]]))) as Partial<Pick<T, Names<S> & keyof T>>
}

/** `b` when it is newer (`at`, epoch ms) than `a` or `a` is undefined; else `a`. */
function newer<T extends { readonly at: number }>(a: T | undefined, b: T | undefined): T | undefined {
  return b && (!a || b.at > a.at) ? b : a
}

/**
 * The entries of `r`, stored under `key`, still pending under `cursors` (above the cursor of the record
 * that recorded them), each piece of work once (a folded copy and its original, when the idle record came
 * back, are one): `seen` holds `<that record>#<n>` of those already taken, and takes these.
 */
function unseen(key: string, r: ConversationRecord, cursors: Readonly<Record<string, number>>, seen: Set<string>): Entry[] {
  return r.entries.filter((e) => {
    const id = `${e.from ?? key}#${e.n}`
    if (!isPending(key, e, cursors) || seen.has(id)) return false
    seen.add(id)
    return true
  })
}

/** Whether `x`, an entry or the notes of the record stored under `key`, is above the cursor of the record that numbered it. */
function isPending(key: string, x: { readonly n: number; readonly from?: string }, cursors: Readonly<Record<string, number>>): boolean {
  return x.n > (cursors[x.from ?? key] ?? 0)
}

/** The notes of `r`, stored under `key`, with `from` (`key` for its own), while pending under `cursors`; else undefined. */
function notesOf(key: string, r: ConversationRecord, cursors: Readonly<Record<string, number>>): Notes | undefined {
  const { notes } = r
  return notes && isPending(key, notes, cursors) ? { ...notes, from: notes.from ?? key } : undefined
}

/** Per numbering record, the highest number the records hold (see ConversationView.heads). */
function headsOf(all: ReadonlyMap<string, ConversationRecord>): Record<string, number> {
  const heads: Record<string, number> = {}
  for (const [key, r] of all) {
    raise(heads, key, r.seq)
    for (const x of [...r.entries, r.notes]) if (x?.from !== undefined) raise(heads, x.from, x.n)
  }
  return heads
}

/** `into[key]` raised to `n` where `n` is higher. */
function raise(into: Record<string, number>, key: string, n: number): void {
  into[key] = Math.max(into[key] ?? 0, n)
}

/** `into` with each of `numbers` raised to, where higher: `into` itself. */
function raised(into: Record<string, number>, numbers: Readonly<Record<string, number>>): Record<string, number> {
  for (const [key, n] of Object.entries(numbers)) raise(into, key, n)
  return into
}

/**
 * SPEC.md: the conversation id is created by the first process and kept in the store: the id
 * created earliest (by the load time of the record that created it) wins, ties by the smaller id.
 */
export function conversationIdOf(all: ReadonlyMap<string, ConversationRecord>): ConversationId | undefined {
  return idOf(all).conversationId
}

/** The winning id and where it came from (ConversationView's `conversationId` and `idSince`); `{ idSince: 0 }` without records. */
function idOf(all: ReadonlyMap<string, ConversationRecord>): { conversationId?: ConversationId; idSince: number } {
  let best: { conversationId: ConversationId; idSince: number } | undefined
  for (const [key, r] of all) {
    const since = r.idSince > 0 ? r.idSince : (parseRecordKey(key)?.loadTime ?? Number.MAX_SAFE_INTEGER)
    if (!best || since < best.idSince || (since === best.idSince && r.conversationId < best.conversationId)) best = { conversationId: r.conversationId, idSince: since }
  }
  return best ?? { idSince: 0 }
}

/**
 * The caller's record as it should be saved: its own entries and notes, plus what the whole
 * conversation knows (cursors, segment, Allow answers, times, status, sessions), so that removing
 * another record loses nothing but that record's entries (which `fold` takes first).
 */
export function absorb(self: ConversationRecord, view: ConversationView, savedAt: number): ConversationRecord {
  // Past the cap, the cursors of records no longer in the store go first: dropping a live one
  // would make its handed-off work pending again.
  const gone = ([k]: [string, number]) => (view.heads[k] === undefined ? 1 : 0)
  const cursors = Object.fromEntries(Object.entries(view.cursors).sort((a, b) => gone(a) - gone(b)).slice(0, MAX_CURSORS))
  return {
    ...self,
    // What the whole conversation knows: its times, and its status and active session when it has them.
    ...pick(view, `${TIMES} status active`),
    ...(view.conversationId && { conversationId: view.conversationId, idSince: view.idSince }),
    segment: Math.max(self.segment, view.segment),
    savedAt,
    cursors,
    allowed: view.allowed.slice(-MAX_ALLOWED),
    sessions: view.sessions.slice(-MAX_SESSIONS),
  }
}

/**
 * After winning the claim for a handoff (or seeing Claude write its own): the work handed off is
 * marked so (cursors move) and leaves this record with its notes (`keptAfterHandoff`), and, for the
 * plugin's own handoff, the segment advances.
 * - `sent`: the view whose pending work the handoff carries (read before the claim). Cursors move
 *   to that view's `heads` and no further, so work any process recorded after it was read (between
 *   the read and this save, in this process or another) stays pending for the next handoff.
 *   Without `sent` (Claude's own end_session), every record's current work counts as handed off.
 * - `closeSession`: the plugin's own handoff closes the Hark session; Claude's own leaves it open,
 *   so session end still sends `close_session` (SPEC.md: session.end).
 * `view` and `records` are the merge and the other records read by the save that marks.
 */
export function markHandedOff(
  selfKey: string,
  self: ConversationRecord,
  view: ConversationView,
  records: ReadonlyMap<string, ConversationRecord>,
  at: number,
  closeSession: boolean,
  sent?: ConversationView,
): ConversationRecord {
  const cursors = raised({ ...view.cursors }, sent?.heads ?? headsOf(new Map(records).set(selfKey, self)))
  // Only what is still pending stays in this record (handed-off work or notes would never count again).
  return {
    ...keptAfterHandoff(absorb(self, { ...view, cursors }, at), selfKey, cursors),
    // The claim winner's handoff opens the next segment. Claude's own end_session took no claim, so
    // it leaves the segment alone: processes handing off at that moment still claim the same one.
    segment: sent === undefined ? view.segment : Math.max(view.segment, sent.segment) + 1,
    ...(closeSession && { closedAt: Math.max(at, view.openedAt + 1) }),
  }
}

/**
 * Only the caller's own work counts as handed off, and leaves the record (the store refused its claim: SPEC.md,
 * Limits). `sent`: the caller's record as it was when its work was taken for the handoff (by default `self`),
 * so work recorded since stays pending.
 */
export function markOwnHandedOff(self: ConversationRecord, selfKey: string, at: number, sent: ConversationRecord = self): ConversationRecord {
  const cursors = raised({ ...self.cursors }, headsOf(new Map([[selfKey, sent]])))
  return { ...keptAfterHandoff({ ...self, cursors }, selfKey), segment: self.segment + 1, closedAt: Math.max(at, self.openedAt + 1) }
}

/** The caller's own work not yet handed off (its entries, folded copies included, and notes). */
export function ownWork(self: ConversationRecord, selfKey: string): { work: Work; notes?: string } {
  const { entries, notes } = keptAfterHandoff(self, selfKey)
  return defined({ work: workOf(entries.map((e) => e.work)), notes: notes?.text })
}

/**
 * Takes over an idle record's pending work (SPEC.md: pruning folds a conversation's idle records
 * into the newest): its pending entries (and notes, when newer) are copied into the caller's record
 * under their own numbers and the key of the record that recorded them (`from`), so the idle record
 * can be removed, or come back, or hand off at this very moment, and the work still counts once.
 */
export function fold(self: ConversationRecord, otherKey: string, other: ConversationRecord, view: ConversationView): ConversationRecord {
  // The caller's own entries are held under '.', a folded copy's under the record that recorded it.
  const held = new Set(self.entries.map((e) => `${e.from ?? '.'}#${e.n}`))
  const entries = [...self.entries, ...unseen(otherKey, other, view.cursors, held).map((e) => ({ ...e, from: e.from ?? otherKey }))].slice(-MAX_ENTRIES)
  return defined({ ...self, entries, notes: newer(self.notes, notesOf(otherKey, other, view.cursors)) })
}
