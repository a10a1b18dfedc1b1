import { CONV, ID1, ID2, ID3 } from '../support'
/**
 * The merge of a conversation's records (SPEC.md: What it stores; One conversation, several
 * processes): segments, the Hark session's open/closed state, lists, notes, times, the conversation
 * id, the cursors a handoff moves, and folded copies of idle records.
 */
import { describe, expect, test } from 'vitest'
import { recordKey } from '../../core/domain/conversation/keys'
import { addEntry, allow, newRecord, noteSession, setNotes, type ConversationRecord } from '../../core/domain/conversation/record'
import {
  absorb,
  conversationIdOf,
  fold,
  markHandedOff,
  markOwnHandedOff,
  mergeConversation,
  ownWork,
} from '../../core/domain/conversation/merge'
import { sanitizeRecord } from '../../core/domain/conversation/sanitize'

const K1 = recordKey(CONV, 1_000, 'k1')
const K2 = recordKey(CONV, 2_000, 'k2')
const K3 = recordKey(CONV, 3_000, 'k3')
const file = (path: string) => ({ kind: 'file', path }) as const
const run = (runner: string) => ({ kind: 'test', runner, result: 'passed' }) as const
const commit = (sha: string) => ({ kind: 'commit', sha, subject: `subject ${sha}` }) as const
const rec = (over: Partial<ConversationRecord> = {}, id = ID1): ConversationRecord => ({ ...newRecord(id), ...over })
/** The record as it comes back from the store (JSON), sanitized. */
const stored = (r: ConversationRecord) => sanitizeRecord(JSON.parse(JSON.stringify(r)))!

describe('segments and the Hark session', () => {
  test('the segment is the highest any record knows', () => {
    const view = mergeConversation(K1, rec({ segment: 1 }), new Map([[K2, rec({ segment: 4 })], [K3, rec({ segment: 2 })]]))
    expect(view.segment).toBe(4)
  })

  test('open while the newest opening is after the newest closing, in whatever record each is', () => {
    const opened = rec({ openedAt: 100 })
    const closed = rec({ closedAt: 150 })
    expect(mergeConversation(K1, opened, new Map()).sessionOpen).toBe(true)
    expect(mergeConversation(K1, opened, new Map([[K2, closed]])).sessionOpen).toBe(false)
    expect(mergeConversation(K1, rec({ openedAt: 200 }), new Map([[K2, closed]])).sessionOpen).toBe(true)
    expect(mergeConversation(K1, rec(), new Map()).sessionOpen).toBe(false)
  })

  test('a handoff closes a session opened in the same millisecond', () => {
    const a = rec({ openedAt: 500 })
    const view = mergeConversation(K1, a, new Map())
    const after = markHandedOff(K1, a, view, new Map(), 500, true, view)
    expect(mergeConversation(K1, after, new Map()).sessionOpen).toBe(false)
  })

  test('the recap is pending while asked after it was last given', () => {
    expect(mergeConversation(K1, rec({ recapAt: 10 }), new Map()).recapPending).toBe(true)
    expect(mergeConversation(K1, rec({ recapAt: 10 }), new Map([[K2, rec({ recapDoneAt: 11 })]])).recapPending).toBe(false)
    expect(mergeConversation(K1, rec({ recapAt: 12, recapDoneAt: 11 }), new Map()).recapPending).toBe(true)
  })
})

describe('lists, times and the status', () => {
  test('Allow answers and sessions: union in first-seen order, each once', () => {
    const a = noteSession(allow(rec(), ['d-1', 'd-2']), 's-a', 10)
    const b = noteSession(noteSession(allow(rec(), ['d-2', 'd-3']), 's-b', 20), 's-a', 30)
    const view = mergeConversation(K2, b, new Map([[K1, a]]))
    expect(view.allowed).toEqual(['d-1', 'd-2', 'd-3'])
    expect(view.sessions).toEqual(['s-a', 's-b'])
    // The latest to join, get a prompt or record work carries the conversation.
    expect(view.active).toEqual({ session: 's-a', at: 30 })
  })

  test('the newest status wins; brief time is the newest fetch; othersBriefSavedAt ignores the caller', () => {
    const a = rec({ status: { state: 'Draft', needYou: 1, at: 5 }, briefAt: 40, savedAt: 45 })
    const b = rec({ status: { state: 'Clean', needYou: 3, at: 9 }, briefAt: 60, savedAt: 70 })
    const view = mergeConversation(K1, a, new Map([[K2, b]]))
    expect(view.status).toEqual({ state: 'Clean', needYou: 3, at: 9 })
    expect(view.briefAt).toBe(60)
    expect(view.othersBriefSavedAt).toBe(70)
    expect(mergeConversation(K2, b, new Map([[K1, a]])).othersBriefSavedAt).toBe(45)
    // A record that never fetched a brief does not count as another's fresh state.
    expect(mergeConversation(K1, a, new Map([[K2, rec({ savedAt: 99 })]])).othersBriefSavedAt).toBe(0)
  })

  test('pending work: oldest first across records; files, commits and links once; every test run', () => {
    const a = addEntry(addEntry(rec(), file('a.ts'), 30), run('npm test'), 31)
    const b = addEntry(addEntry(addEntry(rec(), file('a.ts'), 10), run('npm test'), 40), commit('abc1234'), 20)
    const view = mergeConversation(K1, a, new Map([[K2, b]]))
    expect(view.pending.map((p) => p.entry.at)).toEqual([10, 20, 30, 31, 40])
    expect(view.work).toEqual({
      files: ['a.ts'],
      commits: [{ sha: 'abc1234', subject: 'subject abc1234' }],
      tests: [
        { runner: 'npm test', result: 'passed' },
        { runner: 'npm test', result: 'passed' },
      ],
      links: [],
    })
  })

  test('the newest notes not yet handed off; notes handed off in one record do not come back from another', () => {
    const a = setNotes(rec(), 'from a', 100)
    const b = setNotes(rec(), 'from b', 50)
    expect(mergeConversation(K1, a, new Map([[K2, b]])).notes).toBe('from a')
    const view = mergeConversation(K1, a, new Map([[K2, b]]))
    const handed = markHandedOff(K1, a, view, new Map([[K2, b]]), 200, true, view)
    expect(mergeConversation(K1, handed, new Map([[K2, b]])).notes).toBeUndefined()
  })
})

describe('the conversation id (SPEC.md: created by the first process, the same in every process)', () => {
  test('the id created first wins; absorbing it makes every record carry it', () => {
    const first = rec({}, ID1)
    const second = rec({}, ID2)
    const view = mergeConversation(K2, second, new Map([[K1, first]]))
    expect(view.conversationId).toBe(ID1)
    const saved = absorb(second, view, 3_000)
    expect(saved.conversationId).toBe(ID1)
    expect(saved.idSince).toBe(1_000)
  })

  test('it stays the same after the record that created it is pruned', () => {
    const first = rec({}, ID1)
    const adopted = stored(absorb(rec({}, ID2), mergeConversation(K2, rec({}, ID2), new Map([[K1, first]])), 2_500))
    // A third process that never saw the first one's record (two started together), loaded before the second.
    const K0 = recordKey(CONV, 1_500, 'k0')
    const stranger = rec({}, ID3)
    expect(conversationIdOf(new Map([[K2, adopted], [K0, stranger]]))).toBe(ID1)
    expect(mergeConversation(K0, stranger, new Map([[K2, adopted]])).conversationId).toBe(ID1)
  })

  test('a tie goes to the smaller id, the same for every reader', () => {
    const x = rec({ idSince: 7 }, ID2)
    const y = rec({ idSince: 7 }, ID1)
    expect(conversationIdOf(new Map([[K1, x], [K2, y]]))).toBe(ID1)
    expect(conversationIdOf(new Map([[K2, y], [K1, x]]))).toBe(ID1)
  })
})

describe('a handoff marks what it sent, and no more', () => {
  test('work recorded after the handoff read its view stays pending, in the other record and in its own', () => {
    let a = addEntry(rec(), file('a.ts'), 10)
    let b = addEntry(rec(), file('b.ts'), 11)
    const sent = mergeConversation(K1, a, new Map([[K2, b]]))
    // Meanwhile: b records c.ts and a records d.ts (a subagent), before a's mark is saved.
    b = addEntry(b, file('c.ts'), 12)
    a = addEntry(a, file('d.ts'), 13)
    const latest = mergeConversation(K1, a, new Map([[K2, b]]))
    a = markHandedOff(K1, a, latest, new Map([[K2, b]]), 20, true, sent)
    expect(a.cursors).toEqual({ [K1]: 1, [K2]: 1 })
    expect(a.segment).toBe(1)
    expect(a.entries.map((e) => e.work)).toEqual([file('d.ts')])
    expect(mergeConversation(K1, a, new Map([[K2, b]])).work.files).toEqual(['c.ts', 'd.ts'])
  })

  test('a file touched again during the handoff is sent again later', () => {
    let a = addEntry(rec(), file('a.ts'), 10)
    const sent = mergeConversation(K1, a, new Map())
    a = addEntry(a, file('a.ts'), 15)
    a = markHandedOff(K1, a, mergeConversation(K1, a, new Map()), new Map(), 20, true, sent)
    expect(mergeConversation(K1, a, new Map()).work.files).toEqual(['a.ts'])
  })

  test('Claude’s own end_session marks everything known, keeps the segment and leaves the session open', () => {
    const a = addEntry(rec({ segment: 2, openedAt: 5 }), file('a.ts'), 10)
    const b = addEntry(rec(), file('b.ts'), 11)
    const view = mergeConversation(K1, a, new Map([[K2, b]]))
    const after = markHandedOff(K1, a, view, new Map([[K2, b]]), 20, false)
    expect(after.segment).toBe(2)
    const merged = mergeConversation(K1, after, new Map([[K2, b]]))
    expect(merged.work.files).toEqual([])
    expect(merged.sessionOpen).toBe(true)
  })

  test('segments advance from the highest known, even if the sent view was older', () => {
    const a = addEntry(rec({ segment: 1 }), file('a.ts'), 10)
    const sent = mergeConversation(K1, a, new Map())
    const latest = mergeConversation(K1, a, new Map([[K2, rec({ segment: 3 })]]))
    expect(markHandedOff(K1, a, latest, new Map(), 20, true, sent).segment).toBe(4)
  })
})

describe('folding an idle record (SPEC.md: What it stores, pruning)', () => {
  const idle = setNotes(addEntry(addEntry(rec({ savedAt: 1 }), file('x.ts'), 10), run('pytest'), 11), 'idle notes', 12)

  test('its pending work is copied with its own numbers and origin, and counts once even if it comes back', () => {
    let self = addEntry(rec(), file('mine.ts'), 20)
    self = fold(self, K1, idle, mergeConversation(K2, self, new Map([[K1, idle]])))
    expect(self.entries.map((e) => [e.n, e.from ?? 'self'])).toEqual([
      [1, 'self'],
      [1, K1],
      [2, K1],
    ])
    expect(self.seq).toBe(1)
    expect(self.notes).toEqual({ n: 3, at: 12, text: 'idle notes', from: K1 })
    const alone = mergeConversation(K2, self, new Map())
    expect(alone.work.files).toEqual(['x.ts', 'mine.ts'])
    expect(alone.notes).toBe('idle notes')
    const back = mergeConversation(K2, self, new Map([[K1, idle]]))
    expect(back.work.tests).toHaveLength(1)
    expect(back.pending).toHaveLength(3)
  })

  test('the idle process handing off its work covers the copies (and the other way round)', () => {
    const self = fold(rec(), K1, idle, mergeConversation(K2, rec(), new Map([[K1, idle]])))
    // The idle process hands off from a view read before the fold was stored.
    const sent = mergeConversation(K1, idle, new Map())
    const handed = markHandedOff(K1, idle, sent, new Map(), 50, true, sent)
    expect(mergeConversation(K2, self, new Map([[K1, handed]])).work).toEqual({ files: [], commits: [], tests: [], links: [] })
    expect(mergeConversation(K2, self, new Map([[K1, handed]])).notes).toBeUndefined()
    // The folding process hands off instead: the idle record's originals are covered.
    const view = mergeConversation(K2, self, new Map())
    const mine = markHandedOff(K2, self, view, new Map(), 60, true, view)
    expect(mine.cursors[K1]).toBe(3)
    expect(mergeConversation(K2, mine, new Map([[K1, idle]])).work.files).toEqual([])
  })

  test('only pending work is folded; a second fold of the same record adds nothing', () => {
    const partly = { ...idle, cursors: { [K1]: 1 } }
    let self = fold(rec(), K1, partly, mergeConversation(K2, rec(), new Map([[K1, partly]])))
    self = fold(self, K1, partly, mergeConversation(K2, self, new Map([[K1, partly]])))
    expect(self.entries.map((e) => e.work)).toEqual([run('pytest')])
  })

  test('copies of copies keep the first origin', () => {
    const middle = fold(rec(), K1, idle, mergeConversation(K2, rec(), new Map([[K1, idle]])))
    const last = fold(rec(), K2, middle, mergeConversation(K3, rec(), new Map([[K2, middle]])))
    expect(new Set(last.entries.map((e) => e.from))).toEqual(new Set([K1]))
    expect(mergeConversation(K3, last, new Map([[K1, idle], [K2, middle]])).pending).toHaveLength(2)
  })

  test('copies survive the store: origin kept, numbering of the holder untouched', () => {
    const self = stored(fold(addEntry(rec(), file('own.ts'), 5), K1, idle, mergeConversation(K2, rec(), new Map([[K1, idle]]))))
    expect(self.seq).toBe(1)
    expect(self.entries.filter((e) => e.from === K1)).toHaveLength(2)
    expect(self.notes?.from).toBe(K1)
  })
})

describe('the store refused the claim: own work only', () => {
  test('own entries and folded copies are handed off; another record’s work stays pending', () => {
    const idle = addEntry(rec({ savedAt: 1 }), file('x.ts'), 10)
    let self = addEntry(rec(), file('mine.ts'), 20)
    self = fold(self, K1, idle, mergeConversation(K2, self, new Map([[K1, idle]])))
    expect(ownWork(self, K2).work.files).toEqual(['mine.ts', 'x.ts'])
    const other = addEntry(rec(), file('theirs.ts'), 30)
    const after = markOwnHandedOff(self, K2, 40)
    expect(after.cursors).toEqual({ [K2]: 1, [K1]: 1 })
    expect(ownWork(after, K2).work.files).toEqual([])
    expect(mergeConversation(K2, after, new Map([[K3, other], [K1, idle]])).work.files).toEqual(['theirs.ts'])
  })
})

describe('absorb', () => {
  test('keeps what the conversation knows, and the cursors of records still in the store past the cap', () => {
    const cursors: Record<string, number> = {}
    for (let i = 0; i < 300; i++) cursors[recordKey(CONV, 10_000 + i, `gone${i}`)] = 1_000 + i
    const live = addEntry(rec({ cursors: { [K1]: 1 } }), file('a.ts'), 1)
    const self = rec({ cursors })
    const view = mergeConversation(K2, self, new Map([[K1, live]]))
    const saved = absorb(self, view, 99)
    expect(Object.keys(saved.cursors)).toHaveLength(200)
    expect(saved.cursors[K1]).toBe(1)
    // And it survives the store's sanitizer, which keeps the first 200.
    expect(stored(saved).cursors[K1]).toBe(1)
  })
})
