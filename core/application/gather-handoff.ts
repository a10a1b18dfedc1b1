/**
 * What a handoff decides on (SPEC.md: session.end; The handoff; One conversation, several processes): the
 * start, its brief and its housekeeping waited for (they may open a Hark session, or hold a claim on this
 * conversation's segment); the other processes' records read and merged with this process's own; and, from
 * the conversation as it is then, the facts the decision reads (core/domain/conversation/handoff-decision.ts).
 */
import type { HandoffFacts } from '../domain/conversation/handoff-decision'
import type { ClaimAttempt } from '../domain/conversation/claim'
import { ownWork } from '../domain/conversation/merge'
import type { ConversationRecord, ConversationView } from '../domain/conversation/record'
import type { ProjectRef } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { BriefReads } from './brief-service'
import type { ConversationReads, OpenConversation, Others } from './conversation-state'
import { within } from './deadline'
import type { Reading, RecordRepository } from './record-repository'
import type { StartReads } from './start-session'
import type { StoreCallOptions } from './store-calls'

/** A read of the other records for a handoff, and the clock reading with it (epoch ms: the claim's time). */
export interface HandoffRead {
  /** Undefined: the store did not answer (the view is this process's record and what it read before). */
  readonly reading: Reading | undefined
  readonly at: number
}

/** The conversation as a handoff sees it. */
export interface Snapshot extends HandoffRead {
  readonly project: ProjectRef
  readonly open: OpenConversation
  /** The merge of every record, as sent when the claim wins. */
  readonly view: ConversationView
  /** This process's record, as marked when it hands off its own work. */
  readonly record: ConversationRecord
  /** The other records the view was merged from: this read's, or the last read's when it failed. */
  readonly others: Others
  /** A Hark session is open: opened after the last close, or a brief request of this process went out since. */
  readonly sessionOpen: boolean
  readonly moved: boolean
  readonly refused: boolean
}

export class GatherHandoff {
  constructor(
    private readonly start: StartReads,
    private readonly briefs: BriefReads,
    private readonly conversation: ConversationReads,
    private readonly records: RecordRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Waits for the start, then its brief (so the Hark session it opens is closed by what follows) and its
   * housekeeping (pruning and deliveries may hold a claim on this conversation's segment), each at most `ms`
   * (asked afresh for each wait). Whether all were in. Never rejects.
   */
  async ready(ms: number | (() => number)): Promise<boolean> {
    const started = await within(this.clock, ms, () => this.start.started())
    if (!started.done) return false
    const [brief, chores] = await Promise.all([within(this.clock, ms, () => this.briefs.firstBrief()), within(this.clock, ms, () => this.start.housekeeping())])
    return brief.done && chores.done
  }

  /** Reads the other records and merges them into the view (the clock read beside it). Never rejects. */
  async read(options: StoreCallOptions): Promise<HandoffRead> {
    const at = this.clock.now()
    const reading = await this.records.refresh(options)
    return { reading, at: await at }
  }

  /** The conversation now, over `read`; undefined outside an active, open conversation. */
  snapshot(read: HandoffRead): Snapshot | undefined {
    const project = this.start.activeProject
    const { open, record, view, others, moved, refused } = this.conversation
    if (!project || !open || !record || !view) return undefined
    // A brief request opened a Hark session even if its answer, or the record noting it, never came.
    const sessionOpen = view.sessionOpen || this.briefs.askedAt > view.closedAt
    return { ...read, project, open, record, view, others, sessionOpen, moved, refused }
  }
}

/** The decision's facts for a snapshot, the claims this process holds, and its claim for the segment once made. */
export function factsOf(s: Snapshot, held: ReadonlySet<string>, claim?: ClaimAttempt): HandoffFacts {
  return {
    moved: s.moved,
    refused: s.refused,
    unread: s.reading === undefined,
    conversation: s.open.key,
    segment: s.view.segment,
    all: { work: s.view.work, notes: s.view.notes },
    // With the cursors the store showed: work another process handed off is not this one's to send again.
    own: ownWork({ ...s.record, cursors: s.view.cursors }, s.open.recordKey),
    sessionOpen: s.sessionOpen,
    keys: s.reading?.keys,
    held,
    claim,
    now: s.at,
  }
}
