// Claims.claimFirst: the first claim under a prefix wins, whoever asks after it loses; a claim
// older than 30 s (a process that died holding it) no longer counts. Used for handoffs delivered later.
import { describe, expect, test } from 'vitest'
import { Claims, HeldClaims } from '../../core/application/claims'
import { ConversationState } from '../../core/application/conversation-state'
import { StoreCalls, StoreHealth } from '../../core/application/store-calls'
import type { Clock } from '../../core/ports/clock.port'
import type { Host } from '../../core/ports/host.port'
import type { KeyValueStore } from '../../core/ports/store.port'

function processOver(data: Map<string, unknown>, clock: { now: number }, random: string): Claims {
  const store: KeyValueStore = {
    get: async (k) => data.get(k),
    set: async (k, v) => void data.set(k, v),
    delete: async (k) => void data.delete(k),
    keys: async () => [...data.keys()],
  }
  const time: Clock = { now: async () => clock.now, sleep: (_ms, signal) => new Promise((done) => signal?.addEventListener('abort', () => done())) }
  const host: Host = { status: () => undefined, log: () => undefined, ask: async () => 'Allow', registerCommand: async () => undefined, refreshContext: () => undefined }
  return new Claims(new StoreCalls(store, time, host, new StoreHealth()), time, { randomHex: (n) => random.repeat(n).slice(0, n), sha256: async () => 'a'.repeat(64) }, new ConversationState(), new HeldClaims())
}

describe('claimFirst', () => {
  test('two processes: the first claim wins, the second loses; after 30 s a new claim wins again', async () => {
    const data = new Map<string, unknown>()
    const clock = { now: 1_000_000 }
    const a = processOver(data, clock, 'a')
    const b = processOver(data, clock, 'b')
    expect(await a.claimFirst('undelivered-claim:undelivered:V-012:1:x:')).toBe(true)
    expect(await b.claimFirst('undelivered-claim:undelivered:V-012:1:x:')).toBe(false)
    // Another handoff's claim is its own.
    expect(await b.claimFirst('undelivered-claim:undelivered:V-012:2:y:')).toBe(true)
    clock.now += 30_001
    expect(await b.claimFirst('undelivered-claim:undelivered:V-012:1:x:')).toBe(true)
  })
})
