// /hark preview through the engine (SPEC.md: /hark preview; The handoff): it prints what end_session
// would carry if the session ended now, cleaned, and sends and stores nothing; with nothing to hand
// off it says so, and that close_session would be sent.
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { CLOSE_REASON } from '../core/domain/handoff'
import { createWorld, hark, KEY, PROJECT, startSession, WITH_KEY } from './world'

const end = ($: Engine) => $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
const answer = (text: string) => ({ answer: text, durationMs: 10, isAborted: false, turnId: 't1', reason: 'answer' as const })

/** A GitHub token's shape, built at run time so no literal here looks like one. */
const TOKEN = ['gh', 'p_', 'Zq3xW8vR2mN5kL7jH4gF6dS9aP1oI0uY2tE5'].join('')
const NOTES = [
  'I added the users table and wired the app.',
  `Pushed with ${TOKEN} and the key ${KEY}; DATABASE_PASSWORD=hunter2 is set.`,
  '',
  '## Next steps',
  '- Add an index on users.email',
].join('\n')

function bash(input: Record<string, unknown>): unknown {
  if (String(input['command']).includes('fail')) return { isError: true, result: 'Error: Exit code 1', text: 'Exit code 1' }
  return { result: { stdout: 'ok', stderr: '', interrupted: false } }
}

describe('/hark preview', () => {
  test('prints exactly what end_session then carries, cleaned; sends and stores nothing', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/app.ts`, old_string: 'a', new_string: 'b' })
    await $.tool.call({ tool: 'Bash', command: 'npm test -- --fail' })
    await $.turn.complete(answer(NOTES))
    // The hooks' saves run after they settled: let them land before counting what the preview writes.
    await world.clock.settle()
    const calls = world.hark.calls.length
    const writes = world.store.writes.length
    const out = (await hark($, 'preview')).text ?? ''
    expect(world.hark.calls.length).toBe(calls)
    expect(world.store.writes.length).toBe(writes)
    expect(out).toContain('If the session ended now, end_session would send this to Hark for V-012')
    expect(out).toContain('Nothing has been sent or stored.')
    expect(out).not.toContain(TOKEN)
    expect(out).not.toContain('hunter2')
    expect(out.split(KEY).length - 1).toBe(0)
    expect(out).toContain('[redacted]')
    // The session then ends: end_session carries what the preview printed, field by field.
    await end($)
    const sent = world.hark.callsTo('end_session')
    expect(sent).toHaveLength(1)
    const args = sent[0]!.arguments as Record<string, string | string[]>
    expect(out).toContain(`what_i_did:\n${args['what_i_did'] as string}`)
    expect(out).toContain(`what_changed:\n${args['what_changed'] as string}`)
    expect(out).toContain(`whats_next:\n${args['whats_next'] as string}`)
    expect(out).toContain(`links:\n${(args['links'] as string[]).join('\n')}`)
    expect(out).toContain(`watch_out_for:\n${args['watch_out_for'] as string}`)
  })

  test('a preview twice prints the same, and the later handoff is not changed by it', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    const first = (await hark($, 'preview')).text
    const second = (await hark($, 'preview')).text
    expect(second).toBe(first)
    expect(first).not.toContain('watch_out_for:')
    const out = await hark($, 'handoff')
    expect(out.text).toContain('Handed off to Hark')
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
  })

  test('nothing to hand off: it says so, and that close_session would be sent; nothing is sent', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const out = (await hark($, 'preview')).text ?? ''
    expect(out).toContain('Nothing to hand off')
    expect(out).toContain('close_session would be sent')
    expect(out).toContain(CLOSE_REASON)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief'])
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'close_session'])
  })

  test('/hark lists preview in its usage', WITH_KEY, async ($, on) => {
    createWorld(on)
    await startSession($)
    const out = await hark($, 'help')
    expect(out.text).toContain('Usage: /hark [brief|handoff|preview|needs|open|doctor]')
  })
})
