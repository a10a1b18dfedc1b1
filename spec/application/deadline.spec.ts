// within(): the bounded wait every store call and exit wait goes through (core/application/deadline.ts).
import { expect, test } from 'vitest'
import { within } from '../../core/application/deadline'
test('work already settled needs no timer (each wait is a call to the engine); other work gets one', async () => {
  let sleeps = 0
  const clock = { now: async () => 0, sleep: (_ms: number, signal?: AbortSignal) => { sleeps++; return new Promise<void>((d) => signal?.addEventListener('abort', () => d())) } }
  const done = Promise.resolve(5)
  await done
  expect(await within(clock, 100, () => done)).toEqual({ done: true, value: 5 })
  expect(sleeps).toBe(0)
  expect(await within(clock, 100, () => new Promise((d) => setTimeout(() => d(6), 5)))).toEqual({ done: true, value: 6 })
  expect(sleeps).toBe(1)
})
