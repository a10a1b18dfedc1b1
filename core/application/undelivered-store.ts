/**
 * Handoffs that reached nothing of Hark, kept for the next session start in the project
 * (`undelivered:<project code>:<time>:<random>`, core/domain/undelivered.ts), and their claims
 * (`undelivered-claim:<that key>:<time>:<random>`, first wins: ./claims). DeliverLater's alone: it keeps a
 * handoff for HandOff's request, and sends and removes it at a later start.
 */
import type { ConversationId } from '../domain/conversation/keys'
import type { HandoffPayload } from '../domain/handoff'
import { UNDELIVERED_CLAIM_PREFIX, undeliveredKey } from '../domain/undelivered'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { Claims } from './claims'
import type { StoreCallOptions, StoreCalls } from './store-calls'

export class UndeliveredStore {
  constructor(
    private readonly calls: StoreCalls,
    private readonly claims: Claims,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
  ) {}

  /** Keeps `payload` under the conversation's id; whether the store took it. */
  async keep(venture: string, conversationId: ConversationId, payload: HandoffPayload, options: StoreCallOptions = {}): Promise<boolean> {
    const now = await this.clock.now()
    return (await this.calls.set(undeliveredKey(venture, now, this.entropy.randomHex(8)), { conversationId, recordedAt: now, payload }, options)) === 'stored'
  }

  /** Every key of the store (the plan picks the project's), or undefined when the store did not answer. */
  keys(): Promise<string[] | undefined> {
    return this.calls.keys()
  }

  /** The value kept under `key` (untrusted). */
  read(key: string): Promise<unknown> {
    return this.calls.get(key)
  }

  /** Whether this process is the first to claim sending the handoff under `key`. */
  claim(key: string): Promise<boolean> {
    return this.claims.claimFirst(`${UNDELIVERED_CLAIM_PREFIX}${key}:`)
  }

  /** Sent (or answered): removed, or, when the store will not delete it, overwritten with a value that is no handoff. */
  async done(key: string): Promise<void> {
    if (!(await this.calls.delete(key))) await this.calls.set(key, { delivered: true })
  }

  remove(key: string): Promise<boolean> {
    return this.calls.delete(key)
  }
}
