// The rules for handoffs delivered later (core/domain/undelivered.ts; README, The handoff).
import { describe, expect, test } from 'vitest'
import { deliveredLater, parseUndeliveredKey, planUndelivered, sanitizeUndelivered, undeliveredKey } from '../../core/domain/undelivered'
import { ID1 } from '../support'

const DAY = 86_400_000
const NOW = 1_800_000_000_000
const payload = { venture: 'V-012', what_i_did: 'Edited 1 file.', what_changed: 'edited src/a.ts', whats_next: 'Review src/a.ts', links: ['src/a.ts'] }

describe('handoffs delivered later', () => {
  test('keys name the project and the time; other keys are not theirs', () => {
    expect(parseUndeliveredKey(undeliveredKey('V-012', NOW, 'ab12'))).toEqual({ venture: 'V-012', recordedAt: NOW })
    for (const k of ['undelivered:V-012:x:ab', 'undelivered:V-012:1', 'c:aaaa:1:2', 'undelivered::1:ab']) expect(parseUndeliveredKey(k)).toBeUndefined()
  })

  test('at most 5 a project, 14 days at most: the newest fresh ones are sent oldest first, the rest dropped', () => {
    const keys = [
      undeliveredKey('V-012', NOW - 15 * DAY, 'old'),
      ...[6, 5, 4, 3, 2, 1].map((d) => undeliveredKey('V-012', NOW - d * DAY, `d${d}`)),
      undeliveredKey('V-077', NOW - DAY, 'other'),
    ]
    const plan = planUndelivered(NOW, keys, 'V-012')
    expect(plan.send).toEqual([5, 4, 3, 2, 1].map((d) => undeliveredKey('V-012', NOW - d * DAY, `d${d}`)))
    expect(plan.drop.sort()).toEqual([undeliveredKey('V-012', NOW - 15 * DAY, 'old'), undeliveredKey('V-012', NOW - 6 * DAY, 'd6')].sort())
  })

  test('a stored value is checked again: what is not one is refused, fields are kept to their type', () => {
    const key = undeliveredKey('V-012', NOW, 'ab')
    expect(sanitizeUndelivered({ conversationId: ID1, recordedAt: NOW, payload }, key)).toEqual({ conversationId: ID1, recordedAt: NOW, payload })
    for (const bad of [null, 'x', { conversationId: 'nope', recordedAt: NOW, payload }, { conversationId: ID1, recordedAt: 'x', payload }, { conversationId: ID1, recordedAt: NOW, payload: { venture: 1 } }]) {
      expect(sanitizeUndelivered(bad, key)).toBeUndefined()
    }
    const odd = sanitizeUndelivered({ conversationId: ID1, recordedAt: NOW, payload: { ...payload, links: ['a', 3, 'b'], extra: 'x' } }, key)
    expect(odd?.payload.links).toEqual(['a', 'b'])
    expect(JSON.stringify(odd)).not.toContain('extra')
  })

  test('a value whose time or project is not its key\'s is refused (a time no Date can show above all)', () => {
    const key = undeliveredKey('V-012', NOW, 'ab')
    expect(sanitizeUndelivered({ conversationId: ID1, recordedAt: NOW + 1, payload }, key)).toBeUndefined()
    expect(sanitizeUndelivered({ conversationId: ID1, recordedAt: NOW, payload: { ...payload, venture: 'OTHER-9' } }, key)).toBeUndefined()
    expect(parseUndeliveredKey(undeliveredKey('V-012', 9_000_000_000_000_000, 'ab'))).toBeUndefined()
    expect(sanitizeUndelivered({ conversationId: ID1, recordedAt: 9_000_000_000_000_000, payload }, undeliveredKey('V-012', 9_000_000_000_000_000, 'ab'))).toBeUndefined()
  })

  test('what_i_did says when the work was recorded', () => {
    const out = deliveredLater({ conversationId: ID1, recordedAt: Date.UTC(2026, 11, 1, 8, 30), payload })
    expect(out.what_i_did).toBe('Recorded 2026-12-01T08:30:00Z; Hark could not be reached then, so it is delivered later.\nEdited 1 file.')
    expect(out.what_changed).toBe(payload.what_changed)
  })
})
