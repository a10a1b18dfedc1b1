// Bad answers from Hark (SPEC.md: "If Hark is unreachable or anything goes wrong, it logs one dim
// line and the session carries on"): each failure is one log line, an offline status, no block,
// and nothing thrown out of a hook.
import { describe, expect, test } from 'claude-code/testing'
import type { FakeMode } from '../adapters/fake-hark/in-memory-hark'
import { createWorld, hark, KEY, NO_KEY, PROJECT, startSession, WITH_KEY } from './world'

const CONTEXT = { blocks: [], instructionFiles: [] }

const failures: [FakeMode, RegExp][] = [
  ['http-500', /HTTP 500/],
  ['unreachable', /could not connect \(ECONNREFUSED\)/],
  ['rpc-error', /JSON-RPC error -32603: internal error/],
  ['tool-error', /the tool answered an error: venture not found/],
  ['garbage', /not JSON/],
  ['wrong-id', /answers another request/],
]

describe('a failing Hark at session start', () => {
  for (const [mode, reason] of failures) {
    test(`${mode}: one log line, offline, the session carries on`, WITH_KEY, async ($, on) => {
      const world = createWorld(on)
      world.hark.mode = mode
      await startSession($)
      const out = await $.prompt.context(CONTEXT)
      expect(world.logs).toHaveLength(1)
      expect(world.logs[0]).toMatch(reason)
      expect(world.logs[0]).not.toContain(KEY)
      expect(world.lastStatus()).toBe('Hark V-012 · offline')
      expect(out.blocks).toEqual([])
    })
  }

  test('a wrong key is refused (HTTP 401), logged without the key', { options: { access_key: 'hark_wrong_key_999999' }, timeoutMs: 30_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('HTTP 401')
    expect(world.logs[0]).not.toContain('hark_wrong_key_999999')
  })

  test('a refused key is not "offline": the status line says key refused, and /hark says how to set a new one', { options: { access_key: 'hark_wrong_key_999999' }, timeoutMs: 30_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    expect(world.statuses.at(-1)).toBe('Hark V-012 · key refused')
    expect(world.logs[0]).toContain('/plugin configure hark-memory@hark')
    const out = await hark($, 'brief')
    expect(out.text).toContain('Hark refused the access key')
    expect(out.text).toContain('/plugin configure hark-memory@hark')
    expect(out.text).not.toContain('hark_wrong_key_999999')
  })

  test('a Hark that answers HTTP 500 stays "offline", with no word of the key', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.mode = 'http-500'
    await startSession($)
    expect(world.statuses.at(-1)).toBe('Hark V-012 · offline')
    const out = await hark($, 'brief')
    expect(out.text).not.toContain('refused the access key')
  })

  test('a server that never answers is abandoned after 3 seconds', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.mode = 'hang'
    const started = startSession($)
    await world.clock.advance(2_999)
    expect(world.logs).toEqual([])
    await world.clock.advance(1)
    await started
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('no answer within 3.0 s')
    expect(world.lastStatus()).toBe('Hark V-012 · offline')
  })

  test('/hark brief while Hark is down says so and prints the last brief', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    world.hark.mode = 'http-500'
    const out = await hark($, 'brief')
    expect(out.text).toContain('Could not fetch the brief for V-012 (HTTP 500)')
    expect(out.text).toContain('Raw SQL, no ORM')
  })
})

describe('a key Hark refuses on a request other than the brief', () => {
  test('at the first guarded edit (list_journal_entries, HTTP 401): the status line turns to key refused', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    expect(world.lastStatus()).not.toBe('Hark V-012 · key refused')
    world.hark.expectedKey = 'hark_revoked_key_000000'
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/src/db/orders.sql`, content: 'x' })
    expect(world.hark.calls.at(-1)?.tool).toBe('list_journal_entries')
    expect(world.lastStatus()).toBe('Hark V-012 · key refused')
    expect(world.logs.filter((l) => l.includes('decisions'))).toHaveLength(1)
  })

  test('/hark handoff refused for its key says how to set a new one', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/src/a.ts`, content: 'x' })
    world.hark.expectedKey = 'hark_revoked_key_000000'
    const out = await hark($, 'handoff')
    expect(out.text).toContain('The handoff did not reach Hark')
    expect(out.text).toContain('Hark refused the access key')
    expect(out.text).toContain('/plugin configure hark-memory@hark')
    expect(out.text).not.toContain(KEY)
    expect(world.lastStatus()).toBe('Hark V-012 · key refused')
  })
})
