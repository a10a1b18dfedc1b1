// The composition root's lifetimes (docs/architecture.md, Lifetimes): one instance per class per hook
// call; the conversation's state shared by every call of the conversation and dropped by
// endConversation; the load's state kept for the whole load; and no object that outlives a call
// holding that call's ports.
import { describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import type { EnginePorts } from '../../adapters/claude-code/engine-ports'
import { memoryPorts } from '../memory-ports'
import { settle } from '../support'
import type { UseCases } from '../../adapters/claude-code/application'

const KEY = 'hark_spec_key_0123456789'
const ROOT = '/spec/project'

/** Engine ports over shared in-memory data, each call's port objects new; `said` collects this call's status and log lines. */
function portsOver(data: Map<string, unknown>, hark: InMemoryHark) {
  const said: string[] = []
  const ports = memoryPorts({ data, root: ROOT, now: 1_767_000_000_000, said, post: async (headers, body) => hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body }) })
  return { ports, said }
}

function world() {
  const data = new Map<string, unknown>()
  const hark = new InMemoryHark(undefined, KEY)
  const app = compose({ access_key: KEY })
  return { app, call: () => portsOver(data, hark), data }
}

/** Every object of a class reachable from the use cases (ports and plain data excluded), by class. */
function instancesByClass(uc: UseCases, ports: EnginePorts): Map<string, Set<object>> {
  const portObjects = new Set<unknown>(Object.values(ports))
  const out = new Map<string, Set<object>>()
  const seen = new Set<unknown>()
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null || seen.has(value) || portObjects.has(value)) return
    seen.add(value)
    const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null
    const name = proto?.constructor?.name
    if (name !== undefined && name !== 'Object' && name !== 'Array' && name !== 'Map' && name !== 'Set' && name !== 'Promise') {
      const set = out.get(name) ?? new Set<object>()
      set.add(value)
      out.set(name, set)
    }
    for (const field of Object.values(value)) visit(field)
  }
  visit(uc)
  return out
}

/** A private field, for looking at the wiring; `path` goes field by field. Fails on a field that is not there. */
const field = (o: object, ...path: string[]): object => {
  let at = o
  for (const name of path) {
    const next = (at as Record<string, unknown>)[name]
    if (typeof next !== 'object' || next === null) throw new Error(`no object at .${path.join('.')} (${name})`)
    at = next
  }
  return at
}

describe('one hook call', () => {
  test('builds each class once, shared by every use case that needs it', () => {
    const w = world()
    const { ports } = w.call()
    const byClass = instancesByClass(w.app.useCases(ports), ports)
    for (const name of ['RecordRepository', 'StoreCalls', 'Claims', 'BriefService', 'KeepBrief', 'StatusLine', 'GuardMatch', 'DecisionFetch', 'McpHarkGateway', 'KeyWatch', 'StartSession', 'HandOff', 'GuardEdit', 'StartState', 'ConversationState', 'StoreHealth']) {
      expect(byClass.get(name)?.size, name).toBe(1)
    }
    for (const [name, set] of byClass) expect(set.size, name).toBe(1)
  })

  test('the next call gets its own services over its own ports, and the same conversation', () => {
    const w = world()
    const first = w.call()
    const second = w.call()
    const a = w.app.useCases(first.ports)
    const b = w.app.useCases(second.ports)
    expect(field(a.guard, 'store')).not.toBe(field(b.guard, 'store'))
    expect(field(b.guard, 'store', 'calls', 'store')).toBe(second.ports.store)
    expect(field(b.guard, 'store', 'clock')).toBe(second.ports.clock)
    expect(field(b.guard, 'match', 'decisions', 'hark', 'inner', 'clock')).toBe(second.ports.clock)
    // The conversation's state and the load's are shared.
    expect(field(a.guard, 'match', 'state')).toBe(field(b.guard, 'match', 'state'))
    expect(field(a.guard, 'conversation')).toBe(field(b.guard, 'conversation'))
    expect(field(a.guard, 'store', 'conversation')).toBe(field(b.guard, 'store', 'conversation'))
    expect(field(a.guard, 'store', 'calls', 'health')).toBe(field(b.guard, 'store', 'calls', 'health'))
  })
})

describe('the conversation', () => {
  test('endConversation drops the conversation\'s state and keeps the load\'s', () => {
    const w = world()
    const before = w.app.useCases(w.call().ports)
    w.app.endConversation()
    const after = w.app.useCases(w.call().ports)
    for (const owner of [['match', 'state'], ['start'], ['conversation'], ['match', 'briefs']]) expect(field(after.guard, ...owner)).not.toBe(field(before.guard, ...owner))
    expect(field(after.command, 'subcommands', 'open', 'link')).toBe(field(before.command, 'subcommands', 'open', 'link'))
    expect(field(after.start, 'conversation', 'load')).toBe(field(before.start, 'conversation', 'load'))
    expect(field(after.guard, 'store', 'calls', 'health')).toBe(field(before.guard, 'store', 'calls', 'health'))
  })

  test('a started conversation is seen by later calls; after endConversation the next call starts a new one', async () => {
    const w = world()
    const first = w.call()
    const starting = w.app.useCases(first.ports)
    await starting.start.onSessionStart(ROOT)
    // The start and the brief go on in the background, over the first call's ports; the first message's
    // context waits for both, as the hooks adapter has it.
    await starting.start.ensureStarted()
    await starting.context.blocks([])
    // The status line follows the record's save, which the context does not wait for.
    await settle()
    expect(first.said.some((l) => l.startsWith('status: Hark V-012'))).toBe(true)
    // A later call speaks through its own host, never the first call's.
    const second = w.call()
    const said = first.said.length
    const text = await w.app.useCases(second.ports).command.run('needs')
    expect(text).toMatch(/V-012/)
    expect(second.said.some((l) => l.startsWith('status: Hark V-012'))).toBe(true)
    expect(first.said.length).toBe(said)
    w.app.endConversation()
    const third = w.app.useCases(w.call().ports)
    expect(await third.command.run('needs')).toMatch(/not set up|No Hark project/)
    await third.start.ensureStarted()
    expect(await third.command.run('needs')).toMatch(/V-012/)
  })
})
