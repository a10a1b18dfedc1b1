/**
 * What `/hark doctor` shows of the store (SPEC.md: /hark, What it stores): its entries counted by kind and
 * their size, read within a second (reads only); whether a write was refused or the store was slow this
 * session; and the handoffs waiting for delivery in the project.
 */
import { BRIEF_PREFIX, CLAIM_PREFIX, RECORD_PREFIX } from '../domain/conversation/keys'
import { UNDELIVERED_CLAIM_PREFIX, UNDELIVERED_PREFIX } from '../domain/undelivered'
import type { Venture } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { ConversationReads } from './conversation-state'
import { within } from './deadline'
import type { DeliverLater } from './deliver-later'
import type { StoreCalls, StoreHealthReads } from './store-calls'

/** How long reading the store may take, all keys and values together (ms): the report shows what it has by then. */
export const DOCTOR_STORE_WAIT_MS = 1_000

/** What the store holds, as counted; `undefined` fields were not readable in time. */
export interface StoreFacts {
  readonly entries?: number
  readonly bytes?: number
  readonly records?: number
  readonly briefs?: number
  readonly claims?: number
  readonly undelivered?: number
  readonly refusedWrite: boolean
  readonly slow: boolean
}

export class StoreSurvey {
  constructor(
    private readonly conversation: ConversationReads,
    private readonly health: StoreHealthReads,
    private readonly store: StoreCalls,
    private readonly delivery: DeliverLater,
    private readonly clock: Clock,
  ) {}

  /** The store's facts, and the handoffs waiting for `venture` (0 without one). Never rejects. */
  async survey(venture: Venture | undefined): Promise<{ readonly store: StoreFacts; readonly waiting: number }> {
    const [store, waiting] = await Promise.all([this.facts(), venture === undefined ? 0 : this.delivery.waiting(venture).catch(() => 0)])
    return { store, waiting }
  }

  private async facts(): Promise<StoreFacts> {
    const flags = { refusedWrite: this.conversation.refused, slow: this.health.slow }
    const wait = { waitMs: DOCTOR_STORE_WAIT_MS }
    const read = await within(this.clock, DOCTOR_STORE_WAIT_MS, async () => {
      // A store that did not answer is not an empty one: the report says it could not be read.
      const keys = await this.store.keys(wait)
      if (keys === undefined) throw new Error('the store did not answer')
      const count = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).length
      const values = await Promise.all(keys.map((k) => this.store.get(k, wait)))
      const bytes = keys.reduce((sum, k, i) => sum + JSON.stringify(k).length + (JSON.stringify(values[i]) ?? '').length + 2, 2)
      return { entries: keys.length, bytes, records: count(RECORD_PREFIX), briefs: count(BRIEF_PREFIX), claims: count(CLAIM_PREFIX), undelivered: count(UNDELIVERED_PREFIX) + count(UNDELIVERED_CLAIM_PREFIX) }
    })
    return read.done ? { ...read.value, ...flags } : flags
  }
}
