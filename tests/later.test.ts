// Handoffs delivered later (README, The handoff; core/domain/undelivered.ts): when nothing reached Hark at exit, the handoff
// is kept on this machine, and the next session start in the project sends it once, under the conversation
// id it was recorded with, saying when it was recorded. Processes played as a chain (tests/world.ts).
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { Conversation, hark, KEY, PROJECT, STARTED_AT, startSession } from './world'

const options = { access_key: KEY }
const T = { options, timeoutMs: 30_000 } as const
const write = ($: Engine, path: string) => $.tool.call({ tool: 'Write', file_path: `${PROJECT}/${path}`, content: 'x' })
const end = ($: Engine) => $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
const kept = (conv: Conversation) => conv.store.keysWith('undelivered:')

describe('Hark unreachable at exit: the handoff waits on this machine for the next start', () => {
  const conv = new Conversation()
  let firstId = ''
  test('process one: nothing reaches Hark at exit, so the handoff is kept, and one log line says so', T, async ($, on) => {
    const world = conv.process(on)
    await startSession($)
    firstId = String(world.hark.calls[0]?.meta['conversation'])
    await write($, 'src/on-the-train.ts')
    world.hark.mode = 'unreachable'
    await end($)
    expect(world.hark.calls.map((c) => c.tool).slice(-2)).toEqual(['end_session', 'session_stopped'])
    expect(kept(conv)).toHaveLength(1)
    expect(world.logs.at(-1)).toContain('sent at the next session start')
    expect(JSON.stringify(conv.store.data.get(kept(conv)[0]!))).not.toContain(KEY)
  })

  test('process two, another conversation an hour later: /hark says one waits; the start sends it once, under the first id', T, async ($, on) => {
    conv.pass(3_600_000)
    const world = conv.process(on, { sessionId: 'next-day', startedAt: STARTED_AT + 3_600_000 })
    await startSession($)
    // The delivery goes out beside the start's brief; the first context does not wait for it.
    await world.clock.settle()
    const sent = world.hark.callsTo('end_session')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.meta['conversation']).toBe(firstId)
    expect(String(sent[0]!.arguments['what_i_did'])).toMatch(/^Recorded \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; Hark could not be reached then/)
    expect(String(sent[0]!.arguments['what_changed'])).toBe('edited src/on-the-train.ts')
    // Its own brief went under its own id.
    expect(world.hark.callsTo('get_agent_brief')[0]!.meta['conversation']).not.toBe(firstId)
    expect(kept(conv)).toEqual([])
    const out = await hark($, 'brief')
    expect(out.text).not.toContain('wait on this machine')
  })

  test('process three: nothing is left to send', T, async ($, on) => {
    conv.pass(60_000)
    const world = conv.process(on, { sessionId: 'third', startedAt: STARTED_AT + 7_200_000 })
    await startSession($)
    await world.clock.settle()
    expect(world.hark.callsTo('end_session')).toEqual([])
  })
})

describe('only "nothing reached Hark" waits for later', () => {
  test('Hark answered with an error: session_stopped, and nothing is kept', T, async ($, on) => {
    const conv = new Conversation()
    const world = conv.process(on)
    await startSession($)
    await write($, 'src/a.ts')
    world.hark.mode = 'http-500'
    await end($)
    expect(kept(conv)).toEqual([])
  })

  test('the connection broke mid-reply (the request reached Hark): session_stopped, and nothing is kept', T, async ($, on) => {
    const conv = new Conversation()
    const world = conv.process(on)
    await startSession($)
    await write($, 'src/a.ts')
    world.hark.mode = 'reset'
    await end($)
    expect(world.hark.calls.map((c) => c.tool).slice(-2)).toEqual(['end_session', 'session_stopped'])
    expect(kept(conv)).toEqual([])
    expect(world.logs.at(-1)).toContain('the connection broke (ECONNRESET')
    expect(world.logs.at(-1)).not.toContain('next session start')
  })

  test('/hark says how many wait while Hark stays away', T, async ($, on) => {
    const conv = new Conversation()
    const world = conv.process(on)
    await startSession($)
    await write($, 'src/a.ts')
    world.hark.mode = 'unreachable'
    await hark($, 'handoff')
    expect(kept(conv)).toHaveLength(1)
    const out = await hark($, 'brief')
    expect(out.text).toContain('1 handoff of earlier sessions could not reach Hark and waits on this machine')
  })
})
