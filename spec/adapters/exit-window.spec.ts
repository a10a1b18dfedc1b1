// The exit window the session.end hook hands the handoff (SPEC.md: session.end; every exit hook shares about
// 1.5 s): the engine's budget read fresh on each call, a spent one as no time, none reported as 1.5 s.
import { describe, expect, test } from 'vitest'
import { exitWindow } from '../../adapters/claude-code/hooks.adapter'

const nextWith = (budget: () => number) => ({ get budget() { return { ms: 1_500, remainingMs: budget() } } }) as unknown as Parameters<typeof exitWindow>[0]

describe('the exit window at session.end', () => {
  test("reads what the engine's budget leaves, fresh at each call", () => {
    let left = 1_499
    const exit = exitWindow(nextWith(() => left))
    expect(exit.left()).toBe(1_499)
    left = 700
    expect(exit.left()).toBe(700)
  })

  test('a budget already spent leaves no time, not a fresh window', () => {
    expect(exitWindow(nextWith(() => 0)).left()).toBe(0)
    expect(exitWindow(nextWith(() => -5)).left()).toBe(0)
  })

  test("no budget reported (Infinity): SPEC's 1.5 s from the hook's start, going down", async () => {
    const exit = exitWindow(nextWith(() => Infinity))
    const first = exit.left()
    expect(first).toBeLessThanOrEqual(1_500)
    expect(first).toBeGreaterThan(1_400)
    await new Promise((done) => setTimeout(done, 20))
    expect(exit.left()).toBeLessThan(first)
  })
})
