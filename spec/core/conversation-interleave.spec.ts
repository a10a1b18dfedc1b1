/**
 * SPEC.md, One conversation, several processes: "At most one handoff per piece of work", with no
 * recorded work lost. Two and three processes of one conversation start, record work, hand off
 * (/hark handoff and at exit), sometimes after pauses long enough for pruning to fold idle records,
 * with every store call of every process interleaved by a seeded PRNG (conversation-model.ts drives
 * the real domain functions the way the use cases do). Thousands of runs; a failure names its seed,
 * and `play(seed, options)` replays it.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { Model, prng, scripts, type ModelOptions, type Outcome } from './conversation-model'

/** Runs per case (6 cases, each run followed by a sweep process). HARK_INTERLEAVE_RUNS=20000 for a long campaign. */
const RUNS = Number(process.env['HARK_INTERLEAVE_RUNS'] ?? 1_000)

function play(seed: number, options: ModelOptions): { first: Outcome; swept: Outcome } {
  const rnd = prng(seed)
  const model = new Model(rnd, options)
  const first = model.run(scripts(rnd, options))
  const swept = model.sweep()
  return { first, swept }
}

function describeRun(seed: number, o: Outcome): string {
  return `seed ${seed}: handoffs\n  ${o.log.join('\n  ')}\nrecorded ${[...o.recorded].join(' ')}\npending ${[...o.pending].join(' ')}`
}

/**
 * At most once: the plugin sends no item twice, and no notes twice. Claude's own end_session
 * (RecordWork.agentHandedOff) takes no claim: Claude has already written its handoff when the plugin
 * hears of it, so a plugin handoff whose read came before Claude's mark was stored may carry the
 * same work (they ran at the same time); one that read after it must not.
 */
function atMostOnce(seed: number, o: Outcome): void {
  for (const [item, all] of o.handed) {
    const plugin = all.filter((h) => h.by === 'plugin')
    if (plugin.length > 1) throw new Error(`${item} handed off ${plugin.length} times; ${describeRun(seed, o)}`)
    for (const a of all) {
      for (const b of all) {
        if (a === b || a.stored > b.stored) continue
        // b is the later one: it must have read before a's mark was stored.
        if (b.read > a.stored) throw new Error(`${item} handed off by ${a.proc} (${a.by}) then again by ${b.proc} (${b.by}) after reading the mark; ${describeRun(seed, o)}`)
      }
    }
  }
  for (const [notes, count] of o.notesSent) if (count > 1) throw new Error(`notes "${notes}" sent ${count} times; ${describeRun(seed, o)}`)
}

/** Nothing lost: every recorded item was handed off exactly once, or is still pending (and not both). */
function nothingLost(seed: number, o: Outcome): void {
  for (const item of o.recorded) {
    const handed = Math.min(1, (o.handed.get(item) ?? []).length)
    const pending = o.pending.has(item)
    if (handed + (pending ? 1 : 0) !== 1) throw new Error(`${item}: handed off ${handed} times, pending ${pending}; ${describeRun(seed, o)}`)
  }
}

function campaign(options: ModelOptions, base: number): { runs: number; steps: number; handoffs: number } {
  let steps = 0
  let handoffs = 0
  for (let i = 0; i < RUNS; i++) {
    const seed = base + i
    const { first, swept } = play(seed, options)
    steps += swept.steps
    handoffs += swept.log.length
    atMostOnce(seed, first)
    atMostOnce(seed, swept)
    if (options.crashes) continue
    nothingLost(seed, first)
    // After one more process starts and ends on its own, nothing is left: all was handed off once.
    nothingLost(seed, swept)
    for (const item of swept.recorded) if ((swept.handed.get(item) ?? []).length === 0) throw new Error(`${item} never handed off; ${describeRun(seed, swept)}`)
    // Every handoff went out under the one conversation id.
    if (new Set(swept.idsSent).size > 1) throw new Error(`several conversation ids: ${[...new Set(swept.idsSent)].join(' ')}; seed ${seed}`)
  }
  return { runs: RUNS, steps, handoffs }
}

describe('randomized interleavings of processes saving, claiming and ending', () => {
  const cases: [string, ModelOptions, number][] = [
    ['two processes', { processes: 2, crashes: false, idle: false, agent: false }, 1_000_000],
    ['three processes', { processes: 3, crashes: false, idle: false, agent: false }, 2_000_000],
    ['two processes, idle pauses (pruning folds idle records)', { processes: 2, crashes: false, idle: true, agent: false }, 3_000_000],
    ['an idle process ends just as others start and fold its record', { processes: 3, crashes: false, idle: 'together', agent: false }, 6_000_000],
    ['three processes, idle pauses and Claude’s own end_session', { processes: 3, crashes: false, idle: true, agent: true }, 4_000_000],
    ['three processes that may die at any store call: still at most once', { processes: 3, crashes: true, idle: true, agent: true }, 5_000_000],
  ]
  for (const [name, options, base] of cases) {
    test(`${name}: at most one handoff per piece of work, nothing recorded lost`, { timeout: 600_000 }, () => {
      const started = performance.now()
      const totals = campaign(options, base)
      const seconds = ((performance.now() - started) / 1000).toFixed(2)
      console.log(`${name}: ${totals.runs} runs, ${totals.steps} store steps, ${totals.handoffs} handoffs, ${seconds} s`)
      expect(totals.handoffs).toBeGreaterThan(0)
    })
  }

  // The same rules as a property. fast-check draws the case as well as the seed, and a failure
  // shrinks to the simplest case that still fails (fewer processes, no crashes, no idle pauses, no agent),
  // which it prints with the seed to replay through `play`.
  test('as a property over every case: at most one handoff per piece of work, nothing recorded lost', { timeout: 600_000 }, () => {
    const cases = fc.record({
      processes: fc.constantFrom(2, 3),
      crashes: fc.boolean(),
      idle: fc.constantFrom<ModelOptions['idle']>(false, true, 'together'),
      agent: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), cases, (seed, options) => {
        const { first, swept } = play(seed, options)
        atMostOnce(seed, first)
        atMostOnce(seed, swept)
        if (options.crashes) return
        nothingLost(seed, first)
        nothingLost(seed, swept)
        for (const item of swept.recorded) expect((swept.handed.get(item) ?? []).length, `${item} never handed off; seed ${seed}`).toBeGreaterThan(0)
        expect(new Set(swept.idsSent).size).toBeLessThanOrEqual(1)
      }),
      { numRuns: Number(process.env['HARK_INTERLEAVE_PROPERTY_RUNS'] ?? 1_500) },
    )
  })

  test('the same seed plays the same run', () => {
    const options: ModelOptions = { processes: 3, crashes: false, idle: true, agent: true }
    expect(play(42, options).swept.log).toEqual(play(42, options).swept.log)
  })
})
