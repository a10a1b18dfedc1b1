/**
 * Starting the plugin for a conversation (SPEC.md: session.start; One conversation, several
 * processes): find the project file, load the conversation's state from the store and prune it,
 * and get the brief, from Hark or, under the reuse rule, from the store.
 *
 * State, by lifetime: `PluginLoad` lives as long as the plugin load (when it loaded, whether the
 * agent view's placeholder was released); `StartState` as long as the conversation (its phase, the
 * project, the start in progress). Both are changed by StartSession alone; everyone else reads.
 */
import { briefFromText } from '../domain/brief'
import { conversationKeyInput, conversationKeyOf } from '../domain/conversation/keys'
import { canReuseBrief } from '../domain/conversation/prune'
import type { CachedBrief } from '../domain/conversation/sanitize'
import { withoutControls } from '../domain/item'
import { pathRules, placePath, type PathRules } from '../domain/paths'
import { parseProjectFile, projectFileCandidates, projectRef, type ProjectRef } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { Files } from '../ports/files.port'
import type { Host } from '../ports/host.port'
import type { SessionInfo } from '../ports/session.port'
import type { BriefService } from './brief-service'
import { STORE_WAIT_EXIT_MS, type ConversationStore } from './conversation-store'
import type { DeliverLater } from './deliver-later'
import type { ProjectPaths } from './project-paths'
import { describeError, within } from './deadline'
import type { Settings } from './settings'

export const COMMAND_NAME = 'hark'
/** How long the first message waits for pruning at most (ms); pruning goes on behind it. */
export const PRUNE_WAIT_MS = 1_000

/**
 * Why the plugin is idle: no project file; no access key; or a session folder the plugin does not read
 * (a network share or a device path, docs/guard.md).
 */
export type IdleReason = 'no-project' | 'no-key' | 'unplaced-folder'

export type Phase =
  /** Nothing looked at yet. */
  | 'unstarted'
  /** The agent view's empty placeholder: /hark only, until a task arrives. */
  | 'placeholder'
  /** Not in a Hark project, or no access key: nothing is sent or stored. */
  | 'idle'
  /** In a Hark project with a key. */
  | 'active'

/** What the plugin load knows of starting, whatever conversation it runs. */
export class PluginLoad {
  private loadedAt: number | undefined
  private released = false

  /** When the plugin loaded (epoch ms; the first start's clock): part of this process's record key. */
  loadTime(now: number): number {
    this.loadedAt ??= now
    return this.loadedAt
  }

  /** The agent view's placeholder got a task: later conversations of this load start for real. */
  get placeholderReleased(): boolean {
    return this.released
  }

  releasePlaceholder(): void {
    this.released = true
  }
}

/** One conversation's start: its phase, the project it found, and the start in progress. */
export class StartState {
  private current: Phase = 'unstarted'
  private reason: IdleReason | undefined
  private found: ProjectRef | undefined
  private starting: Promise<void> | undefined
  private chores: Promise<void> | undefined
  private owed = false
  private over = false

  get phase(): Phase {
    return this.current
  }
  /** Why the plugin is idle, for /hark. */
  get idleReason(): IdleReason | undefined {
    return this.reason
  }
  /** The project file found at start (also when idle for want of a key). */
  get project(): ProjectRef | undefined {
    return this.found
  }
  /** The project while the conversation is active (in a Hark project, with a key); else undefined. */
  get activeProject(): ProjectRef | undefined {
    return this.current === 'active' ? this.found : undefined
  }
  /**
   * The conversation ended (`/clear`, a resume): what its start still has running writes nothing more and
   * shows nothing more (the next conversation has the store and the status line).
   */
  get ended(): boolean {
    return this.over
  }

  /** The first message's context carried the brief: no prompt owes it any more (ProvideContext). */
  briefGiven(): void {
    this.owed = false
  }

  /** Called by the composition root when it drops this conversation. */
  end(): void {
    this.over = true
  }

  /** The start in progress or done; resolved when none began. Never rejects. */
  started(): Promise<void> {
    return this.starting ?? Promise.resolve()
  }

  /**
   * The start's housekeeping (pruning the store, sending handoffs kept for later), each part bounded;
   * resolved when none began. Never rejects. The handoff waits for it; the first context does not.
   */
  housekeeping(): Promise<void> {
    return this.chores ?? Promise.resolve()
  }

  /** @internal StartSession's own writes. */
  oweBrief(): void {
    this.owed = true
  }
  /** @internal */
  takeOwedBrief(): boolean {
    const owed = this.owed
    this.owed = false
    return owed
  }
  /** @internal */
  beginHousekeeping(chores: Promise<void>): void {
    this.chores = chores.catch(() => undefined)
  }
  /** @internal */
  begin(run: () => Promise<void>): Promise<void> {
    this.starting ??= run()
    return this.starting
  }
  /** @internal */
  moveTo(phase: Phase, details: { project?: ProjectRef; reason?: IdleReason } = {}): void {
    this.current = phase
    if (details.project !== undefined) this.found = details.project
    if (details.reason !== undefined) this.reason = details.reason
    // Leaving the placeholder: the next start is a real one.
    if (phase === 'unstarted') this.starting = undefined
  }
}

/** What the conversation key is made of besides the project's root (SPEC.md: finding the conversation). */
interface LaunchFacts {
  readonly now: number
  readonly sessionId: string
  readonly launched: number | undefined
}

export class StartSession {
  constructor(
    private readonly load: PluginLoad,
    private readonly state: StartState,
    private readonly settings: Settings,
    private readonly session: SessionInfo,
    private readonly files: Files,
    private readonly host: Host,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly store: ConversationStore,
    private readonly briefs: BriefService,
    private readonly paths: ProjectPaths,
    private readonly delivery: DeliverLater,
  ) {}

  /**
   * session.start: registers /hark (always), then starts, unless this is the agent view's placeholder,
   * without waiting for the start: finding the project, loading the conversation and fetching the brief go
   * on after the hook settles (docs/engine.md, "A $ call outlives its hook"), and every later hook waits
   * for the same start (`ensureStarted`, `StartState.started`), so Claude Code never waits on Hark or the
   * store to start.
   */
  async onSessionStart(cwd: string): Promise<void> {
    const starting = this.ensureStarted(cwd)
    try {
      await this.host.registerCommand(COMMAND_NAME, 'Hark project memory: brief, handoff, preview, needs, open, doctor', '[brief|handoff|preview|needs|open|doctor]')
    } catch (error) {
      this.host.log(`Hark: could not register /hark (${describeError(error)}).`)
    }
    void starting
  }

  /**
   * Starts once per conversation; every hook that may come first (session.start, prompt.context in
   * a background process, prompt.submit, an edit, a Bash run, /hark) waits for the same start.
   */
  ensureStarted(cwd?: string): Promise<void> {
    if (this.state.phase !== 'unstarted') return this.state.started()
    return this.state.begin(() =>
      this.start(cwd).catch((error: unknown) => {
        this.state.moveTo('idle')
        this.host.log(`Hark: could not start (${describeError(error)}); the session carries on without Hark.`)
      }),
    )
  }

  /**
   * A person's turn (a prompt, or /hark): in the agent view's placeholder, the first real task starts
   * the plugin for real (SPEC.md: prompt.submit); otherwise the usual start. The placeholder's first
   * message context was built without the brief, and the engine does not build it again for that message
   * (docs/engine.md), so the first task's prompt owes the brief (`takeOwedBrief`).
   */
  async forPerson(): Promise<void> {
    await this.ensureStarted()
    if (this.state.phase !== 'placeholder') return
    this.state.moveTo('unstarted')
    this.state.oweBrief()
    this.load.releasePlaceholder()
    await this.ensureStarted()
  }

  /**
   * prompt.submit (SPEC.md: it waits at most 150 ms for the store): the start is waited for that long at
   * most, as the prompt only notes itself in the store; the agent view's placeholder, which has done no
   * store call, is released, and its first task waits for the start and the brief it carries.
   */
  async forPrompt(): Promise<void> {
    await within(this.clock, STORE_WAIT_EXIT_MS, () => this.ensureStarted())
    if (this.state.phase === 'placeholder') await this.forPerson()
  }

  /** The start under way, if any, without beginning one (`/hark doctor`, `/hark preview`). Never rejects. */
  waitForStart(): Promise<void> {
    return this.state.started()
  }

  /** Whether this prompt is the first since the placeholder was released (asked once: true at most once). */
  takeOwedBrief(): boolean {
    return this.state.takeOwedBrief()
  }

  private async start(cwd?: string): Promise<void> {
    // Independent look-ups go out together: each `$` call is a round trip to the engine.
    const [placeholder, platform, folder] = await Promise.all([
      this.load.placeholderReleased ? false : this.isPlaceholder(),
      this.session.platform().catch(() => undefined),
      cwd ?? this.session.cwd(),
    ])
    if (placeholder) {
      this.state.moveTo('placeholder')
      return
    }
    const rules = pathRules(platform, folder)
    if (placePath(folder, '/', rules) === undefined) {
      this.state.moveTo('idle', { reason: 'unplaced-folder' })
      this.host.log(`Hark: the session folder ${withoutControls(folder).slice(0, 200)} is a network share or a device path, which the plugin does not read, so nothing is sent. Open the project through a drive letter to use Hark.`)
      return
    }
    // What the conversation's key needs besides the project is asked while the project file is looked for.
    const launch = this.launchFacts()
    launch.catch(() => undefined) // awaited only when a project is found
    const project = await this.findProject(folder, rules)
    if (project === undefined) {
      this.state.moveTo('idle', { reason: 'no-project' })
      return
    }
    if (this.settings.accessKey === undefined) {
      this.state.moveTo('idle', { project, reason: 'no-key' })
      this.briefs.showStatus()
      this.host.log(`Hark: project ${project.venture} found, but no access key is set, so nothing is sent. Run /plugin configure hark-memory@hark to add it.`)
      return
    }
    // The project's cached brief is read while the conversation loads (the reuse rule needs both).
    const cached = this.store.readBrief(project.venture)
    const sessionId = await this.loadConversation(project, rules, launch)
    if (this.state.ended) return
    this.state.moveTo('active', { project })
    // The brief request goes out now (nothing waits on Hark: issue 11, docs/engine.md), while this process's
    // record is stored. Pruning, and the handoffs that could not reach Hark before (issue 12 §2), go
    // alongside, each bounded: housekeeping, which the first message's context does not wait for, and
    // the handoff does (within the exit window), as they may claim this conversation's segment.
    this.briefs.beginFirst(() => this.getBrief(project, cached))
    this.state.beginHousekeeping(
      Promise.all([
        within(this.clock, PRUNE_WAIT_MS, () => this.store.prune()),
        within(this.clock, PRUNE_WAIT_MS, () => this.delivery.run(project.venture)),
      ]).then(() => undefined),
    )
    await this.store.join(sessionId)
  }

  private async isPlaceholder(): Promise<boolean> {
    try {
      return (await this.session.isPlaceholderSource()) && (await this.session.turns()) === 0
    } catch {
      return false
    }
  }

  /**
   * SPEC.md, Setup 1: `.hark/project` or `.hark`, in the session's folder, then each parent; the nearest
   * that names a project wins. Every candidate is asked for at once (each read is a round trip to the engine,
   * and a folder ten levels deep that holds no project, like most folders Claude Code starts in, has twenty),
   * and the answers are taken nearest first: the start goes on once the nearest project file and every
   * nearer place have answered, whatever a slower folder further up (a network mount) still does.
   */
  private async findProject(cwd: string, rules: PathRules): Promise<ProjectRef | undefined> {
    const candidates = projectFileCandidates(cwd, rules)
    const reads = candidates.map((candidate) => this.files.readText(candidate.path))
    for (const [i, candidate] of candidates.entries()) {
      const text = await reads[i]
      if (text === undefined) continue
      const venture = parseProjectFile(candidate.kind, text)
      if (venture !== undefined) return projectRef(candidate, venture)
      if (candidate.kind === 'project') this.host.log(`Hark: ${candidate.path} names no project code; looking further up.`)
    }
    return undefined
  }

  /**
   * Reads the conversation's records (this process's own is stored by `join`; the store is pruned
   * alongside the brief); resolves the session id. The conversation key is the same for every spelling of the project's folder (SPEC.md: finding the
   * conversation), so a background process or `--resume` that reports it otherwise still shares it.
   */
  private async loadConversation(project: ProjectRef, rules: PathRules, launch: Promise<LaunchFacts>): Promise<string> {
    const [{ now, sessionId, launched }, root] = await Promise.all([launch, this.paths.settle(project.root, rules)])
    const key = conversationKeyOf(await this.entropy.sha256(conversationKeyInput(root, launched ?? now)))
    if (key === undefined) throw new Error('the conversation key is not a SHA-256 digest')
    await this.store.open(key, this.load.loadTime(now), sessionId)
    return sessionId
  }

  /** The time, the session id and when the session was launched: what the conversation key is made of. */
  private async launchFacts(): Promise<LaunchFacts> {
    const [now, sessionId, launched] = await Promise.all([
      this.clock.now(),
      this.session.id().catch(() => 'unknown'),
      this.session.startedAt().catch(() => undefined),
    ])
    return { now, sessionId, launched }
  }

  /** SPEC.md: fetch the brief, unless another process's fresh one (`cached`, read meanwhile) can be reused. */
  private async getBrief(project: ProjectRef, cached: Promise<CachedBrief | undefined>): Promise<void> {
    const reused = await this.reusableBrief(await cached)
    if (reused) return
    await this.briefs.fetch('at session start')
  }

  private async reusableBrief(cached: CachedBrief | undefined): Promise<boolean> {
    const view = this.store.view
    const now = await this.clock.now()
    if (view === undefined || cached === undefined || !canReuseBrief(view, cached, now)) return false
    const brief = briefFromText(cached.text)
    if (brief === undefined) return false
    this.briefs.reuse(brief)
    return true
  }
}
