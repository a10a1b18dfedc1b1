import { token, type Token } from './token'
/** Time, from the engine's clock (a test moves it by hand). */
export interface Clock {
  /** Epoch milliseconds. */
  now(): Promise<number>
  /** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}
export const Clock: Token<Clock> = token('Clock')
