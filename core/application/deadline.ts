import type { Clock } from '../ports/clock.port'

/** The outcome of a wait that may run out. */
export type Timed<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly reason: 'timeout' | 'error'; readonly error?: unknown }

/** `promise`, with a rejection read as undefined. */
export function quiet<T>(promise: Promise<T>): Promise<T | undefined> {
  return promise.catch(() => undefined)
}

/** The outcome of a wait whose work threw or rejected with `error`. */
const errored = (error: unknown): Timed<never> => ({ done: false, reason: 'error', error })

/**
 * Waits for `work` at most `ms` (by the engine's clock). Never rejects: a rejection becomes
 * `{ done: false, reason: 'error' }`. The clock's wait is let go as soon as `work` settles. `ms` may be
 * a function, asked only when `work` has not settled at once (a wait computed from the clock then costs
 * no call to the engine when there is nothing to wait for).
 */
export async function within<T>(clock: Clock, ms: number | (() => number | Promise<number>), work: () => Promise<T>): Promise<Timed<T>> {
  const stop = new AbortController()
  let started: Promise<T>
  try {
    started = work()
  } catch (error) {
    return errored(error)
  }
  let settled: Timed<T> | undefined
  const outcome = started.then(
    (value): Timed<T> => (settled = { done: true, value }),
    (error: unknown): Timed<T> => (settled = errored(error)),
  )
  // Work already settled (a start or a brief that is in) needs no timer: each wait is a call to the engine.
  await Promise.resolve()
  if (settled !== undefined) return settled
  let limit: number
  try {
    limit = Math.max(0, Math.floor(typeof ms === 'number' ? ms : await ms()))
  } catch (error) {
    return errored(error)
  }
  if (settled !== undefined) return settled
  const timeout = clock.sleep(limit, stop.signal).then((): Timed<T> => ({ done: false, reason: 'timeout' }))
  const first = await Promise.race([outcome, timeout])
  stop.abort()
  return first
}

/** A short, single-line description of an error, for a log line. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error'
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 160 ? `${line.slice(0, 157)}...` : line
}
