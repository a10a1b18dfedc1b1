// The brief on start, the first message's block, the status line and /hark brief, through the engine
// (SPEC.md: session.start, prompt.context, Every outbound request, /hark).
import { describe, expect, test } from 'claude-code/testing'
import { createWorld, FakeStore, hark, KEY, NO_KEY, PROJECT, startSession, WITH_KEY } from './world'

const CONTEXT = { blocks: [{ name: 'currentDate', text: "Today's date is 2026-11-29." }], instructionFiles: [] }

describe('brief on start', () => {
  test('fetches the brief once with every header and _meta the SPEC lists', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const calls = world.hark.calls
    expect(calls.map((c) => c.tool)).toEqual(['get_agent_brief'])
    const call = calls[0]!
    expect(call.arguments).toEqual({ venture: 'V-012', depth: 'compact' })
    expect(call.headers['content-type']).toBe('application/json')
    expect(call.headers['accept']).toBe('application/json, text/event-stream')
    expect(call.headers['authorization']).toBe(`Bearer ${KEY}`)
    expect(call.headers['user-agent']).toBe('hark-mod/0.2.3 (claude-code/2.1.332)')
    expect(call.headers['x-hark-client']).toBe('claude-code-mod')
    const body = JSON.parse(call.body) as Record<string, unknown>
    expect(body['jsonrpc']).toBe('2.0')
    expect(body['method']).toBe('tools/call')
    expect(typeof body['id']).toBe('number')
    expect(call.meta['client']).toBe('claude-code-mod')
    expect(String(call.meta['conversation'])).toMatch(/^[0-9a-f]{32}$/)
    expect(world.commands).toEqual(['hark'])
  })

  test('the first message carries one block named hark with the brief', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const out = await $.prompt.context(CONTEXT)
    const hark = out.blocks.filter((b) => b.name === 'hark')
    expect(hark).toHaveLength(1)
    expect(hark[0]!.text).toStartWith('<hark-brief project="V-012">\n')
    expect(hark[0]!.text).toEndWith('\n</hark-brief>')
    expect(hark[0]!.text).toContain('Raw SQL, no ORM')
    expect(out.blocks[0]!.name).toBe('currentDate')
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
  })

  test('the status line shows the project, the handoff state and who is needed', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    expect(world.lastStatus()).toBe('Hark V-012 · Open · 2 need you')
  })

  test('a brief that is a plain string is the whole brief', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.venture.brief = 'Just text.' as never
    await startSession($)
    const out = await $.prompt.context(CONTEXT)
    expect(out.blocks.find((b) => b.name === 'hark')?.text).toBe('<hark-brief project="V-012">\nJust text.\n</hark-brief>')
  })

  test('an SSE reply is read like a JSON one', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.mode = 'sse'
    await startSession($)
    expect(world.lastStatus()).toBe('Hark V-012 · Open · 2 need you')
    expect(world.logs).toEqual([])
  })

  test('the conversation id is kept in the store and reused by the next load', WITH_KEY, async ($, on) => {
    const store = new FakeStore()
    const world = createWorld(on, { store })
    await startSession($)
    const first = world.hark.calls[0]!.meta['conversation']
    const records = store.keysWith('c:')
    expect(records).toHaveLength(1)
    expect((store.data.get(records[0]!) as { conversationId: string }).conversationId).toBe(first)
    // The key is a SHA-256, never the project path or a time.
    expect(records[0]).toMatch(/^c:[0-9a-f]{64}:\d+:[0-9a-f]{8}$/)
    expect(JSON.stringify([...store.data.values()])).not.toContain(KEY)
  })
})

describe('/hark brief', () => {
  test('prints the current brief, fetched again', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    world.hark.venture.brief = { identity: 'V-012 Ledger, renamed.' }
    const out = await hark($, 'brief')
    expect(out.text).toContain('V-012 Ledger, renamed.')
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(2)
  })

  test('bare /hark is /hark brief', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const out = await hark($, '')
    expect(out.text).toStartWith('Hark brief for V-012:')
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(2)
  })

  test('an unknown subcommand says how to use it and sends nothing', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const out = await hark($, 'frobnicate')
    expect(out.text).toContain('Usage: /hark [brief|handoff|preview|needs|open|doctor]')
    expect(world.hark.calls).toHaveLength(1)
  })
})

describe('idle without a project file or a key', () => {
  test('no key: nothing is sent or stored, the status says so, /hark says how to set up', NO_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.prompt.context(CONTEXT)
    expect(world.hark.calls).toEqual([])
    expect(world.store.writes).toEqual([])
    expect(world.lastStatus()).toBe('Hark V-012 · no access key')
    expect(world.logs.join('\n')).toContain('/plugin configure hark-memory@hark')
    const out = await hark($, '')
    expect(out.text).toContain('no access key is set')
    expect(out.text).toContain('/plugin configure hark-memory@hark')
    expect(world.hark.calls).toEqual([])
  })

  test('no project file: nothing is sent or stored, no status, /hark explains', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { files: {} })
    await startSession($)
    const out = await $.prompt.context(CONTEXT)
    expect(out.blocks.some((b) => b.name === 'hark')).toBe(false)
    expect(world.hark.calls).toEqual([])
    expect(world.store.writes).toEqual([])
    expect(world.statuses).toEqual([])
    expect(world.commands).toEqual(['hark'])
    const help = await hark($, 'brief')
    expect(help.text).toContain('hark init')
  })
})

describe('project file discovery', () => {
  test('found in a parent folder; a .hark file with venture= works too', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { cwd: `${PROJECT}/packages/api`, files: { [`${PROJECT}/.hark`]: 'venture=V-077\n' } })
    await startSession($, `${PROJECT}/packages/api`)
    expect(world.hark.calls[0]?.arguments['venture']).toBe('V-077')
    expect(world.fileReads.slice(0, 4)).toEqual([
      `${PROJECT}/packages/api/.hark/project`,
      `${PROJECT}/packages/api/.hark`,
      `${PROJECT}/packages/.hark/project`,
      `${PROJECT}/packages/.hark`,
    ])
  })

  test('.hark/project nearer wins over .hark further up', WITH_KEY, async ($, on) => {
    const world = createWorld(on, {
      cwd: `${PROJECT}/app`,
      files: { [`${PROJECT}/app/.hark/project`]: 'V-100', [`${PROJECT}/.hark`]: 'venture=V-200' },
    })
    await startSession($, `${PROJECT}/app`)
    expect(world.hark.calls[0]?.arguments['venture']).toBe('V-100')
  })
})

describe('privacy', () => {
  test('no program is started, no file written, no variable read but CLAUDE_BG_SOURCE', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.prompt.context(CONTEXT)
    await hark($, 'brief')
    expect(world.processRuns).toEqual([])
    expect(world.fileWrites).toEqual([])
    expect([...new Set(world.envReads)]).toEqual(['CLAUDE_BG_SOURCE'])
  })
})
