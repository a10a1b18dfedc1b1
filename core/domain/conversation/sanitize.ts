/**
 * Reading the plugin's store values, which anything on the machine may have written (SPEC.md: What it
 * stores): a conversation record and a cached brief, keeping only fields of the expected type and
 * within the record's caps. Pure and total: a damaged value gives undefined, never an exception.
 */
import { pullRequestUrl } from '../bash-report'
import type { HandoffState } from '../brief'
import { isProjectRelative } from '../project'
import type { TestResult, WorkEntry } from '../work'
import { conversationIdOfText, parseRecordKey } from './keys'
import { MAX_ALLOWED, MAX_CURSORS, MAX_ENTRIES, MAX_NOTES, MAX_SESSIONS, type ConversationRecord, type Entry, type Notes } from './record'

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0
}

/** A plain object's fields, or undefined for anything else (an array, null, a scalar). */
function object(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
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
  const o = object(v) ?? {}
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
  const o = object(value)
  const conversationId = typeof o?.['conversationId'] === 'string' ? conversationIdOfText(o['conversationId']) : undefined
  if (o === undefined || conversationId === undefined) return undefined
  const entries: Entry[] = []
  let seq = num(o['seq'])
  if (Array.isArray(o['entries'])) {
    for (const raw of o['entries'].slice(-MAX_ENTRIES)) {
      const e = object(raw) ?? {}
      const work = workEntry(e['work'])
      const n = num(e['n'])
      const from = origin(e['from'])
      if (work === undefined || n === 0 || from === null) continue
      entries.push({ n, at: num(e['at']), work, ...(from === undefined ? {} : { from }) })
      if (from === undefined) seq = Math.max(seq, n)
    }
  }
  const cursors: Record<string, number> = {}
  for (const [k, v] of Object.entries(object(o['cursors']) ?? {}).slice(0, MAX_CURSORS)) if (parseRecordKey(k) !== undefined && num(v) > 0) cursors[k] = num(v)
  const rawNotes = object(o['notes'])
  const notesText = str(rawNotes?.['text'], MAX_NOTES)
  const notesFrom = origin(rawNotes?.['from'])
  const notes: Notes | undefined =
    notesText !== undefined && num(rawNotes?.['n']) > 0 && notesFrom !== null
      ? { n: num(rawNotes?.['n']), at: num(rawNotes?.['at']), text: notesText, ...(notesFrom === undefined ? {} : { from: notesFrom }) }
      : undefined
  if (notes !== undefined && notes.from === undefined) seq = Math.max(seq, notes.n)
  const rawStatus = object(o['status'])
  const state = STATES.find((s) => s === rawStatus?.['state'])
  const status = state === undefined ? undefined : { state, needYou: Math.min(num(rawStatus?.['needYou']), 9_999), at: num(rawStatus?.['at']) }
  const rawActive = object(o['active'])
  const activeSession = str(rawActive?.['session'], 200)
  const active = activeSession === undefined ? undefined : { session: activeSession, at: num(rawActive?.['at']) }
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
  const o = object(value) ?? {}
  const text = str(o['text'], 200_000)
  const fetchedAt = num(o['fetchedAt'])
  return text === undefined || fetchedAt === 0 ? undefined : { text, fetchedAt }
}
