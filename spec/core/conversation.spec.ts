import { CONV, ID1, ID2, OTHER, file } from '../support'
import { describe, expect, test } from 'vitest'
import { claimWinner } from '../../core/domain/conversation/claim'
import { claimKey, parseClaimKey, parseRecordKey, recordKey, type ConversationKey } from '../../core/domain/conversation/keys'
import { addEntry, allow, newRecord, noteSession, setNotes, type ConversationRecord } from '../../core/domain/conversation/record'
import { absorb, fold, markHandedOff, markOwnHandedOff, mergeConversation, ownWork } from '../../core/domain/conversation/merge'
import { sanitizeRecord } from '../../core/domain/conversation/sanitize'
import { canReuseBrief, planPrune } from '../../core/domain/conversation/prune'

const K1 = recordKey(CONV, 1_000, 'aaaa1111')
const K2 = recordKey(CONV, 2_000, 'bbbb2222')
const test_ = (runner: string, result: 'passed' | 'failed' | 'unknown' = 'passed') => ({ kind: 'test', runner, result }) as const

describe('keys', () => {
  test('record and claim keys round-trip and reject anything else', () => {
    expect(parseRecordKey(K1)).toEqual({ conversation: CONV, loadTime: 1_000, random: 'aaaa1111' })
    expect(parseRecordKey('c:xyz:1:a')).toBeUndefined()
    expect(parseRecordKey(`c:${CONV}:-1:a`)).toBeUndefined()
    expect(parseRecordKey(`c:${CONV}:1:a:extra`)).toBeUndefined()
    expect(parseRecordKey('brief:V-012')).toBeUndefined()
    const claim = claimKey(CONV, 3, 5_000, 'cc')
    expect(claim).toBe(`handoff:${CONV}:3:5000:cc`)
    expect(parseClaimKey(claim)).toEqual({ conversation: CONV, segment: 3, time: 5_000, random: 'cc' })
    expect(parseClaimKey(`handoff:${CONV}:x:5000:cc`)).toBeUndefined()
  })
})

describe('records and their merge', () => {
  test('a later entry for the same file replaces the earlier; every test run counts', () => {
    let r = newRecord(ID1)
    r = addEntry(r, file('a.ts'), 10)
    r = addEntry(r, test_('npm test'), 11)
    r = addEntry(r, file('a.ts'), 12)
    r = addEntry(r, test_('npm test', 'failed'), 13)
    expect(r.entries.map((e) => [e.n, e.work.kind])).toEqual([[2, 'test'], [3, 'file'], [4, 'test']])
    const view = mergeConversation(K1, r, new Map())
    expect(view.work).toEqual({ files: ['a.ts'], commits: [], tests: [{ runner: 'npm test', result: 'passed' }, { runner: 'npm test', result: 'failed' }], links: [] })
  })

  test('two processes: union of work, allowed answers and sessions; newest notes; the first process’s conversation id', () => {
    let a = newRecord(ID1)
    a = noteSession(allow(addEntry(a, file('a.ts'), 10), ['id:d-1']), 's1', 10)
    a = setNotes(a, 'older notes', 11)
    let b = newRecord(ID2)
    b = noteSession(allow(addEntry(b, file('b.ts'), 20), ['id:d-2', 'id:d-1']), 's2', 20)
    b = setNotes(b, 'newer notes', 21)
    const view = mergeConversation(K2, b, new Map([[K1, a]]))
    expect(view.conversationId).toBe(ID1)
    expect(view.work.files).toEqual(['a.ts', 'b.ts'])
    expect(view.allowed).toEqual(['id:d-1', 'id:d-2'])
    expect(view.sessions).toEqual(['s1', 's2'])
    expect(view.active).toEqual({ session: 's2', at: 20 })
    expect(view.notes).toBe('newer notes')
  })

  test('a handoff moves every record’s cursor; work recorded meanwhile stays pending', () => {
    let a = addEntry(newRecord(ID1), file('a.ts'), 10)
    const b = addEntry(newRecord(ID1), file('b.ts'), 11)
    const before = mergeConversation(K1, a, new Map([[K2, b]]))
    a = markHandedOff(K1, a, before, new Map([[K2, b]]), 50, true, before)
    expect(a.segment).toBe(1)
    expect(a.cursors).toEqual({ [K1]: 1, [K2]: 1 })
    expect(a.entries).toEqual([])
    // b recorded c.ts while a handed off, without knowing it.
    const b2 = addEntry(b, file('c.ts'), 40)
    const after = mergeConversation(K1, a, new Map([[K2, b2]]))
    expect(after.work.files).toEqual(['c.ts'])
    expect(after.segment).toBe(1)
    expect(after.sessionOpen).toBe(false)
  })

  test('a file touched again after a handoff is handed off again', () => {
    let a = addEntry(newRecord(ID1), file('a.ts'), 10)
    a = markHandedOff(K1, a, mergeConversation(K1, a, new Map()), new Map(), 20, true, mergeConversation(K1, a, new Map()))
    a = addEntry(a, file('a.ts'), 30)
    expect(mergeConversation(K1, a, new Map()).work.files).toEqual(['a.ts'])
  })

  test('Claude’s own handoff leaves the Hark session open', () => {
    let a = { ...addEntry(newRecord(ID1), file('a.ts'), 10), openedAt: 5 }
    a = markHandedOff(K1, a, mergeConversation(K1, a, new Map()), new Map(), 20, false)
    const view = mergeConversation(K1, a, new Map())
    expect(view.work.files).toEqual([])
    expect(view.sessionOpen).toBe(true)
  })

  test('notes already handed off are not sent again', () => {
    let a = setNotes(addEntry(newRecord(ID1), file('a.ts'), 10), 'done', 11)
    a = markHandedOff(K1, a, mergeConversation(K1, a, new Map()), new Map(), 20, true, mergeConversation(K1, a, new Map()))
    expect(mergeConversation(K1, a, new Map()).notes).toBeUndefined()
    a = setNotes(a, 'next', 30)
    expect(mergeConversation(K1, a, new Map()).notes).toBe('next')
  })

  test('own work, when the store refused the claim', () => {
    let a = addEntry(newRecord(ID1), file('a.ts'), 10)
    a = setNotes(a, 'mine', 11)
    expect(ownWork(a, K1)).toEqual({ work: { files: ['a.ts'], commits: [], tests: [], links: [] }, notes: 'mine' })
    a = markOwnHandedOff(a, K1, 20)
    expect(ownWork(a, K1).work.files).toEqual([])
  })

  test('folding an idle record takes its pending work once, even if it comes back', () => {
    const idle = addEntry(addEntry(newRecord(ID1), file('x.ts'), 10), test_('pytest'), 11)
    let self = newRecord(ID1)
    const view = mergeConversation(K2, self, new Map([[K1, idle]]))
    self = fold(self, K1, idle, view)
    expect(mergeConversation(K2, self, new Map()).work).toEqual({ files: ['x.ts'], commits: [], tests: [{ runner: 'pytest', result: 'passed' }], links: [] })
    // The idle process saves again later: nothing counts twice.
    expect(mergeConversation(K2, self, new Map([[K1, idle]])).work.tests).toHaveLength(1)
  })

  test('absorb keeps what the conversation knows in this record', () => {
    const a = allow({ ...newRecord(ID1), briefAt: 40, recapAt: 50 }, ['k'])
    const b = newRecord(ID2)
    const view = mergeConversation(K2, b, new Map([[K1, a]]))
    const saved = absorb(b, view, 99)
    expect(saved).toMatchObject({ conversationId: ID1, allowed: ['k'], briefAt: 40, recapAt: 50, savedAt: 99 })
  })
})

describe('claims (SPEC.md: the first claim the store holds wins; older than 30 s is ignored)', () => {
  test('first in store order, this conversation and segment, fresh', () => {
    const keys = [
      claimKey(CONV, 0, 1_000, 'old'),
      claimKey(OTHER, 1, 90_000, 'other'),
      claimKey(CONV, 0, 90_000, 'prev'),
      claimKey(CONV, 1, 95_000, 'mine'),
      claimKey(CONV, 1, 94_000, 'later'),
    ]
    expect(claimWinner(keys, CONV, 1, 100_000)).toBe(claimKey(CONV, 1, 95_000, 'mine'))
    expect(claimWinner(keys, CONV, 0, 100_000)).toBe(claimKey(CONV, 0, 90_000, 'prev'))
    expect(claimWinner(keys, CONV, 0, 200_000)).toBeUndefined()
  })
})

describe('reading untrusted records', () => {
  test('keeps only fields of the expected type', () => {
    const record = sanitizeRecord({
      conversationId: ID1,
      segment: '3',
      savedAt: 5,
      seq: 2,
      entries: [
        { n: 1, at: 1, work: { kind: 'file', path: 'a.ts' } },
        { n: 2, at: 2, work: { kind: 'file', path: 42 } },
        { n: 3, at: 3, work: { kind: 'rm -rf', path: '/' } },
        { n: 4, at: 4, work: { kind: 'commit', sha: 'not-hex', subject: 's' } },
        { n: 5, at: 5, work: { kind: 'link', url: 'javascript:alert(1)' } },
        { n: 6, at: 6, work: { kind: 'test', runner: 'npm test', result: 'exploded' } },
        'junk',
        null,
      ],
      cursors: { [K1]: 4, nonsense: 9 },
      allowed: ['ok', 7, '', 'ok'],
      status: { state: 'Weird', needYou: 3 },
      __proto__: { polluted: true },
    })!
    expect(record.segment).toBe(0)
    expect(record.entries).toEqual([{ n: 1, at: 1, work: { kind: 'file', path: 'a.ts' } }])
    expect(record.cursors).toEqual({ [K1]: 4 })
    expect(record.allowed).toEqual(['ok'])
    expect(record.status).toBeUndefined()
  })

  test.each([[null], [[]], ['x'], [{ conversationId: 'short' }], [{}]])('%j is no record', (v) => {
    expect(sanitizeRecord(v)).toBeUndefined()
  })
})

describe('brief reuse (SPEC.md: under 30 minutes, and the cached brief at least as new)', () => {
  const other: ConversationRecord = { ...newRecord(ID1), briefAt: 1_000, savedAt: 2_000 }
  const view = mergeConversation(K2, newRecord(ID1), new Map([[K1, other]]))
  test.each([
    [{ text: 'b', fetchedAt: 1_000 }, 2_000 + 29 * 60_000, true],
    [{ text: 'b', fetchedAt: 1_000 }, 2_000 + 30 * 60_000, false],
    [{ text: 'b', fetchedAt: 999 }, 3_000, false],
    [undefined, 3_000, false],
  ])('cached %j at %d: %s', (cached, now, reuse) => {
    expect(canReuseBrief(view, cached, now)).toBe(reuse)
  })
  test('no other process fetched: fetch', () => {
    expect(canReuseBrief(mergeConversation(K1, { ...newRecord(ID1), briefAt: 1 }, new Map()), { text: 'b', fetchedAt: 5 }, 10)).toBe(false)
  })
})

describe('pruning (SPEC.md: What it stores)', () => {
  const DAY = 86_400_000
  const now = 100 * DAY
  test('old records, idle records of this conversation, old briefs and claims; at most 20', () => {
    const other = 'c'.repeat(64) as ConversationKey
    const values = new Map<string, unknown>([
      [recordKey(other, 1, 'old'), { ...newRecord(ID1), savedAt: now - 15 * DAY }],
      [recordKey(other, 2, 'fresh'), { ...newRecord(ID1), savedAt: now - 1 * DAY }],
      [recordKey(CONV, 3, 'idle'), { ...newRecord(ID1), savedAt: now - 31 * 60_000 }],
      [recordKey(CONV, 4, 'busy'), { ...newRecord(ID1), savedAt: now - 29 * 60_000 }],
      [recordKey(CONV, 5, 'damaged'), 'garbage'],
      ['brief:V-1', { text: 't', fetchedAt: now - 15 * DAY }],
      ['brief:V-2', { text: 't', fetchedAt: now - 13 * DAY }],
      [claimKey(CONV, 0, now - 61 * 60_000, 'x'), true],
      [claimKey(CONV, 1, now - 59 * 60_000, 'y'), true],
      ['someone-else', { keep: true }],
      [K1, { ...newRecord(ID1), savedAt: 0 }],
    ])
    const plan = planPrune(now, values, K1, CONV)
    expect(plan.fold).toEqual([recordKey(CONV, 3, 'idle')])
    expect(plan.remove).toEqual([
      recordKey(other, 1, 'old'),
      recordKey(CONV, 3, 'idle'),
      recordKey(CONV, 5, 'damaged'),
      'brief:V-1',
      claimKey(CONV, 0, now - 61 * 60_000, 'x'),
    ])
  })

  test('never more than 20 removals in one start', () => {
    const values = new Map<string, unknown>()
    for (let i = 0; i < 50; i++) values.set(`brief:V-${i}`, { text: 't', fetchedAt: 1 })
    expect(planPrune(now, values, K1, CONV).remove).toHaveLength(20)
  })
})
