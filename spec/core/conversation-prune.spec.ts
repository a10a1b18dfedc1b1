import { CONV, OTHER } from '../support'
/**
 * Pruning at session start (SPEC.md: What it stores, "How long it keeps things"): records not saved
 * for 14 days; this conversation's other records idle for 30 minutes (folded first); briefs fetched
 * more than 14 days ago; claims older than an hour; at most 20 removals per start.
 */
import { describe, expect, test } from 'vitest'
import { claimKey, recordKey, type ConversationId } from '../../core/domain/conversation/keys'
import { newRecord } from '../../core/domain/conversation/record'
import { IDLE_RECORD_MS, isIdleRecord, OLD_CLAIM_MS, OLD_MS, planPrune, PRUNE_LIMIT } from '../../core/domain/conversation/prune'

const ID = '1'.repeat(32) as ConversationId
const DAY = 86_400_000
const now = 400 * DAY
const SELF = recordKey(CONV, now - 1_000, 'self')
const saved = (at: number) => ({ ...newRecord(ID), savedAt: at })

function plan(entries: [string, unknown][]) {
  return planPrune(now, new Map(entries), SELF, CONV)
}

describe('what goes', () => {
  test('records: another conversation’s at 14 days stays, a millisecond older goes', () => {
    const keep = recordKey(OTHER, 1, 'keep')
    const old = recordKey(OTHER, 2, 'old')
    expect(plan([[keep, saved(now - OLD_MS)], [old, saved(now - OLD_MS - 1)]]).remove).toEqual([old])
  })

  test('this conversation’s other records: idle past 30 minutes, folded then removed; the caller’s own never', () => {
    const busy = recordKey(CONV, 1, 'busy')
    const idle = recordKey(CONV, 2, 'idle')
    const ancient = recordKey(CONV, 3, 'ancient')
    const out = plan([
      [busy, saved(now - IDLE_RECORD_MS)],
      [idle, saved(now - IDLE_RECORD_MS - 1)],
      [ancient, saved(now - 30 * DAY)],
      [SELF, saved(0)],
    ])
    // However old, this conversation's record is folded first, so its work is not lost.
    expect(out.fold).toEqual([idle, ancient])
    expect(out.remove).toEqual([idle, ancient])
  })

  test('another conversation’s idle record is left to its own processes (until 14 days)', () => {
    expect(plan([[recordKey(OTHER, 1, 'x'), saved(now - 2 * DAY)]])).toEqual({ fold: [], remove: [] })
  })

  test('briefs older than 14 days; claims older than an hour', () => {
    const out = plan([
      ['brief:V-1', { text: 't', fetchedAt: now - OLD_MS - 1 }],
      ['brief:V-2', { text: 't', fetchedAt: now - OLD_MS }],
      [claimKey(CONV, 0, now - OLD_CLAIM_MS - 1, 'old'), true],
      [claimKey(CONV, 1, now - OLD_CLAIM_MS, 'edge'), true],
      [claimKey(OTHER, 9, now - 2 * OLD_CLAIM_MS, 'theirs'), true],
    ])
    expect(out.remove).toEqual(['brief:V-1', claimKey(CONV, 0, now - OLD_CLAIM_MS - 1, 'old'), claimKey(OTHER, 9, now - 2 * OLD_CLAIM_MS, 'theirs')])
  })

  test('damaged values under the plugin’s prefixes go; keys the plugin does not own stay', () => {
    const out = plan([
      [recordKey(CONV, 5, 'garbage'), 'garbage'],
      [recordKey(CONV, 6, 'noid'), { segment: 1 }],
      ['c:not-a-key', saved(now)],
      ['brief:V-3', { text: '', fetchedAt: now }],
      ['brief:V-4', 42],
      ['handoff:junk', true],
      ['someone-else', { keep: true }],
      ['__proto__', { polluted: true }],
      ['', null],
    ])
    expect(out.fold).toEqual([])
    expect(out.remove).toEqual([recordKey(CONV, 5, 'garbage'), recordKey(CONV, 6, 'noid'), 'c:not-a-key', 'brief:V-3', 'brief:V-4', 'handoff:junk'])
  })
})

describe('the limit of 20 per start', () => {
  test('at most 20 removals, in store order; a long-unused store clears over several starts', () => {
    const values = new Map<string, unknown>()
    for (let i = 0; i < 50; i++) values.set(`brief:V-${i}`, { text: 't', fetchedAt: 1 })
    let left = values
    const removedPerStart: number[] = []
    while (left.size > 0) {
      const out = planPrune(now, left, SELF, CONV)
      removedPerStart.push(out.remove.length)
      expect(out.remove[0]).toBe([...left.keys()][0])
      left = new Map([...left].filter(([k]) => !out.remove.includes(k)))
    }
    expect(removedPerStart).toEqual([PRUNE_LIMIT, PRUNE_LIMIT, 10])
  })

  test('folded records count towards the 20', () => {
    const values = new Map<string, unknown>()
    for (let i = 0; i < 15; i++) values.set(recordKey(CONV, i, `idle${i}`), saved(now - DAY))
    for (let i = 0; i < 15; i++) values.set(`brief:V-${i}`, { text: 't', fetchedAt: 1 })
    const out = planPrune(now, values, SELF, CONV)
    expect(out.fold).toHaveLength(15)
    expect(out.remove).toHaveLength(20)
  })

  test('a store of thousands of entries is planned quickly', () => {
    const values = new Map<string, unknown>()
    for (let i = 0; i < 20_000; i++) values.set(recordKey(OTHER, i, `r${i}`), saved(now - DAY))
    const started = performance.now()
    expect(planPrune(now, values, SELF, CONV).remove).toEqual([])
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})

test('idleness is strictly past 30 minutes', () => {
  expect(isIdleRecord(saved(now - IDLE_RECORD_MS), now)).toBe(false)
  expect(isIdleRecord(saved(now - IDLE_RECORD_MS - 1), now)).toBe(true)
})
