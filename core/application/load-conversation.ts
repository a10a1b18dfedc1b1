/**
 * Loading the conversation at its start (SPEC.md: session.start; finding the conversation; What it stores):
 * its key (the SHA-256 of the project's root and the first launch time: the same for every spelling of the
 * project's folder, so a background process or `--resume` that reports it otherwise still shares it), its
 * records read back, this process's record stored, and the start's housekeeping: pruning the store and
 * sending the handoffs kept for later, each bounded.
 *
 * State: `PluginLoad`, for the plugin load (when it loaded, whether the agent view's placeholder was
 * released). LoadConversation, built for each hook call, is its only writer.
 */
import { conversationKeyInput, conversationKeyOf } from '../domain/conversation/keys'
import type { PathRules } from '../domain/paths'
import type { ProjectRef } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { SessionInfo } from '../ports/session.port'
import type { Others } from './conversation-state'
import { quiet, within } from './deadline'
import type { DeliverLater } from './deliver-later'
import type { ProjectPaths } from './project-paths'
import type { RecordRepository } from './record-repository'
import type { PluginLoad } from './start-session'
import type { StorePruning } from './store-pruning'

/** How long each part of the start's housekeeping is waited for at most (ms); it goes on behind that. */
export const PRUNE_WAIT_MS = 1_000

/** What the conversation key is made of besides the project's root, and the session id. */
export interface LaunchFacts {
  readonly now: number
  readonly sessionId: string
  readonly launched: number | undefined
}

/** The conversation as loaded: its session id, and the other records read, for `join`. */
export interface Loaded {
  readonly sessionId: string
  readonly others: Others
}

export class LoadConversation {
  constructor(
    private readonly session: SessionInfo,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly paths: ProjectPaths,
    private readonly load: PluginLoad,
    private readonly records: RecordRepository,
    private readonly pruning: StorePruning,
    private readonly delivery: DeliverLater,
  ) {}

  /** The time, the session id and when the session was launched. Never rejects until awaited by `open`. */
  launch(): Promise<LaunchFacts> {
    const facts = Promise.all([this.clock.now(), this.session.id().catch(() => 'unknown'), quiet(this.session.startedAt())]).then(([now, sessionId, launched]) => ({ now, sessionId, launched }))
    void quiet(facts) // awaited only when a project is found
    return facts
  }

  /** Reads the conversation's records (this process's own is stored by `join`). */
  async open(project: ProjectRef, rules: PathRules, launch: Promise<LaunchFacts>): Promise<Loaded> {
    const [{ now, sessionId, launched }, root] = await Promise.all([launch, this.paths.settle(project.root, rules)])
    const key = conversationKeyOf(await this.entropy.sha256(conversationKeyInput(root, launched ?? now)))
    if (key === undefined) throw new Error('the conversation key is not a SHA-256 digest')
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
