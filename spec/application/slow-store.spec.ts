// A store that is slow is not a store that refuses (docs/SPEC.md, Limits). What SPEC counts as refused stays
// refused: a write the store gives up (Claude Code's lock not granted after about 0.7 s, a damaged file) and,
// at exit, a claim still waiting after 150 ms; the process then hands off its own work. A write that only
// outlasts its wait outside the exit is not: the process goes on with the shared records once it lands.
// Every wait here ends at once when the work it bounds is not done, so "slow" is a write held by the spec.
import { describe, expect, test } from 'vitest'
import { BriefCache } from '../../core/application/brief-cache'
import { Claims, HeldClaims } from '../../core/application/claims'
import { LATE_WRITE_MS } from '../../core/application/store-calls'
import { judgeClaim, type ClaimAttempt } from '../../core/domain/conversation/claim'
import { claimPrefix, recordKey } from '../../core/domain/conversation/keys'
import { addEntry, newRecord } from '../../core/domain/conversation/record'
import type { Clock } from '../../core/ports/clock.port'
import type { Host } from '../../core/ports/host.port'
import type { KeyValueStore } from '../../core/ports/store.port'
import { CONV, file, settle } from '../support'
import { oneProcess } from './one-process'

const NOW = 1_000_000
const KEY = recordKey(CONV, NOW, 'aaaa')

/**
 * One process over a store whose writes of keys matching `hold` wait for `land()` or `refuse()` (or, `refusing`,
 * are refused at once). The wait for a late claim runs out only with `lateRunsOut`.
 */
function world(hold: RegExp, refusing = false, lateRunsOut = false) {
  const data = new Map<string, unknown>()
  const held: { key: string; value: unknown; done: () => void; fail: (e: Error) => void }[] = []
  const store: KeyValueStore = {
    get: async (k) => data.get(k),
    set: (k, v) =>
      refusing && hold.test(k)
        ? Promise.reject(new Error('lock not granted'))
        : hold.test(k)
        ? new Promise<void>((done, fail) => held.push({ key: k, value: v, done: () => (data.set(k, v), done()), fail }))
        : Promise.resolve(void data.set(k, v)),
    delete: async (k) => void data.delete(k),
    keys: async () => [...data.keys()],
  }
  const never = (signal?: AbortSignal) => new Promise<void>((done) => signal?.addEventListener('abort', () => done()))
  const clock: Clock = { now: async () => NOW, sleep: async (ms, signal) => (ms === LATE_WRITE_MS && !lateRunsOut ? never(signal) : undefined) }
  const logs: string[] = []
  const host: Host = { status: () => undefined, log: (line) => void logs.push(line), ask: async () => 'Allow', registerCommand: async () => undefined, refreshContext: () => undefined }
  const { conversation, calls, entropy, records } = oneProcess(store, clock, host, KEY)
  const claims = new Claims(calls, clock, entropy, conversation, new HeldClaims())
  return {
    data,
    logs,
    conversation,
    records,
    claims,
    cache: new BriefCache(calls),
    land: () => held.splice(0).forEach((h) => h.done()),
    refuse: () => held.splice(0).forEach((h) => h.fail(new Error('lock not granted'))),
  }
}

/** How a claim for segment 0 came out, as the domain judges what the store showed. */
const outcome = (attempt: ClaimAttempt | undefined) => attempt && judgeClaim(attempt, claimPrefix(CONV, 0)).outcome

const edit = (path: string) => (r: ReturnType<typeof newRecord>) => addEntry(r, file(path), NOW)

describe('outside the exit', () => {
  test('a record write that outlasts its wait and then lands is no refusal: no log line, and the record counts as stored', async () => {
    const w = world(/^c:/)
    expect(await w.records.save(edit('src/a.ts'))).toBe(false)
    expect(w.conversation.refused).toBe(false)
    w.land()
    await settle()
    expect(w.conversation.refused).toBe(false)
    expect(w.logs).toEqual([])
    expect(w.data.has(KEY)).toBe(true)
    // The next save goes over the shared records as usual, and a claim is judged as usual.
    expect(await w.records.save(edit('src/b.ts'))).toBe(false)
    w.land()
    expect(outcome(await w.claims.claim(0))).toBe('won')
  })

  test('a record write that outlasts its wait and then is refused is a refusal, with one log line', async () => {
    const w = world(/^c:/)
    await w.records.save(edit('src/a.ts'))
    w.refuse()
    await settle()
    expect(w.conversation.refused).toBe(true)
    expect(w.logs).toEqual(['Hark: the plugin store refused a write (lock not granted); this session keeps its own work and hands it off itself.'])
  })

  test('a claim that outlasts its wait is judged once it lands', async () => {
    const w = world(/^handoff:/)
    const claiming = w.claims.claim(0)
    await settle()
    w.land()
    expect(outcome(await claiming)).toBe('won')
  })

  test('a claim that outlasts its wait and then a while longer (LATE_WRITE_MS) counts as refused: nothing waits on the store for ever', async () => {
    const w = world(/^handoff:/, false, true)
    expect(outcome(await w.claims.claim(0))).toBe('refused')
  })

  test('a brief cache the store refuses costs the cache only: the conversation is not refused', async () => {
    const w = world(/^brief:/)
    const writing = w.cache.write('V-012', { text: 'brief', fetchedAt: NOW })
    await settle()
    w.refuse()
    await writing
    await settle()
    expect(w.conversation.refused).toBe(false)
  })
})

describe('what SPEC counts as refused', () => {
  test('a record write the store refuses (its lock not granted, a damaged file): refused at once, one log line', async () => {
    const w = world(/^c:/, true)
    expect(await w.records.save(edit('src/a.ts'))).toBe(false)
    expect(w.conversation.refused).toBe(true)
    expect(w.logs).toHaveLength(1)
  })

  test('at exit, a claim still waiting when its 150 ms are up counts as refused', async () => {
    const w = world(/^handoff:/)
    expect(outcome(await w.claims.claim(0, { waitMs: 150, exit: true }))).toBe('refused')
    expect(w.logs).toEqual(['Hark: the plugin store refused a write (it did not answer in time); this session keeps its own work and hands it off itself.'])
  })
})
