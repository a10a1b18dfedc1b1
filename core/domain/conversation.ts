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
 * All functions are pure; values read from the store go through `sanitizeRecord` first.
 */
import { pullRequestUrl } from './bash-report'
import { isProjectRelative } from './project'
import type { HandoffState } from './brief'
import { sameThing, workOf, type TestResult, type Work, type WorkEntry } from './work'

const HEX64 = /^[0-9a-f]{64}$/
const HEX32 = /^[0-9a-f]{32}$/

declare const brand: unique symbol

/**
 * The conversation key: 64 lower-case hex characters, the SHA-256 of the project root and the
 * conversation's first launch time. It names the conversation's keys in the store and never leaves
 * the machine (SPEC.md: What it stores). A type of its own, so it cannot be sent where the id goes.
 */
export type ConversationKey = string & { readonly [brand]: 'ConversationKey' }

/**
 * The conversation id: 32 lower-case hex characters, created by the conversation's first process
 * and sent to Hark as `params._meta.conversation` (SPEC.md: Every outbound request).
 */
export type ConversationId = string & { readonly [brand]: 'ConversationId' }

/** A conversation key from a SHA-256 digest (64 lower-case hex characters); undefined otherwise. */
export function conversationKeyOf(digest: string): ConversationKey | undefined {
  return HEX64.test(digest) ? (digest as ConversationKey) : undefined
}

/** A conversation id from 32 lower-case hex characters; undefined otherwise. */
export function conversationIdOfText(text: string): ConversationId | undefined {
  return HEX32.test(text) ? (text as ConversationId) : undefined
}

export const RECORD_PREFIX = 'c:'
export const BRIEF_PREFIX = 'brief:'
export const CLAIM_PREFIX = 'handoff:'

/** How long another process's state counts as fresh for brief reuse (SPEC.md: 30 minutes). */
export const REUSE_WINDOW_MS = 30 * 60_000
/** A claim older than this was left by a process that died mid-handoff (SPEC.md: 30 seconds). */
export const CLAIM_TTL_MS = 30_000

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

// ---------------------------------------------------------------------------------------------
// Keys

const TOKEN = /^[0-9a-z]{1,32}$/
/** A whole number written in digits only (no sign, exponent, spaces or empty string). */
const DIGITS = /^(0|[1-9][0-9]{0,15})$/

function whole(text: string | undefined): number | undefined {
  if (text === undefined || !DIGITS.test(text)) return undefined
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : undefined
}

export function recordKey(conversation: ConversationKey, loadTime: number, random: string): string {
  return `${RECORD_PREFIX}${conversation}:${loadTime}:${random}`
}

export function parseRecordKey(key: string): { conversation: ConversationKey; loadTime: number; random: string } | undefined {
  if (!key.startsWith(RECORD_PREFIX)) return undefined
  const [conversation, loadTime, random, ...rest] = key.slice(RECORD_PREFIX.length).split(':')
  const time = whole(loadTime)
  if (rest.length > 0 || conversation === undefined || !HEX64.test(conversation) || time === undefined) return undefined
  if (random === undefined || !TOKEN.test(random)) return undefined
  return { conversation: conversation as ConversationKey, loadTime: time, random }
}

export function claimKey(conversation: ConversationKey, segment: number, time: number, random: string): string {
  return `${CLAIM_PREFIX}${conversation}:${segment}:${time}:${random}`
}

export function parseClaimKey(key: string): { conversation: ConversationKey; segment: number; time: number; random: string } | undefined {
  if (!key.startsWith(CLAIM_PREFIX)) return undefined
  const [conversation, segment, time, random, ...rest] = key.slice(CLAIM_PREFIX.length).split(':')
  const seg = whole(segment)
  const t = whole(time)
  if (rest.length > 0 || conversation === undefined || !HEX64.test(conversation)) return undefined
  if (seg === undefined || t === undefined || random === undefined || !TOKEN.test(random)) return undefined
  return { conversation: conversation as ConversationKey, segment: seg, time: t, random }
}

export function briefKey(venture: string): string {
  return `${BRIEF_PREFIX}${venture}`
}

/** The text hashed (SHA-256) into the conversation key: the project root and the first launch time. */
export function conversationKeyInput(projectRoot: string, startedAt: number): string {
  return `hark-memory conversation\n${projectRoot}\n${startedAt}`
}

/**
 * SPEC.md: the first claim the store holds wins (keys keep the order they were first set); a claim
 * older than 30 seconds is ignored. Returns the winning claim's key for `segment`, if any.
 */
export function claimWinner(keys: readonly string[], conversation: ConversationKey, segment: number, now: number): string | undefined {
  for (const key of keys) {
    const claim = parseClaimKey(key)
    if (claim === undefined || claim.conversation !== conversation || claim.segment !== segment) continue
    // Older than 30 s: left by a process that died mid-handoff. Dated well ahead of now: a clock or a
    // writer gone wrong; neither may hold the conversation's handoff.
    if (now - claim.time > CLAIM_TTL_MS || claim.time - now > CLAIM_TTL_MS) continue
    return key
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Records

export function newRecord(conversationId: ConversationId): ConversationRecord {
  return {
    conversationId,
    idSince: 0,
    segment: 0,
    savedAt: 0,
    seq: 0,
    entries: [],
    cursors: {},
    allowed: [],
    briefAt: 0,
    recapAt: 0,
    recapDoneAt: 0,
    openedAt: 0,
    closedAt: 0,
    sessions: [],
  }
}

/** Most entries one record keeps; the oldest are dropped past it (one line says so where it matters). */
export const MAX_ENTRIES = 1_000
const MAX_ALLOWED = 500
const MAX_SESSIONS = 50
const MAX_CURSORS = 200
const MAX_NOTES = 1_500

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
 * Merges the conversation's records. `self` is the caller's own record (its in-memory version
 * wins over what the store holds under `selfKey`).
 */
export function mergeConversation(selfKey: string, self: ConversationRecord, stored: ReadonlyMap<string, ConversationRecord>): ConversationView {
  const all = new Map(stored)
  all.set(selfKey, self)
  const cursors: Record<string, number> = {}
  let segment = 0
  let briefAt = 0
  let othersBriefSavedAt = 0
  let recapAt = 0
  let recapDoneAt = 0
  let openedAt = 0
  let closedAt = 0
  let status: ConversationView['status']
  let active: ConversationView['active']
  const allowed = new Set<string>()
  const sessions = new Set<string>()
  const heads = headsOf(all)
  for (const [key, r] of all) {
    for (const [k, v] of Object.entries(r.cursors)) cursors[k] = Math.max(cursors[k] ?? 0, v)
    segment = Math.max(segment, r.segment)
    briefAt = Math.max(briefAt, r.briefAt)
    if (key !== selfKey && r.briefAt > 0) othersBriefSavedAt = Math.max(othersBriefSavedAt, r.savedAt)
    recapAt = Math.max(recapAt, r.recapAt)
    recapDoneAt = Math.max(recapDoneAt, r.recapDoneAt)
    openedAt = Math.max(openedAt, r.openedAt)
    closedAt = Math.max(closedAt, r.closedAt)
    if (r.status !== undefined && (status === undefined || r.status.at > status.at)) status = r.status
    if (r.active !== undefined && (active === undefined || r.active.at > active.at)) active = r.active
    for (const a of r.allowed) allowed.add(a)
    for (const s of r.sessions) sessions.add(s)
  }
  const pending: { record: string; entry: Entry }[] = []
  const seen = new Set<string>()
  let notes: { at: number; text: string } | undefined
  for (const [key, r] of all) {
    for (const entry of r.entries) {
      const origin = entry.from ?? key
      const id = `${origin}#${entry.n}`
      // A folded copy and its original (the idle record came back) are one piece of work.
      if (entry.n <= (cursors[origin] ?? 0) || seen.has(id)) continue
      seen.add(id)
      pending.push({ record: key, entry })
    }
    if (r.notes !== undefined && r.notes.n > (cursors[r.notes.from ?? key] ?? 0) && (notes === undefined || r.notes.at > notes.at)) notes = r.notes
  }
  pending.sort((a, b) => a.entry.at - b.entry.at || a.entry.n - b.entry.n)
  const id = idOf(all)
  return {
    ...(id === undefined ? {} : { conversationId: id.id }),
    idSince: id?.since ?? 0,
    segment,
    cursors,
    heads,
    pending,
    work: workOf(pending.map((p) => p.entry.work)),
    ...(notes === undefined ? {} : { notes: notes.text }),
    allowed: [...allowed],
    briefAt,
    othersBriefSavedAt,
    recapPending: recapAt > recapDoneAt,
    recapAt,
    recapDoneAt,
    sessionOpen: openedAt > closedAt,
    openedAt,
    closedAt,
    ...(status === undefined ? {} : { status }),
    sessions: [...sessions],
    ...(active === undefined ? {} : { active }),
  }
}

/** Per numbering record, the highest number the records hold (see ConversationView.heads). */
function headsOf(all: ReadonlyMap<string, ConversationRecord>): Record<string, number> {
  const heads: Record<string, number> = {}
  const raise = (key: string, n: number) => {
    heads[key] = Math.max(heads[key] ?? 0, n)
  }
  for (const [key, r] of all) {
    raise(key, r.seq)
    for (const e of r.entries) if (e.from !== undefined) raise(e.from, e.n)
    if (r.notes?.from !== undefined) raise(r.notes.from, r.notes.n)
  }
  return heads
}

/**
 * SPEC.md: the conversation id is created by the first process and kept in the store: the id
 * created earliest (by the load time of the record that created it) wins, ties by the smaller id.
 */
export function conversationIdOf(all: ReadonlyMap<string, ConversationRecord>): ConversationId | undefined {
  return idOf(all)?.id
}

function idOf(all: ReadonlyMap<string, ConversationRecord>): { id: ConversationId; since: number } | undefined {
  let best: { since: number; id: ConversationId } | undefined
  for (const [key, r] of all) {
    const since = r.idSince > 0 ? r.idSince : (parseRecordKey(key)?.loadTime ?? Number.MAX_SAFE_INTEGER)
    if (best === undefined || since < best.since || (since === best.since && r.conversationId < best.id)) best = { since, id: r.conversationId }
  }
  return best
}

/**
 * The caller's record as it should be saved: its own entries and notes, plus what the whole
 * conversation knows (cursors, segment, Allow answers, times, status, sessions), so that removing
 * another record loses nothing but that record's entries (which `fold` takes first).
 */
export function absorb(self: ConversationRecord, view: ConversationView, savedAt: number): ConversationRecord {
  // Past the cap, the cursors of records no longer in the store go first: dropping a live one
  // would make its handed-off work pending again.
  const live = (k: string) => (view.heads[k] !== undefined ? 0 : 1)
  const cursors = Object.fromEntries(Object.entries(view.cursors).sort((a, b) => live(a[0]) - live(b[0])).slice(0, MAX_CURSORS))
  return {
    ...self,
    conversationId: view.conversationId ?? self.conversationId,
    idSince: view.conversationId === undefined ? self.idSince : view.idSince,
    segment: Math.max(self.segment, view.segment),
    savedAt,
    cursors,
    allowed: view.allowed.slice(-MAX_ALLOWED),
    briefAt: view.briefAt,
    recapAt: view.recapAt,
    recapDoneAt: view.recapDoneAt,
    openedAt: view.openedAt,
    closedAt: view.closedAt,
    ...(view.status === undefined ? {} : { status: view.status }),
    sessions: view.sessions.slice(-MAX_SESSIONS),
    ...(view.active === undefined ? {} : { active: view.active }),
  }
}

/**
 * After winning the claim for a handoff (or seeing Claude write its own): the work handed off is
 * marked so (cursors move), and, for the plugin's own handoff, the segment advances.
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
  const cursors: Record<string, number> = { ...view.cursors }
  let heads = sent?.heads
  if (heads === undefined) {
    const all = new Map(records)
    all.set(selfKey, self)
    heads = headsOf(all)
  }
  for (const [key, head] of Object.entries(heads)) cursors[key] = Math.max(cursors[key] ?? 0, head)
  const merged = absorb(self, { ...view, cursors }, at)
  return {
    ...merged,
    // The claim winner's handoff opens the next segment. Claude's own end_session took no claim, so
    // it leaves the segment alone: processes handing off at that moment still claim the same one.
    segment: sent === undefined ? view.segment : Math.max(view.segment, sent.segment) + 1,
    // Only what is still pending stays in this record (a handed-off entry would never count again).
    entries: self.entries.filter((e) => e.n > (cursors[e.from ?? selfKey] ?? 0)),
    ...(closeSession ? { closedAt: Math.max(at, view.openedAt + 1) } : {}),
  }
}

/** Only the caller's own work counts as handed off (the store refused its claim: SPEC.md, Limits). */
export function markOwnHandedOff(self: ConversationRecord, selfKey: string, at: number): ConversationRecord {
  const cursors: Record<string, number> = { ...self.cursors }
  for (const [key, head] of Object.entries(headsOf(new Map([[selfKey, self]])))) cursors[key] = Math.max(cursors[key] ?? 0, head)
  return { ...self, cursors, segment: self.segment + 1, entries: [], closedAt: Math.max(at, self.openedAt + 1) }
}

/** The caller's own work not yet handed off (its entries, folded copies included, and notes). */
export function ownWork(self: ConversationRecord, selfKey: string): { work: Work; notes?: string } {
  const pending = (n: number, from: string | undefined) => n > (self.cursors[from ?? selfKey] ?? 0)
  const work = workOf(self.entries.filter((e) => pending(e.n, e.from)).map((e) => e.work))
  return self.notes !== undefined && pending(self.notes.n, self.notes.from) ? { work, notes: self.notes.text } : { work }
}

/**
 * Takes over an idle record's pending work (SPEC.md: pruning folds a conversation's idle records
 * into the newest): its pending entries (and notes, when newer) are copied into the caller's record
 * under their own numbers and the key of the record that recorded them (`from`), so the idle record
 * can be removed, or come back, or hand off at this very moment, and the work still counts once.
 */
export function fold(self: ConversationRecord, otherKey: string, other: ConversationRecord, view: ConversationView): ConversationRecord {
  const held = new Set(self.entries.map((e) => `${e.from ?? '.'}#${e.n}`))
  const entries = [...self.entries]
  for (const entry of other.entries) {
    const from = entry.from ?? otherKey
    if (entry.n <= (view.cursors[from] ?? 0) || held.has(`${from}#${entry.n}`)) continue
    held.add(`${from}#${entry.n}`)
    entries.push({ n: entry.n, at: entry.at, work: entry.work, from })
  }
  let notes = self.notes
  const theirs = other.notes
  if (theirs !== undefined) {
    const from = theirs.from ?? otherKey
    if (theirs.n > (view.cursors[from] ?? 0) && (notes === undefined || theirs.at > notes.at)) notes = { n: theirs.n, at: theirs.at, text: theirs.text, from }
  }
  return { ...self, entries: entries.slice(-MAX_ENTRIES), ...(notes === undefined ? {} : { notes }) }
}

// ---------------------------------------------------------------------------------------------
// Reading untrusted store values


function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0
}

function str(v: unknown, max: number): string | undefined {
  return typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined
}

/**
 * The last `max` distinct strings of a list, in order; other values are skipped. Looks at no more
 * than the last 10 × `max` items, so a hostile list costs linear time at most.
 */
function strings(v: unknown, max: number, each: number): string[] {
  if (!Array.isArray(v)) return []
  const seen = new Set<string>()
  const out: string[] = []
  const stop = Math.max(0, v.length - max * 10)
  for (let i = v.length - 1; i >= stop && out.length < max; i--) {
    const t = str(v[i], each)
    if (t !== undefined && !seen.has(t)) {
      seen.add(t)
      out.push(t)
    }
  }
  return out.reverse()
}

/** An entry's `from`: absent (undefined), a record key, or damaged (null: the entry is dropped). */
function origin(v: unknown): string | undefined | null {
  if (v === undefined) return undefined
  return typeof v === 'string' && parseRecordKey(v) !== undefined ? v : null
}

const RESULTS: readonly TestResult[] = ['passed', 'failed', 'unknown']

function workEntry(v: unknown): WorkEntry | undefined {
  if (typeof v !== 'object' || v === null) return undefined
  const o = v as Record<string, unknown>
  switch (o['kind']) {
    case 'file': {
      const path = str(o['path'], 1_000)
      return path === undefined || !isProjectRelative(path) ? undefined : { kind: 'file', path }
    }
    case 'commit': {
      const sha = str(o['sha'], 64)
      const subject = typeof o['subject'] === 'string' ? o['subject'].slice(0, 300) : ''
      return sha === undefined || !/^[0-9a-f]{4,64}$/.test(sha) ? undefined : { kind: 'commit', sha, subject }
    }
    case 'test': {
      const runner = str(o['runner'], 100)
      const result = RESULTS.find((r) => r === o['result'])
      return runner === undefined || result === undefined ? undefined : { kind: 'test', runner, result }
    }
    case 'link': {
      const url = pullRequestUrl(o['url'])
      return url === undefined ? undefined : { kind: 'link', url }
    }
    default:
      return undefined
  }
}

const STATES: readonly HandoffState[] = ['Clean', 'Draft', 'Open']

/**
 * A ConversationRecord from a stored value, keeping only fields of the expected type; `undefined`
 * when the value is not a record at all (no valid conversation id).
 */
export function sanitizeRecord(value: unknown): ConversationRecord | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const o = value as Record<string, unknown>
  const conversationId = typeof o['conversationId'] === 'string' ? conversationIdOfText(o['conversationId']) : undefined
  if (conversationId === undefined) return undefined
  const entries: Entry[] = []
  let seq = num(o['seq'])
  if (Array.isArray(o['entries'])) {
    for (const raw of o['entries'].slice(-MAX_ENTRIES)) {
      if (typeof raw !== 'object' || raw === null) continue
      const e = raw as Record<string, unknown>
      const work = workEntry(e['work'])
      const n = num(e['n'])
      const from = origin(e['from'])
      if (work === undefined || n === 0 || from === null) continue
      entries.push({ n, at: num(e['at']), work, ...(from === undefined ? {} : { from }) })
      if (from === undefined) seq = Math.max(seq, n)
    }
  }
  const cursors: Record<string, number> = {}
  const rawCursors = o['cursors']
  if (typeof rawCursors === 'object' && rawCursors !== null && !Array.isArray(rawCursors)) {
    for (const [k, v] of Object.entries(rawCursors).slice(0, MAX_CURSORS)) if (parseRecordKey(k) !== undefined && num(v) > 0) cursors[k] = num(v)
  }
  const rawNotes = o['notes'] as Record<string, unknown> | undefined
  const notesText = typeof rawNotes === 'object' && rawNotes !== null ? str(rawNotes['text'], MAX_NOTES) : undefined
  const notesFrom = rawNotes !== undefined && rawNotes !== null && typeof rawNotes === 'object' ? origin(rawNotes['from']) : null
  const notes: Notes | undefined =
    notesText !== undefined && rawNotes !== undefined && num(rawNotes['n']) > 0 && notesFrom !== null
      ? { n: num(rawNotes['n']), at: num(rawNotes['at']), text: notesText, ...(notesFrom === undefined ? {} : { from: notesFrom }) }
      : undefined
  if (notes !== undefined && notes.from === undefined) seq = Math.max(seq, notes.n)
  const rawStatus = o['status'] as Record<string, unknown> | undefined
  const state = typeof rawStatus === 'object' && rawStatus !== null ? STATES.find((s) => s === rawStatus['state']) : undefined
  const status = state !== undefined && rawStatus !== undefined ? { state, needYou: Math.min(num(rawStatus['needYou']), 9_999), at: num(rawStatus['at']) } : undefined
  const rawActive = o['active'] as Record<string, unknown> | undefined
  const activeSession = typeof rawActive === 'object' && rawActive !== null ? str(rawActive['session'], 200) : undefined
  const active = activeSession !== undefined && rawActive !== undefined ? { session: activeSession, at: num(rawActive['at']) } : undefined
  return {
    conversationId,
    idSince: num(o['idSince']),
    segment: num(o['segment']),
    savedAt: num(o['savedAt']),
    seq,
    entries,
    cursors,
    ...(notes === undefined ? {} : { notes }),
    allowed: strings(o['allowed'], MAX_ALLOWED, 300),
    briefAt: num(o['briefAt']),
    recapAt: num(o['recapAt']),
    recapDoneAt: num(o['recapDoneAt']),
    openedAt: num(o['openedAt']),
    closedAt: num(o['closedAt']),
    ...(status === undefined ? {} : { status }),
    sessions: strings(o['sessions'], MAX_SESSIONS, 200),
    ...(active === undefined ? {} : { active }),
  }
}

/** A cached brief (`brief:<project code>`): its text and when it was fetched. */
export interface CachedBrief {
  readonly text: string
  readonly fetchedAt: number
}

export function sanitizeCachedBrief(value: unknown): CachedBrief | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const o = value as Record<string, unknown>
  const text = str(o['text'], 200_000)
  const fetchedAt = num(o['fetchedAt'])
  return text === undefined || fetchedAt === 0 ? undefined : { text, fetchedAt }
}

/**
 * SPEC.md: reuse the cached brief, without calling Hark, when another process of the conversation
 * fetched one and saved its state less than 30 minutes ago, and the project's cached brief is at
 * least as new as the conversation's own last fetch.
 */
export function canReuseBrief(view: ConversationView, cached: CachedBrief | undefined, now: number): boolean {
  if (cached === undefined || view.briefAt === 0 || view.othersBriefSavedAt === 0) return false
  return now - view.othersBriefSavedAt < REUSE_WINDOW_MS && cached.fetchedAt >= view.briefAt
}

// ---------------------------------------------------------------------------------------------
// Pruning

const DAY = 24 * 60 * 60_000
export const PRUNE_LIMIT = 20
export const IDLE_RECORD_MS = 30 * 60_000
export const OLD_MS = 14 * DAY
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
      if (parsed === undefined || record === undefined) remove.push(key)
      else if (parsed.conversation === conversation && isIdleRecord(record, now)) {
        // This conversation's: its pending work is folded first, however old.
        fold.push(key)
        remove.push(key)
      } else if (now - record.savedAt > OLD_MS) remove.push(key)
    } else if (key.startsWith(BRIEF_PREFIX)) {
      const brief = sanitizeCachedBrief(value)
      if (brief === undefined || now - brief.fetchedAt > OLD_MS) remove.push(key)
    } else if (key.startsWith(CLAIM_PREFIX)) {
      const claim = parseClaimKey(key)
      if (claim === undefined || Math.abs(now - claim.time) > OLD_CLAIM_MS) remove.push(key)
    }
  }
  return { fold, remove }
}
