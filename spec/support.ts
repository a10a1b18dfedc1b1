// What several specs share: conversation fixtures and a timing safety net.
import type { ConversationId, ConversationKey } from '../core/domain/conversation/keys'
import type { Venture } from '../core/domain/project'

/** A conversation key, another one, and conversation ids (hex of the right lengths). */
export const CONV = 'a'.repeat(64) as ConversationKey
export const OTHER = 'b'.repeat(64) as ConversationKey
export const ID1 = '1'.repeat(32) as ConversationId
export const ID2 = '2'.repeat(32) as ConversationId
export const ID3 = '3'.repeat(32) as ConversationId

/** A work entry for an edited file. */
export const file = (path: string) => ({ kind: 'file', path }) as const

/**
 * The best of up to three timings of `run` (ms), stopping once one is under `boundMs`: a safety net
 * against a regression to seconds, not a benchmark, so a garbage-collection pause is not a failure.
 */
export function timedBest(run: () => void, boundMs: number): number {
  let best = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < 3 && best >= boundMs; attempt++) {
    const started = performance.now()
    run()
    best = Math.min(best, performance.now() - started)
  }
  return best
}

/** A project code as the project file gives it. */
export const v = (code: string) => code as Venture

/**
 * Lets work a call left running finish (a save the hook did not wait for: RecordRepository.record);
 * the in-memory ports answer within a turn of the event loop.
 */
export const settle = (turns = 3) => Array.from({ length: turns }).reduce<Promise<void>>((p) => p.then(() => new Promise<void>((done) => setTimeout(done, 0))), Promise.resolve())
