// The handoff's exit when the store is not free, through the engine (SPEC.md: The handoff, "Each store write
// waits at most 150 ms there, so a store lock held by another process can't use up the window"; One
// conversation, several processes, "At most one handoff per piece of work"). The test kit's exit budget is
// 10 s, so the time end_session leaves is read from the mock clock, counted from classic.SessionEnd's start.
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { Conversation, createWorld, hark, KEY, PROJECT, settle, startSession, type World } from './world'

const T = { options: { access_key: KEY }, timeoutMs: 30_000 } as const
const NOTES = 'Moved the ledger totals into SQL.\n\n## Next steps\n- Add the monthly export'
const edit = ($: Engine, path: string) => $.tool.call({ tool: 'Edit', file_path: `${PROJECT}/${path}`, old_string: 'a', new_string: 'b' })
const answer = ($: Engine, text: string) => $.turn.complete({ answer: text, durationMs: 10, isAborted: false, turnId: 't1', reason: 'answer' })
const exit = ($: Engine) =>
  $.classic.SessionEnd({ reason: 'other', transcript_path: '' }).then(() => $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } }))
const changedIn = (world: World) => world.hark.callsTo('end_session').map((c) => String(c.arguments['what_changed']))

/**
 * Runs the exit chain from now, moving the mock clock 10 ms at a time: when end_session reached Hark, in ms
 * after classic.SessionEnd began (undefined when it never did), once the chain has settled.
 */
async function timedExit($: Engine, world: World, during?: () => void): Promise<number | undefined> {
  const started = world.clock.now()
  let settled = false
  const ending = exit($).then(() => (settled = true))
  during?.()
  let arrived: number | undefined
  while (!settled && world.clock.now() - started < 10_000) {
    await world.clock.advance(10)
    if (arrived === undefined && world.hark.callsTo('end_session').length > 0) arrived = world.clock.now() - started
  }
  await ending
  return arrived ?? (world.hark.callsTo('end_session').length > 0 ? world.clock.now() - started : undefined)
}

/** What end_session carried: the files and the notes. */
function carried(world: World): { changed: string; notes: boolean } {
  const args = world.hark.callsTo('end_session')[0]?.arguments ?? {}
  return { changed: String(args['what_changed']), notes: String(args['what_i_did']).includes('Moved the ledger totals into SQL.') }
}

describe('another process holds the store lock at exit: end_session leaves within about half a second, carrying all the work', () => {
  test('the lock taken before the last answer (its notes wait on the lock)', T, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await edit($, 'src/db/totals.sql')
    await world.clock.advance(20)
    world.store.locked = true
    await answer($, NOTES)
    await world.clock.advance(100)
    const at = await timedExit($, world)
    expect(at).toBeDefined()
    expect(at!).toBeLessThanOrEqual(650)
    expect(carried(world)).toEqual({ changed: 'edited src/db/totals.sql', notes: true })
    expect(world.hark.callsTo('end_session')).toHaveLength(1)
  })

  test('the lock taken before the last edit is saved, a Write recorded just before the exit', T, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await answer($, NOTES)
    await world.clock.advance(20)
    world.store.locked = true
    await edit($, 'src/db/totals.sql')
    await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/src/export.ts`, content: 'x' })
    const at = await timedExit($, world)
    expect(at!).toBeLessThanOrEqual(650)
    expect(carried(world)).toEqual({ changed: 'edited src/db/totals.sql\nedited src/export.ts', notes: true })
  })

  test('the lock taken once the exit has begun', T, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await edit($, 'src/db/totals.sql')
    await answer($, NOTES)
    await world.clock.advance(20)
    const at = await timedExit($, world, () => (world.store.locked = true))
    expect(at!).toBeLessThanOrEqual(650)
    expect(carried(world)).toEqual({ changed: 'edited src/db/totals.sql', notes: true })
  })

  test('with the store free, end_session leaves as fast as before (under 300 ms)', T, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    await edit($, 'src/db/totals.sql')
    await answer($, NOTES)
    await world.clock.advance(20)
    const at = await timedExit($, world)
    expect(at!).toBeLessThan(300)
    expect(carried(world)).toEqual({ changed: 'edited src/db/totals.sql', notes: true })
  })
})

/**
 * A process's record writes held by the store while it runs /hark handoff, then landed in one order; the process
 * stops without an exit. A second process resumes the conversation five minutes later, does no work, and ends.
 * Each file must go out in exactly one end_session, whatever the order.
 */
for (const order of ['newest-first', 'oldest-first'] as const) {
  describe(`record writes landed ${order}: each piece of work handed off once`, () => {
    const conv = new Conversation()
    test('process one: two edits, /hark handoff while its writes are held, then the writes land; it stops', T, async ($, on) => {
      const world = conv.process(on, { sessionId: 'one' })
      await startSession($)
      await world.clock.advance(20)
      conv.store.holdKeys = /^c:/
      await edit($, 'src/a.ts')
      await world.clock.advance(20)
      await edit($, 'src/b.ts')
      await world.clock.advance(1_100)
      const handing = hark($, 'handoff')
      await settle(world.clock, handing)
      const out = await handing
      expect(out.text).toContain('Handed off to Hark')
      expect(changedIn(world)).toEqual(['edited src/a.ts\nedited src/b.ts'])
      // Whatever the process still writes lands too, in the same order, until nothing is held.
      for (let round = 0; round < 20; round++) {
        conv.store.land(order)
        await world.clock.advance(100)
      }
      conv.store.holdKeys = undefined
      conv.store.land(order)
      await world.clock.advance(100)
    })
    test('process two, five minutes later: no work of its own, nothing of process one sent again', T, async ($, on) => {
      conv.pass(5 * 60_000)
      const world = conv.process(on, { sessionId: 'two' })
      await startSession($)
      await exit($)
      expect(changedIn(world)).toEqual([])
    })
  })
}
