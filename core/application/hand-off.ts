/**
 * The handoff (SPEC.md: session.end; The handoff; /hark handoff; One conversation, several
 * processes). At most one handoff per piece of work: a process stores a claim first, the first
 * claim wins, and the winner marks the work closed before it sends anything. With work, it sends
 * `end_session`, falling back to `session_stopped` when that fails other than by timing out and
 * time is left; without work, `close_session` if a Hark session is open; otherwise nothing.
 * `preview` (SPEC.md: /hark preview) takes the same steps and builds the same payload, and stops
 * before the claim: nothing is stored or sent.
 */
import { markHandedOff, markOwnHandedOff, ownWork } from '../domain/conversation/merge'
import { buildHandoff, CLOSE_REASON, type HandoffPayload } from '../domain/handoff'
import type { Venture } from '../domain/project'
import { pathKey } from '../domain/paths'
import { hasWork, oneSpellingPerFile, type Work } from '../domain/work'
import type { Clock } from '../ports/clock.port'
import type { HarkFailureKind, HarkGateway, HarkResult } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { BriefService } from './brief-service'
import type { ClaimAhead } from './conversation-state'
import { STORE_WAIT_EXIT_MS, STORE_WAIT_MS, type ConversationState, type ConversationStore, type RecordChange } from './conversation-store'
import { within } from './deadline'
import type { ProjectPaths } from './project-paths'
import type { Settings } from './settings'
import type { StartState } from './start-session'

/** SPEC.md: each request at exit stops waiting 0.4 seconds before the exit window ends. */
export const EXIT_MARGIN_MS = 400
/** At exit, what waiting for the start and its brief leaves for the handoff's store calls and request (ms). */
export const EXIT_RESERVE_MS = 300
/** What the log line adds when a handoff is kept for later: a sentence, and a clause after a semicolon. */
const LATER = ' The handoff is kept on this machine and sent at the next session start in this project.'
const LATER_CLAUSE = ' the handoff is kept on this machine and sent at the next session start in this project.'
/** At exit, what the store steps leave for the request itself (ms). */
export const EXIT_REQUEST_MS = 200

/**
 * The exit window (SPEC.md: session.end; every exit hook shares about 1.5 s): `left()` is what is left of it
 * now, in ms (never below 0), read fresh on each call and without a call to the engine.
 */
export interface ExitWindow {
  left(): number
}

export type HandoffOutcome =
  | { readonly kind: 'idle' }
  | { readonly kind: 'moved' }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'taken' }
  | { readonly kind: 'sent'; readonly tool: 'end_session' | 'session_stopped' | 'close_session'; readonly work: Work }
  | {
      readonly kind: 'failed'
      readonly tool: 'end_session' | 'session_stopped' | 'close_session'
      readonly detail: string
      /** How it failed (`key-refused` when Hark refused the access key for any of the requests). */
      readonly failure: HarkFailureKind
      readonly work: Work
    }

/** What the handoff would send now (`HandOff.preview`): nothing, `close_session` with its reason, or `end_session`'s arguments. */
export type HandoffPreview =
  | { readonly kind: 'idle' }
  | { readonly kind: 'moved' }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'close_session'; readonly reason: string }
  | { readonly kind: 'end_session'; readonly payload: HandoffPayload }

/** The conversation's pending work, once the steps before a claim are done. */
interface Pending {
  readonly kind: 'pending'
  readonly tool: 'end_session' | 'close_session'
  readonly project: { readonly venture: Venture }
  readonly recordKey: string
  readonly view: NonNullable<ConversationState['view']>
  readonly work: Work
  readonly notes: string | undefined
  readonly waitMs: number
  /** The clock read during the refresh (epoch ms), for the claim and the mark. */
  readonly at: number
}

export class HandOff {
  /** Whether this run is at exit (no status line to draw, no time for more store writes). */
  private exiting = false

  constructor(
    private readonly start: StartState,
    private readonly conversation: ConversationState,
    private readonly hark: HarkGateway,
    private readonly store: ConversationStore,
    private readonly clock: Clock,
    private readonly host: Host,
    private readonly briefs: BriefService,
    private readonly settings: Settings,
    private readonly paths: ProjectPaths,
  ) {}

  /**
   * Hands the conversation's pending work off.
   * @param exit the exit window (session.end), or undefined for /hark handoff
   */
  async run(exit?: ExitWindow): Promise<HandoffOutcome> {
    this.exiting = exit !== undefined
    // /hark handoff: what was read or claimed ahead for an exit that has not come is stale by the time it does.
    if (!this.exiting) {
      void this.conversation.takeReadAhead()
      void this.conversation.takeClaimAhead()
    }
    const ahead = this.exiting ? await this.takeClaimAhead(exit) : undefined
    const pending = await this.pending(exit, ahead)
    if (pending.kind !== 'pending') {
      // Claimed ahead for work that is gone: the claim goes, so it holds up no other process's handoff.
      if (ahead?.claim?.key !== undefined) await this.bounded(exit, () => this.store.remove(ahead.claim?.key ?? ''))
      return pending
    }
    const { project, recordKey, view } = pending
    let { work, notes } = pending
    const claimedAhead = ahead?.claim !== undefined && ahead.segment === view.segment ? ahead.claim : undefined
    const claim = this.conversation.refused ? { won: false, refused: true } : (claimedAhead ?? (await this.store.claim(view.segment, { waitMs: pending.waitMs, at: pending.at })))
    if (!claim.won && !claim.refused) return { kind: 'taken' }
    if (claim.refused) {
      // SPEC.md, Limits: when the store refuses, this process hands off its own work, marked on its
      // latest record (and stored, when the store takes it, so no later process sends it again).
      // From memory first: the work is known even when the store does not take the mark in time.
      const current = this.conversation.record
      let own: ReturnType<typeof ownWork> = current === undefined ? { work } : ownWork(current, recordKey)
      await this.bounded(exit, () =>
        this.store.save(
          (r, { now }) => {
            own = ownWork(r, recordKey)
            return markOwnHandedOff(r, recordKey, now)
          },
          { waitMs: pending.waitMs },
        ),
      )
      work = own.work
      notes = own.notes
      if (!hasWork(work) && !view.sessionOpen) return { kind: 'nothing' }
    } else {
      // The winner marks the work closed before it sends anything.
      // Over the records the refresh read: the mark covers the view it sends, with no second read.
      // (At exit after a claim made ahead, over the records read then, in classic.SessionEnd's call.)
      const mark: RecordChange = (r, { others, view: latest, now }) => markHandedOff(recordKey, r, latest, others, now, true, view)
      const options = { waitMs: pending.waitMs, at: pending.at }
      await this.bounded(exit, () => (ahead === undefined ? this.store.saveOverRefresh(mark, options) : this.store.saveOver(ahead.others, mark, options)))
    }
    if (hasWork(work)) return this.sendHandoff(project.venture, this.payloadFor(project.venture, work, notes), exit)
    return this.finish('close_session', work, await this.hark.closeSession(CLOSE_REASON, { timeoutMs: await this.timeLeft(exit) }))
  }

  /**
   * classic.SessionEnd, once the move check is done (issue 11: end_session within 15 ms of session.end):
   * when the start, its brief and its housekeeping are in and this process has something to hand off,
   * the handoff's claim is stored now, while the other records are read, and session.end, which comes
   * next, goes from the mark to the request. SPEC's rules stay: the first claim wins, and the winner
   * marks the work closed (at session.end) before it sends anything. The hook waits for this at most
   * as long as a claim at exit may take; session.end waits for the rest within its window and goes on
   * alone when it is not done (a claim stored later is one it takes over as its own). Never rejects.
   */
  async claimAhead(): Promise<void> {
    if (this.start.activeProject === undefined || this.conversation.open === undefined) return
    if (this.conversation.moved || this.conversation.refused) return
    const preparing = this.prepareAhead().catch(() => undefined)
    this.conversation.noteClaimAhead(preparing)
    await within(this.clock, 2 * STORE_WAIT_EXIT_MS, () => preparing)
  }

  private async prepareAhead(): Promise<ClaimAhead | undefined> {
    // Only what is already in: a start, a brief or housekeeping still going is session.end's to wait for.
    const ready = await within(this.clock, 0, () => Promise.all([this.start.started(), this.start.housekeeping()]))
    if (!ready.done || !(await this.briefs.firstBriefWithin(0))) return undefined
    const at = await this.clock.now()
    // The claim goes with what this process knows (its own work, the segment as last read) while the
    // other records are read: SPEC's rule is on the claims alone, and the mark covers what the read finds.
    const known = this.conversation.view
    const claiming = known !== undefined && this.toolFor(known) !== undefined && !this.conversation.claimAheadAbandoned ? this.store.claim(known.segment, { waitMs: STORE_WAIT_EXIT_MS, at }, true) : undefined
    const [read, claim] = await Promise.all([within(this.clock, 2 * STORE_WAIT_EXIT_MS, () => this.store.refreshForHandoff({ waitMs: STORE_WAIT_EXIT_MS })), claiming])
    const view = this.conversation.view
    // A store too slow to read in time, or a segment another process closed meanwhile: session.end reads
    // and claims for itself, and a claim for a closed segment goes.
    if (!read.done || view === undefined || (claim !== undefined && view.segment !== known?.segment)) {
      if (claim?.key !== undefined) await within(this.clock, STORE_WAIT_EXIT_MS, () => this.store.remove(claim.key ?? ''))
      return undefined
    }
    return { at, segment: view.segment, others: this.store.lastRead, ...(claim === undefined ? {} : { claim }) }
  }

  /** session.end: what classic.SessionEnd claimed ahead, waited for while the window allows; else nothing. */
  private async takeClaimAhead(exit: ExitWindow | undefined): Promise<ClaimAhead | undefined> {
    const claiming = this.conversation.takeClaimAhead()
    if (claiming === undefined) return undefined
    const taken = await within(this.clock, () => this.reserveLeft(exit), () => claiming)
    if (taken.done) return taken.value
    // Not in time: this handoff reads and claims itself, and the claim made ahead, if it comes, is its own.
    this.conversation.abandonClaimAhead()
    return undefined
  }

  /** The request that carries the view's work: end_session with work, close_session with only a Hark session open. */
  private toolFor(view: NonNullable<ConversationState['view']>): 'end_session' | 'close_session' | undefined {
    // A brief request opened a Hark session even if its answer, or the record noting it, never came.
    const open = view.sessionOpen || this.briefs.askedAt > view.closedAt
    return hasWork(view.work) ? 'end_session' : open ? 'close_session' : undefined
  }

  /**
   * What `run` would send if the session ended now (SPEC.md: /hark preview): the same steps up to
   * the request (the start and its brief awaited, the store's latest records read and merged), and
   * the same payload builder; nothing is claimed, marked, stored or sent. The conversation's merged
   * work is shown, as the process that wins the claim sends it.
   */
  async preview(): Promise<HandoffPreview> {
    const pending = await this.pending(undefined)
    if (pending.kind !== 'pending') return pending
    if (pending.tool === 'close_session') return { kind: 'close_session', reason: CLOSE_REASON }
    const { payload } = this.payloadFor(pending.project.venture, pending.work, pending.notes)
    return { kind: 'end_session', payload }
  }

  /**
   * The steps `run` and `preview` share: the conversation's pending work and the tool that would carry it.
   * `ahead`: what classic.SessionEnd read and claimed, so nothing is read again.
   */
  private async pending(exit: ExitWindow | undefined, ahead?: ClaimAhead): Promise<Pending | { readonly kind: 'idle' | 'moved' | 'nothing' }> {
    // The start goes on after session.start settles: a session that ends at once waits for it, keeping
    // time in the window for what follows.
    await within(this.clock, () => this.reserveLeft(exit), () => this.start.started())
    const project = this.start.activeProject
    const recordKey = this.conversation.open?.recordKey
    if (project === undefined || recordKey === undefined) return { kind: 'idle' }
    // A moved conversation is handed off by the background process, which reads the store: all of it but
    // what this process's store refused to take, which this process hands off itself (SPEC.md, Limits).
    if (this.conversation.moved && !this.conversation.refused) return { kind: 'moved' }
    const exiting = exit !== undefined
    const waitMs = exiting ? STORE_WAIT_EXIT_MS : STORE_WAIT_MS
    let at: number
    if (ahead !== undefined) {
      // The start, its brief and its housekeeping were in, and the records read, when the exit chain began.
      at = ahead.at
    } else {
      // A session that ends while the start's brief is still coming waits for it, within the window, so
      // the Hark session it opens is closed by what follows (SPEC.md: session.end).
      await this.briefs.firstBriefWithin(() => this.reserveLeft(exit))
      // The start's pruning and deliveries may hold a claim on this conversation's segment: they go first.
      await within(this.clock, () => this.reserveLeft(exit), () => this.start.housekeeping())
      // The latest merge of every process's record (a refused read leaves this process's own; at exit, the
      // records read ahead when the exit chain began); nothing is written until there is something to
      // mark. The clock is read meanwhile, for the claim and the mark.
      const reading = this.clock.now()
      await this.bounded(exit, () => (exiting ? this.store.refreshForHandoff({ waitMs }) : this.store.refresh({ waitMs })))
      at = await reading
    }
    // The view as it is now: a change recorded since the read is merged into it.
    const view = this.conversation.view
    if (view === undefined || this.conversation.record === undefined) return { kind: 'idle' }
    const tool = this.toolFor(view)
    if (tool === undefined) return { kind: 'nothing' }
    return { kind: 'pending', tool, project, recordKey, view, work: view.work, notes: view.notes, waitMs, at }
  }

  /** `end_session`'s arguments for this work: one spelling per file, then the payload builder (core/domain/handoff.ts). */
  private payloadFor(venture: Venture, recorded: Work, notes: string | undefined): { readonly work: Work; readonly payload: HandoffPayload } {
    const rules = this.paths.place?.rules
    const work = rules === undefined ? recorded : oneSpellingPerFile(recorded, (path) => pathKey(path, rules))
    return { work, payload: buildHandoff(venture, work, notes, this.settings.accessKey) }
  }

  private async sendHandoff(venture: Venture, prepared: { readonly work: Work; readonly payload: HandoffPayload }, exit: ExitWindow | undefined): Promise<HandoffOutcome> {
    const { work, payload } = prepared
    const sent = await this.hark.endSession(payload, { timeoutMs: await this.timeLeft(exit) })
    if (sent.ok || sent.kind === 'timeout') return this.finish('end_session', work, sent)
    // SPEC.md: end_session failed other than by timing out: session_stopped, if exit time is left.
    // One log line tells the whole story.
    const left = await this.timeLeft(exit)
    if (left <= 0) {
      const kept = sent.kind === 'unreachable' && (await this.keepForLater(venture, payload))
      this.host.log(`Hark: end_session failed (${sent.detail}), and no exit time was left to ask Hark to draft the handoff instead.${kept ? LATER : ''}`)
      return { kind: 'failed', tool: 'end_session', detail: sent.detail, failure: sent.kind, work }
    }
    const stopped = await this.hark.sessionStopped(venture, { timeoutMs: left })
    if (!stopped.ok) {
      // Nothing reached Hark: the handoff is kept for the next start in the project (issue 12 §2).
      const kept = sent.kind === 'unreachable' && stopped.kind === 'unreachable' && (await this.keepForLater(venture, payload))
      const after = kept ? LATER_CLAUSE : stopped.kind === 'key-refused' ? ' Hark refused the access key: run /plugin configure hark-memory@hark to set a new one.' : " Hark's idle sweep drafts the handoff."
      this.host.log(`Hark: end_session failed (${sent.detail}), and so did session_stopped (${stopped.detail});${after}`)
      const failure = sent.kind === 'key-refused' ? sent.kind : stopped.kind
      return { kind: 'failed', tool: 'session_stopped', detail: stopped.detail, failure, work }
    }
    this.host.log(`Hark: end_session failed (${sent.detail}); Hark drafts the handoff from repo activity instead.`)
    return this.finish('session_stopped', work, stopped)
  }

  /** Keeps the handoff in the store for the next session start in the project; whether the store took it. */
  private keepForLater(venture: Venture, payload: HandoffPayload): Promise<boolean> {
    return this.store.keepUndelivered(venture, payload, { waitMs: this.exiting ? STORE_WAIT_EXIT_MS : STORE_WAIT_MS })
  }

  private async finish(tool: 'end_session' | 'session_stopped' | 'close_session', work: Work, result: HarkResult<void>): Promise<HandoffOutcome> {
    if (!result.ok) {
      const after = result.kind === 'timeout' ? " Hark's idle sweep drafts the handoff." : ''
      this.host.log(`Hark: ${tool} failed (${result.detail}).${after}`)
      return { kind: 'failed', tool, detail: result.detail, failure: result.kind, work }
    }
    // The status line: Hark drafts the handoff after session_stopped; otherwise the work is handed off.
    const state = tool === 'session_stopped' ? 'Draft' : 'Clean'
    const needYou = this.conversation.view?.status?.needYou ?? 0
    const status = { state, needYou, at: await this.clock.now() } as const
    if (this.exiting) {
      this.store.noteStatus(status)
    } else {
      await this.store.save((r) => ({ ...r, status }))
      this.briefs.showStatus()
    }
    return { kind: 'sent', tool, work }
  }

  /**
   * At exit, a store step queued behind saves still running (a store that answers slowly) waits only
   * while time is left for the request after it; it goes on after that. Elsewhere it is simply awaited.
   */
  private async bounded(exit: ExitWindow | undefined, step: () => Promise<unknown>): Promise<void> {
    if (exit === undefined) {
      await step()
      return
    }
    // The time left is asked while the step runs, not before it.
    await within(this.clock, async () => (await this.timeLeft(exit)) - EXIT_REQUEST_MS, step)
  }

  /** ms the start may still be waited for: what is left of the window but the handoff's own reserve. */
  private async reserveLeft(exit: ExitWindow | undefined): Promise<number> {
    return (await this.timeLeft(exit)) - EXIT_RESERVE_MS
  }

  /** ms a request may wait: 3 s normally; at exit, the rest of the window minus 0.4 s (read with no call to the engine). */
  private async timeLeft(exit: ExitWindow | undefined): Promise<number> {
    if (exit === undefined) return 3_000
    return exit.left() - EXIT_MARGIN_MS
  }
}
