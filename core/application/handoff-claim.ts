/**
 * The handoff's claim (SPEC.md: One conversation, several processes; session.end): the claim for the segment
 * it hands off, and the one made ahead at classic.SessionEnd, while the other records are read, so that
 * session.end goes from the mark to the request. SPEC's rules stay: the first claim wins, and the winner
 * marks the work closed (at session.end) before it sends anything.
 *
 * State: `ClaimAhead`, for the conversation: the claim made ahead, until session.end takes it. HandoffClaim,
 * built for each hook call, is its only writer.
 */
import { hasWork } from '../domain/work'
import type { ConversationView } from '../domain/conversation/record'
import type { Clock } from '../ports/clock.port'
import type { BriefService } from './brief-service'
import type { Claim, Claims } from './claims'
import type { ConversationReads, Others } from './conversation-state'
import { quiet, within } from './deadline'
import type { ExitBudget } from './exit-budget'
import type { RecordRepository } from './record-repository'
import type { StartReads } from './start-session'
import { STORE_WAIT_EXIT_MS } from './store-calls'

/**
 * What was prepared at classic.SessionEnd: the other records read for the handoff (merged into the view
 * then), the clock reading it used, and the claim it stored for `segment`, when there was something to hand off.
 */
export interface Ahead {
  /** The clock reading of the read (epoch ms), for the claim and the mark. */
  readonly at: number
  readonly segment: number
  /** The other processes' records as read then (undefined when the store refused the read), for the mark. */
  readonly others: Others | undefined
  /** Undefined when there was nothing to send then, so nothing was claimed. */
  readonly claim?: Claim
}

/** The claim made ahead at classic.SessionEnd, for the session.end that follows. Written by HandoffClaim alone. */
export class ClaimAhead {
  preparing: Promise<Ahead | undefined> | undefined
  /** session.end went on without it: it must claim nothing more. */
  abandoned = false
}

export class HandoffClaim {
  constructor(
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly records: RecordRepository,
    private readonly claims: Claims,
    private readonly briefs: BriefService,
    private readonly clock: Clock,
    private readonly ahead: ClaimAhead,
  ) {}

  /** The request that carries the view's work: end_session with work, close_session with only a Hark session open. */
  toolFor(view: ConversationView): 'end_session' | 'close_session' | undefined {
    // A brief request opened a Hark session even if its answer, or the record noting it, never came.
    const open = view.sessionOpen || this.briefs.askedAt > view.closedAt
    return hasWork(view.work) ? 'end_session' : open ? 'close_session' : undefined
  }

  /**
   * classic.SessionEnd, once the move check is done: when the start, its brief and its housekeeping are in
   * and this process has something to hand off, the claim is stored now, while the other records are read.
   * The hook waits for this at most as long as a claim at exit may take; session.end waits for the rest
   * within its window and goes on alone when it is not done (a claim stored later is one it takes over as
   * its own). Never rejects.
   */
  async claimAhead(): Promise<void> {
    if (!this.start.activeProject || !this.conversation.open) return
    if (this.conversation.moved || this.conversation.refused) return
    this.ahead.abandoned = false
    await within(this.clock, 2 * STORE_WAIT_EXIT_MS, () => (this.ahead.preparing = quiet(this.prepare())))
  }

  private async prepare(): Promise<Ahead | undefined> {
    // Only what is already in: a start, a brief or housekeeping still going is session.end's to wait for.
    const ready = await within(this.clock, 0, () => Promise.all([this.start.started(), this.start.housekeeping()]))
    if (!ready.done || !(await this.briefs.firstBriefWithin(0))) return undefined
    const at = await this.clock.now()
    const options = { waitMs: STORE_WAIT_EXIT_MS, at, exit: true }
    // The claim goes with what this process knows (its own work, the segment as last read) while the
    // other records are read: SPEC's rule is on the claims alone, and the mark covers what the read finds.
    const known = this.conversation.view
    const claiming = known && this.toolFor(known) && !this.ahead.abandoned ? this.claims.claim(known.segment, options, true) : undefined
    const [read, claim] = await Promise.all([within(this.clock, 2 * STORE_WAIT_EXIT_MS, () => this.records.refreshForHandoff(options)), claiming])
    const view = this.conversation.view
    // A store too slow to read in time, or a segment another process closed meanwhile: session.end reads
    // and claims for itself, and a claim for a closed segment goes.
    if (!read.done || !view || (claim && view.segment !== known?.segment)) {
      if (claim?.key) await this.claims.release(claim.key, options)
      return undefined
    }
    return { at, segment: view.segment, others: read.value, ...(claim && { claim }) }
  }

  /**
   * What the handoff starts from: at exit, what classic.SessionEnd prepared, waited for while the window
   * allows (not in time: this handoff reads and claims itself, and the claim made ahead, if it comes, is its
   * own); for /hark handoff, nothing, and what was read or claimed ahead for an exit that has not come is
   * dropped, stale by the time it does.
   */
  async take(budget: ExitBudget): Promise<Ahead | undefined> {
    const preparing = this.ahead.preparing
    this.ahead.preparing = undefined
    if (!budget.exiting) {
      this.records.dropReadAhead()
      return undefined
    }
    if (!preparing) return undefined
    const taken = await within(this.clock, () => budget.reserve(), () => preparing)
    if (taken.done) return taken.value
    this.ahead.abandoned = true
    return undefined
  }

  /**
   * What the handoff waits for, within the window, when nothing was prepared ahead: the start's brief (so
   * the Hark session it opens is closed by what follows) and its housekeeping (pruning and deliveries may
   * hold a claim on this conversation's segment: they go first).
   */
  async settled(budget: ExitBudget): Promise<void> {
    await this.briefs.firstBriefWithin(() => budget.reserve())
    await within(this.clock, () => budget.reserve(), () => this.start.housekeeping())
  }

  /**
   * The claim for the view's segment: the one made ahead when it is for that segment, else one stored now;
   * refused without a store call once the store refused this process's record (SPEC.md, Limits).
   */
  async claim(segment: number, ahead: Ahead | undefined, budget: ExitBudget, at: number): Promise<Pick<Claim, 'won' | 'refused'>> {
    if (this.conversation.refused) return { won: false, refused: true }
    if (ahead?.claim && ahead.segment === segment) return ahead.claim
    return this.claims.claim(segment, { ...budget.store, at })
  }

  /** Removes the claim made ahead (the work it was for is gone). */
  async release(ahead: Ahead | undefined, budget: ExitBudget): Promise<void> {
    if (ahead?.claim?.key) await this.claims.release(ahead.claim.key, budget.store)
  }
}
