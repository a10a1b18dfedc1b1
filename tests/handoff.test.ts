// Recording the work and the handoff on stop, through the engine (SPEC.md: tool.call for Bash and
// end_session, turn.complete, session.end, The handoff, /hark handoff|needs|open).
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { CLOSE_REASON } from '../core/domain/handoff'
import { createWorld, FakeStore, hark, KEY, NO_KEY, PROJECT, startSession, WITH_KEY } from './world'

const PR = 'https://github.com/acme/ledger/pull/42'

/** What the engine's Bash tool answers, as a session's tool.call result. */
function bash(input: Record<string, unknown>): unknown {
  const command = String(input['command'])
  if (command.includes('git commit')) {
    return { result: { stdout: '[main 3f2a9c1] Add users table\n 1 file changed', stderr: '', interrupted: false, gitOperation: { commit: { sha: '3f2a9c1', kind: 'committed', branch: 'main' } } } }
  }
  if (command.includes('gh pr create')) return { result: { stdout: `${PR}\n`, stderr: '', interrupted: false, gitOperation: { pr: { number: 42, url: PR, action: 'created' } } } }
  // As a session reports them: a command that exited non-zero, one refused before it ran, one cut off.
  if (command.includes('fail')) return { isError: true, result: 'Error: Exit code 1\nFAIL src/a.test.ts', text: 'Exit code 1\nFAIL src/a.test.ts' }
  if (command.includes('refused')) return { isError: true, result: 'Permission to use Bash with command npm test has been denied.', text: 'Permission to use Bash with command npm test has been denied.' }
  if (command.includes('slow')) return { isError: true, result: 'Error: Command timed out after 2m 0s', text: 'Command timed out after 2m 0s' }
  return { result: { stdout: 'ok\nDATABASE_PASSWORD=hunter2', stderr: '', interrupted: false } }
}

const end = ($: Engine, reason: 'prompt_input_exit' | 'clear' | 'other' = 'other') =>
  $.session.end({ reason, sessionId: 'sess', resume: { id: 'sess' } })

const answer = (text: string, extra: Record<string, unknown> = {}) => ({ answer: text, durationMs: 10, isAborted: false, turnId: 't1', reason: 'answer' as const, ...extra })

const NOTES = [
  'I added the users table and wired the app.',
  '```sql',
  'CREATE TABLE users (id int);',
  '```',
  'The token was API_TOKEN=abc123secretvalue and the key ' + KEY + '.',
  '',
  '## Next steps',
  '- Add an index on users.email',
].join('\n')

async function work($: Engine) {
  await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/app.ts`, old_string: 'a', new_string: 'FILE_CONTENT_MARKER' })
  await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/README.md`, content: 'FILE_CONTENT_MARKER' })
  await $.tool.call({ tool: 'Bash', command: 'npm test' })
  await $.tool.call({ tool: 'Bash', command: 'git add -A && git commit -m "Add users table"' })
}

describe('the handoff at session end', () => {
  test('end_session names the files, the runs, the commit; notes cleaned; next steps from the notes', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await work($)
    await $.tool.call({ tool: 'Bash', command: 'gh pr create --fill' })
    await $.turn.complete(answer(NOTES))
    await end($)
    const sent = world.hark.callsTo('end_session')
    expect(sent).toHaveLength(1)
    const args = sent[0]!.arguments as Record<string, unknown>
    expect(args['venture']).toBe('V-012')
    expect(args['what_i_did']).toContain('Edited 2 files, made 1 commit and ran the tests once.')
    expect(args['what_i_did']).toContain('npm test: passed')
    expect(args['what_i_did']).toContain('[code omitted]')
    expect(args['what_changed']).toBe('edited src/app.ts\nedited README.md\ncommit 3f2a9c1 Add users table')
    expect(args['whats_next']).toBe('- Add an index on users.email')
    expect(args['links']).toEqual([PR, 'src/app.ts', 'README.md'])
    expect('watch_out_for' in args).toBe(false)
    const everything = world.hark.calls.map((c) => c.body).join('\n')
    expect(everything).not.toContain('abc123secretvalue')
    expect(everything).not.toContain('CREATE TABLE')
    expect(everything).not.toContain('FILE_CONTENT_MARKER')
    expect(everything).not.toContain('hunter2')
    expect(everything.split(KEY).length - 1).toBe(0)
    expect(world.hark.callsTo('session_stopped')).toHaveLength(0)
  })

  test('a failing run: watch_out_for, and whats_next asks to fix it', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test -- --fail' })
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    await end($)
    const args = world.hark.callsTo('end_session')[0]!.arguments as Record<string, string>
    expect(args['what_i_did']).toContain('npm test: failed\nnpm test: passed')
    expect(args['watch_out_for']).toContain('npm test')
  })

  test('a piped, background or timed-out run is result unknown; a refused one and other commands leave nothing', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test -- --refused' })
    await $.tool.call({ tool: 'Bash', command: 'npm test -- --slow' })
    await $.tool.call({ tool: 'Bash', command: 'npm test | tail -5' })
    await $.tool.call({ tool: 'Bash', command: 'pytest', run_in_background: true })
    await $.tool.call({ tool: 'Bash', command: 'ls -la && cat secrets.txt' })
    await end($)
    const args = world.hark.callsTo('end_session')[0]!.arguments as Record<string, string>
    expect(args['what_i_did']).toContain('npm test: result unknown\nnpm test: result unknown\npytest: result unknown')
    expect(args['what_i_did']).toContain('ran the tests 3 times')
    expect(args['what_i_did']).not.toContain('failed')
    expect(JSON.stringify(args)).not.toContain('secrets.txt')
  })

  test('no edits, commits or test runs: close_session with its exact reason', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'ls' })
    await $.turn.complete(answer('Just answering a question.'))
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'close_session'])
    expect(world.hark.callsTo('close_session')[0]!.arguments).toEqual({ reason: CLOSE_REASON })
  })

  test('Hark was never reached and nothing was done: nothing is sent at exit', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.mode = 'http-500'
    await startSession($)
    world.hark.mode = 'ok'
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief'])
  })

  test('interrupted answers and subagents’ answers are not the notes', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    await $.turn.complete(answer('The real notes.'))
    await $.turn.complete(answer('Half an answ', { isAborted: true, reason: 'aborted' }))
    await $.turn.complete(answer('A subagent speaking.', { agentId: 'agent-1' }))
    await end($)
    const did = (world.hark.callsTo('end_session')[0]!.arguments as Record<string, string>)['what_i_did']
    expect(did).toContain('The real notes.')
    expect(did).not.toContain('Half an answ')
    expect(did).not.toContain('subagent')
  })

  test('notes over the cap are cut between graphemes, in the engine as in Node', WITH_KEY, async ($, on) => {
    const family = '👨‍👩‍👧‍👦'
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    await $.turn.complete(answer(`Done ${family.repeat(400)}`))
    await end($)
    const did = (world.hark.callsTo('end_session')[0]!.arguments as Record<string, string>)['what_i_did'] ?? ''
    const notes = /Done [^…]*…/.exec(did)?.[0] ?? ''
    expect(notes.length).toBeGreaterThan(1000)
    expect(notes.slice('Done '.length, -1)).toBe(family.repeat((notes.length - 'Done '.length - 1) / family.length))
  })

  test('subagents’ edits count as the session’s work', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/src/sub.ts`, content: '', agentId: 'agent-1' } as never)
    await end($)
    expect((world.hark.callsTo('end_session')[0]!.arguments as Record<string, string>)['what_changed']).toBe('edited src/sub.ts')
  })
})

describe('Claude’s own end_session', () => {
  const hand = { tool: 'mcp__hark__end_session', what_i_did: 'I did things', venture: 'V-012' }

  test('a successful call in the main conversation: the plugin sends only close_session', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/app.ts`, old_string: 'a', new_string: 'b' })
    await $.tool.call(hand as never)
    await end($)
    expect(world.hark.callsTo('end_session')).toHaveLength(0)
    expect(world.hark.callsTo('close_session').map((c) => c.arguments)).toEqual([{ reason: CLOSE_REASON }])
  })

  test('work after Claude’s handoff gets its own handoff', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/app.ts`, old_string: 'a', new_string: 'b' })
    await $.tool.call(hand as never)
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/later.ts`, old_string: 'a', new_string: 'b' })
    await end($)
    const sent = world.hark.callsTo('end_session')
    expect(sent).toHaveLength(1)
    expect((sent[0]!.arguments as Record<string, string>)['what_changed']).toBe('edited src/later.ts')
  })

  test('a subagent’s call, a failed call, or an end_session without what_i_did is ignored', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { mcp__other__end_session: () => ({ isError: true, result: 'nope', text: 'nope' }) } })
    await startSession($)
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/app.ts`, old_string: 'a', new_string: 'b' })
    await $.tool.call({ ...hand, agentId: 'agent-7' } as never)
    await $.tool.call({ tool: 'mcp__other__end_session', what_i_did: 'x' } as never)
    await $.tool.call({ tool: 'mcp__chat__end_session', reason: 'bye' } as never)
    await end($)
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
  })
})

describe('fallbacks and the exit window', () => {
  test('end_session refused: session_stopped {venture}', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    world.hark.toolModes.set('end_session', 'http-500')
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'end_session', 'session_stopped'])
    expect(world.hark.callsTo('session_stopped')[0]!.arguments).toEqual({ venture: 'V-012' })
    expect(world.logs.some((l) => l.includes('end_session failed (HTTP 500)'))).toBe(true)
  })

  test('end_session and session_stopped both refused: one log line for the handoff', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    world.hark.mode = 'http-500'
    const before = world.logs.length
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'end_session', 'session_stopped'])
    expect(world.logs.slice(before)).toEqual(["Hark: end_session failed (HTTP 500), and so did session_stopped (HTTP 500); Hark's idle sweep drafts the handoff."])
  })

  test('end_session unreachable: session_stopped too', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    world.hark.toolModes.set('end_session', 'unreachable')
    await end($)
    expect(world.hark.callsTo('session_stopped')).toHaveLength(1)
  })

  test('Hark never answers at exit: no retry, no session_stopped, and the hook settles inside the window', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    world.hark.mode = 'hang'
    let settled = false
    const ending = end($).then(() => (settled = true))
    // The test kit's exit budget is 10 s (the 1.5 s cut is not simulated); a request waits at most 3 s.
    await world.clock.advance(2_990)
    expect(settled).toBe(false)
    await world.clock.advance(20)
    await world.clock.settle()
    await ending
    expect(settled).toBe(true)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'end_session'])
    expect(world.logs.some((l) => l.includes('end_session failed (no answer within'))).toBe(true)
  })

  test('a store whose writes hang at exit: each wait is 150 ms, and the handoff still goes out', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    world.store.hangWrites = true
    let settled = false
    const ending = end($).then(() => (settled = true))
    for (let i = 0; i < 10 && world.hark.callsTo('end_session').length === 0; i++) await world.clock.advance(150)
    await world.clock.settle()
    await ending
    expect(settled).toBe(true)
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
  })
})

describe('/hark handoff, needs, open', () => {
  test('/hark handoff ends the Hark session now; exit then sends nothing; later work gets its own', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    const out = await hark($, 'handoff')
    expect(out.text).toContain('Handed off to Hark')
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
    expect(world.lastStatus()).toBe('Hark V-012 · Clean · 2 need you')
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/late.ts`, old_string: 'a', new_string: 'b' })
    await end($)
    const sent = world.hark.callsTo('end_session')
    expect(sent).toHaveLength(2)
    expect((sent[1]!.arguments as Record<string, string>)['what_changed']).toBe('edited src/late.ts')
    expect((sent[1]!.arguments as Record<string, string>)['what_i_did']).not.toContain('npm test')
  })

  test('/hark handoff with nothing done closes the session; exit sends nothing more', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const out = await hark($, 'handoff')
    expect(out.text).toContain('closed the Hark session')
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'close_session'])
  })

  test('/hark needs lists the proposals and updates the count', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    world.hark.venture.candidates.push({ title: 'A third proposal' })
    const out = await hark($, 'needs')
    expect(out.text).toContain('3 proposals wait for a person in V-012:')
    expect(out.text).toContain('- Use an ORM after all — Proposed by a teammate.')
    expect(world.lastStatus()).toBe('Hark V-012 · Open · 3 need you')
    expect(world.hark.callsTo('list_candidates')[0]!.arguments).toEqual({ venture: 'V-012' })
  })

  test('/hark open asks get_venture once, prints the link, starts nothing', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const first = await hark($, 'open')
    const second = await hark($, 'open')
    expect(first.text).toContain('https://harkstudio.io/ventures/0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f')
    expect(second.text).toBe(first.text)
    expect(world.hark.callsTo('get_venture')).toHaveLength(1)
    expect(world.hark.callsTo('get_venture')[0]!.arguments).toEqual({ id_or_code: 'V-012' })
    expect(world.processRuns).toEqual([])
  })

  test('/hark open with a project id in the file asks nothing; unknown id prints the studio', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { files: { [`${PROJECT}/.hark/project`]: '0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f' } })
    await startSession($)
    const out = await hark($, 'open')
    expect(out.text).toContain('https://harkstudio.io/ventures/0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f')
    expect(world.hark.callsTo('get_venture')).toHaveLength(0)
  })

  test('/hark open when Hark cannot say: the studio link', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    world.hark.toolModes.set('get_venture', 'http-500')
    const out = await hark($, 'open')
    expect(out.text).toContain('https://harkstudio.io/studio')
  })
})

describe('one handoff per piece of work across processes', () => {
  const store = new FakeStore()
  test('process one records work and hands off at exit', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { store, toolResults: { Bash: bash } })
    await startSession($)
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
    await end($)
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
  })
  test('process two of the same conversation ends with no new work: nothing is sent for it', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { store, sessionId: 'second-session' })
    await startSession($)
    await end($)
    expect(world.hark.callsTo('end_session')).toHaveLength(0)
  })
})
