// session.start never waits on Hark (SPEC.md: session.start, prompt.context; docs/performance.md): it registers /hark,
// finds the project and loads the conversation, starts the brief fetch and settles; the first message's
// context waits for the brief. World: tests/world.ts; the fake Hark holds every answer while `hold` is set.
import { describe, expect, test } from 'claude-code/testing'
import { createWorld, hark, PROJECT, settle, WITH_KEY } from './world'

const CONTEXT = { blocks: [], instructionFiles: [] } as never
const start = { cwd: PROJECT, surface: null, isInteractive: false } as const
const edit = (file_path: string) => ({ tool: 'Edit', file_path, old_string: 'a', new_string: 'b' }) as const

describe('the start does not wait on Hark', () => {
  test('session.start settles while Hark has not answered; the first message’s context waits for the brief', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    let answer: () => void = () => undefined
    world.hark.hold = new Promise<void>((done) => (answer = done))
    // Were the start to wait on Hark, this would never settle: the mock clock does not move by itself.
    await $.session.start(start)
    expect(world.commands).toEqual(['hark'])
    expect(world.statuses).toEqual([])
    const context = $.prompt.context(CONTEXT)
    answer()
    const out = (await context) as { blocks: { name: string; text: string }[] }
    expect(out.blocks.find((b) => b.name === 'hark')?.text).toStartWith('<hark-brief project="V-012">')
    expect(world.store.keysWith('c:')).toHaveLength(1)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    expect(world.statuses.at(-1)).toBe('Hark V-012 · Open · 2 need you')
  })

  test('session.start settles while the store has not answered either; the start goes on behind it', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.store.hangReads = true
    await $.session.start(start)
    expect(world.commands).toEqual(['hark'])
    expect(world.hark.calls).toEqual([])
  })

  test('the first edit waits for the brief’s non-goals too', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { answer: 'Stop' })
    let answer: () => void = () => undefined
    world.hark.hold = new Promise<void>((done) => (answer = done))
    await $.session.start(start)
    // The brief's non-goal "No mobile app this quarter" covers the mobile area.
    const edited = $.tool.call(edit(`${PROJECT}/apps/mobile/app.ts`))
    answer()
    const out = await edited
    expect('deny' in out && out.deny !== undefined).toBe(true)
    expect(world.questions[0]?.question).toContain('No mobile app this quarter')
  })

  test('a session that ends before the brief came waits for it, then closes the Hark session it opened', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    let answer: () => void = () => undefined
    world.hark.hold = new Promise<void>((done) => (answer = done))
    await $.session.start(start)
    const ending = $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
    answer()
    await ending
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'close_session'])
  })
})

describe('the start behind session.start, at its edges', () => {
  test('an exit while the start’s brief request is unanswered still closes the Hark session it opened', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.hold = new Promise<void>(() => undefined)
    await $.session.start(start)
    const ending = $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
    await settle(world.clock, ending)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'close_session'])
  })

  test('the agent view’s placeholder released by /hark: the brief reaches the model once, in the context', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { env: { CLAUDE_BG_SOURCE: 'spare' }, turns: 0 })
    await $.session.start(start)
    await hark($, 'help')
    world.turns = 1
    const context = (await $.prompt.context(CONTEXT)) as { blocks: { name: string; text: string }[] }
    expect(context.blocks.find((b) => b.name === 'hark')?.text).toStartWith('<hark-brief project="V-012">')
    const submitted = (await $.prompt.submit({ text: 'go', wait: false, origin: { kind: 'composer' } } as never)) as { context?: readonly string[] }
    expect(submitted.context).toBeUndefined()
  })

  test('a prompt right after the start waits at most 150 ms of the engine’s clock for a store that hangs', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.store.hangReads = true
    await $.session.start(start)
    const waited = await settle(world.clock, $.prompt.submit({ text: 'go', wait: false, origin: { kind: 'composer' } } as never), 5_000, 10)
    expect(waited).toBeLessThanOrEqual(200)
  })

  test('a background process: prompt.context comes before session.start and starts the plugin itself, once', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    const out = (await $.prompt.context(CONTEXT)) as { blocks: { name: string; text: string }[] }
    expect(out.blocks.find((b) => b.name === 'hark')?.text).toStartWith('<hark-brief project="V-012">')
    await $.session.start(start)
    await $.prompt.context(CONTEXT)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    expect(world.store.keysWith('c:')).toHaveLength(1)
    expect(world.commands).toEqual(['hark'])
  })

  test('a key refused at exit: one log line that says how to set a new key', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await $.session.start(start)
    await $.prompt.context(CONTEXT)
    await $.tool.call(edit(`${PROJECT}/src/app.ts`))
    world.hark.expectedKey = 'another_key_entirely_123'
    await $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('HTTP 401')
    expect(world.logs[0]).toContain('/plugin configure hark-memory@hark')
  })
})
