/**
 * The state `ConversationStore` keeps, one object per lifetime (docs/architecture.md, Lifetimes; SPEC.md:
 * One conversation, several processes): `StoreHealth` for the plugin load (the save queue, and the store's
 * trouble, logged once), `ConversationState` for the conversation (`/clear` ends it: this process's record,
 * the merged view, the other records as last read, whether the store refused a write or the conversation
 * moved). Each is changed by ConversationStore alone (and `moved` by DetectMove through `noteMoved`);
 * everyone else reads.
 */
import type { ConversationKey } from '../domain/conversation/keys'
import type { ConversationRecord, ConversationView } from '../domain/conversation/record'

/**
 * This process's standing with the store, for the plugin load: its saves run one at a time, and its
 * trouble with the store is logged once and shortens later waits. Changed by ConversationStore only.
 */
export class StoreHealth {
  private chain: Promise<unknown> = Promise.resolve()
  private slowOnce = false
  private warnedOnce = false
  private damageWarnedOnce = false

  /** The store failed to answer in time once: later calls wait no longer than at exit. */
  get slow(): boolean {
    return this.slowOnce
  }

  /** Runs `work` after every save queued before it; resolves to its outcome. */
  queue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work)
    this.chain = run.catch(() => undefined)
    return run
  }

  noteSlow(): void {
    this.slowOnce = true
  }

  /** True the first time only: the store's trouble is logged once per load. */
  firstWarning(): boolean {
    const first = !this.warnedOnce
    this.warnedOnce = true
    return first
  }

  /** True the first time only: a damaged record is logged once per load. */
  firstDamage(): boolean {
    const first = !this.damageWarnedOnce
    this.damageWarnedOnce = true
    return first
  }
}

/** What a process holds of its conversation once the conversation is open. */
export interface OpenConversation {
  /** SHA-256 of the project root and the first launch time; names store keys, never sent anywhere. */
  readonly key: ConversationKey
  /** This load's own record key, `c:<conversation key>:<load time>:<random>`. */
  readonly recordKey: string
  /** The Claude Code session this process runs under. */
  readonly sessionId: string
}

/**
 * What HandOff.claimAhead did at classic.SessionEnd: the other records read for the handoff (merged
 * into the view then), the clock reading it used, and the claim it stored for `segment`, when there was
 * something to hand off.
 */
export interface ClaimAhead {
  /** The clock reading of the refresh (epoch ms), for the claim and the mark. */
  readonly at: number
  readonly segment: number
  /** The other processes' records as read then (undefined when the store refused the read), for the mark. */
  readonly others: ReadonlyMap<string, ConversationRecord> | undefined
  /** Undefined when there was nothing to send then, so nothing was claimed. */
  readonly claim?: { readonly key: string | undefined; readonly won: boolean; readonly refused: boolean }
}

/**
 * This process's part of one conversation (SPEC.md: One conversation, several processes): its record,
 * the merged view of every process's record, and whether the store refused it or the conversation
 * moved to a background process. Lives until `/clear` or a resume ends the conversation. Changed by
 * ConversationStore only (and `moved` by DetectMove through `noteMoved`); everyone else reads.
 */
export class ConversationState {
  private opened: OpenConversation | undefined
  private own: ConversationRecord | undefined
  private merged: ConversationView | undefined
  private refusedWrite = false
  private movedAway = false
  private readAhead: Promise<ReadonlyMap<string, ConversationRecord> | undefined> | undefined
  private othersRead: ReadonlyMap<string, ConversationRecord> = new Map()
  private persistWaiting = false
  private storedAs: string | undefined
  private readonly claims = new Set<string>()
  private claimedAhead: Promise<ClaimAhead | undefined> | undefined
  private aheadAbandoned = false

  /** Set once the conversation is loaded from the store (SPEC.md: session.start). */
  get open(): OpenConversation | undefined {
    return this.opened
  }
  get record(): ConversationRecord | undefined {
    return this.own
  }
  /** The merge of every process's record, as of this process's last save. */
  get view(): ConversationView | undefined {
    return this.merged
  }
  /** The store refused a write: this process hands off its own work (SPEC.md, Limits). */
  get refused(): boolean {
    return this.refusedWrite
  }
  /** The conversation moved to a background process: this one stays quiet at exit. */
  get moved(): boolean {
    return this.movedAway
  }

  /**
   * Whether the claim under `key` is one this process stored for its next handoff to take over: its
   * prune's (it folds; it never hands off) or its handoff's, made ahead at classic.SessionEnd.
   */
  passedOn(key: string): boolean {
    return this.claims.has(key)
  }

  /** DetectMove's finding at classic.SessionEnd. */
  noteMoved(moved: boolean): void {
    this.movedAway = moved
  }

  /** @internal ConversationStore's own writes. */
  begin(open: OpenConversation, record: ConversationRecord, view: ConversationView): void {
    this.opened = open
    this.own = record
    this.merged = view
  }
  /** @internal */
  update(record: ConversationRecord, view?: ConversationView): void {
    this.own = record
    if (view !== undefined) this.merged = view
  }
  /** @internal */
  see(view: ConversationView): void {
    this.merged = view
  }
  /** @internal This process stores this claim for its next handoff (ConversationStore.claim's `passOn`). */
  notePassedOnClaim(key: string): void {
    this.claims.add(key)
  }
  /** The other processes' records as last read (merged into the view). */
  get others(): ReadonlyMap<string, ConversationRecord> {
    return this.othersRead
  }
  /** @internal */
  noteOthers(others: ReadonlyMap<string, ConversationRecord>): void {
    this.othersRead = others
  }
  /** @internal True when no write of the record waits in the queue yet (the caller queues one). */
  claimPersist(): boolean {
    if (this.persistWaiting) return false
    this.persistWaiting = true
    return true
  }
  /** @internal The record as last stored, but for its `savedAt` (see `signature`). */
  get stored(): string | undefined {
    return this.storedAs
  }
  /** @internal */
  noteStored(signature: string): void {
    this.storedAs = signature
  }
  /** @internal The queued write started: a change from now on needs another. */
  persistStarted(): void {
    this.persistWaiting = false
  }
  /** @internal ConversationStore's read of the other records at the start of the exit chain. */
  noteReadAhead(reading: Promise<ReadonlyMap<string, ConversationRecord> | undefined>): void {
    this.readAhead = reading
  }
  /** @internal Taken once, by the handoff that follows. */
  takeReadAhead(): Promise<ReadonlyMap<string, ConversationRecord> | undefined> | undefined {
    const reading = this.readAhead
    this.readAhead = undefined
    return reading
  }
  /** @internal HandOff's claim made ahead at classic.SessionEnd, for the session.end that follows. */
  noteClaimAhead(claiming: Promise<ClaimAhead | undefined>): void {
    this.claimedAhead = claiming
    this.aheadAbandoned = false
  }
  /** @internal Taken once, by the handoff that follows. */
  takeClaimAhead(): Promise<ClaimAhead | undefined> | undefined {
    const claiming = this.claimedAhead
    this.claimedAhead = undefined
    return claiming
  }
  /** @internal The handoff went on without the claim made ahead: it must claim nothing more. */
  abandonClaimAhead(): void {
    this.aheadAbandoned = true
  }
  /** @internal */
  get claimAheadAbandoned(): boolean {
    return this.aheadAbandoned
  }
  /** @internal */
  noteRefused(): void {
    this.refusedWrite = true
  }
}
