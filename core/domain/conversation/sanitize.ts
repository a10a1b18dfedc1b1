/**
 * Reading the plugin's store values, which anything on the machine may have written (SPEC.md: What it
 * stores): a conversation record and a cached brief, keeping only fields of the expected type and
 * within the record's caps. Pure and total: a damaged value gives undefined, never an exception.
 */
import { pullRequestUrl } from '../bash-report'
import { object } from '../item'
import { isProjectRelative } from '../project'
import type { TestResult, WorkEntry } from '../work'
import { conversationIdOfText, parseRecordKey } from './keys'
import { MAX_ALLOWED, MAX_CURSORS, MAX_ENTRIES, MAX_NOTES, MAX_SESSIONS, type ConversationRecord } from './record'

/** A whole number ≥ 0 (a fraction floored); 0 for anything else: a negative, infinite or non-number value. */
function num(v: unknown): number {
  return typeof v === 'number' && isFinite(v) && v >= 0 ? Math.floor(v) : 0
}

/** `v` when it is a string of 1 to `max` characters; else undefined. */
function str(v: unknown, max: number): string | undefined {
  return typeof v === 'string' && v !== '' && v.length <= max ? v : undefined
}

/** `v` when it is an array; else an empty one. */
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** `'a' | 'b'` for `'a b'`: the names of a space-separated list. */
type Names<S extends string> = S extends `${infer A} ${infer B}` ? A | Names<B> : S

/** The fields `names` (space-separated) of `o`, each read by `num`, in that order. */
function numbers<S extends string>(o: Record<string, unknown>, names: S): Record<Names<S>, number> {
  return Object.fromEntries(names.split(' ').map((f) => [f, num(o[f])])) as Record<Names<S>, number>
}

/**
 * The last `max` distinct strings (1 to `each` characters) of a list, in order; other values are skipped.
 * Looks at no more than the last 10 × `max` items, so a hostile list costs linear time at most.
 */
function strings(v: unknown, max: number, each: number): string[] {
  const kept = new Set<string>()
  for (const x of list(v).slice(-10 * max).reverse()) {
    const t = str(x, each)
    if (t && kept.size < max) kept.add(t)
  }
  return [...kept].reverse()
}

/**
 * A stored entry or notes around `value` (its work or its text): `{ n, at, [name]: value, from? }`; undefined
 * when `value` is, when `n` is not a whole number above 0, or when `from` is there but is no record key.
 */
function numbered<K extends string, V>(e: Record<string, unknown>, name: K, value: V | undefined): ({ n: number; at: number; from?: string } & Record<K, V>) | undefined {
  const n = num(e['n'])
  const from = e['from']
  if (!value || n === 0 || (from !== undefined && !(typeof from === 'string' && parseRecordKey(from)))) return undefined
  return { n, at: num(e['at']), [name]: value, ...(from === undefined ? {} : { from }) } as { n: number; at: number } & Record<K, V>
}

const RESULTS: readonly unknown[] = ['passed', 'failed', 'unknown'] satisfies TestResult[]

/** A stored piece of work (work.ts: WorkEntry) with every field of its kind as recorded; else undefined. */
function workEntry(v: unknown): WorkEntry | undefined {
  const { kind, path, sha, subject, runner, result, url } = object(v) ?? {}
  if (kind === 'file') return typeof path === 'string' && isProjectRelative(path) ? { kind, path } : undefined
  if (kind === 'commit') return typeof sha === 'string' && /^[0-9a-f]{4,64}$/.test(sha) ? { kind, sha, subject: typeof subject === 'string' ? subject.slice(0, 300) : '' } : undefined
  if (kind === 'test') return str(runner, 100) && RESULTS.includes(result) ? { kind, runner: runner as string, result: result as TestResult } : undefined
  const link = kind === 'link' ? pullRequestUrl(url) : undefined
  return link ? { kind: 'link', url: link } : undefined
}

/**
 * A ConversationRecord from a stored value, keeping only fields of the expected type; `undefined`
 * when the value is not a record at all (no valid conversation id).
 */
export function sanitizeRecord(value: unknown): ConversationRecord | undefined {
  const o = object(value) ?? {}
  const conversationId = conversationIdOfText(str(o['conversationId'], 32) ?? '')
  if (!conversationId) return undefined
  const entries = list(o['entries'])
    .slice(-MAX_ENTRIES)
    .flatMap((raw) => {
      const e = object(raw) ?? {}
      return numbered(e, 'work', workEntry(e['work'])) ?? []
    })
  const rawNotes = object(o['notes']) ?? {}
  const notes = numbered(rawNotes, 'text', str(rawNotes['text'], MAX_NOTES))
  // The record's own numbering covers its own entries and notes, never a folded copy's.
  let seq = num(o['seq'])
  for (const x of [...entries, notes]) if (x && !x.from) seq = Math.max(seq, x.n)
  const cursors: Record<string, number> = {}
  for (const [k, v] of Object.entries(object(o['cursors']) ?? {}).slice(0, MAX_CURSORS)) if (parseRecordKey(k) && num(v)) cursors[k] = num(v)
  const status = object(o['status']) ?? {}
  const state = (['Clean', 'Draft', 'Open'] as const).find((s) => s === status['state'])
  const active = object(o['active']) ?? {}
  const session = str(active['session'], 200)
  return {
    conversationId,
    ...numbers(o, 'idSince segment savedAt'),
    seq,
    entries,
    cursors,
    ...(notes && { notes }),
    allowed: strings(o['allowed'], MAX_ALLOWED, 300),
    ...numbers(o, 'briefAt recapAt recapDoneAt openedAt closedAt'),
    ...(state && { status: { state, needYou: Math.min(num(status['needYou']), 9_999), at: num(status['at']) } }),
    sessions: strings(o['sessions'], MAX_SESSIONS, 200),
    ...(session && { active: { session, at: num(active['at']) } }),
  }
}

/** A cached brief (`brief:<project code>`): its text and when it was fetched. */
export interface CachedBrief {
  readonly text: string
  readonly fetchedAt: number
}

/** The cached brief in a stored value: a text of 1 to 200,000 characters and a fetch time (epoch ms) above 0; else undefined. */
export function sanitizeCachedBrief(value: unknown): CachedBrief | undefined {
  const o = object(value) ?? {}
  const text = str(o['text'], 200_000)
  const fetchedAt = num(o['fetchedAt'])
  return text && fetchedAt ? { text, fetchedAt } : undefined
}
