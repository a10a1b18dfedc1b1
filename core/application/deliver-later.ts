/**
 * Handoffs delivered later (beyond SPEC.md's fallbacks; README, The handoff): a handoff that
 * reached nothing of Hark at exit is kept in the store (`HandOff`), and the next session start in the
 * project sends each one once with `end_session`, under the conversation id it was recorded with, under a
 * claim so two processes never both send it, behind the start (nothing waits for it). Only "nothing
 * reached Hark" keeps it for another try: a timeout or any answer from Hark ends it (SPEC.md: no retry).
 */
import { deliveredLater, planUndelivered, sanitizeUndelivered, UNDELIVERED_CLAIM_PREFIX, UNDELIVERED_PER_PROJECT } from '../domain/undelivered'
import type { ConversationId } from '../domain/conversation/keys'
import type { HandoffPayload } from '../domain/handoff'
import type { Venture } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { HarkGateway } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { StoreCallOptions } from './store-calls'
import type { UndeliveredStore } from './undelivered-store'

/** Claims on undelivered handoffs older than this are removed (a process that died holding one). */
const OLD_CLAIM_MS = 60 * 60_000

export class DeliverLater {
  constructor(
    private readonly store: UndeliveredStore,
    private readonly hark: HarkGateway,
    private readonly clock: Clock,
    private readonly host: Host,
  ) {}

  /** Keeps a handoff that reached nothing of Hark, for the next session start in the project; whether the store took it. */
  keep(venture: Venture, conversationId: ConversationId, payload: HandoffPayload, options: StoreCallOptions): Promise<boolean> {
    return this.store.keep(venture, conversationId, payload, options)
  }

  /** How many handoffs of the project wait for delivery (for /hark). */
  async waiting(venture: Venture): Promise<number> {
    const keys = await this.store.keys()
    return keys === undefined ? 0 : planUndelivered(await this.clock.now(), keys, venture).send.length
  }

  /** Sends the project's undelivered handoffs, oldest first; stops at the first that reaches nothing. Never throws. */
  async run(venture: Venture): Promise<void> {
    const store = this.store
    const keys = await store.keys()
    if (keys === undefined) return
    const now = await this.clock.now()
    const plan = planUndelivered(now, keys, venture)
    for (const key of keys) if (key.startsWith(UNDELIVERED_CLAIM_PREFIX) && now - Number(key.split(':').at(-2)) > OLD_CLAIM_MS) await store.remove(key)
    for (const key of plan.drop) await store.remove(key)
    const dropped = plan.drop.length
    if (dropped > 0) {
      this.host.log(`Hark: dropped ${dropped} undelivered handoff${dropped === 1 ? '' : 's'} of ${venture} (kept 14 days, ${UNDELIVERED_PER_PROJECT} at most).`)
    }
    for (const key of plan.send) {
      if (!(await store.claim(key))) continue
      const held = sanitizeUndelivered(await store.read(key), key)
      if (held === undefined) {
        await store.remove(key)
        continue
      }
      const sent = await this.hark.endSession(deliveredLater(held), { conversationId: held.conversationId })
      if (!sent.ok && sent.kind === 'unreachable') return
      // Sent (or answered): never again. A store that will not delete it keeps a value that is not one.
      await store.done(key)
      if (!sent.ok) this.host.log(`Hark: a handoff kept since ${new Date(held.recordedAt).toISOString()} was not taken (${sent.detail}); it is not sent again.`)
    }
  }
}
