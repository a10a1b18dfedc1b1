/**
 * Finding the conversation (SPEC.md: One conversation, several processes, Finding the conversation): its key,
 * the SHA-256 of the project's root and the conversation's first launch time, the same for every spelling of
 * the project's folder, so a background process or `--resume` that reports the folder otherwise still shares it.
 */
import { conversationKeyInput, conversationKeyOf, type ConversationKey } from '../domain/conversation/keys'
import type { PathRules } from '../domain/paths'
import type { ProjectRef } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { SessionInfo } from '../ports/session.port'
import { quiet } from './deadline'
import type { ProjectPaths } from './project-paths'

/** What the conversation key is made of besides the project's root, and the session id. */
export interface LaunchFacts {
  readonly now: number
  readonly sessionId: string
  readonly launched: number | undefined
}

export class FindConversation {
  constructor(
    private readonly session: SessionInfo,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly paths: ProjectPaths,
  ) {}

  /** The time, the session id and when the session was launched. Never rejects until awaited by `of`. */
  launch(): Promise<LaunchFacts> {
    const facts = Promise.all([this.clock.now(), this.session.id().catch(() => 'unknown'), quiet(this.session.startedAt())]).then(([now, sessionId, launched]) => ({ now, sessionId, launched }))
    void quiet(facts) // awaited only when a project is found
    return facts
  }

  /**
   * The key of `project`'s conversation, from its root settled under `rules` and the launch facts (the time now
   * when the session's launch time is unknown), with the time and session id read. Throws when the digest is
   * no SHA-256.
   */
  async of(project: ProjectRef, rules: PathRules, launch: Promise<LaunchFacts>): Promise<{ readonly key: ConversationKey; readonly now: number; readonly sessionId: string }> {
    const [{ now, sessionId, launched }, root] = await Promise.all([launch, this.paths.settle(project.root, rules)])
    const key = conversationKeyOf(await this.entropy.sha256(conversationKeyInput(root, launched ?? now)))
    if (key === undefined) throw new Error('the conversation key is not a SHA-256 digest')
    return { key, now, sessionId }
  }
}
