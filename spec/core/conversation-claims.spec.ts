import { CONV, OTHER } from '../support'
/**
 * Store keys and claim arbitration (SPEC.md: What it stores — `c:<conversation key>:<load time>:<random>`,
 * `brief:<project code>`, `handoff:<conversation key>:<segment>:<time>:<random>`; One conversation,
 * several processes — "The first claim the store holds wins … A claim older than 30 seconds … is ignored").
 */
import { describe, expect, test } from 'vitest'
import { CLAIM_TTL_MS, claimWinner } from '../../core/domain/conversation/claim'
import {
  briefKey,
  claimKey,
  conversationKeyInput,
  parseClaimKey,
  parseRecordKey,
  recordKey,
  type ConversationKey,
} from '../../core/domain/conversation/keys'


describe('record keys', () => {
  test('round-trip', () => {
    const key = recordKey(CONV, 1_767_000_000_123, '0f3a9c2e')
    expect(key).toBe(`c:${CONV}:1767000000123:0f3a9c2e`)
    expect(parseRecordKey(key)).toEqual({ conversation: CONV, loadTime: 1_767_000_000_123, random: '0f3a9c2e' })
  })

  test.each([
    ['another prefix', `x:${CONV}:1:a`],
    ['a short conversation key', `c:${'a'.repeat(63)}:1:a`],
    ['upper-case hex', `c:${'A'.repeat(64)}:1:a`],
    ['a negative time', `c:${CONV}:-1:a`],
    ['an empty time', `c:${CONV}::a`],
    ['a time in exponent form', `c:${CONV}:1e3:a`],
    ['a time with a fraction', `c:${CONV}:1.5:a`],
    ['a time with a leading zero', `c:${CONV}:01:a`],
    ['a time past 2^53', `c:${CONV}:99999999999999999:a`],
    ['no random part', `c:${CONV}:1`],
    ['an empty random part', `c:${CONV}:1:`],
    ['a random part with symbols', `c:${CONV}:1:a-b`],
    ['a random part over 32 characters', `c:${CONV}:1:${'a'.repeat(33)}`],
    ['an extra part', `c:${CONV}:1:a:b`],
    ['the prototype', '__proto__'],
    ['a brief key', 'brief:V-012'],
  ])('%s is not a record key', (_, key) => {
    expect(parseRecordKey(key)).toBeUndefined()
  })
})

describe('claim keys', () => {
  test('round-trip', () => {
    const key = claimKey(CONV, 3, 5_000, 'c0ffee00')
    expect(key).toBe(`handoff:${CONV}:3:5000:c0ffee00`)
    expect(parseClaimKey(key)).toEqual({ conversation: CONV, segment: 3, time: 5_000, random: 'c0ffee00' })
  })

  test.each([
    ['a record key', recordKey(CONV, 1, 'a')],
    ['a segment that is no number', `handoff:${CONV}:x:5000:cc`],
    ['a negative segment', `handoff:${CONV}:-1:5000:cc`],
    ['a time with spaces', `handoff:${CONV}:1: 5000:cc`],
    ['a missing random part', `handoff:${CONV}:1:5000`],
    ['an extra part', `handoff:${CONV}:1:5000:cc:dd`],
  ])('%s is not a claim key', (_, key) => {
    expect(parseClaimKey(key)).toBeUndefined()
  })

  test('brief keys name the project code; the conversation key input never leaves the machine', () => {
    expect(briefKey('V-012')).toBe('brief:V-012')
    expect(conversationKeyInput('/home/dev/ledger', 1_767_000_000_000)).toBe('hark-memory conversation\n/home/dev/ledger\n1767000000000')
  })
})

describe('claim arbitration', () => {
  const now = 1_000_000

  test('the first claim in store order wins, whatever the times in the keys say', () => {
    const keys = [claimKey(CONV, 0, now - 10, 'later'), claimKey(CONV, 0, now - 20, 'earlier')]
    expect(claimWinner(keys, CONV, 0, now)).toBe(keys[0])
  })

  test('only this conversation and this segment count; other keys are skipped', () => {
    const keys = [
      'brief:V-012',
      recordKey(CONV, 1, 'r'),
      claimKey(OTHER, 0, now, 'otherconv'),
      claimKey(CONV, 1, now, 'otherseg'),
      'handoff:garbage',
      claimKey(CONV, 0, now, 'mine'),
    ]
    expect(claimWinner(keys, CONV, 0, now)).toBe(claimKey(CONV, 0, now, 'mine'))
    expect(claimWinner(keys, CONV, 1, now)).toBe(claimKey(CONV, 1, now, 'otherseg'))
    expect(claimWinner(keys, CONV, 2, now)).toBeUndefined()
  })

  test('a claim 30 seconds old still holds; one a millisecond older is ignored', () => {
    const stale = claimKey(CONV, 0, now - CLAIM_TTL_MS - 1, 'dead')
    const edge = claimKey(CONV, 0, now - CLAIM_TTL_MS, 'edge')
    const fresh = claimKey(CONV, 0, now, 'fresh')
    expect(claimWinner([stale, fresh], CONV, 0, now)).toBe(fresh)
    expect(claimWinner([edge, fresh], CONV, 0, now)).toBe(edge)
  })

  test('a claim from a clock slightly ahead still counts', () => {
    const ahead = claimKey(CONV, 0, now + 500, 'ahead')
    expect(claimWinner([ahead, claimKey(CONV, 0, now, 'mine')], CONV, 0, now)).toBe(ahead)
  })

  test('two processes reading the same keys agree on the winner', () => {
    const a = claimKey(CONV, 4, now, 'aaaa')
    const b = claimKey(CONV, 4, now + 3, 'bbbb')
    const keys = [recordKey(CONV, 1, 'r1'), a, recordKey(CONV, 2, 'r2'), b]
    expect(claimWinner(keys, CONV, 4, now)).toBe(a)
    expect(claimWinner(keys, CONV, 4, now + 3)).toBe(a)
  })
})

describe('a claim dated ahead of now (a clock or a writer gone wrong)', () => {
  const CONV = 'f'.repeat(64) as ConversationKey
  test('does not win, and is pruned', async () => {
    const { claimKey: key } = await import('../../core/domain/conversation/keys')
    const { claimWinner: winner } = await import('../../core/domain/conversation/claim')
    const { planPrune: plan } = await import('../../core/domain/conversation/prune')
    const now = 10_000_000_000
    const future = key(CONV, 0, now + 365 * 86_400_000, 'zz')
    const mine = key(CONV, 0, now, 'me')
    expect(winner([future, mine], CONV, 0, now)).toBe(mine)
    expect(winner([key(CONV, 0, now + 20_000, 'soon'), mine], CONV, 0, now)).toBe(key(CONV, 0, now + 20_000, 'soon'))
    expect(plan(now, new Map([[future, true]]), 'c:x', CONV).remove).toEqual([future])
  })
})
