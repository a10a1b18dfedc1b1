// One conversation across several processes, through the engine (SPEC.md: What it stores; One
// conversation, several processes; session.start; prompt.submit; classic.SessionEnd; session.end).
// The kit loads the plugin afresh for every test, and the file's variables survive: each describe
// below is a chain of tests, one test per process, over one Conversation (tests/world.ts) that carries
// the store and the time from one process to the next. See docs/engine.md.
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { claimKey, recordKey, type ConversationKey } from '../core/domain/conversation/keys'
import { Conversation, conversationKey, createWorld, FakeStore, hark, KEY, PROJECT, settle, sizes, STARTED_AT, startSession, type World } from './world'

const options = { access_key: KEY }
const CONTEXT = { blocks: [{ name: 'currentDate', text: "Today's date is 2026-11-29." }], instructionFiles: [] }
const MINUTE = 60_000
const ORIGINAL = '6f1d2c3b-0000-4000-8000-000000000001'
const BACKGROUND = '6f1d2c3b-0000-4000-8000-0000000000b9'

const write = ($: Engine, path: string) => $.tool.call({ tool: 'Write', file_path: `${PROJECT}/${path}`, content: 'FILE_TEXT' })
const prompt = ($: Engine) => $.prompt.submit({ text: 'go on', wait: false, origin: { kind: 'composer' } } as never)
const end = ($: Engine, reason: 'other' | 'clear' | 'prompt_input_exit' = 'other', transcript_path = '') =>
  $.classic.SessionEnd({ reason, transcript_path }).then(() => $.session.end({ reason, sessionId: 'sess', resume: { id: 'sess' } }))
const changed = (world: World) => world.hark.callsTo('end_session').map((c) => String(c.arguments['what_changed']))
const ids = (world: World) => world.hark.calls.map((c) => String(c.meta['conversation']))
const records = (store: FakeStore) => store.keysWith('c:').map((k) => store.data.get(k) as { conversationId: string; segment: number; entries: unknown[] })

/** A transcript's rows (JSON Lines), as Claude Code writes them. */
const transcript = (...types: string[]) => types.map((type, i) => JSON.stringify({ type, timestamp: `2026-11-29T10:00:0${i}Z`, sessionId: ORIGINAL, ...(type === 'continued-in' ? { continuedInSessionId: BACKGROUND } : { message: { text: 'x' } }) })).join('\n') + '\n'

describe('a background move: the brief is reused, Allow answers and work carry over, one handoff', () => {
  const conv = new Conversation()
  let firstId = ''
  let briefText = ''

  test('process one (the original) fetches the brief, allows an edit, records work, and moves to the background', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = conv.process(on, { sessionId: ORIGINAL, files: { [`${PROJECT}/.hark/project`]: 'V-012\n', '/t/original.jsonl': transcript('user', 'assistant', 'continued-in') } })
    await startSession($)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    firstId = ids(world)[0]!
    expect(firstId).toMatch(/^[0-9a-f]{32}$/)
    const out = await $.prompt.context(CONTEXT)
    briefText = out.blocks.find((b) => b.name === 'hark')!.text
    await prompt($)
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/db/schema.sql`, old_string: 'a', new_string: 'b' })
    expect(world.questions).toHaveLength(1)
    await write($, 'src/app.ts')
    // The transcript ends with the move: this process stays quiet at exit.
    await end($, 'other', '/t/original.jsonl')
    expect(world.hark.callsTo('end_session')).toEqual([])
    expect(world.hark.callsTo('close_session')).toEqual([])
    expect(world.store.keysWith('handoff:')).toEqual([])
    expect(world.logs).toEqual([])
  })

  test('process two (the background one), 10 minutes later: the cached brief, no get_agent_brief, the same id', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(10 * MINUTE)
    const world = conv.process(on, { sessionId: BACKGROUND })
    await startSession($)
    expect(world.hark.calls).toEqual([])
    const out = await $.prompt.context(CONTEXT)
    expect(out.blocks.find((b) => b.name === 'hark')?.text).toBe(briefText)
    expect(world.lastStatus()).toBe('Hark V-012 · Open · 2 need you')
    // The Allow answer carries over: no question.
    await $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/src/db/schema.sql`, old_string: 'b', new_string: 'c' })
    expect(world.questions).toEqual([])
    await write($, 'src/worker.ts')
    await end($)
    // One handoff with both processes' work, under the conversation's one id.
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
    expect(changed(world)[0]).toContain('edited src/app.ts')
    expect(changed(world)[0]).toContain('edited src/worker.ts')
    expect(changed(world)[0]).toContain('edited src/db/schema.sql')
    expect(new Set(ids(world))).toEqual(new Set([firstId]))
    expect(new Set(records(world.store).map((r) => r.conversationId))).toEqual(new Set([firstId]))
  })

  test('process three (claude --resume), 5 minutes later with no new work: sends nothing', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(5 * MINUTE)
    const world = conv.process(on, { sessionId: 'resumed-session' })
    await startSession($)
    await end($)
    expect(world.hark.calls).toEqual([])
  })

  test('process four, 40 minutes later: the brief is fetched again (state over 30 minutes old); new work, its own handoff, the same id', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(40 * MINUTE)
    const world = conv.process(on, { sessionId: 'later-session' })
    await startSession($)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    await write($, 'src/later.ts')
    await end($)
    expect(changed(world)).toEqual(['edited src/later.ts'])
    expect(new Set(ids(world))).toEqual(new Set([firstId]))
  })
})

describe('a resume whose start outlasts prompt.submit\'s 150 ms (its record\'s write waits on the store\'s lock)', () => {
  const conv = new Conversation()
  test('process one fetches the brief and records work', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.process(on, { sessionId: 'first' })
    await startSession($)
    await write($, 'src/a.ts')
  })

  test('process two, 40 minutes later, fetches the brief again: it goes to the model with the first prompt, once, which does not wait for the record\'s write', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(40 * MINUTE)
    conv.store.locked = true
    const world = conv.process(on, { sessionId: 'resumed' })
    await $.session.start({ cwd: PROJECT, surface: null, isInteractive: false })
    const first = $.prompt.submit({ text: 'go on', wait: false, origin: { kind: 'composer' } } as never) as Promise<{ context?: string[] }>
    expect(await settle(world.clock, first, 5_000, 10)).toBeLessThan(150)
    const out = await first
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    expect(out.context?.[0]).toStartWith('<hark-brief project="V-012">')
    const second = $.prompt.submit({ text: 'and then', wait: false, origin: { kind: 'composer' } } as never) as Promise<{ context?: unknown[] }>
    await settle(world.clock, second)
    expect((await second).context ?? []).toEqual([])
    conv.store.locked = false
  })
})

describe('a move back: an assistant row after the move means the conversation came back', () => {
  test('the original process hands off at exit', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { files: { [`${PROJECT}/.hark/project`]: 'V-012\n', '/t/back.jsonl': transcript('user', 'continued-in', 'user', 'assistant') } })
    await startSession($)
    await write($, 'src/a.ts')
    await end($, 'other', '/t/back.jsonl')
    expect(changed(world)).toEqual(['edited src/a.ts'])
  })
})

describe('a store that refused a write, then a move to the background', () => {
  test('the process that was left hands off the work the store never took', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { files: { [`${PROJECT}/.hark/project`]: 'V-012\n', '/t/moved.jsonl': transcript('user', 'assistant', 'continued-in') } })
    await startSession($)
    world.store.refuseWrites = true
    await write($, 'src/unsaved.ts')
    await end($, 'other', '/t/moved.jsonl')
    // The background process never saw this edit: nobody else can hand it off.
    expect(changed(world)).toEqual(['edited src/unsaved.ts'])
  })

  test('a move with a store that took every write stays quiet, as before', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { files: { [`${PROJECT}/.hark/project`]: 'V-012\n', '/t/moved.jsonl': transcript('user', 'assistant', 'continued-in') } })
    await startSession($)
    await write($, 'src/saved.ts')
    await end($, 'other', '/t/moved.jsonl')
    expect(world.hark.callsTo('end_session')).toEqual([])
  })
})

describe('brief reuse needs a cached brief at least as new as the conversation’s own last fetch', () => {
  const conv = new Conversation()
  test('process one fetches the brief', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = conv.process(on)
    await startSession($)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    // The brief's cache and the record are saved after the context went out (the hook does not wait).
    await world.clock.settle()
    // Another conversation of the project wrote an older brief into the project's cache since.
    const cached = world.store.data.get('brief:V-012') as { text: string; fetchedAt: number }
    world.store.data.set('brief:V-012', { text: cached.text, fetchedAt: cached.fetchedAt - 1 })
  })
  test('process two, 5 minutes later: the cache is older, so it fetches', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(5 * MINUTE)
    const world = conv.process(on, { sessionId: 'second' })
    await startSession($)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    await world.clock.settle()
  })
  test('process three, 5 minutes later: the cache is new again, so it reuses it', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(5 * MINUTE)
    const world = conv.process(on, { sessionId: 'third' })
    await startSession($)
    expect(world.hark.calls).toEqual([])
  })
})

describe('one handoff per piece of work', () => {
  const conv = new Conversation()
  test('process one records work and is still running (its record stays)', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = conv.process(on, { sessionId: 'one' })
    await startSession($)
    await write($, 'src/one.ts')
    // The edit's save runs after its hook settled; the process goes on running.
    await world.clock.settle()
  })
  test('process two ends first: it hands off both processes’ work', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, { sessionId: 'two' })
    await startSession($)
    await write($, 'src/two.ts')
    await end($)
    expect(changed(world)).toHaveLength(1)
    expect(changed(world)[0]).toContain('edited src/one.ts')
    expect(changed(world)[0]).toContain('edited src/two.ts')
  })
  test('a process ending after the handoff sends nothing for that work', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, { sessionId: 'three' })
    await startSession($)
    await end($)
    expect(world.hark.calls).toEqual([])
  })
  test('work after a handoff gets its own: /hark handoff, more work, exit', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, { sessionId: 'four' })
    await startSession($)
    await write($, 'src/four.ts')
    await hark($, 'handoff')
    await write($, 'src/five.ts')
    await end($)
    expect(changed(world)).toEqual(['edited src/four.ts', 'edited src/five.ts'])
    // Segments: one per handoff, in every process's record.
    expect(Math.max(...records(world.store).map((r) => r.segment))).toBe(3)
  })
})

describe('claims', () => {
  test('a claim another process stored less than 30 s ago wins: nothing sent, the work stays for the next handoff', { options, timeoutMs: 15_000 }, async ($, on) => {
    const store = new FakeStore()
    const world = createWorld(on, { store })
    await startSession($)
    await write($, 'src/a.ts')
    store.data.set(claimKey(await conversationKey(), 0, world.clock.now() - 10_000, 'otherproc'), true)
    await end($)
    expect(world.hark.callsTo('end_session')).toEqual([])
    expect(records(store).flatMap((r) => r.entries)).toHaveLength(1)
  })

  test('a claim older than 30 s was left by a process that died mid-handoff: ignored', { options, timeoutMs: 15_000 }, async ($, on) => {
    const store = new FakeStore()
    const world = createWorld(on, { store })
    await startSession($)
    await write($, 'src/a.ts')
    store.data.set(claimKey(await conversationKey(), 0, world.clock.now() - 30_001, 'deadproc'), true)
    await end($)
    expect(changed(world)).toEqual(['edited src/a.ts'])
  })
})

describe('the exit chain claims at classic.SessionEnd (end_session goes out within 15 ms of session.end: docs/performance.md)', () => {
  test('the claim is stored when classic.SessionEnd settles; session.end stores the mark, then sends end_session once', { options, timeoutMs: 15_000 }, async ($, on) => {
    const store = new FakeStore()
    const world = createWorld(on, { store })
    await startSession($)
    await write($, 'src/a.ts')
    await settle(world.clock, $.prompt.context(CONTEXT))
    await world.clock.settle()
    await $.classic.SessionEnd({ reason: 'other', transcript_path: '' })
    expect(store.keysWith('handoff:')).toHaveLength(1)
    expect(world.hark.callsTo('end_session')).toEqual([])
    const before = store.writes.length
    await $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
    expect(store.writes.slice(before).filter((k) => k.startsWith('handoff:'))).toEqual([])
    expect(store.writes.slice(before).filter((k) => k.startsWith('c:'))).toHaveLength(1)
    expect(changed(world)).toEqual(['edited src/a.ts'])
    expect(store.keysWith('handoff:')).toHaveLength(1)
  })

  test('no work, the brief\'s Hark session open: claimed at classic.SessionEnd, close_session sent once', { options, timeoutMs: 15_000 }, async ($, on) => {
    const store = new FakeStore()
    const world = createWorld(on, { store })
    await startSession($)
    await settle(world.clock, $.prompt.context(CONTEXT))
    await world.clock.settle()
    await $.classic.SessionEnd({ reason: 'other', transcript_path: '' })
    expect(store.keysWith('handoff:')).toHaveLength(1)
    await $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
    expect(world.hark.callsTo('close_session')).toHaveLength(1)
    expect(world.hark.callsTo('end_session')).toEqual([])
  })
})

describe('the store refuses the claim: each process hands off its own work', () => {
  const conv = new Conversation()
  test('process one records work and is still running', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = conv.process(on, { sessionId: 'one' })
    await startSession($)
    await write($, 'src/one.ts')
    // The edit's save runs after its hook settled; the process goes on running.
    await world.clock.settle()
  })
  test('process two: its claim is refused; it hands off its own work only, with one log line', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, { sessionId: 'two' })
    await startSession($)
    await write($, 'src/two.ts')
    conv.store.refuseKeys = /^handoff:/
    await end($)
    conv.store.refuseKeys = undefined
    expect(changed(world)).toEqual(['edited src/two.ts'])
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('hands it off itself')
  })
  test('process three, with the store working again: only process one’s work is left to hand off', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, { sessionId: 'three' })
    await startSession($)
    await end($)
    expect(changed(world)).toEqual(['edited src/one.ts'])
  })
})

describe('the store refuses the claim of a process with no work of its own', () => {
  test('another process holds a live claim (it is handing off into the same Hark session): nothing is sent, no close_session', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    world.store.data.set(claimKey(await conversationKey(), 0, world.clock.now() - 1_000, 'rival'), true)
    world.store.refuseKeys = /^handoff:/
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief'])
  })

  test('no other claim: its own Hark session is closed', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    world.store.refuseKeys = /^handoff:/
    await end($)
    expect(world.hark.calls.map((c) => c.tool)).toEqual(['get_agent_brief', 'close_session'])
  })
})

describe('a transcript over 4 MiB: the store’s last-active record decides', () => {
  // The original process loaded before the background one joined; a fresh load can't be "earlier"
  // than a later one in the kit, so the background one plays first and the original starts from an
  // earlier clock reading (see docs/engine.md).
  const conv = new Conversation()
  const big = '/t/big.jsonl'
  test('the background process joins at minute 5 and records work', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(5 * MINUTE)
    const world = conv.process(on, { sessionId: BACKGROUND })
    await startSession($)
    await write($, 'src/bg.ts')
    await world.clock.settle()
  })
  test('the original (loaded at minute 1) exits at minute 6 with a transcript too big to read: it stays quiet', { options, timeoutMs: 15_000 }, async ($, on) => {
    sizes.set(big, 4 * 1024 * 1024 + 1)
    const world = createWorld(on, { store: conv.store, sessionId: ORIGINAL, now: STARTED_AT + MINUTE, files: { [`${PROJECT}/.hark/project`]: 'V-012\n', [big]: transcript('user', 'assistant') } })
    await startSession($)
    await write($, 'src/orig.ts')
    await world.clock.set(STARTED_AT + 6 * MINUTE)
    await end($, 'other', big)
    sizes.delete(big)
    expect(world.hark.callsTo('end_session')).toEqual([])
    // Only the size was asked: nothing of the transcript was read.
    expect(world.fileReads).not.toContain(big)
  })
  test('the background process ends later and hands off everything', { options, timeoutMs: 15_000 }, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, { sessionId: BACKGROUND })
    await startSession($)
    await end($, 'other', '')
    expect(changed(world)).toHaveLength(1)
    expect(changed(world)[0]).toContain('edited src/bg.ts')
    expect(changed(world)[0]).toContain('edited src/orig.ts')
  })
  test('and when the original process got the last prompt, it carries the conversation', { options, timeoutMs: 15_000 }, async ($, on) => {
    const store = new FakeStore()
    sizes.set(big, 5 * 1024 * 1024)
    const world = createWorld(on, { store, files: { [`${PROJECT}/.hark/project`]: 'V-012\n', [big]: 'x' } })
    await startSession($)
    await write($, 'src/a.ts')
    await prompt($)
    await end($, 'other', big)
    sizes.delete(big)
    expect(changed(world)).toEqual(['edited src/a.ts'])
  })
})

describe('the agent view’s empty placeholder (CLAUDE_BG_SOURCE=spare, no turn yet)', () => {
  test('registers /hark and does nothing else until a task arrives; then the brief is fetched', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { env: { CLAUDE_BG_SOURCE: 'spare' }, turns: 0 })
    await startSession($)
    expect(world.commands).toEqual(['hark'])
    expect(world.hark.calls).toEqual([])
    expect(world.store.writes).toEqual([])
    expect(world.statuses).toEqual([])
    const before = await $.prompt.context(CONTEXT)
    expect(before.blocks.some((b) => b.name === 'hark')).toBe(false)
    expect(world.store.writes).toEqual([])
    // The first task: the plugin starts, and the brief goes with the task's prompt as context the person
    // does not see (the engine keeps the placeholder's first context, built without it, for this message).
    world.turns = 1
    const submitted = (await prompt($)) as { text: string; context?: readonly string[] }
    expect(submitted.text).toBe('go on')
    expect(submitted.context).toHaveLength(1)
    expect(submitted.context?.[0]).toStartWith('<hark-brief project="V-012">')
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    expect(world.store.keysWith('c:')).toHaveLength(1)
    // Only the first task's prompt carries it.
    const second = (await prompt($)) as { context?: readonly string[] }
    expect(second.context).toBeUndefined()
  })

  test('a placeholder that already had a turn (a reload) starts at once', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { env: { CLAUDE_BG_SOURCE: 'spare' }, turns: 2 })
    await startSession($)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
  })

  test('a placeholder that is closed unused sends and stores nothing', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { env: { CLAUDE_BG_SOURCE: 'spare' }, turns: 0 })
    await startSession($)
    await end($)
    expect(world.hark.calls).toEqual([])
    expect(world.store.writes).toEqual([])
  })
})

describe('/clear starts a fresh conversation', () => {
  test('the handoff at /clear, then the next message gets a new brief under a new conversation id', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.prompt.context(CONTEXT)
    await write($, 'src/a.ts')
    await end($, 'clear')
    expect(changed(world)).toEqual(['edited src/a.ts'])
    const before = ids(world)[0]
    // Claude Code starts the new conversation: a new session id and launch time.
    world.sessionId = 'after-clear'
    world.startedAt = STARTED_AT + 3_600_000
    await world.clock.advance(1_000)
    const out = await $.prompt.context(CONTEXT)
    expect(out.blocks.find((b) => b.name === 'hark')?.text).toStartWith('<hark-brief project="V-012">')
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(2)
    const after = world.hark.callsTo('get_agent_brief')[1]!.meta['conversation']
    expect(after).not.toBe(before)
    // Two conversations in the store now, the old one's work handed off.
    const conversations = new Set(world.store.keysWith('c:').map((k) => k.split(':')[1]))
    expect(conversations.size).toBe(2)
    await write($, 'src/b.ts')
    await end($)
    expect(changed(world)).toEqual(['edited src/a.ts', 'edited src/b.ts'])
  })
})

describe('pruning at start', () => {
  const DAY = 86_400_000
  const NOW = STARTED_AT + 1_000
  const ID = 'f'.repeat(32)
  const seed = async () => {
    const conv = await conversationKey()
    const store = new FakeStore()
    const other = (i: number) => `${String(i).padStart(2, '0')}`.repeat(32) as ConversationKey
    // An idle process of this very conversation, with work not yet handed off.
    store.data.set(recordKey(conv, NOW - 2 * 3_600_000, 'idle'), {
      conversationId: ID,
      savedAt: NOW - 3_600_000,
      seq: 1,
      entries: [{ n: 1, at: NOW - 3_600_000, work: { kind: 'file', path: 'src/idle.ts' } }],
    })
    // 30 records of other conversations, not saved for 15 days (each about 2 KB).
    for (let i = 0; i < 30; i++) {
      store.data.set(recordKey(other(i), NOW - 20 * DAY, `old${i}`), { conversationId: ID, savedAt: NOW - 15 * DAY, seq: 1, entries: [{ n: 1, at: 1, work: { kind: 'file', path: 'x'.repeat(2_000) } }] })
    }
    store.data.set(recordKey(other(99), NOW - DAY, 'fresh'), { conversationId: ID, savedAt: NOW - DAY })
    store.data.set('brief:V-OLD', { text: 'old', fetchedAt: NOW - 15 * DAY })
    store.data.set(claimKey(conv, 0, NOW - 2 * 3_600_000, 'oldclaim'), true)
    store.data.set('not-ours', { keep: true })
    return store
  }
  let store: FakeStore

  test('at most 20 entries go per start; the idle record’s work is folded in first', { options, timeoutMs: 15_000 }, async ($, on) => {
    store = await seed()
    const seeded = [...store.data.keys()]
    const size = JSON.stringify([...store.data]).length
    const world = createWorld(on, { store, now: NOW })
    await startSession($)
    // Pruning goes on beside the brief; the first context does not wait for it.
    await world.clock.settle()
    expect(seeded.filter((k) => !store.data.has(k))).toHaveLength(20)
    expect(store.data.has(seeded[0]!)).toBe(false)
    // The idle process's conversation id is the conversation's (created first, kept in the store).
    expect(world.hark.calls[0]!.meta['conversation']).toBe(ID)
    await end($)
    expect(changed(world)).toEqual(['edited src/idle.ts'])
    expect(JSON.stringify([...store.data]).length).toBeLessThan(size)
    expect(store.data.has('not-ours')).toBe(true)
  })

  test('the next start clears the rest; the store is far below the engine’s 4 MiB', { options, timeoutMs: 15_000 }, async ($, on) => {
    const world = createWorld(on, { store, now: NOW + 60_000, sessionId: 'next' })
    await startSession($)
    await world.clock.settle()
    expect(store.keysWith('c:').filter((k) => k.includes(':old'))).toEqual([])
    expect(store.data.has('brief:V-OLD')).toBe(false)
    expect(store.keysWith('handoff:').filter((k) => k.endsWith(':oldclaim'))).toEqual([])
    expect(JSON.stringify([...store.data]).length).toBeLessThan(64 * 1024)
  })
})

describe('a store that misbehaves', () => {
  test('writes that hang: every hook still settles (each write waits 2 s, then 150 ms); the work is handed off', { options, timeoutMs: 20_000 }, async ($, on) => {
    const world = createWorld(on)
    world.store.hangWrites = true
    const started = await settle(world.clock, startSession($))
    expect(started).toBeLessThan(10_000)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    expect(await settle(world.clock, $.prompt.context(CONTEXT))).toBeLessThan(1_000)
    expect(await settle(world.clock, prompt($))).toBeLessThanOrEqual(200)
    expect(await settle(world.clock, write($, 'src/a.ts'))).toBeLessThan(1_000)
    // The exit: within Claude Code's 1.5 s window.
    expect(await settle(world.clock, end($), 5_000, 10)).toBeLessThan(1_500)
    expect(changed(world)).toEqual(['edited src/a.ts'])
    expect(world.logs.filter((l) => l.includes('plugin store'))).toHaveLength(1)
  })

  test('damaged and foreign values: one log line; work recorded by another process is not lost', { options, timeoutMs: 15_000 }, async ($, on) => {
    const conv = await conversationKey()
    const store = new FakeStore()
    const ID = 'e'.repeat(32)
    store.data.set(recordKey(conv, 1, 'damaged'), 'not a record')
    store.data.set(recordKey(conv, 2, 'hostile'), JSON.parse(`{"__proto__":{"polluted":true},"conversationId":"${ID}","savedAt":${STARTED_AT},"entries":"oops","cursors":{"__proto__":9},"allowed":[1,2,3]}`))
    store.data.set(recordKey(conv, 3, 'elsewhere'), {
      conversationId: ID,
      savedAt: STARTED_AT,
      seq: 2,
      entries: [
        { n: 1, at: STARTED_AT, work: { kind: 'file', path: 'src/elsewhere.ts' } },
        { n: 2, at: STARTED_AT, work: { kind: 'file', path: { evil: true } } },
      ],
    })
    store.data.set('brief:V-012', ['not', 'a', 'brief'])
    store.data.set('someone-elses-key', { whatever: 1 })
    const world = createWorld(on, { store })
    await startSession($)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    await write($, 'src/mine.ts')
    await end($)
    expect(changed(world)).toHaveLength(1)
    expect(changed(world)[0]).toContain('edited src/elsewhere.ts')
    expect(changed(world)[0]).toContain('edited src/mine.ts')
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('damaged record')
    expect(store.data.get('someone-elses-key')).toEqual({ whatever: 1 })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})
