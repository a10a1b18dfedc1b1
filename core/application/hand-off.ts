/**
 * The handoff (SPEC.md: session.end; The handoff; /hark handoff; One conversation, several processes): gathers
 * what the store shows (./gather-handoff), asks the domain's decision (core/domain/conversation/
 * handoff-decision.ts: claim, stay quiet, or send; at most one handoff per piece of work), and carries the
 * answer out: the claim, the mark before anything is sent, the request and its fallbacks (./handoff-request).
 *
 * The exit runs in two hooks (docs/architecture.md, "The exit"): classic.SessionEnd reads the other records
 * and stores the claim ahead (`prepare`), outside the exit window; session.end then marks and sends. Every
 * store call of the exit waits at most 150 ms, and none waits for a write of the record made before the
 * exit (RecordRepository writes one at a time, in order, whatever the caller waits for).
 * `preview` (SPEC.md: /hark preview) takes the same steps up to the claim: nothing is stored or sent.
 *
 * State: `HandoffAhead`, for the conversation: what classic.SessionEnd prepared, until session.end takes it.
 * HandOff, built for each hook call, is its only writer.
 */
import type { ClaimAttempt } from '../domain/conversation/claim'
import { claimOf, decideHandoff, keepFits, toolFor, type HandoffDecision, type Pending } from '../domain/conversation/handoff-decision'
import { markHandedOff, markOwnHandedOff } from '../domain/conversation/merge'
import { CLOSE_REASON, type HandoffPayload } from '../domain/handoff'
import type { Clock } from '../ports/clock.port'
import type { Claims } from './claims'
import { quiet, within } from './deadline'
import { ExitBudget, type ExitWindow } from './exit-budget'
import { factsOf, type GatherHandoff, type HandoffRead, type Snapshot } from './gather-handoff'
import type { HandoffRequest, RequestsOutcome } from './handoff-request'
import type { RecordRepository } from './record-repository'
import { STORE_WAIT_EXIT_MS } from './store-calls'

export type { ExitWindow } from './exit-budget'

export type HandoffOutcome = { readonly kind: 'idle' | 'moved' | 'nothing' | 'taken' } | RequestsOutcome

/** What the handoff would send now (`HandOff.preview`): nothing, `close_session` with its reason, or `end_session`'s arguments. */
export type HandoffPreview =
  | { readonly kind: 'idle' }
  | { readonly kind: 'moved' }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'close_session'; readonly reason: string }
  | { readonly kind: 'end_session'; readonly payload: HandoffPayload }

/** What classic.SessionEnd prepared: the records read, and the claim stored for `segment` when there was something to hand off. */
interface Prepared extends HandoffRead {
  readonly claim?: { readonly segment: number; readonly attempt: ClaimAttempt }
}

/**
 * The conversation's handoffs in this process: what classic.SessionEnd prepares for the session.end that follows,
 * and the handoff under way (one at a time: a second waits for it, then finds its work marked). Written by HandOff
 * alone.
 */
export class HandoffAhead {
  preparing: Promise<Prepared | undefined> | undefined
  /** session.end went on without it: it must claim nothing more. */
  abandoned = false
  /** The handoff under way (/hark handoff, or the exit's), settled when it is done. Never rejects. */
  running: Promise<unknown> | undefined
}

/** The exit's store calls at classic.SessionEnd, outside the window: SPEC's 150 ms, a late write counting as refused. */
const AHEAD = { waitMs: STORE_WAIT_EXIT_MS, exit: true } as const

export class HandOff {
  constructor(
    private readonly gather: GatherHandoff,
    private readonly claims: Claims,
    private readonly records: RecordRepository,
    private readonly request: HandoffRequest,
    private readonly ahead: HandoffAhead,
    private readonly clock: Clock,
  ) {}

  /**
   * Hands the conversation's pending work off: the decision, the claim, the mark, the request, the status.
   * @param exit the exit window (session.end), or undefined for /hark handoff
   */
  run(exit?: ExitWindow): Promise<HandoffOutcome> {
    // One handoff at a time in a process: /hark handoff still storing its claim or mark when the exit begins is
    // waited for (at exit while the window allows), so the exit decides on the work it marked.
    const before = this.ahead.running
    const budget = new ExitBudget(exit)
    const running = (async () => {
      if (before) await (budget.exiting ? within(this.clock, () => budget.reserve(), () => before) : before)
      return this.runNow(budget)
    })()
    this.ahead.running = quiet(running)
    return running
  }

  private async runNow(budget: ExitBudget): Promise<HandoffOutcome> {
    const prepared = await this.take(budget)
    const read = prepared ?? (await this.readNow(budget))
    const snapshot = this.gather.snapshot(read)
    if (!snapshot) {
      await this.release([prepared?.claim?.attempt], budget)
      return { kind: 'idle' }
    }
    // The claim made ahead counts when it is for the segment the view is at now.
    let claim = prepared?.claim?.segment === snapshot.view.segment ? prepared.claim.attempt : undefined
    let decision = this.decide(snapshot, claim, budget.exiting)
    if (decision.kind === 'claim') {
      claim = await this.claims.claim(decision.segment, { ...budget.store, at: snapshot.at })
      decision = this.decide(snapshot, claim, budget.exiting)
    }
    // A stored claim the handoff does not send the segment under holds up no other process's handoff.
    const unused = [prepared?.claim?.attempt, claim].filter((a) => a?.stored === true && !(decision.kind === 'send' && decision.share === 'all' && a === claim))
    if (decision.kind !== 'send') {
      await this.release(unused, budget)
      return { kind: decision.kind === 'claim' || decision.why === 'nothing' ? 'nothing' : decision.why === 'rival' ? 'taken' : decision.why }
    }
    // A refused claim refuses the conversation, as a refused record does (SPEC.md, Limits); a read that only
    // ran out of time does not.
    const facts = factsOf(snapshot, this.claims.heldFor(budget.exiting), claim)
    if (claimOf(facts)?.outcome === 'refused') this.records.refuse()
    await this.mark(decision.share, snapshot, budget)
    const outcome = await this.request.carry(decision.tool, snapshot.project.venture, decision.pending, budget)
    if (outcome.kind === 'sent') await this.noteSent(outcome.tool, snapshot, budget)
    await this.release(unused, budget, true)
    return outcome
  }

  /**
   * classic.SessionEnd, beside the move check (`moveChecked`): when the start, its brief and its housekeeping
   * are in, the other records are read now and, when there is something to hand off, the claim stored with
   * them, so session.end goes from the mark to the request. The hook waits for this at most as long as a
   * claim at exit may take; session.end waits for the rest within its window and goes on alone when it is
   * not done (a claim stored later is one it takes over as its own). Never rejects.
   */
  async prepare(moveChecked: Promise<unknown>): Promise<void> {
    this.ahead.abandoned = false
    await within(this.clock, 2 * STORE_WAIT_EXIT_MS, () => (this.ahead.preparing = quiet(this.readAndClaim(moveChecked))))
  }

  /**
   * What `run` would send if the session ended now (SPEC.md: /hark preview): the same steps up to the claim,
   * and the same payload builder; nothing is claimed, marked, stored or sent. The conversation's merged work
   * is shown, as the process that wins the claim sends it.
   */
  async preview(): Promise<HandoffPreview> {
    const budget = new ExitBudget(undefined)
    const snapshot = this.gather.snapshot(await this.readNow(budget))
    if (!snapshot) return { kind: 'idle' }
    const decision = this.decide(snapshot, undefined, false)
    if (decision.kind === 'quiet') return { kind: decision.why === 'moved' ? 'moved' : 'nothing' }
    const tool = decision.kind === 'send' ? decision.tool : toolFor(snapshot.view, snapshot.sessionOpen)
    const pending: Pending = decision.kind === 'send' ? decision.pending : snapshot.view
    if (tool === 'close_session') return { kind: 'close_session', reason: CLOSE_REASON }
    return tool === 'end_session' ? { kind: 'end_session', payload: this.request.payloadFor(snapshot.project.venture, pending).payload } : { kind: 'nothing' }
  }

  /** The decision on a snapshot; `exit`: the exit's handoff, which takes the claim made ahead for it as its own. */
  private decide(snapshot: Snapshot, claim: ClaimAttempt | undefined, exit: boolean): HandoffDecision {
    return decideHandoff(factsOf(snapshot, this.claims.heldFor(exit), claim))
  }

  /** classic.SessionEnd's part: the read, and the claim beside it when the decision asks for one. */
  private async readAndClaim(moveChecked: Promise<unknown>): Promise<Prepared | undefined> {
    // Only what is already in: a start, a brief or housekeeping still going is session.end's to wait for.
    if (!(await this.gather.ready(0))) return undefined
    const reading = this.gather.read(AHEAD)
    await moveChecked
    // The claim goes with what this process knows (its own work, the segment as last read) while the
    // other records are read: SPEC's rule is on the claims alone, and the mark covers what the read finds.
    const known = this.gather.snapshot({ reading: undefined, at: await this.clock.now() })
    // Whether there is something to claim for; the read under way decides the rest at session.end.
    const decision = known && decideHandoff({ ...factsOf(known, this.claims.heldFor(true)), unread: false })
    const claiming = known && decision?.kind === 'claim' && !this.ahead.abandoned ? this.claims.claim(decision.segment, { ...AHEAD, at: known.at }, 'exit') : undefined
    const [read, attempt] = await Promise.all([within(this.clock, 2 * STORE_WAIT_EXIT_MS, () => reading), claiming])
    const now = read.done ? this.gather.snapshot(read.value) : undefined
    // A store too slow to read in time, or a segment another process closed meanwhile: session.end reads
    // and claims for itself, and a claim for a closed segment goes.
    if (!read.done || !now || (attempt && now.view.segment !== known?.view.segment)) {
      if (attempt?.stored) await this.claims.release(attempt.key, AHEAD)
      return undefined
    }
    return { ...read.value, ...(attempt && { claim: { segment: now.view.segment, attempt } }) }
  }

  /**
   * What the handoff starts from: at exit, what classic.SessionEnd prepared, waited for while the window
   * allows (not in time: this handoff reads and claims itself, and the claim made ahead, if it comes, is its
   * own); for /hark handoff nothing, and what was prepared for an exit that has not come is dropped.
   */
  private async take(budget: ExitBudget): Promise<Prepared | undefined> {
    const preparing = this.ahead.preparing
    this.ahead.preparing = undefined
    if (!budget.exiting || !preparing) return undefined
    const taken = await within(this.clock, () => budget.reserve(), () => preparing)
    if (taken.done) return taken.value
    this.ahead.abandoned = true
    return undefined
  }

  /** Without what classic.SessionEnd prepared: the start, its brief and housekeeping waited for within the window, then a read. */
  private async readNow(budget: ExitBudget): Promise<HandoffRead> {
    await this.gather.ready(() => budget.reserve())
    return this.gather.read(budget.store)
  }

  /**
   * Removes stored claims the handoff did not use (the work they were for is gone, or it sent its own work only), so
   * they hold up no other process's handoff. `afterRequest`: at exit only while the window leaves the wait.
   */
  private async release(attempts: readonly (ClaimAttempt | undefined)[], budget: ExitBudget, afterRequest = false): Promise<void> {
    for (const attempt of attempts) {
      if (attempt?.stored !== true || (afterRequest && !keepFits(budget.windowLeft()))) continue
      await this.claims.release(attempt.key, afterRequest ? budget.keepStore : budget.store)
    }
  }

  /**
   * The mark, before anything is sent, over the records the view was merged from (no second read: when the
   * read failed, the store is not asked again): the whole view's work (the claim won), or this process's own
   * (refused). The work is sent whatever becomes of the mark: a write counted as refused may still land.
   */
  private async mark(share: 'all' | 'own', s: Snapshot, budget: ExitBudget): Promise<void> {
    const { recordKey } = s.open
    const options = { ...budget.store, at: s.at, over: s.others }
    if (share === 'all') {
      await this.records.save((r, { others, view, now }) => markHandedOff(recordKey, r, view, others, now, true, s.view), options)
    } else {
      // With the cursors the store showed: work another process handed off is not this one's to send again.
      await this.records.save((r, { view, now }) => markOwnHandedOff({ ...r, cursors: view.cursors }, recordKey, now, s.record), options)
    }
  }

  /** The status line's handoff state: Hark drafts the handoff after session_stopped; otherwise the work is handed off. */
  private async noteSent(tool: RequestsOutcome['tool'], s: Snapshot, budget: ExitBudget): Promise<void> {
    const status = { state: tool === 'session_stopped' ? 'Draft' : 'Clean', needYou: s.view.status?.needYou ?? 0, at: await this.clock.now() } as const
    // At exit there is no time for another store write: the status is noted in memory only.
    if (budget.exiting) this.records.noteStatus(status)
    else await this.records.save((r) => ({ ...r, status }))
  }
}
