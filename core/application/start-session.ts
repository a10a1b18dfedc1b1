/**
 * Starting the plugin for a conversation (SPEC.md: session.start; One conversation, several processes):
 * find the project (./find-project), load the conversation from the store and tidy the store
 * (./load-conversation), and get the brief, from Hark or, under the reuse rule, from the store (BriefAtStart).
 *
 * State, by lifetime: `PluginLoad` lives as long as the plugin load (when it loaded, whether the agent view's
 * placeholder was released; written by LoadConversation); `StartState` as long as the conversation (its
 * phase, the project, the start in progress; written by StartSession, and the brief owed by ProvideContext
 * through `BriefOwedWrites`). Everyone else is handed `StartReads` and `PluginLoadReads`.
 */
import type { ProjectRef } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { Host } from '../ports/host.port'
import type { BriefAtStart } from './brief-at-start'
import { describeError, quiet, within } from './deadline'
import type { FindProject } from './find-project'
import type { LoadConversation } from './load-conversation'
import { STORE_WAIT_EXIT_MS } from './store-calls'

export const COMMAND_NAME = 'hark'

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
export interface PluginLoadReads {
  /** The agent view's placeholder got a task: later conversations of this load start for real. */
  readonly placeholderReleased: boolean
}

export class PluginLoad implements PluginLoadReads {
  /** When the plugin loaded (epoch ms; the first start's clock): part of this process's record key. */
  loadedAt: number | undefined
  placeholderReleased = false
}

/** What everyone reads of the conversation's start. */
export interface StartReads {
  readonly phase: Phase
  /** Why the plugin is idle, for /hark. */
  readonly idleReason: IdleReason | undefined
  /** The project file found at start (also when idle for want of a key). */
  readonly project: ProjectRef | undefined
  /** The project while the conversation is active (in a Hark project, with a key); else undefined. */
  readonly activeProject: ProjectRef | undefined
  /**
   * The conversation ended (`/clear`, a resume): what its start still has running writes nothing more and
   * shows nothing more (the next conversation has the store and the status line).
   */
  readonly ended: boolean
  /** The start in progress or done; resolved when none began. Never rejects. */
  started(): Promise<void>
  /**
   * The start's housekeeping (pruning the store, sending handoffs kept for later), each part bounded;
   * resolved when none began. Never rejects. The handoff waits for it; the first context does not.
   */
  housekeeping(): Promise<void>
}

/**
 * What the first prompt owes the model: `brief`, the brief (the agent view's placeholder built the first
 * message's context without it); `fetched`, a brief this process fetched, in a conversation that goes on from
 * other processes' records (a resume): the engine keeps the first message's context it already holds, so a
 * brief newer than the one in it reaches the model only with a prompt (docs/engine.md, `--resume`).
 */
export type OwedBrief = 'brief' | 'fetched'

/** ProvideContext's one write: the first message's context carried the brief, so no prompt owes it any more. */
export interface BriefOwedWrites extends StartReads {
  briefGiven(): void
}

/** One conversation's start: its phase, the project it found, and the start in progress. */
export class StartState implements BriefOwedWrites {
  phase: Phase = 'unstarted'
  idleReason: IdleReason | undefined
  project: ProjectRef | undefined
  ended = false
  private starting: Promise<void> | undefined
  private chores: Promise<void> | undefined
  private owed = false
  private resumed = false
  private noteLoadedOnce: () => void = () => undefined
  private readonly loadedOnce = new Promise<void>((done) => (this.noteLoadedOnce = done))

  get activeProject(): ProjectRef | undefined {
    return this.phase === 'active' ? this.project : undefined
  }
  started(): Promise<void> {
    return this.starting ?? Promise.resolve()
  }
  housekeeping(): Promise<void> {
    return this.chores ?? Promise.resolve()
  }
  /**
   * The conversation is loaded: read from the store (a resume known), the brief under way; the start goes on
   * with this process's record's write. Resolved too when the start ends before it. Never rejects.
   */
  loaded(): Promise<void> {
    return Promise.race([this.loadedOnce, this.started()])
  }
  noteLoaded(): void {
    this.noteLoadedOnce()
  }

  briefGiven(): void {
    this.owed = false
  }
  oweBrief(): void {
    this.owed = true
  }
  /** The conversation goes on from other processes' records: its first message's context is theirs. */
  noteResumed(): void {
    this.resumed = true
  }
  takeOwedBrief(): OwedBrief | undefined {
    const owed = this.owed ? 'brief' : this.resumed ? 'fetched' : undefined
    this.owed = this.resumed = false
    return owed
  }
  beginHousekeeping(chores: Promise<void>): void {
    this.chores = quiet(chores)
  }
  begin(run: () => Promise<void>): Promise<void> {
    return (this.starting ??= run())
  }
  moveTo(phase: Phase, details: { project?: ProjectRef; reason?: IdleReason } = {}): void {
    this.phase = phase
    this.project = details.project ?? this.project
    this.idleReason = details.reason ?? this.idleReason
    // Leaving the placeholder: the next start is a real one.
    if (phase === 'unstarted') this.starting = undefined
  }
}

export class StartSession {
  constructor(
    private readonly state: StartState,
    private readonly find: FindProject,
    private readonly conversation: LoadConversation,
    private readonly brief: BriefAtStart,
    private readonly host: Host,
    private readonly clock: Clock,
  ) {}

  /**
   * session.start: begins the start (unless this is the agent view's placeholder) and registers /hark
   * (always), without waiting for the start: finding the project, loading the conversation and fetching the brief go
   * on after the hook settles (docs/engine.md, "A $ call outlives its hook"), and every later hook waits
   * for the same start (`ensureStarted`, `StartState.started`), so Claude Code never waits on Hark or the
   * store to start.
   */
  async onSessionStart(cwd: string): Promise<void> {
    void this.ensureStarted(cwd)
    try {
      await this.host.registerCommand(COMMAND_NAME, 'Hark project memory: brief, handoff, preview, needs, open, doctor', '[brief|handoff|preview|needs|open|doctor]')
    } catch (error) {
      this.host.log(`Hark: could not register /hark (${describeError(error)}).`)
    }
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
    this.conversation.releasePlaceholder()
    await this.ensureStarted()
  }

  /**
   * prompt.submit (SPEC.md: it waits at most 150 ms for the store): the conversation's load is waited for that
   * long at most (its records read, so a resume is known and its brief under way; not this process's record's
   * write, which may wait on the store's lock), as the prompt only notes itself in the store; the agent view's
   * placeholder, which has done no store call, is released, and its first task waits for the start and the
   * brief it carries.
   */
  async forPrompt(): Promise<void> {
    await within(this.clock, STORE_WAIT_EXIT_MS, () => {
      void this.ensureStarted()
      return this.state.loaded()
    })
    if (this.state.phase === 'placeholder') await this.forPerson()
  }

  /** The start under way, if any, without beginning one (`/hark doctor`, `/hark preview`). Never rejects. */
  waitForStart(): Promise<void> {
    return this.state.started()
  }

  /** What this prompt owes the model, asked once: the first since the placeholder was released, or of a resume. */
  takeOwedBrief(): OwedBrief | undefined {
    return this.state.takeOwedBrief()
  }

  /** The conversation ended (`/clear`, a resume): what its start still has running writes and shows nothing more. */
  end(): void {
    this.state.ended = true
  }

  private async start(cwd?: string): Promise<void> {
    const state = this.state
    const place = await this.find.place(cwd)
    if (!place) return state.moveTo('idle', { reason: 'unplaced-folder' })
    if (place === 'placeholder') return state.moveTo('placeholder')
    // What the conversation's key needs besides the project is asked while the project file is looked for.
    const launch = this.conversation.launch()
    const project = await this.find.project(place)
    if (!project) return state.moveTo('idle', { reason: 'no-project' })
    if (!this.find.keySet(project)) {
      state.moveTo('idle', { project, reason: 'no-key' })
      return this.brief.withoutKey()
    }
    // The project's cached brief is read while the conversation loads (the reuse rule needs both).
    const cached = this.brief.readCache(project.venture)
    const loaded = await this.conversation.open(project, place.rules, launch)
    if (state.ended) return
    if (loaded.others.size > 0) state.noteResumed()
    state.moveTo('active', { project })
    // The brief request goes out now (nothing waits on Hark: docs/engine.md), while this process's record
    // is stored. The housekeeping goes alongside: the first message's context does not wait for it, and the
    // handoff does (within the exit window), as it may claim this conversation's segment.
    this.brief.begin(cached)
    state.beginHousekeeping(this.conversation.housekeeping(project.venture))
    state.noteLoaded()
    await this.conversation.join(loaded)
  }
}
