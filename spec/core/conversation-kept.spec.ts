/**
 * What a record keeps once its work is handed off (SPEC.md: What it stores, Who reads it): none of
 * the work or notes the handoff covered, everything the next segment and the other processes read.
 * Examples for each way a handoff is stored as done, then a property over random records: dropping
 * what was handed off changes nothing any process's merge reads.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { recordKey } from '../../core/domain/conversation/keys'
import { markHandedOff, markOwnHandedOff, mergeConversation } from '../../core/domain/conversation/merge'
import { addEntry, allow, keptAfterHandoff, newRecord, noteSession, setNotes, type ConversationRecord } from '../../core/domain/conversation/record'
import { sanitizeRecord } from '../../core/domain/conversation/sanitize'
import { CONV, file, ID1 } from '../support'

const K1 = recordKey(CONV, 1_000, 'k1')
const K2 = recordKey(CONV, 2_000, 'k2')
const NOTES = 'I went through the import path and the reconciliation job. '.repeat(25)
const SESSION = '6f1d2c3b-0000-4000-8000-000000000001'

/** A session's record as a heavy user leaves it: 20 files, notes, an Allow answer, a session, a status. */
function worked(): ConversationRecord {
  let r: ConversationRecord = { ...newRecord(ID1), openedAt: 5, briefAt: 5, status: { state: 'Open', needYou: 2, at: 5 } }
  for (let i = 0; i < 20; i++) r = addEntry(r, file(`src/ledger/part${i}.ts`), 10 + i)
  r = allow(noteSession(r, SESSION, 30), ['D-7'])
  return setNotes(r, NOTES, 40)
}

const size = (r: ConversationRecord) => JSON.stringify(r).length

describe('once a handoff is stored as done, the record keeps none of its work or notes', () => {
  test('the plugin’s own handoff: no entries, no notes; the id, segment, Allow answers, status, sessions and numbering stay', () => {
    const a = worked()
    const view = mergeConversation(K1, a, new Map())
    const after = markHandedOff(K1, a, view, new Map(), 50, true, view)
    expect(after.entries).toEqual([])
    expect('notes' in after).toBe(false)
    expect(after).toMatchObject({ conversationId: ID1, segment: 1, seq: a.seq, cursors: { [K1]: a.seq }, allowed: ['D-7'], sessions: [SESSION], status: a.status, briefAt: 5, openedAt: 5 })
    expect(after.active).toEqual({ session: SESSION, at: 30 })
    // What was about 2.5 KB is a few hundred bytes, as stored.
    expect(size(a)).toBeGreaterThan(2_000)
    expect(size(after)).toBeLessThan(500)
    expect(sanitizeRecord(JSON.parse(JSON.stringify(after)))).toEqual(after)
  })

  test('Claude’s own end_session, and the store refusing the claim: the notes go too', () => {
    const a = worked()
    const b = setNotes(addEntry(newRecord(ID1), file('b.ts'), 11), 'their notes', 12)
    const own = markHandedOff(K1, a, mergeConversation(K1, a, new Map([[K2, b]])), new Map([[K2, b]]), 50, false)
    expect(own.entries).toEqual([])
    expect(own.notes).toBeUndefined()
    const refused = markOwnHandedOff(a, K1, 50)
    expect(refused.entries).toEqual([])
    expect(refused.notes).toBeUndefined()
    // Another record's own notes are its own to drop, once it saves after the mark.
    expect(mergeConversation(K2, b, new Map([[K1, own]])).notes).toBeUndefined()
  })

  test('work and notes recorded after the handoff read its view stay, pending for the next one', () => {
    let a = worked()
    const sent = mergeConversation(K1, a, new Map())
    a = setNotes(addEntry(a, file('late.ts'), 45), 'later notes', 46)
    a = markHandedOff(K1, a, mergeConversation(K1, a, new Map()), new Map(), 50, true, sent)
    expect(a.entries.map((e) => e.work)).toEqual([file('late.ts')])
    expect(a.notes?.text).toBe('later notes')
    const view = mergeConversation(K1, a, new Map())
    expect(view.work.files).toEqual(['late.ts'])
    expect(view.notes).toBe('later notes')
  })

  test('a folded copy handed off goes; one still pending stays, with its origin', () => {
    const base = newRecord(ID1)
    const r: ConversationRecord = {
      ...base,
      seq: 3,
      entries: [
        { n: 2, at: 1, work: file('old.ts'), from: K2 },
        { n: 5, at: 2, work: file('new.ts'), from: K2 },
      ],
      notes: { n: 4, at: 3, text: 'theirs', from: K2 },
      cursors: { [K2]: 4 },
    }
    const kept = keptAfterHandoff(r, K1)
    expect(kept.entries).toEqual([{ n: 5, at: 2, work: file('new.ts'), from: K2 }])
    expect(kept.notes).toBeUndefined()
    expect(keptAfterHandoff({ ...r, cursors: { [K2]: 3 } }, K1).notes).toEqual(r.notes)
  })
})

/** A record made by random edits, some entries and notes folded from K2, with random cursors at or below what it holds. */
const records = fc
  .record({
    steps: fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant('entry' as const), path: fc.constantFrom('a.ts', 'b.ts', 'c.ts', 'd.ts') }),
        fc.record({ kind: fc.constant('notes' as const), text: fc.string({ minLength: 1, maxLength: 20 }) }),
        fc.record({ kind: fc.constant('allow' as const), key: fc.constantFrom('D-1', 'D-2', 'N-3') }),
        fc.record({ kind: fc.constant('session' as const), id: fc.constantFrom('s1', 's2') }),
      ),
      { maxLength: 15 },
    ),
    folded: fc.array(fc.record({ n: fc.integer({ min: 1, max: 12 }), path: fc.constantFrom('x.ts', 'y.ts') }), { maxLength: 4 }),
    foldedNotes: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    own: fc.nat({ max: 16 }),
    theirs: fc.nat({ max: 13 }),
    segment: fc.nat({ max: 3 }),
  })
  .map(({ steps, folded, foldedNotes, own, theirs, segment }) => {
    let r: ConversationRecord = { ...newRecord(ID1), segment }
    let at = 10
    for (const step of steps) {
      at++
      if (step.kind === 'entry') r = addEntry(r, file(step.path), at)
      else if (step.kind === 'notes') r = setNotes(r, step.text, at)
      else if (step.kind === 'allow') r = allow(r, [step.key])
      else r = noteSession(r, step.id, at)
    }
    const seen = new Set<number>()
    const copies = folded.filter((f) => !seen.has(f.n) && seen.add(f.n)).map((f) => ({ n: f.n, at: 5, work: file(f.path), from: K2 }))
    const notes = foldedNotes !== undefined && r.notes === undefined ? { notes: { n: foldedNotes, at: 5, text: 'folded', from: K2 } } : {}
    return { ...r, entries: [...r.entries, ...copies], ...notes, cursors: { [K1]: Math.min(own, r.seq), [K2]: theirs } }
  })

describe('dropping what was handed off changes nothing a merge reads', () => {
  test('every view field but the heads of records gone is the same; nothing pending is lost; it stays small and settled', () => {
    fc.assert(
      fc.property(records, records, (self, other) => {
        const kept = keptAfterHandoff(self, K1)
        const without = ({ heads: _heads, ...view }: ReturnType<typeof mergeConversation>) => view
        // As this process reads it, and as the other process reads it.
        expect(without(mergeConversation(K1, kept, new Map([[K2, other]])))).toEqual(without(mergeConversation(K1, self, new Map([[K2, other]]))))
        expect(without(mergeConversation(K2, other, new Map([[K1, kept]])))).toEqual(without(mergeConversation(K2, other, new Map([[K1, self]]))))
        // This record's own numbering is still its head: new work is numbered above its cursor.
        expect(mergeConversation(K1, kept, new Map()).heads[K1]).toBe(self.seq)
        // Nothing handed off stays; what stays is unchanged; nothing else changed.
        const pending = (n: number, from: string | undefined) => n > (self.cursors[from ?? K1] ?? 0)
        expect(kept.entries).toEqual(self.entries.filter((e) => pending(e.n, e.from)))
        expect(kept.notes).toEqual(self.notes !== undefined && pending(self.notes.n, self.notes.from) ? self.notes : undefined)
        const { entries: _e, notes: _n, ...rest } = self
        const { entries: _ke, notes: _kn, ...keptRest } = kept
        expect(keptRest).toEqual(rest)
        expect(keptAfterHandoff(kept, K1)).toEqual(kept)
        expect(size(kept)).toBeLessThanOrEqual(size(self))
      }),
      { numRuns: 500 },
    )
  })
})
