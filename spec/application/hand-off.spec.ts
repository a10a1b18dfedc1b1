// The handoff's timing at exit (docs/SPEC.md, The handoff): each request stops waiting 0.4 s before the
// exit window ends; session_stopped only when end_session failed other than by timing out and time is
// left. The engine's test kit cannot shorten its 10 s exit budget, so these rules are pinned here, with
// the use case over faked ports (testdouble) and a clock that moves only when a port says so.
import * as td from 'testdouble'
import { afterEach, describe, expect, test } from 'vitest'
import { BriefService, BriefState } from '../../core/application/brief-service'
import { BriefCache } from '../../core/application/brief-cache'
import { Claims, HeldClaims } from '../../core/application/claims'
import { ConversationState } from '../../core/application/conversation-state'
import { DeliverLater } from '../../core/application/deliver-later'
import { HandoffRequest } from '../../core/application/handoff-request'
import { RecordRepository } from '../../core/application/record-repository'
import { StoreCalls, StoreHealth } from '../../core/application/store-calls'
import { UndeliveredStore } from '../../core/application/undelivered-store'
import { HandOff, HandoffAhead, type ExitWindow } from '../../core/application/hand-off'
import { GatherHandoff } from '../../core/application/gather-handoff'
import { describePreview } from '../../core/application/hark-subcommands'
import { CLOSE_REASON, type HandoffPayload } from '../../core/domain/handoff'
import { PathState, ProjectPaths } from '../../core/application/project-paths'
import { StartState } from '../../core/application/start-session'
import { claimKey, recordKey } from '../../core/domain/conversation/keys'
import { addEntry, newRecord } from '../../core/domain/conversation/record'
import { mergeConversation } from '../../core/domain/conversation/merge'
import type { Clock } from '../../core/ports/clock.port'
import type { Entropy } from '../../core/ports/entropy.port'
import type { Files } from '../../core/ports/files.port'
import type { SessionInfo } from '../../core/ports/session.port'
import type { HarkCallOptions, HarkGateway } from '../../core/ports/hark.port'
import type { Host } from '../../core/ports/host.port'
import type { KeyValueStore } from '../../core/ports/store.port'
import { CONV, file, ID1, settle, v } from '../support'

const START = 1_000_000
const WINDOW = 1_500

/**
 * A clock at START that store calls move by `storeMs` each; waits never end on their own, or with
 * `waitsEnd` after a few real ms (each wait then runs out as soon as the work it bounds is not done).
 */
function world(storeMs: number, { waitsEnd = false, holdClaim = false, holdRecord = false } = {}) {
  let now = START
  const never = (signal?: AbortSignal) => new Promise<void>((done) => signal?.addEventListener('abort', () => done()))
  const soon = (signal?: AbortSignal) =>
    new Promise<void>((done) => {
      const t = setTimeout(done, 5)
      signal?.addEventListener('abort', () => (clearTimeout(t), done()))
    })
  const clock: Clock = { now: async () => now, sleep: (_ms, signal) => (waitsEnd ? soon(signal) : never(signal)) }
  const data = new Map<string, unknown>()
  /** Each store call, as `set <key>`, `get <key>`, `delete <key>` or `keys`. */
  const calls: string[] = []
  /** With `holdClaim` (`holdRecord`), the first claim's (record's) write waits for `release()`. */
  let release = () => {}
  let held = holdClaim || holdRecord ? new Promise<void>((done) => (release = done)) : undefined
  const holds = (k: string) => k.startsWith(holdClaim ? 'handoff:' : 'c:')
  const store: KeyValueStore = {
    get: async (k) => (calls.push(`get ${k}`), (now += storeMs), data.get(k)),
    set: async (k, v) => {
      calls.push(`set ${k}`)
      if (held !== undefined && holds(k)) {
        const waiting = held
        held = undefined
        await waiting
      }
      now += storeMs
      data.set(k, JSON.parse(JSON.stringify(v)))
    },
    delete: async (k) => void (calls.push(`delete ${k}`), (now += storeMs), data.delete(k)),
    keys: async () => (calls.push('keys'), (now += storeMs), [...data.keys()]),
  }
  const entropy: Entropy = { randomHex: (n) => 'c'.repeat(n), sha256: async () => CONV }
  const host = td.object<Host>()
  const hark = td.object<HarkGateway>()
  // An active conversation with one edited file, as the start leaves it.
  const start = new StartState()
  start.moveTo('active', { project: { venture: v('V-012'), root: '/p', file: '/p/.hark/project' } })
  const conversation = new ConversationState()
  const key = recordKey(CONV, START, 'aaaa')
  const record = addEntry(newRecord(ID1), file('src/a.ts'), START)
  conversation.begin({ key: CONV, recordKey: key, sessionId: 'S1' }, record, mergeConversation(key, record, new Map()))
  const storeCalls = new StoreCalls(store, clock, host, new StoreHealth())
  const records = new RecordRepository(storeCalls, clock, entropy, host, conversation)
  const conversations = new Claims(storeCalls, clock, entropy, conversation, new HeldClaims())
  const settings = {}
  const paths = new ProjectPaths(new PathState(), td.object<Files>(), td.object<SessionInfo>())
  const request = new HandoffRequest(hark, host, settings, paths, new DeliverLater(new UndeliveredStore(storeCalls, conversations, clock, entropy), hark, clock, host), conversation)
  const handOff = new HandOff(new GatherHandoff(start, new BriefState(), conversation, records, clock), conversations, records, request, new HandoffAhead(), clock)
  /** The exit window ending at `end` on this clock. */
  const exitBy = (end: number): ExitWindow => ({ left: () => Math.max(0, end - now) })
  return { handOff, hark, host, records, start, conversation, conversations, data, calls, exitBy, release: () => release(), elapsed: () => now - START, advance: (ms: number) => void (now += ms) }
}

afterEach(() => td.reset())

describe('at exit', () => {
  test('end_session may wait the rest of the window less 0.4 s; after a time-out, no retry and no session_stopped', async () => {
    const w = world(10)
    const limits: (number | undefined)[] = []
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenDo(async (_args: unknown, options: HarkCallOptions) => {
      limits.push(options.timeoutMs)
      return { ok: false, kind: 'timeout', detail: 'no answer within 1.0 s' }
    })
    const out = await w.handOff.run(w.exitBy(START + WINDOW))
    expect(out.kind).toBe('failed')
    // The store calls before it (refresh, claim, mark) took this long; the request gets what is left less 0.4 s.
    const before = w.elapsed()
    expect(limits).toEqual([WINDOW - 400 - before])
    td.verify(w.hark.sessionStopped(td.matchers.anything(), td.matchers.anything()), { times: 0 })
  })

  test('end_session refused with time left: session_stopped, limited the same way', async () => {
    const w = world(10)
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: false, kind: 'refused', detail: 'HTTP 500' })
    const limits: (number | undefined)[] = []
    td.when(w.hark.sessionStopped(v('V-012'), td.matchers.anything())).thenDo(async (_v: string, options: HarkCallOptions) => {
      limits.push(options.timeoutMs)
      return { ok: true, value: undefined }
    })
    const out = await w.handOff.run(w.exitBy(START + WINDOW))
    expect(out).toMatchObject({ kind: 'sent', tool: 'session_stopped' })
    expect(limits[0]).toBeLessThanOrEqual(WINDOW - 400)
  })

  test('end_session refused with no exit time left: no session_stopped, one log line', async () => {
    // Store calls of 150 ms each eat the window before the request.
    const w = world(150)
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: false, kind: 'refused', detail: 'HTTP 500' })
    await w.handOff.run(w.exitBy(START + 1_000))
    td.verify(w.hark.sessionStopped(td.matchers.anything(), td.matchers.anything()), { times: 0 })
    td.verify(w.host.log(td.matchers.contains('no exit time was left')), { times: 1 })
  })
})

describe('a handoff kept for later (nothing reached Hark) is written only while the window leaves its wait', () => {
  for (const [left, kept] of [[300, true], [100, false]] as const) {
    test(`end_session unreachable with ${left} ms of the window left: ${kept ? 'kept' : 'not kept, nothing written past the window'}`, async () => {
      const w = world(1)
      const end = START + WINDOW
      td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenDo(async () => {
        // The connection failed slowly: the window is all but spent when the answer comes.
        w.advance(end - left - (START + w.elapsed()))
        return { ok: false, kind: 'unreachable', detail: 'connection refused' }
      })
      await w.handOff.run(w.exitBy(end))
      td.verify(w.hark.sessionStopped(td.matchers.anything(), td.matchers.anything()), { times: 0 })
      expect([...w.data.keys()].some((k) => k.startsWith('undelivered:'))).toBe(kept)
      td.verify(w.host.log(td.matchers.contains('no exit time was left')), { times: 1 })
    })
  }
})

describe("the handoff's claim", () => {
  test("a claim this process's prune holds for the segment (folding idle records) is not another process's: the handoff goes out", async () => {
    const w = world(10)
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    expect(await w.conversations.won(0)).toBe(true)
    const out = await w.handOff.run()
    expect(out).toMatchObject({ kind: 'sent', tool: 'end_session' })
    // Stubbed (it answers), so counted with explain rather than verified (testdouble warns on both for one call).
    expect(td.explain(w.hark.endSession).callCount).toBe(1)
  })

  test("another process's earlier claim still wins: this one sends nothing", async () => {
    const w = world(10)
    w.data.set(claimKey(CONV, 0, START, 'dddddddd'), true)
    expect(await w.handOff.run()).toEqual({ kind: 'taken' })
    td.verify(w.hark.endSession(td.matchers.anything(), td.matchers.anything()), { times: 0 })
  })

  test("a claim of this process's that is not the prune's (a handoff running beside it) is not taken over", async () => {
    const w = world(10)
    expect(await w.conversations.claim(0)).toMatchObject({ stored: true })
    expect(await w.handOff.run()).toEqual({ kind: 'taken' })
  })
})

const claims = (data: Map<string, unknown>) => [...data.keys()].filter((k) => k.startsWith('handoff:'))

describe('the claim made ahead at classic.SessionEnd (end_session goes out within 15 ms of session.end: docs/performance.md)', () => {
  test('session.end goes from the mark to end_session: one store write, no read; one claim in all', async () => {
    const w = world(1)
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    await w.handOff.prepare(Promise.resolve())
    await settle()
    expect(claims(w.data)).toHaveLength(1)
    const before = w.calls.length
    expect(await w.handOff.run(w.exitBy(START + WINDOW))).toMatchObject({ kind: 'sent', tool: 'end_session' })
    expect(w.calls.slice(before)).toEqual([expect.stringMatching(/^set c:/)])
    expect(claims(w.data)).toHaveLength(1)
    // Stubbed (it answers), so counted with explain rather than verified (testdouble warns on both for one call).
    expect(td.explain(w.hark.endSession).callCount).toBe(1)
  })

  test("another process's earlier claim still wins: the claim made ahead loses, and session.end sends nothing", async () => {
    const w = world(1)
    w.data.set(claimKey(CONV, 0, START, 'dddddddd'), true)
    await w.handOff.prepare(Promise.resolve())
    expect(await w.handOff.run(w.exitBy(START + WINDOW))).toEqual({ kind: 'taken' })
    td.verify(w.hark.endSession(td.matchers.anything(), td.matchers.anything()), { times: 0 })
  })

  test('claimed ahead, then nothing to hand off (the conversation moved): the claim is removed', async () => {
    const w = world(1)
    await w.handOff.prepare(Promise.resolve())
    await settle()
    expect(claims(w.data)).toHaveLength(1)
    w.conversation.noteMoved(true)
    expect(await w.handOff.run(w.exitBy(START + WINDOW))).toEqual({ kind: 'moved' })
    expect(claims(w.data)).toEqual([])
  })

  test('a claim made ahead that the store does not take in time counts as refused (SPEC.md, Limits): session.end hands off this process\'s work, once', async () => {
    const w = world(0, { waitsEnd: true, holdClaim: true })
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    await w.handOff.prepare(Promise.resolve())
    await settle()
    expect(await w.handOff.run(w.exitBy(START + WINDOW))).toMatchObject({ kind: 'sent', tool: 'end_session' })
    td.verify(w.host.log(td.matchers.contains('store')), { times: 1 })
    // Refused, as a refused record is: this process hands off its own work from now on.
    expect(w.conversation.refused).toBe(true)
    // Marked as this process's own handoff, so no later process sends it again.
    expect(w.calls.filter((c) => c.startsWith('set c:'))).toHaveLength(1)
    w.release()
    await settle()
    // Stubbed (it answers), so counted with explain rather than verified (testdouble warns on both for one call).
    expect(td.explain(w.hark.endSession).callCount).toBe(1)
  })

  test('a segment another process closed meanwhile: the claim made ahead on the old one goes, and session.end claims the next', async () => {
    const w = world(1)
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    // Another process's record: it handed off segment 0, which this process has not read yet.
    w.data.set(recordKey(CONV, START, 'bbbb'), { ...newRecord(ID1), segment: 1 })
    await w.handOff.prepare(Promise.resolve())
    expect(claims(w.data)).toEqual([])
    expect(await w.handOff.run(w.exitBy(START + WINDOW))).toMatchObject({ kind: 'sent', tool: 'end_session' })
    expect(claims(w.data).map((k) => k.split(':')[2])).toEqual(['1'])
  })

  test('the claim made ahead is the exit\'s own: a /hark handoff beside it does not take it over, and the exit sends the work once', async () => {
    const w = world(1)
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    await w.handOff.prepare(Promise.resolve())
    await settle()
    const [handing, ending] = await Promise.all([w.handOff.run(), w.handOff.run(w.exitBy(START + WINDOW))])
    expect([handing.kind, ending.kind].sort()).toEqual(['sent', 'taken'])
    expect(td.explain(w.hark.endSession).callCount).toBe(1)
  })

  test('nothing claimed ahead while the start is still going: session.end does it all', async () => {
    const w = world(1, { waitsEnd: true })
    let finish = () => {}
    w.start.begin(() => new Promise<void>((done) => (finish = done)))
    await w.handOff.prepare(Promise.resolve())
    await settle()
    expect(claims(w.data)).toEqual([])
    finish()
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    expect(await w.handOff.run(w.exitBy(START + WINDOW))).toMatchObject({ kind: 'sent', tool: 'end_session' })
    expect(claims(w.data)).toHaveLength(1)
  })
})

describe('at exit, a write of the record from before the exit that never settles', () => {
  test('the handoff does not wait behind it: its own store steps give up in time, and end_session goes out with all the work', async () => {
    const w = world(0, { waitsEnd: true, holdRecord: true })
    // A hook's change, whose write the store holds (another process has its lock, say).
    await w.records.record((r, { now }) => addEntry(r, file('src/late.ts'), now))
    await settle()
    expect(w.calls.filter((c) => c.startsWith('set c:'))).toHaveLength(1)
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    const out = await w.handOff.run(w.exitBy(START + WINDOW))
    expect(out).toMatchObject({ kind: 'sent', tool: 'end_session' })
    expect((td.explain(w.hark.endSession).calls[0]?.args[0] as HandoffPayload).what_changed).toBe('edited src/a.ts\nedited src/late.ts')
    // One write of the record at a time: the mark waits for the held one, so the store takes them in order.
    expect(w.calls.filter((c) => c.startsWith('set c:'))).toHaveLength(1)
  })
})

describe('/hark preview (SPEC.md): the handoff\'s own steps, stopped before the claim', () => {
  test('the preview is the payload the handoff then sends; it claims, stores and sends nothing', async () => {
    const w = world(0, { waitsEnd: true })
    const preview = await w.handOff.preview()
    expect(w.data.size).toBe(0)
    td.verify(w.hark.endSession(td.matchers.anything(), td.matchers.anything()), { times: 0 })
    td.verify(w.hark.closeSession(td.matchers.anything(), td.matchers.anything()), { times: 0 })
    td.verify(w.hark.sessionStopped(td.matchers.anything(), td.matchers.anything()), { times: 0 })
    td.when(w.hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
    expect((await w.handOff.run()).kind).toBe('sent')
    const sent = td.explain(w.hark.endSession).calls[0]?.args[0] as HandoffPayload
    expect(preview).toEqual({ kind: 'end_session', payload: sent })
    expect(sent.what_changed).toBe('edited src/a.ts')
  })

  test('the preview printed: each field as it would go, watch_out_for only when there is one', () => {
    const payload: HandoffPayload = { venture: 'V-012', what_i_did: 'Edited 1 file, made no commits and ran no tests.', what_changed: 'edited src/a.ts', whats_next: '', links: ['src/a.ts'] }
    const text = describePreview({ kind: 'end_session', payload })
    expect(text).toContain('end_session would send this to Hark for V-012')
    expect(text).toContain('what_i_did:\nEdited 1 file, made no commits and ran no tests.')
    expect(text).toContain('what_changed:\nedited src/a.ts')
    expect(text).toContain('whats_next:\n(empty)')
    expect(text).toContain('links:\nsrc/a.ts')
    expect(text).not.toContain('watch_out_for')
    expect(describePreview({ kind: 'end_session', payload: { ...payload, watch_out_for: 'npm test failed.' } })).toContain('watch_out_for:\nnpm test failed.')
    expect(describePreview({ kind: 'close_session', reason: CLOSE_REASON })).toContain(`close_session would be sent to close the open Hark session, with the reason "${CLOSE_REASON}"`)
    expect(describePreview({ kind: 'nothing' })).toContain('so nothing would be sent')
  })
})
