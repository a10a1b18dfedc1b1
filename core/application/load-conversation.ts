/**
 * Loading the conversation at its start (SPEC.md: session.start; finding the conversation; What it stores):
 * its records read back under its key (./find-conversation), this process's record stored, and the start's
 * housekeeping: pruning the store and sending the handoffs kept for later, each bounded.
 *
 * State: `PluginLoad`, for the plugin load (when it loaded, whether the agent view's placeholder was
 * released). LoadConversation, built for each hook call, is its only writer.
 */
import type { PathRules } from '../domain/paths'
import type { ProjectRef } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { FindConversation, LaunchFacts } from './find-conversation'
import type { Others } from './conversation-state'
import { within } from './deadline'
import type { DeliverLater } from './deliver-later'
import type { RecordRepository } from './record-repository'
import type { PluginLoad } from './start-session'
import type { StorePruning } from './store-pruning'

/** How long each part of the start's housekeeping is waited for at most (ms); it goes on behind that. */
export const PRUNE_WAIT_MS = 1_000

/** The conversation as loaded: its session id, and the other records read, for `join`. */
export interface Loaded {
  readonly sessionId: string
  readonly others: Others
}

export class LoadConversation {
  constructor(
    private readonly find: FindConversation,
    private readonly load: PluginLoad,
    private readonly records: RecordRepository,
    private readonly pruning: StorePruning,
    private readonly delivery: DeliverLater,
    private readonly clock: Clock,
  ) {}

  /** The time, the session id and when the session was launched. Never rejects until awaited by `open`. */
  launch(): Promise<LaunchFacts> {
    return this.find.launch()
  }

  /** Reads the conversation's records (this process's own is stored by `join`). */
  async open(project: ProjectRef, rules: PathRules, launch: Promise<LaunchFacts>): Promise<Loaded> {
    const { key, now, sessionId } = await this.find.of(project, rules, launch)
    return { sessionId, others: await this.records.open(key, (this.load.loadedAt ??= now), sessionId) }
  }

  /** Stores this process's record, merged with the records `open` read. */
  async join({ sessionId, others }: Loaded): Promise<void> {
    await this.records.join(sessionId, others)
  }

  /** Pruning, and the handoffs that could not reach Hark before, side by side, each bounded. Never rejects. */
  async housekeeping(venture: ProjectRef['venture']): Promise<void> {
    await Promise.all([within(this.clock, PRUNE_WAIT_MS, () => this.pruning.prune()), within(this.clock, PRUNE_WAIT_MS, () => this.delivery.run(venture))])
  }

  /** The agent view's placeholder got a task: later conversations of this load start for real. */
  releasePlaceholder(): void {
    this.load.placeholderReleased = true
  }
}
