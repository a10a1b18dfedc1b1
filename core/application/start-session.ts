/**
 * Starting the plugin for a conversation (SPEC.md: session.start; One conversation, several
 * processes): find the project file, load the conversation's state from the store and prune it,
 * and get the brief, from Hark or, under the reuse rule, from the store.
 */
import { briefFromText } from '../domain/brief'
import { canReuseBrief, conversationIdOf, conversationKeyInput, mergeConversation, newRecord, noteSession, recordKey } from '../domain/conversation'
import { parseProjectFile, projectFileCandidates, projectRef, type ProjectRef } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { Files } from '../ports/files.port'
import type { Host } from '../ports/host.port'
import type { SessionInfo } from '../ports/session.port'
import type { BriefService } from './brief-service'
import type { ConversationStore } from './conversation-store'
import { describeError } from './deadline'
import type { PluginState } from './plugin-state'
import type { Settings } from './settings'

export const COMMAND_NAME = 'hark'

export class StartSession {
  constructor(
    private readonly state: PluginState,
    private readonly settings: Settings,
    private readonly session: SessionInfo,
    private readonly files: Files,
    private readonly host: Host,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly store: ConversationStore,
    private readonly briefs: BriefService,
  ) {}

  /** session.start: registers /hark (always), then starts unless this is the agent view's placeholder. */
  async onSessionStart(cwd: string): Promise<void> {
    try {
      await this.host.registerCommand(COMMAND_NAME, 'Hark project memory: brief, handoff, needs, open', '[brief|handoff|needs|open]')
    } catch (error) {
      this.host.log(`Hark: could not register /hark (${describeError(error)}).`)
    }
    await this.ensureStarted(cwd)
  }

  /**
   * Starts once per conversation; every hook that may come first (session.start, prompt.context in
   * a background process, prompt.submit) waits for the same start.
   */
  ensureStarted(cwd?: string): Promise<void> {
    if (this.state.phase !== 'unstarted') return this.state.starting ?? Promise.resolve()
    if (this.state.starting === undefined) {
      const starting = this.start(cwd).catch((error: unknown) => {
        this.state.phase = 'idle'
        this.host.log(`Hark: could not start (${describeError(error)}); the session carries on without Hark.`)
      })
      this.state.starting = starting
    }
    return this.state.starting
  }

  /** The placeholder got its first task: start for real (SPEC.md: prompt.submit). */
  async releasePlaceholder(): Promise<void> {
    if (this.state.phase !== 'placeholder') return
    this.state.phase = 'unstarted'
    this.state.starting = undefined
    this.state.placeholderReleased = true
    await this.ensureStarted()
  }

  /** After /clear or a resume, the next conversation starts fresh (SPEC.md: session.end). */
  reset(): void {
    const { placeholderReleased, loadedAt, saveChain } = this.state
    Object.assign(this.state, {
      phase: 'unstarted',
      idleReason: undefined,
      project: undefined,
      conversationKey: undefined,
      recordKey: undefined,
      record: undefined,
      view: undefined,
      sessionId: undefined,
      brief: undefined,
      online: false,
      decisions: undefined,
      decisionsFailedAt: undefined,
      decisionsStale: false,
      moved: false,
      storeRefused: false,
      starting: undefined,
      placeholderReleased,
      loadedAt,
      saveChain,
    })
  }

  private async start(cwd?: string): Promise<void> {
    if (!this.state.placeholderReleased && (await this.isPlaceholder())) {
      this.state.phase = 'placeholder'
      return
    }
    const project = await this.findProject(cwd ?? (await this.session.cwd()))
    if (project === undefined) {
      this.state.phase = 'idle'
      this.state.idleReason = 'no-project'
      return
    }
    this.state.project = project
    if (this.settings.accessKey === undefined) {
      this.state.phase = 'idle'
      this.state.idleReason = 'no-key'
      this.briefs.showStatus()
      this.host.log(`Hark: project ${project.venture} found, but no access key is set, so nothing is sent. Run /plugin configure hark-memory@hark to add it.`)
      return
    }
    await this.loadConversation(project)
    this.state.phase = 'active'
    await this.getBrief(project)
  }

  private async isPlaceholder(): Promise<boolean> {
    try {
      return (await this.session.isPlaceholderSource()) && (await this.session.turns()) === 0
    } catch {
      return false
    }
  }

  /** SPEC.md, Setup 1: `.hark/project` or `.hark`, in the session's folder, then each parent. */
  private async findProject(cwd: string): Promise<ProjectRef | undefined> {
    for (const candidate of projectFileCandidates(cwd)) {
      const text = await this.files.readText(candidate.path)
      if (text === undefined) continue
      const venture = parseProjectFile(candidate.kind, text)
      if (venture !== undefined) return projectRef(candidate, venture)
      if (candidate.kind === 'project') this.host.log(`Hark: ${candidate.path} names no project code; looking further up.`)
    }
    return undefined
  }

  /** Loads the conversation's records, stores this process's merged record, then prunes the store. */
  private async loadConversation(project: ProjectRef): Promise<void> {
    const now = await this.clock.now()
    const sessionId = await this.session.id().catch(() => 'unknown')
    const startedAt = await this.session.startedAt().catch(() => now)
    const key = await this.entropy.sha256(conversationKeyInput(project.root, startedAt))
    this.state.loadedAt ??= now
    this.state.sessionId = sessionId
    this.state.conversationKey = key
    this.state.recordKey = recordKey(key, this.state.loadedAt, this.entropy.randomHex(8))
    const others = (await this.store.readRecords(key)) ?? new Map()
    // SPEC.md: the conversation id is created by the first process and kept in the store.
    const record = newRecord(conversationIdOf(others) ?? this.entropy.randomHex(32))
    this.state.record = record
    this.state.view = mergeConversation(this.state.recordKey, record, others)
    await this.store.save((record, { now: at }) => noteSession(record, sessionId, at))
    await this.store.prune()
  }

  /** SPEC.md: fetch the brief, unless another process's fresh one can be reused from the cache. */
  private async getBrief(project: ProjectRef): Promise<void> {
    const view = this.state.view
    const cached = await this.store.readBrief(project.venture)
    const now = await this.clock.now()
    if (view !== undefined && canReuseBrief(view, cached, now) && cached !== undefined) {
      const brief = briefFromText(cached.text)
      if (brief !== undefined) {
        this.state.brief = brief
        this.state.online = true
        this.briefs.showStatus()
        return
      }
    }
    await this.briefs.fetch('at session start')
  }
}
