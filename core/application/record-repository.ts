/**
 * The conversation's records in the plugin's store (SPEC.md: What it stores; One conversation, several
 * processes): this process's own record, read back merged with the others' (`mergeConversation`) and written
 * under its own key only. Every call takes what it works on as arguments and returns what it read; none
 * depends on an earlier call of the same hook. Saves run one at a time (`SaveQueue`). A refused write of
 * the record is a refusal of the conversation (this process then hands off its own work); a write that is
 * only slow outside the exit is not: the record counts as stored once the write lands.
 *
 * State: `ConversationState` (./conversation-state) for the conversation, `SaveQueue` for the plugin load;
 * RecordRepository, built for each hook call, is the only writer of both.
 */
import { parseRecordKey, recordKey as makeRecordKey, newConversationId, type ConversationKey } from '../domain/conversation/keys'
import { keptAfterHandoff, newRecord, noteSession, type ConversationRecord, type ConversationView } from '../domain/conversation/record'
import { absorb, conversationIdOf, mergeConversation } from '../domain/conversation/merge'
import { sanitizeRecord } from '../domain/conversation/sanitize'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { Host } from '../ports/host.port'
import { describeError, quiet, within } from './deadline'
import type { ConversationState, OpenConversation, Others } from './conversation-state'
import type { StoreCallOptions, StoreCalls } from './store-calls'

/** What a change to this process's record may look at: the other records and the merge before it. */
export interface ChangeContext {
  readonly others: Others
  readonly view: ConversationView
  readonly now: number
  readonly recordKey: string
}
export type RecordChange = (record: ConversationRecord, context: ChangeContext) => ConversationRecord

/** Options of a save: a store call's, and `over`, the other records as an earlier read found them (read afresh when absent). */
export interface SaveOptions extends StoreCallOptions {
  readonly over?: Others | undefined
}

/** The plugin load's save queue: every save of the record, and every read that must see them, one at a time. */
export class SaveQueue {
  private chain: Promise<unknown> = Promise.resolve()

  /** Runs `work` after everything queued before it; resolves to its outcome. */
  queue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work)
    this.chain = quiet(run)
    return run
  }
}

export class RecordRepository {
  constructor(
    private readonly calls: StoreCalls,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly host: Host,
    private readonly saves: SaveQueue,
    private readonly conversation: ConversationState,
  ) {}

  /**
   * SPEC.md, session.start: reads the conversation's records and keeps the conversation id the first
   * process created (or creates it). Resolves to the records read, for `join`.
   */
  async open(key: ConversationKey, loadedAt: number, sessionId: string): Promise<Others> {
    const recordKey = makeRecordKey(key, loadedAt, this.entropy.randomHex(8))
    const others = (await this.read({ key, recordKey })) ?? new Map<string, ConversationRecord>()
    const record = newRecord(conversationIdOf(others) ?? newConversationId(this.entropy.randomHex(32)))
    this.conversation.begin({ key, recordKey, sessionId }, record, mergeConversation(recordKey, record, others))
    this.conversation.others = others
    return others
  }

  /** Stores this process's record, noting its session, over the records `open` read. Whether the store took it. */
  join(sessionId: string, others: Others): Promise<boolean> {
    return this.save((r, { now }) => noteSession(r, sessionId, now), { over: others })
  }

  /**
   * Every record of conversation `open.key` but `open.recordKey` (this process's own), sanitized; damaged
   * ones are left out. Undefined: the store did not answer.
   */
  private async read(open: Pick<OpenConversation, 'key' | 'recordKey'>, options?: StoreCallOptions): Promise<Map<string, ConversationRecord> | undefined> {
    const keys = await this.calls.keys(options)
    if (keys === undefined) return undefined
    const mine = keys.filter((k) => parseRecordKey(k)?.conversation === open.key && k !== open.recordKey)
    const values = await this.calls.values(mine, options)
    if (!values) return undefined
    const out = new Map<string, ConversationRecord>()
    let damaged = false
    mine.forEach((key, i) => {
      const record = sanitizeRecord(values[i])
      if (record) out.set(key, record)
      else damaged ||= values[i] !== undefined
    })
    if (damaged && this.calls.firstDamage()) {
      this.host.log('Hark: the plugin store holds a damaged record of this conversation; it is ignored, and the work recorded elsewhere is kept.')
    }
    return out
  }

  /** Keeps `record` as this process's record, `others` as the records last read, and their merge as the view. */
  private keep(recordKey: string, record: ConversationRecord, others: Others): void {
    const c = this.conversation
    c.record = record
    c.others = others
    c.view = mergeConversation(recordKey, record, others)
  }

  /**
   * The latest merge of every process's record into the view, reading only (a refused read leaves the view
   * as it was). Queued with the saves, so it sees what this process saved before it. Resolves to the
   * records read (undefined: none, or refused).
   */
  refresh(options?: StoreCallOptions): Promise<Others | undefined> {
    return this.saves.queue(async () => {
      const open = this.conversation.open
      const others = open && (await this.read(open, options))
      if (others) this.see(others)
      return others
    })
  }

  /** Merges `others` (as a read found them) with this process's record as it is now into the view. */
  see(others: Others): void {
    const { open, record } = this.conversation
    if (open && record) this.keep(open.recordKey, record, others)
  }

  /**
   * classic.SessionEnd, where the exit chain begins: the other processes' records are read now (queued like
   * `refresh`, reading only) for the handoff session.end runs next, which then sends end_session a read
   * sooner. Not waited for by the hook.
   */
  readAhead(options?: StoreCallOptions): void {
    const open = this.conversation.open
    if (open) this.conversation.readAhead = quiet(this.saves.queue(() => this.read(open, options)))
  }

  /**
   * The handoff's read: the records read ahead at the start of the exit chain when there are some (taken
   * once), merged with this process's record as it is now; else `refresh`. Records another process saved
   * since are not in the view: their work is not marked, and goes in a later handoff. Resolves to the records merged.
   */
  async refreshForHandoff(options?: StoreCallOptions): Promise<Others | undefined> {
    const reading = this.conversation.readAhead
    this.dropReadAhead()
    const ahead = await reading
    if (!ahead) return this.refresh(options)
    this.see(ahead)
    return ahead
  }

  /** /hark handoff: what was read ahead for an exit that has not come is stale by the time it does. */
  dropReadAhead(): void {
    this.conversation.readAhead = undefined
  }

  /**
   * Applies `change` to this process's record, merges the conversation's other records (`options.over`, or
   * read now) into the view, and stores the record. The in-memory record changes even when the store
   * refuses the write, so nothing recorded is lost for this process's own handoff. Resolves to whether the
   * store took the write in its wait.
   */
  save(change: RecordChange = (r) => r, options: SaveOptions = {}): Promise<boolean> {
    return this.saves.queue(() => this.saveNow(change, options))
  }

  /**
   * `save`, but the caller waits at most `waitMs` in all (each store call is bounded by it too), a wait in
   * the queue behind another save included; the save itself goes on.
   */
  async saveWithin(change: RecordChange, waitMs: number): Promise<boolean> {
    const result = await within(this.clock, waitMs, () => this.save(change, { waitMs }))
    return result.done && result.value
  }

  /**
   * Work a hook records (SPEC.md: prompt.submit, tool.call, turn.complete; the brief's note): the change is
   * made to this process's record in memory at once, so the handoff has it whatever the store does, and the
   * record is written in the save queue after the hook settles (a `$` call outlives its hook: docs/engine.md),
   * so no hook waits for a store write. One write at most waits in the queue: it stores the record as it is
   * when it runs, so a slow store builds no backlog. `at`: the time, when the caller has it. Never rejects:
   * a change that throws is one log line, and nothing of it is kept.
   */
  async record(change: RecordChange, at?: number): Promise<void> {
    const c = this.conversation
    const open = c.open
    if (!open || !c.record) return
    const now = at ?? (await this.clock.now())
    const { record, others } = c
    if (!record) return
    const { recordKey } = open
    let changed: ConversationRecord
    try {
      changed = change(record, { others, view: c.view ?? mergeConversation(recordKey, record, others), now, recordKey })
    } catch (error) {
      this.host.log(`Hark: recording the session's work failed (${describeError(error)}); the session carries on.`)
      return
    }
    this.keep(recordKey, changed, others)
    if (c.persistWaiting) return
    c.persistWaiting = true
    this.saves
      .queue(() => {
        c.persistWaiting = false
        return this.saveNow((r) => r, {}, true)
      })
      .catch((error: unknown) => this.host.log(`Hark: storing the session's work failed (${describeError(error)}); the session carries on.`))
  }

  private async saveNow(change: RecordChange, options: SaveOptions, skipUnchanged = false): Promise<boolean> {
    const c = this.conversation
    const open = c.open
    if (!open || !c.record) return false
    const others = options.over ?? (await this.read(open, options)) ?? new Map<string, ConversationRecord>()
    const { recordKey } = open
    const now = options.at ?? (await this.clock.now())
    // Read after the clock: a change `record` made meanwhile is kept.
    const current = c.record
    if (!current) return false
    c.others = others
    const changed = change(current, { others, view: mergeConversation(recordKey, current, others), now, recordKey })
    // What another process's handoff covered leaves this record too (SPEC.md, Who reads it).
    const record = keptAfterHandoff(absorb(changed, mergeConversation(recordKey, changed, others), now), recordKey)
    this.keep(recordKey, record, others)
    // A queued write that finds the record as an earlier one stored it (that one ran after the change) writes nothing.
    const signature = JSON.stringify({ ...record, savedAt: 0 })
    if (skipUnchanged && signature === c.stored) return true
    const written = await this.calls.set(recordKey, record, options)
    if (written === 'stored') c.stored = signature
    else if (written === 'refused') this.refuse()
    // Slow, not refused: the record counts as stored once the write lands.
    else void written.landed.then((landed) => (landed ? (c.stored = signature) : this.refuse()))
    return written === 'stored'
  }

  /**
   * The recap was given (SPEC.md: prompt.context): the view says so at once, so a second build of the
   * context does not repeat it while the save waits on the store (at most `waitMs`).
   */
  async recapGiven(waitMs: number): Promise<void> {
    const view = this.conversation.view
    if (!view) return
    // Once: given covers the compaction that asked (recapAt), whatever the clock says.
    const done = view.recapAt
    this.conversation.view = { ...view, recapDoneAt: Math.max(view.recapDoneAt, done), recapPending: false }
    await this.saveWithin((record, { now }) => ({ ...record, recapDoneAt: Math.max(now, done) }), waitMs)
  }

  /** A claim the store refused (SPEC.md, Limits): as for a refused record, this process hands off its own work from now on. */
  refuse(): void {
    this.conversation.refused = true
  }

  /** The status changes in this process's memory (the record and the view) before, or at exit instead of, a save that stores it. */
  noteStatus(status: NonNullable<ConversationRecord['status']>): void {
    const c = this.conversation
    const { record, view } = c
    if (!record) return
    c.record = { ...record, status }
    if (view) c.view = { ...view, status }
  }
}
