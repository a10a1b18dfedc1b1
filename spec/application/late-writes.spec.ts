// What another process's handoff covered leaves every record that saves after it, the notes too (docs/SPEC.md,
// What it stores, Who reads it: the store file may be readable by other accounts).
import { describe, expect, test } from 'vitest'
import { LATE_WRITE_MS } from '../../core/application/store-calls'
import { recordKey } from '../../core/domain/conversation/keys'
import { markHandedOff } from '../../core/domain/conversation/merge'
import { addEntry, setNotes, type ConversationRecord } from '../../core/domain/conversation/record'
import { sanitizeRecord } from '../../core/domain/conversation/sanitize'
import type { Clock } from '../../core/ports/clock.port'
import type { Host } from '../../core/ports/host.port'
import type { KeyValueStore } from '../../core/ports/store.port'
import { CONV, file, settle } from '../support'
import { oneProcess } from './one-process'

const NOW = 1_000_000
const KEY_A = recordKey(CONV, NOW, 'aaaa')
const KEY_B = recordKey(CONV, NOW + 1, 'bbbb')

function proc(data: Map<string, unknown>, key: string, holdFirst: { on: boolean }) {
  const held: (() => void)[] = []
  const store: KeyValueStore = {
    get: async (k) => data.get(k),
    // The first write of a record waits for its lock (late); later ones land at once: out of order.
    set: (k, v) => {
      if (holdFirst.on && k.startsWith('c:')) {
        holdFirst.on = false
        return new Promise<void>((done) => held.push(() => (data.set(k, structuredClone(v)), done())))
      }
      data.set(k, structuredClone(v))
      return Promise.resolve()
    },
    delete: async (k) => void data.delete(k),
    keys: async () => [...data.keys()],
  }
  // A store call's wait runs out at once (a held write is late); the wait for a late write to land does not.
  const never = (signal?: AbortSignal) => new Promise<void>((done) => signal?.addEventListener('abort', () => done()))
  const clock: Clock = { now: async () => NOW + 10, sleep: async (ms, signal) => (ms === LATE_WRITE_MS ? never(signal) : undefined) }
  const host: Host = { status: () => undefined, log: () => undefined, ask: async () => 'Allow', registerCommand: async () => undefined, refreshContext: () => undefined }
  const { conversation, records } = oneProcess(store, clock, host, key)
  return { records, conversation, land: () => held.splice(0).forEach((h) => h()) }
}

const othersOf = (data: Map<string, unknown>, except: string) => {
  const out = new Map<string, ConversationRecord>()
  for (const [k, v] of data) if (k.startsWith('c:') && k !== except) out.set(k, sanitizeRecord(v)!)
  return out
}


describe('notes after a handoff', () => {
  test("another process's notes leave the store with the handoff that covered them", async () => {
    const data = new Map<string, unknown>()
    const a = proc(data, KEY_A, { on: false })
    const b = proc(data, KEY_B, { on: false })
    await a.records.save((r) => setNotes(addEntry(r, file('src/a.ts'), NOW), 'A private notes', NOW))
    // B hands off (it reads A's record; wins; marks).
    await b.records.refresh()
    const sent = b.conversation.view!
    expect(sent.notes).toBe('A private notes')
    await b.records.save((r, { others, view, now }) => markHandedOff(KEY_B, r, view, others, now, true, sent))
    // A goes on saving (a prompt, say), then ends: nothing pending, so no mark of its own.
    await a.records.save()
    expect(a.conversation.view!.work.files).toEqual([])
    expect(a.conversation.view!.notes).toBeUndefined()
    const stored = JSON.stringify([...data.values()])
    expect(stored).not.toContain('A private notes')
  })
})
