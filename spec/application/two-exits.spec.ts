// Two processes ending one conversation over a slow store whose writes wait on its lock (docs/SPEC.md, One
// conversation, several processes; Limits): a process refused once hands off its own work without what another
// process handed off and it has read.
import * as td from 'testdouble'
import { afterEach, describe, expect, test } from 'vitest'
import { BriefState } from '../../core/application/brief-service'
import { Claims, HeldClaims } from '../../core/application/claims'
import { ConversationState } from '../../core/application/conversation-state'
import { DeliverLater } from '../../core/application/deliver-later'
import { HandoffRequest } from '../../core/application/handoff-request'
import { RecordRepository } from '../../core/application/record-repository'
import { LATE_WRITE_MS, StoreCalls, StoreHealth } from '../../core/application/store-calls'
import { UndeliveredStore } from '../../core/application/undelivered-store'
import { HandOff, HandoffAhead, type ExitWindow } from '../../core/application/hand-off'
import { GatherHandoff } from '../../core/application/gather-handoff'
import { PathState, ProjectPaths } from '../../core/application/project-paths'
import { StartState } from '../../core/application/start-session'
import { recordKey } from '../../core/domain/conversation/keys'
import { addEntry, newRecord, setNotes, type ConversationRecord } from '../../core/domain/conversation/record'
import { mergeConversation } from '../../core/domain/conversation/merge'
import { sanitizeRecord } from '../../core/domain/conversation/sanitize'
import type { Clock } from '../../core/ports/clock.port'
import type { Entropy } from '../../core/ports/entropy.port'
import type { Files } from '../../core/ports/files.port'
import type { SessionInfo } from '../../core/ports/session.port'
import type { HarkGateway } from '../../core/ports/hark.port'
import type { Host } from '../../core/ports/host.port'
import type { KeyValueStore } from '../../core/ports/store.port'
import { CONV, file, ID1, settle, v } from '../support'

const START = 1_000_000

/** A process over the shared `data`; `hold(key)` true: that write waits until `landAll()`. */
function proc(data: Map<string, unknown>, name: string, path: string, hold: (k: string) => boolean, now = START, refuse: (k: string) => boolean = () => false) {
  const soon = (signal?: AbortSignal) =>
    new Promise<void>((done) => {
      const t = setTimeout(done, 5)
      signal?.addEventListener('abort', () => (clearTimeout(t), done()))
    })
  const never = (signal?: AbortSignal) => new Promise<void>((done) => signal?.addEventListener('abort', () => done()))
  const clock: Clock = { now: async () => now, sleep: (ms, signal) => (ms === LATE_WRITE_MS ? never(signal) : soon(signal)) }
  const held: { k: string; go: () => void }[] = []
  const store: KeyValueStore = {
    get: async (k) => structuredClone(data.get(k)),
    set: (k, val) => (refuse(k) ? Promise.reject(new Error("Lock file is already being held")) : hold(k) ? new Promise<void>((done) => held.push({ k, go: () => (data.set(k, structuredClone(val)), done()) })) : Promise.resolve(void data.set(k, structuredClone(val)))),
    delete: async (k) => void data.delete(k),
    keys: async () => [...data.keys()],
  }
  const entropy: Entropy = { randomHex: (n) => name.repeat(n), sha256: async () => CONV }
  const host = td.object<Host>()
  const hark = td.object<HarkGateway>()
  td.when(hark.endSession(td.matchers.anything(), td.matchers.anything())).thenResolve({ ok: true, value: undefined })
  const start = new StartState()
  start.moveTo('active', { project: { venture: v('V-012'), root: '/p', file: '/p/.hark/project' } })
  const conversation = new ConversationState()
  const key = recordKey(CONV, START, name.repeat(8))
  const record = { ...addEntry(newRecord(ID1), file(path), START), savedAt: START }
  data.set(key, record)
  conversation.begin({ key: CONV, recordKey: key, sessionId: name }, record, mergeConversation(key, record, new Map()))
  const calls = new StoreCalls(store, clock, host, new StoreHealth())
  const records = new RecordRepository(calls, clock, entropy, host, conversation)
  const claims = new Claims(calls, clock, entropy, conversation, new HeldClaims())
  const paths = new ProjectPaths(new PathState(), td.object<Files>(), td.object<SessionInfo>())
  const request = new HandoffRequest(hark, host, {}, paths, new DeliverLater(new UndeliveredStore(calls, claims, clock, entropy), hark, clock, host), conversation)
  const handOff = new HandOff(new GatherHandoff(start, new BriefState(), conversation, records, clock), claims, records, request, new HandoffAhead(), clock)
  const exit: ExitWindow = { left: () => 1_500 }
  return { handOff, hark, key, exit, records, conversation, land: (p: (k: string) => boolean) => held.filter((h) => p(h.k)).forEach((h) => (held.splice(held.indexOf(h), 1), h.go())), landAll: () => held.splice(0).forEach((h) => h.go()) }
}

afterEach(() => td.reset())

describe('a process the store refused once', () => {
  test("does not send again work another process handed off, which it read", async () => {
    const data = new Map<string, unknown>()
    let slow = false
    const a = proc(data, 'a', 'src/a.ts', (k) => slow && k.startsWith('c:'))
    const b = proc(data, 'b', 'src/b.ts', () => false, START + 5_000)
    // Earlier, one claim of A's timed out (a slow store): A's conversation counts as refused from then on.
    a.records.refuse()
    // A edits one more file; its write is slow (it lands after B's read).
    slow = true
    await a.records.record((r, { now }) => addEntry(r, file('src/c.ts'), now), START + 4_000)
    await settle()
    slow = false
    // B ends first: it reads A's record and hands off both files, marking them.
    const outB = await b.handOff.run(b.exit)
    expect(outB).toMatchObject({ kind: 'sent', work: { files: ['src/a.ts', 'src/b.ts'] } })
    a.landAll()
    await settle()
    // A ends; it reads the store (B's mark in it) before handing off its own work.
    const outA = await a.handOff.run(a.exit)
    expect(outA.kind === 'sent' ? outA.work.files : []).toEqual(['src/c.ts'])
  })
})

