// Compaction and the recap, through the engine (SPEC.md: session.compact; prompt.context, "After a
// compaction, it adds the sub-brief instead, framed as <hark-recap>"). Main conversation only: not
// subagents, not precompute passes. A fresh brief is fetched as the compaction starts (even if it is
// then skipped); when it goes through, the next context carries the recap once and Claude Code is
// asked to rebuild the context.
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { Conversation, createWorld, KEY, PROJECT, startSession, type World } from './world'

const options = { access_key: KEY }
const CONTEXT = { blocks: [{ name: 'currentDate', text: "Today's date is 2026-11-29." }], instructionFiles: [] }
const MESSAGES = [
  { role: 'user', text: 'build the report export', toolUses: [] },
  { role: 'assistant', text: 'done', toolUses: [] },
] as const

type Trigger = 'manual' | 'auto' | 'plugin' | 'precompute'
const compact = ($: Engine, trigger: Trigger = 'auto', agentId?: string) =>
  $.session.compact({ trigger, messages: MESSAGES as never, ...(agentId === undefined ? {} : { agentId }) } as never)
const block = async ($: Engine) => (await $.prompt.context(CONTEXT)).blocks.find((b) => b.name === 'hark')?.text
const briefs = (world: World) => world.hark.callsTo('get_agent_brief').length

describe('a compaction that goes through', () => {
  test('fetches a fresh brief as it starts, asks for the context again, and the next context carries the recap once', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    expect(await block($)).toStartWith('<hark-brief project="V-012">')
    // Hark's brief changed meanwhile: the recap is built from the fresh one.
    world.hark.venture.brief = { ...world.hark.venture.brief, build_state: { ...(world.hark.venture.brief['build_state'] as object), next_up: ['Ship the export'] } }
    const result = await compact($, 'auto')
    expect('skip' in result).toBe(false)
    expect(briefs(world)).toBe(2)
    expect(world.invalidated).toEqual(['prompt.context'])
    const recap = await block($)
    expect(recap).toStartWith('<hark-recap project="V-012">\n')
    expect(recap).toEndWith('\n</hark-recap>')
    expect(recap).toContain('Accepted decisions:\n- Raw SQL, no ORM (scope: src/db/**)')
    expect(recap).toContain('Non-goals:\n- No mobile app this quarter')
    expect(recap).toContain('Blockers:\n- Bank sandbox credentials expire on Friday')
    expect(recap).toContain('Next action: Ship the export')
    // Once: a later rebuild without a compaction carries the brief again.
    expect(await block($)).toStartWith('<hark-brief project="V-012">')
    // The decisions for the edit guard are fetched again on the next edit.
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/src/x.ts`, content: '' })
    await compact($, 'manual')
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/src/y.ts`, content: '' })
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(2)
    expect(await block($)).toStartWith('<hark-recap project="V-012">')
  })

  test('each trigger of the main conversation counts: manual, auto, plugin', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    for (const trigger of ['manual', 'auto', 'plugin'] as const) {
      await compact($, trigger)
      expect(await block($)).toStartWith('<hark-recap')
    }
    expect(briefs(world)).toBe(4)
    expect(world.invalidated).toEqual(['prompt.context', 'prompt.context', 'prompt.context'])
  })

  test('the fetch fails: one log line, and the recap comes from the brief the session has', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    world.hark.mode = 'http-500'
    await compact($)
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('for the compaction')
    expect(await block($)).toContain('Accepted decisions:\n- Raw SQL, no ORM')
  })
})

describe('no recap', () => {
  test('a subagent’s compaction: no fetch, no recap, nothing rebuilt', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await compact($, 'auto', 'agent-1')
    expect(briefs(world)).toBe(1)
    expect(world.invalidated).toEqual([])
    expect(await block($)).toStartWith('<hark-brief')
  })

  test('a precompute pass: no fetch, no recap', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await compact($, 'precompute')
    expect(briefs(world)).toBe(1)
    expect(world.invalidated).toEqual([])
    expect(await block($)).toStartWith('<hark-brief')
  })

  test('a skipped compaction: the brief is fetched as it starts, but no recap and nothing rebuilt', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { compact: () => ({ skip: 'another plugin skipped it' }) })
    await startSession($)
    const result = await compact($, 'auto')
    expect('skip' in result).toBe(true)
    expect(briefs(world)).toBe(2)
    expect(world.invalidated).toEqual([])
    expect(await block($)).toStartWith('<hark-brief')
  })

  test('outside a Hark project: nothing sent, nothing rebuilt', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { files: {} })
    await startSession($)
    await compact($)
    expect(world.hark.calls).toEqual([])
    expect(world.invalidated).toEqual([])
  })
})

describe('the recap across processes', () => {
  const conv = new Conversation()
  test('process one compacts and exits before the context is rebuilt', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = conv.process(on, { sessionId: 'one' })
    await startSession($)
    await compact($)
    expect(world.invalidated).toEqual(['prompt.context'])
  })
  test('process two (the conversation moved) builds the context: the recap, once', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(60_000)
    const world = conv.process(on, { sessionId: 'two' })
    // Its first message's context is the first one built (startSession would build one).
    await $.session.start({ cwd: PROJECT, surface: null, isInteractive: false })
    expect(await block($)).toStartWith('<hark-recap project="V-012">')
    expect(briefs(world)).toBe(0)
    expect(await block($)).toStartWith('<hark-brief project="V-012">')
  })
})
