// The edit guard through the engine (SPEC.md: The edit guard; tool.call for Edit, Write, MultiEdit
// and NotebookEdit). World: V-012's decisions (fake Hark seed) — d-1 "Raw SQL, no ORM (scope: src/db/**)",
// d-2 "Migrations are plain .sql files" (paths *.sql), d-3 billing area, d-4 a proposal, d-5 superseded;
// the brief's non-goal "No mobile app this quarter" (area mobile).
import { describe, expect, test } from 'claude-code/testing'
import { createWorld, FakeStore, KEY, NO_KEY, PROJECT, STARTED_AT, startSession, WITH_KEY } from './world'

const edit = (file_path: string) => ({ tool: 'Edit', file_path, old_string: 'a', new_string: 'SECRET_EDIT_TEXT' }) as const

describe('a covered edit asks Allow or Stop', () => {
  test('the question lists every matching record with its why; Allow lets the edit through and is remembered', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const out = await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect('deny' in out && out.deny !== undefined).toBe(false)
    expect(world.questions).toHaveLength(1)
    const q = world.questions[0]!
    expect(q.options).toEqual(['Allow', 'Stop'])
    expect(q.question).toContain('src/db/schema.sql')
    expect(q.question).toContain('Raw SQL, no ORM')
    expect(q.question).toContain('Queries stay visible and fast.')
    expect(q.question).toContain('Migrations are plain .sql files')
    expect(q.question).not.toContain('Use an ORM after all')
    // Allow is remembered: the next edit of a file those records cover asks nothing.
    await $.tool.call(edit(`${PROJECT}/src/db/queries/users.sql`))
    expect(world.questions).toHaveLength(1)
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(1)
  })

  test('Stop refuses the edit and tells Claude why and not to retry; the next matching edit asks again', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { answer: 'Stop' })
    await startSession($)
    const out = await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    // A hook's deny ends the call errored; its reason is what Claude reads.
    const text = 'deny' in out && out.deny !== undefined ? out.deny : String(out.text)
    expect(text).toContain('Raw SQL, no ORM')
    expect(text).toContain('Do not retry this edit')
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(2)
    expect(world.store.keysWith('c:').map((k) => (world.store.data.get(k) as { entries: unknown[] }).entries).flat()).toEqual([])
  })

  test('an answer typed into Other stops the edit and is passed on to Claude', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { answer: 'use the query builder instead' })
    await startSession($)
    const out = await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    const text = 'deny' in out && out.deny !== undefined ? out.deny : String(out.text)
    expect(text).toContain('The user answered: use the query builder instead')
  })

  test('a dismissed question lets the edit go ahead with one log line', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { answer: 'dismiss' })
    await startSession($)
    const out = await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect('deny' in out && out.deny !== undefined).toBe(false)
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('the edit goes ahead')
  })

  test('an area covers files under a folder of that name, not a file named after it', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/lib/billing.ts`))
    expect(world.questions).toHaveLength(0)
    await $.tool.call(edit(`${PROJECT}/src/Billing/deposit.ts`))
    expect(world.questions).toHaveLength(1)
    expect(world.questions[0]!.question).toContain('Billing rounds half-even')
    expect(world.questions[0]!.question).not.toContain('Floats for money')
  })

  test('a non-goal from the brief guards its area', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { answer: 'Stop' })
    await startSession($)
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/apps/mobile/App.tsx`, content: 'x' })
    expect(world.questions[0]?.question).toContain('No mobile app this quarter')
  })

  test('NotebookEdit is guarded by its notebook path', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call({ tool: 'NotebookEdit', notebook_path: `${PROJECT}/src/db/explore.ipynb`, new_source: 'x' })
    expect(world.questions).toHaveLength(1)
  })

  test('edits running in parallel each get their own question; the decisions are fetched once', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { answer: 'Stop' })
    await startSession($)
    await Promise.all([$.tool.call(edit(`${PROJECT}/src/db/a.sql`)), $.tool.call(edit(`${PROJECT}/src/db/b.sql`))])
    expect(world.questions).toHaveLength(2)
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(1)
  })
})

describe('what is never guarded, recorded or sent', () => {
  test('a file outside the project: no question, not recorded', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call(edit('/etc/db/x.sql'))
    await $.tool.call(edit(`${PROJECT}/../other/src/db/x.sql`))
    expect(world.questions).toHaveLength(0)
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(0)
    const records = world.store.keysWith('c:').map((k) => world.store.data.get(k) as { entries: unknown[] })
    expect(records.flatMap((r) => r.entries)).toEqual([])
  })

  test('after a successful edit the path, relative to the project, is recorded; nothing about it is sent', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/app.ts`))
    // The record's save runs after the hook settled.
    await world.clock.settle()
    const records = world.store.keysWith('c:').map((k) => world.store.data.get(k) as { entries: { work: unknown }[] })
    expect(records.flatMap((r) => r.entries.map((e) => e.work))).toEqual([{ kind: 'file', path: 'src/app.ts' }])
    const bodies = world.hark.calls.map((c) => c.body).join('\n')
    expect(bodies).not.toContain('src/app.ts')
    expect(bodies).not.toContain('SECRET_EDIT_TEXT')
  })

  test('a failed edit is not recorded', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { toolResults: { Edit: () => ({ isError: true, result: 'String not found', text: 'String not found' }) } })
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/app.ts`))
    const records = world.store.keysWith('c:').map((k) => world.store.data.get(k) as { entries: unknown[] })
    expect(records.flatMap((r) => r.entries)).toEqual([])
  })

  test('without a key the guard asks nothing and fetches nothing', NO_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(0)
    expect(world.hark.calls).toHaveLength(0)
  })
})

describe('fetching the decisions', () => {
  test('a failed fetch: non-goals alone, and one retry a minute later, not on every edit', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { answer: 'Stop' })
    await startSession($)
    world.hark.toolModes.set('list_journal_entries', 'http-500')
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(0)
    expect(world.logs.filter((l) => l.includes('could not fetch the decisions'))).toHaveLength(1)
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/mobile/x.ts`, content: '' })
    expect(world.questions).toHaveLength(1)
    await world.clock.advance(30_000)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(1)
    // Still failing a minute later: tried again, but no second log line.
    await world.clock.advance(31_000)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(2)
    expect(world.logs.filter((l) => l.includes('could not fetch the decisions'))).toHaveLength(1)
    world.hark.toolModes.delete('list_journal_entries')
    await world.clock.advance(60_000)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(3)
    expect(world.questions).toHaveLength(2)
  })

  test('fetched again on the first edit after a compaction', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/app.ts`))
    await $.tool.call(edit(`${PROJECT}/src/other.ts`))
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(1)
    await $.session.compact({ trigger: 'manual', messages: [{ role: 'user', text: 'hello', toolUses: [] }] })
    await $.tool.call(edit(`${PROJECT}/src/app.ts`))
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(2)
  })
})

describe('Allow across processes', () => {
  const store = new FakeStore()
  test('process one allows', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { store })
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(1)
  })
  test('process two of the same conversation does not ask again', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { store, sessionId: 'another-session-id' })
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(0)
  })
  test('a new conversation (another launch time) asks again', WITH_KEY, async ($, on) => {
    const world = createWorld(on, { store, startedAt: 1_800_000_000_000 })
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(1)
  })
})

describe('/clear ends the conversation the guard remembers', () => {
  test('after /clear the decisions are fetched again and an Allow given before is asked again', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(1)
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(1)
    await $.classic.SessionEnd({ reason: 'clear', transcript_path: '' })
    await $.session.end({ reason: 'clear', sessionId: 'sess', resume: { id: 'sess' } })
    // Claude Code starts the next conversation: a new session id and launch time.
    world.sessionId = 'after-clear'
    world.startedAt = STARTED_AT + 3_600_000
    await world.clock.advance(1_000)
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.hark.callsTo('list_journal_entries')).toHaveLength(2)
    expect(world.questions).toHaveLength(2)
    // Without /clear the same conversation goes on: nothing is fetched or asked again.
    await $.tool.call(edit(`${PROJECT}/src/db/schema.sql`))
    expect(world.questions).toHaveLength(2)
  })
})
