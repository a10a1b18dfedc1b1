/**
 * The handoff (SPEC.md: session.end; The handoff; /hark handoff; One conversation, several processes). At
 * most one handoff per piece of work: a process stores a claim first (./handoff-claim), the first claim
 * wins, and the winner marks the work closed before it sends anything (./handoff-request). `preview`
 * (SPEC.md: /hark preview) takes the same steps and builds the same payload, and stops before the claim:
 * nothing is stored or sent.
 */
import { markHandedOff, markOwnHandedOff, ownWork } from '../domain/conversation/merge'
import type { ConversationView } from '../domain/conversation/record'
import { CLOSE_REASON, type HandoffPayload } from '../domain/handoff'
import type { ProjectRef } from '../domain/project'
import { hasWork, type Work } from '../domain/work'
import type { Clock } from '../ports/clock.port'
import type { HarkFailureKind } from '../ports/hark.port'
import type { ConversationReads } from './conversation-state'
import { within } from './deadline'
import { ExitBudget, type ExitWindow } from './exit-budget'
import type { Ahead, HandoffClaim } from './handoff-claim'
import type { HandoffRequest } from './handoff-request'
import type { RecordRepository } from './record-repository'

export type { ExitWindow } from './exit-budget'
import type { StartReads } from './start-session'

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
  readonly project: ProjectRef
  readonly recordKey: string
  readonly view: ConversationView
  /** The clock reading of the read (epoch ms), for the claim and the mark. */
  readonly at: number
  /** The other records the view was merged from (undefined: the store did not answer), for the mark. */
  readonly others: ConversationReads['others'] | undefined
}

export class HandOff {
  constructor(
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly records: RecordRepository,
    private readonly claims: HandoffClaim,
    private readonly request: HandoffRequest,
    private readonly clock: Clock,
  ) {}

  /**
   * Hands the conversation's pending work off: what is pending, the claim, the mark, the request, the status.
   * @param exit the exit window (session.end), or undefined for /hark handoff
   */
  async run(exit?: ExitWindow): Promise<HandoffOutcome> {
    const budget = new ExitBudget(exit)
    const ahead = await this.claims.take(budget)
    const pending = await this.pending(budget, ahead)
    if (pending.kind !== 'pending') {
      // Claimed ahead for work that is gone: the claim goes, so it holds up no other process's handoff.
      if (ahead?.claim) await this.bounded(budget, () => this.claims.release(ahead, budget))
      return pending
    }
    const claim = await this.claims.claim(pending.view.segment, ahead, budget, pending.at)
    if (!claim.won && !claim.refused) return { kind: 'taken' }
    if (claim.refused) this.records.refuse()
    const { work, notes } = await (claim.refused ? this.markOwn(pending, budget) : this.mark(pending, budget))
    if (!hasWork(work) && !pending.view.sessionOpen && claim.refused) return { kind: 'nothing' }
    const venture = pending.project.venture
    const outcome = await (hasWork(work) ? this.request.send(venture, this.request.payloadFor(venture, work, notes), budget) : this.request.close(work, budget))
    if (outcome.kind === 'sent') await this.noteSent(outcome.tool, budget)
    return outcome
  }

  /** session.end comes next (classic.SessionEnd): its claim is made now, while the other records are read. */
  claimAhead(): Promise<void> {
    return this.claims.claimAhead()
  }

  /**
   * What `run` would send if the session ended now (SPEC.md: /hark preview): the same steps up to the
   * request (the start and its brief awaited, the store's latest records read and merged), and the same
   * payload builder; nothing is claimed, marked, stored or sent. The conversation's merged work is shown,
   * as the process that wins the claim sends it.
   */
  async preview(): Promise<HandoffPreview> {
    const pending = await this.pending(new ExitBudget(undefined))
    if (pending.kind !== 'pending') return pending
    if (pending.tool === 'close_session') return { kind: 'close_session', reason: CLOSE_REASON }
    return { kind: 'end_session', payload: this.request.payloadFor(pending.project.venture, pending.view.work, pending.view.notes).payload }
  }

  /**
   * The steps `run` and `preview` share: the conversation's pending work and the tool that would carry it.
   * `ahead`: what classic.SessionEnd read and claimed, so nothing is read again.
   */
  private async pending(budget: ExitBudget, ahead?: Ahead): Promise<Pending | { readonly kind: 'idle' | 'moved' | 'nothing' }> {
    // The start goes on after session.start settles: a session that ends at once waits for it, keeping
    // time in the window for what follows.
    await within(this.clock, () => budget.reserve(), () => this.start.started())
    const project = this.start.activeProject
    const c = this.conversation
    const recordKey = c.open?.recordKey
    if (!project || !recordKey) return { kind: 'idle' }
    // A moved conversation is handed off by the background process, which reads the store: all of it but
    // what this process's store refused to take, which this process hands off itself (SPEC.md, Limits).
    if (c.moved && !c.refused) return { kind: 'moved' }
    let at = ahead?.at
    let others = ahead?.others
    if (at === undefined) {
      await this.claims.settled(budget)
      // The latest merge of every process's record (a refused read leaves this process's own; at exit, the
      // records read ahead when the exit chain began); nothing is written until there is something to mark.
      const reading = this.clock.now()
      await this.bounded(budget, async () => (others = await (budget.exiting ? this.records.refreshForHandoff(budget.store) : this.records.refresh(budget.store))))
      at = await reading
    }
    // The view as it is now: a change recorded since the read is merged into it.
    const view = c.view
    if (!view || !c.record) return { kind: 'idle' }
    const tool = this.claims.toolFor(view)
    if (!tool) return { kind: 'nothing' }
    return { kind: 'pending', tool, project, recordKey, view, at, others }
  }

  /**
   * The winner marks the work closed before it sends anything, over the records the read found: the mark
   * covers the view it sends, with no second read.
   */
  private async mark({ recordKey, view, at, others }: Pending, budget: ExitBudget): Promise<{ readonly work: Work; readonly notes?: string | undefined }> {
    // The view is sent whatever becomes of the mark: a write counted as refused may still land, and a mark of
    // the others' work that lands after a handoff of this process's own would lose theirs.
    await this.bounded(budget, () => this.records.save((r, { others: read, view: latest, now }) => markHandedOff(recordKey, r, latest, read, now, true, view), { ...budget.store, at, over: others }))
    return { work: view.work, notes: view.notes }
  }

  /**
   * SPEC.md, Limits: when the store refuses, this process hands off its own work, marked on its latest
   * record (and stored, when the store takes it, so no later process sends it again). From memory first:
   * the work is known even when the store does not take the mark in time.
   */
  private async markOwn({ recordKey, view }: Pending, budget: ExitBudget): Promise<{ readonly work: Work; readonly notes?: string | undefined }> {
    const current = this.conversation.record
    let own: { readonly work: Work; readonly notes?: string | undefined } = current ? ownWork(current, recordKey) : { work: view.work }
    await this.bounded(budget, () =>
      this.records.save((r, { view: latest, now }) => {
        // With the cursors the read found: work another process handed off is not this one's to send again.
        const read = { ...r, cursors: latest.cursors }
        own = ownWork(read, recordKey)
        return markOwnHandedOff(read, recordKey, now)
      }, budget.store),
    )
    return own
  }

  /** The status line's handoff state: Hark drafts the handoff after session_stopped; otherwise the work is handed off. */
  private async noteSent(tool: 'end_session' | 'session_stopped' | 'close_session', budget: ExitBudget): Promise<void> {
    const status = { state: tool === 'session_stopped' ? 'Draft' : 'Clean', needYou: this.conversation.view?.status?.needYou ?? 0, at: await this.clock.now() } as const
    // At exit there is no time for another store write: the status is noted in memory only.
    if (budget.exiting) this.records.noteStatus(status)
    else await this.records.save((r) => ({ ...r, status }))
  }

  /**
   * At exit, a store step queued behind saves still running (a store that answers slowly) waits only while
   * time is left for the request after it; it goes on after that. Elsewhere it is simply awaited.
   */
  private async bounded(budget: ExitBudget, step: () => Promise<unknown>): Promise<void> {
    if (budget.exiting) await within(this.clock, () => budget.step(), step)
    else await step()
  }
}
