// Hostile input, found by trying to break the plugin (docs/SPEC.md: "If Hark is unreachable or
// anything goes wrong, it logs one dim line and the session carries on"; the key is never logged;
// docs/HARK-API.md: every value is untrusted). Each test pins a failure that once got through.
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { InMemoryHark, type FakeHttpReply } from '../adapters/fake-hark/in-memory-hark'
import { claimKey } from '../core/domain/conversation/keys'
import { conversationKey, createWorld, FakeStore, hark, KEY, PROJECT, settle, STARTED_AT, startSession, WITH_KEY } from './world'

const end = ($: Engine) => $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
const write = ($: Engine, path: string) => $.tool.call({ tool: 'Write', file_path: `${PROJECT}/${path}`, content: 'x' })

/** A Hark whose answers to one tool are written by hand. */
class RawHark extends InMemoryHark {
  constructor(private readonly tool: string, private readonly reply: (id: unknown) => FakeHttpReply) {
    super(undefined, KEY)
  }
  override async handle(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<FakeHttpReply> {
    const message = JSON.parse(String(init.body)) as { id: unknown; params: { name: string } }
    if (message.params.name !== this.tool) return super.handle(url, init)
    this.calls.push({ tool: this.tool, arguments: {}, headers: {}, meta: {}, body: String(init.body), id: message.id })
    return this.reply(message.id)
  }
}
const json = (value: unknown): FakeHttpReply => ({ status: 200, ok: true, headers: { 'content-type': 'application/json' }, text: JSON.stringify(value) })

describe('Hark echoing the access key', () => {
  test('a JSON-RPC error quoting the key: the log line never holds it', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { hark: new RawHark('get_agent_brief', (id) => json({ jsonrpc: '2.0', id, error: { code: -32001, message: `token ${KEY} revoked` } })) })
    await startSession($)
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('token [redacted] revoked')
    expect(world.logs.join('\n')).not.toContain(KEY.slice(0, 12))
  })

  test('an isError result quoting the key, for /hark brief: the text printed never holds it', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { hark: new RawHark('get_agent_brief', (id) => json({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `bad key ${KEY}` }], isError: true } })) })
    await startSession($)
    const out = await hark($, 'brief')
    expect(out.text).not.toContain(KEY.slice(0, 12))
    expect(world.logs.join('\n')).not.toContain(KEY.slice(0, 12))
  })
})

describe('a brief built to stall the session', () => {
  test('nested 20,000 deep: refused with one log line, the session starts at once', WITH_KEY, async ($, on) => {
    const depth = 20_000
    const world = createWorld(on, {
      hark: new RawHark('get_agent_brief', (id) => ({
        status: 200,
        ok: true,
        headers: { 'content-type': 'application/json' },
        text: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"structuredContent":{"identity":"x","deep":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
      })),
    })
    // No wall-clock bound here (a busy machine made one flaky): the mock clock never moved, so nothing
    // waited for a timer; the reply is refused by its depth, not by a timeout.
    const before = world.clock.now()
    await startSession($)
    expect(world.clock.now()).toBe(before)
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toMatch(/nested too deeply|not JSON/)
    expect(world.lastStatus()).toBe('Hark V-012 · offline')
  })
})

describe('/hark needs counts every proposal', () => {
  test('500 proposals: "500 need you", the first 50 listed', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.venture.candidates = Array.from({ length: 500 }, (_, i) => ({ title: `Proposal ${i}` }))
    await startSession($)
    const out = await hark($, 'needs')
    expect(out.text).toContain('500 proposals wait for a person in V-012:')
    expect(out.text).toContain('- and 450 more')
    expect(world.lastStatus()).toBe('Hark V-012 · Open · 500 need you')
  })

  test('titles with terminal escapes print without them', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.venture.candidates = [{ title: 'Clear \u001b[2J the screen \u202e' }]
    await startSession($)
    const out = await hark($, 'needs')
    expect(out.text).not.toMatch(/[\u001b\u202e]/)
  })
})

describe('a claim dated a year ahead (clock skew, or another program writing the store)', () => {
  const store = new FakeStore()
  test('does not block the handoff', WITH_KEY, async ($, on) => {
    store.data.set(claimKey(await conversationKey(), 0, STARTED_AT + 365 * 86_400_000, 'future'), true)
    const world = createWorld(on, { store })
    await startSession($)
    await write($, 'src/a.ts')
    await end($)
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
  })
})

describe('a store crowded by other programs', () => {
  test('25,000 foreign keys: session start reads none of them', WITH_KEY, async ($, on) => {
    const store = new FakeStore()
    for (let i = 0; i < 25_000; i++) store.data.set(`someone-else:${i}`, { big: 'x'.repeat(10) })
    const world = createWorld(on, { store })
    await startSession($)
    expect(store.reads.filter((k) => k.startsWith('someone-else:'))).toEqual([])
    expect(world.lastStatus()).toBe('Hark V-012 · Open · 2 need you')
  })

  test('a store whose reads hang: start and a recorded edit each cost one short wait, then the session goes on', { ...WITH_KEY, timeoutMs: 60_000 }, async ($, on) => {
    const store = new FakeStore()
    store.hangReads = true
    const world = createWorld(on, { store })
    const startMs = await settle(world.clock, startSession($))
    expect(startMs).toBeLessThan(3_000)
    const editMs = await settle(world.clock, write($, 'src/a.ts'))
    expect(editMs).toBeLessThan(500)
    expect(world.logs.filter((l) => l.includes('plugin store'))).toHaveLength(1)
  })
})

describe('input built to make a hook run for seconds', () => {
  test('a scope glob built to backtrack: the edit is checked in milliseconds', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.venture.decisions = [
      { id: 'x1', title: 'Extglob', why: 'x', status: 'accepted', scope: { paths: ['@(|?)'.repeat(32) + '[0-9]'] } },
      { id: 'x2', title: 'Nested', why: 'x', status: 'accepted', scope: { paths: ['?(a)'.repeat(40) + 'b', '*a*/*a*'] } },
    ]
    await startSession($)
    const started = performance.now()
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/authenticationservicehandler.ts`, old_string: 'a', new_string: 'b' })
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/${'a'.repeat(400)}/${'a'.repeat(400)}`, old_string: 'a', new_string: 'b' })
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  test('a final answer of 200 KB of key prefixes: turn.complete settles quickly and the handoff still goes out', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await write($, 'src/a.ts')
    const started = performance.now()
    await $.turn.complete({ answer: 'sk-'.repeat(66_000), durationMs: 1, isAborted: false, turnId: 't', reason: 'answer' })
    expect(performance.now() - started).toBeLessThan(2_000)
    await end($)
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
  })
})
