/**
 * Values read back from the store are untrusted (kept only as fields of the expected type):
 * a damaged file, an older or newer version of the plugin, or anything else that can write the
 * file. Sanitising keeps what has the expected type, bounds every list and string, never lets a
 * prototype key through, and stays fast on the largest store the engine allows (4 MiB of JSON).
 */
import { describe, expect, test } from 'vitest'
import { recordKey, type ConversationId, type ConversationKey } from '../../core/domain/conversation/keys'
import { MAX_ENTRIES, newRecord, type ConversationRecord } from '../../core/domain/conversation/record'
import { mergeConversation } from '../../core/domain/conversation/merge'
import { sanitizeCachedBrief, sanitizeRecord } from '../../core/domain/conversation/sanitize'

const CONV = 'a'.repeat(64) as ConversationKey
const ID = '1'.repeat(32) as ConversationId
const K1 = recordKey(CONV, 1, 'k1')
const K2 = recordKey(CONV, 2, 'k2')
const MiB = 1024 * 1024
/** What the engine hands back: JSON text parsed (so `__proto__` is an own key, as from the file). */
const fromStore = (json: string) => sanitizeRecord(JSON.parse(json))

describe('wrong types', () => {
  test('numbers: only finite, non-negative ones; fractions floored; anything else 0', () => {
    const r = fromStore(JSON.stringify({ conversationId: ID, segment: -3, savedAt: 12.9, seq: '7', briefAt: 1e400, recapAt: true, openedAt: null, closedAt: [5] }))!
    expect(r).toMatchObject({ segment: 0, savedAt: 12, seq: 0, briefAt: 0, recapAt: 0, openedAt: 0, closedAt: 0 })
    expect(sanitizeRecord({ conversationId: ID, savedAt: Number.NaN, segment: Number.POSITIVE_INFINITY })).toMatchObject({ savedAt: 0, segment: 0 })
  })

  test('the conversation id must be 32 lower-case hex characters, or the value is no record', () => {
    for (const id of [undefined, 42, 'A'.repeat(32), '1'.repeat(31), '1'.repeat(33), ` ${'1'.repeat(31)}`, ['1'.repeat(32)]]) {
      expect(sanitizeRecord({ conversationId: id })).toBeUndefined()
    }
  })

  test('entries: each field checked; a bad entry is dropped, the rest kept', () => {
    const r = sanitizeRecord({
      conversationId: ID,
      entries: [
        { n: 1, at: 1, work: { kind: 'file', path: 'ok.ts' } },
        { n: 0, at: 1, work: { kind: 'file', path: 'zero.ts' } },
        { n: '2', at: 1, work: { kind: 'file', path: 'string-n.ts' } },
        { n: 3, at: 1, work: { kind: 'file', path: '' } },
        { n: 4, at: 1, work: { kind: 'commit', sha: 'abc1234', subject: 7 } },
        { n: 5, at: 1, work: { kind: 'commit', sha: 'ABC1234', subject: 's' } },
        { n: 6, at: 1, work: { kind: 'test', runner: 'npm test', result: 'passed' } },
        { n: 7, at: 1, work: { kind: 'link', url: 'ftp://x' } },
        { n: 8, at: 1, work: { kind: 'file', path: 'from.ts' }, from: 'not-a-key' },
        { n: 9, at: 1, work: { kind: 'file', path: 'folded.ts' }, from: K2 },
        { n: 10, at: 1, work: null },
        [1, 2, 3],
      ],
    })!
    expect(r.entries).toEqual([
      { n: 1, at: 1, work: { kind: 'file', path: 'ok.ts' } },
      { n: 4, at: 1, work: { kind: 'commit', sha: 'abc1234', subject: '' } },
      { n: 6, at: 1, work: { kind: 'test', runner: 'npm test', result: 'passed' } },
      { n: 9, at: 1, work: { kind: 'file', path: 'folded.ts' }, from: K2 },
    ])
    // The record's own numbering comes from its own entries, never from a folded copy's.
    expect(r.seq).toBe(6)
  })

  test('a seq below its entries’ numbers is raised, so a new entry never reuses a number', () => {
    const r = sanitizeRecord({ conversationId: ID, seq: 1, entries: [{ n: 9, at: 1, work: { kind: 'file', path: 'a.ts' } }], notes: { n: 12, at: 1, text: 'x' } })!
    expect(r.seq).toBe(12)
  })

  test('objects where lists belong, lists where objects belong', () => {
    const r = sanitizeRecord({ conversationId: ID, entries: { 0: { n: 1 } }, allowed: 'd-1', sessions: { a: 1 }, cursors: [[K1, 3]], notes: ['x'], status: 'Clean', active: 'sess' })!
    expect(r).toMatchObject({ entries: [], allowed: [], sessions: [], cursors: {} })
    expect(r.notes).toBeUndefined()
    expect(r.status).toBeUndefined()
    expect(r.active).toBeUndefined()
  })

  test('status and active: only the known states, bounded counts', () => {
    const r = sanitizeRecord({ conversationId: ID, status: { state: 'Draft', needYou: 1e9, at: 5 }, active: { session: 's', at: -1 } })!
    expect(r.status).toEqual({ state: 'Draft', needYou: 9_999, at: 5 })
    expect(r.active).toEqual({ session: 's', at: 0 })
    expect(sanitizeRecord({ conversationId: ID, status: { state: 'clean' } })!.status).toBeUndefined()
  })
})

describe('prototype keys', () => {
  test('__proto__, constructor and prototype as fields or cursor keys change nothing', () => {
    const r = fromStore(
      `{"conversationId":"${ID}","__proto__":{"segment":99,"polluted":true},"constructor":{"prototype":{"polluted":true}},` +
        `"cursors":{"__proto__":5,"constructor":6,"${K1}":2},"allowed":["__proto__","d-1"],"notes":{"n":1,"at":1,"text":"t","__proto__":{"from":"${K1}"}}}`,
    )!
    expect(r.segment).toBe(0)
    expect(Object.keys(r.cursors)).toEqual([K1])
    expect(r.notes).toEqual({ n: 1, at: 1, text: 't' })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    const view = mergeConversation(K2, newRecord(ID), new Map([[K1, r]]))
    expect(Object.getPrototypeOf(view.cursors)).toBe(Object.prototype)
    expect(view.cursors).toEqual({ [K1]: 2 })
    // An Allow answer is a string key into a list, never a property lookup.
    expect(view.allowed).toEqual(['__proto__', 'd-1'])
  })
})

describe('huge and enormous values', () => {
  test('huge lists are bounded: the newest entries, Allow answers and sessions are kept', () => {
    const entries = Array.from({ length: 50_000 }, (_, i) => ({ n: i + 1, at: i, work: { kind: 'test', runner: `r${i}`, result: 'passed' } }))
    const allowed = Array.from({ length: 200_000 }, (_, i) => `d-${i}`)
    const sessions = Array.from({ length: 200_000 }, (_, i) => `s-${i % 1000}`)
    const cursors = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [recordKey(CONV, i, 'x'), i + 1]))
    const started = performance.now()
    const r = sanitizeRecord({ conversationId: ID, entries, allowed, sessions, cursors })!
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(r.entries).toHaveLength(MAX_ENTRIES)
    expect(r.entries.at(-1)!.n).toBe(50_000)
    expect(r.seq).toBe(50_000)
    expect(r.allowed).toHaveLength(500)
    expect(r.allowed.at(-1)).toBe('d-199999')
    expect(r.sessions).toHaveLength(50)
    expect(r.sessions.at(-1)).toBe('s-999')
    expect(Object.keys(r.cursors)).toHaveLength(200)
  })

  test('enormous strings are refused, not cut into something else (the notes and a subject are capped)', () => {
    const huge = 'x'.repeat(3 * MiB)
    const r = sanitizeRecord({
      conversationId: ID,
      entries: [
        { n: 1, at: 1, work: { kind: 'file', path: huge } },
        { n: 2, at: 1, work: { kind: 'commit', sha: 'abc1234', subject: huge } },
        { n: 3, at: 1, work: { kind: 'link', url: `https://x/${huge}` } },
        { n: 4, at: 1, work: { kind: 'test', runner: huge, result: 'passed' } },
      ],
      notes: { n: 5, at: 1, text: huge },
      allowed: [huge, 'd-1'],
      sessions: [huge],
      active: { session: huge, at: 1 },
    })!
    expect(r.entries).toEqual([{ n: 2, at: 1, work: { kind: 'commit', sha: 'abc1234', subject: 'x'.repeat(300) } }])
    expect(r.notes).toBeUndefined()
    expect(r.allowed).toEqual(['d-1'])
    expect(r.sessions).toEqual([])
    expect(r.active).toBeUndefined()
  })

  test('deeply nested junk is not walked', () => {
    let deep: unknown = { kind: 'file', path: 'a.ts' }
    for (let i = 0; i < 100_000; i++) deep = { work: deep }
    expect(sanitizeRecord({ conversationId: ID, entries: [deep] })!.entries).toEqual([])
  })

  test('a whole 4 MiB store of hostile records of this conversation is read and merged in well under a second', () => {
    const records = new Map<string, ConversationRecord>()
    let size = 0
    for (let r = 0; size < 4 * MiB; r++) {
      const value = {
        conversationId: ID,
        seq: 1_000,
        savedAt: r,
        entries: Array.from({ length: MAX_ENTRIES }, (_, i) => ({ n: i + 1, at: i, work: { kind: 'file', path: `src/r${r}/f${i}.ts` } })),
        allowed: Array.from({ length: 500 }, (_, i) => `d-${r}-${i}`),
      }
      const json = JSON.stringify(value)
      size += json.length
      records.set(recordKey(CONV, r + 10, `r${r}`), fromStore(json)!)
    }
    const started = performance.now()
    const view = mergeConversation(K1, newRecord(ID), records)
    const ms = performance.now() - started
    expect(view.pending.length).toBeGreaterThan(40_000)
    expect(ms).toBeLessThan(1_000)
  })
})

describe('cached briefs', () => {
  test.each([
    ['a brief', { text: 'brief', fetchedAt: 5 }, { text: 'brief', fetchedAt: 5 }],
    ['an empty text', { text: '', fetchedAt: 5 }, undefined],
    ['no fetch time', { text: 'brief', fetchedAt: 0 }, undefined],
    ['a time as text', { text: 'brief', fetchedAt: '5' }, undefined],
    ['a number as text', { text: 7, fetchedAt: 5 }, undefined],
    ['a text over 200,000 characters', { text: 'x'.repeat(200_001), fetchedAt: 5 }, undefined],
    ['a bare string', 'brief', undefined],
    ['null', null, undefined],
    ['a list', [{ text: 'brief', fetchedAt: 5 }], undefined],
  ])('%s', (_, value, expected) => {
    expect(sanitizeCachedBrief(value)).toEqual(expected)
  })
})
