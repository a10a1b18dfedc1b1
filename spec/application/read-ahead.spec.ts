// The exit chain's read ahead (end_session goes out within 15 ms of session.end: docs/performance.md): classic.SessionEnd reads
// the other processes' records, and session.end's handoff works from that read instead of reading them
// again. Work another process records in between is not marked handed off, so it goes in a later handoff.
import { describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import { memoryPorts } from '../memory-ports'
import { settle } from '../support'

const ROOT = '/home/dev/ledger'
const KEY = 'hark_spec_key_0123456789'
const NOW = 1_767_000_000_000

/** An exit window with its 1.5 s all left (the clock here moves only as the plugin reads it). */
const EXIT = { left: () => 1_500 }

/** The time, a millisecond further at each reading (entries, claims and marks each get their own). */
let clock = NOW

/** A plugin load over `data`, counting the store's reads of its keys. */
function load(data: Map<string, unknown>, sessionId: string) {
  const said: string[] = []
  const hark = new InMemoryHark(undefined, KEY)
  const app = compose({ access_key: KEY })
  let keyReads = 0
  const ports = () => {
    const base = memoryPorts({ data, root: ROOT, now: NOW, said, post: (headers, body) => hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body }) })
    return {
      ...base,
      session: { ...base.session, id: async () => sessionId },
      clock: { ...base.clock, now: async () => ++clock },
      store: {
        ...base.store,
        keys: () => {
          keyReads++
          return base.store.keys()
        },
      },
    }
  }
  const uc = () => app.useCases(ports())
  return { uc, hark, keyReads: () => keyReads }
}

async function start(p: ReturnType<typeof load>) {
  await p.uc().start.onSessionStart(ROOT)
  await p.uc().start.ensureStarted()
  await p.uc().context.blocks([])
  await settle()
}

const changed = (p: ReturnType<typeof load>) => p.hark.callsTo('end_session').map((c) => String(c.arguments['what_changed']))

describe('the handoff at exit works from the records classic.SessionEnd read', () => {
  test('with the claim made at classic.SessionEnd (its own hook call), session.end reads nothing from the store', async () => {
    const p = load(new Map(), 'one')
    await start(p)
    await p.uc().guard.after(`${ROOT}/src/a.ts`)
    const exit = p.uc()
    const moveChecked = exit.move.run(undefined)
    await exit.handOff.prepare(moveChecked)
    await settle()
    const before = p.keyReads()
    expect((await p.uc().handOff.run(EXIT)).kind).toBe('sent')
    expect(p.keyReads() - before).toBe(0)
    expect(changed(p)).toEqual(['edited src/a.ts'])
  })

  test('work another process records after the read ahead is not marked, and goes in its own handoff later', async () => {
    const data = new Map<string, unknown>()
    const one = load(data, 'one')
    await start(one)
    const two = load(data, 'two')
    await start(two)
    // Process one carries the conversation (its prompt is the latest) and edits.
    await one.uc().prompt.run()
    await one.uc().guard.after(`${ROOT}/src/one.ts`)
    await settle()
    const exitOne = one.uc()
    await exitOne.handOff.prepare(exitOne.move.run(undefined))
    await settle()
    // Process two records work after process one read ahead.
    await two.uc().guard.after(`${ROOT}/src/two.ts`)
    await settle()
    expect((await one.uc().handOff.run(EXIT)).kind).toBe('sent')
    expect(changed(one)).toEqual(['edited src/one.ts'])
    // Process two's exit hands off what process one did not send.
    const exitTwo = two.uc()
    await exitTwo.handOff.prepare(exitTwo.move.run(undefined))
    await settle()
    await two.uc().handOff.run(EXIT)
    expect(changed(two)).toEqual(['edited src/two.ts'])
  })

  test('two processes each claiming ahead at their exit: each hands off its own part once, on its own segment', async () => {
    const data = new Map<string, unknown>()
    const one = load(data, 'one')
    await start(one)
    const two = load(data, 'two')
    await start(two)
    // Process one has work, saved, before process two (which carries the conversation) exits.
    await one.uc().guard.after(`${ROOT}/src/one.ts`)
    await settle()
    await two.uc().prompt.run()
    await two.uc().guard.after(`${ROOT}/src/two.ts`)
    await settle()
    await two.uc().handOff.prepare(two.uc().move.run(undefined))
    expect((await two.uc().handOff.run(EXIT)).kind).toBe('sent')
    expect(changed(two)).toEqual(['edited src/one.ts\nedited src/two.ts'])
    // Process one records more, then exits.
    await one.uc().guard.after(`${ROOT}/src/later.ts`)
    await one.uc().handOff.prepare(one.uc().move.run(undefined))
    expect((await one.uc().handOff.run(EXIT)).kind).toBe('sent')
    expect(changed(one)).toEqual(['edited src/later.ts'])
    const claims = [...data.keys()].filter((k) => k.startsWith('handoff:'))
    // Process two's claim on segment 0, and process one's on segment 1.
    expect(claims.map((k) => k.split(':')[2])).toEqual(['0', '1'])
  })
})
