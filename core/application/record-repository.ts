/**
 * The conversation's records in the plugin's store (SPEC.md: What it stores; One conversation, several
 * processes): this process's own record, read back merged with the others' (`mergeConversation`) and written
 * under its own key only. Every call takes what it works on as arguments and returns what it read; none
 * depends on an earlier call of the same hook, and none waits for another: a change is made to the record in
 * memory at once, then written. Writes of the record go one at a time, each carrying the record as it is
 * when it starts, so the store takes them in the order they were made and a late write of an older record
 * never lands over a newer one. A refused write of the record is a refusal of the conversation (this process
 * then hands off its own work); a write that is only slow outside the exit is not: the record counts as
 * stored once the write lands.
 *
 * State: `ConversationState` (./conversation-state), for the conversation; RecordRepository, built for each
 * hook call, is its only writer.
 */
import { parseRecordKey, recordKey as makeRecordKey, newConversationId, type ConversationKey } from '../domain/conversation/keys'
import { keptAfterHandoff, newRecord, noteSession, type ConversationRecord, type ConversationView } from '../domain/conversation/record'
import { absorb, conversationIdOf, mergeConversation } from '../domain/conversation/merge'
import { sanitizeRecord } from '../domain/conversation/sanitize'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { Host } from '../ports/host.port'
import { describeError, within } from './deadline'
import type { ConversationState, OpenConversation, Others, RecordWrite } from './conversation-state'
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

/** The other records of the conversation as one read found them, and the store's keys then. */
export interface Reading {
  readonly others: Others
  readonly keys: readonly string[]
}

export class RecordRepository {
  constructor(
    private readonly calls: StoreCalls,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly host: Host,
    private readonly conversation: ConversationState,
  ) {}

  /**
   * SPEC.md, session.start: reads the conversation's records and keeps the conversation id the first
   * process created (or creates it). Resolves to the records read, for `join`.
   */
  async open(key: ConversationKey, loadedAt: number, sessionId: string): Promise<Others> {
    const recordKey = makeRecordKey(key, loadedAt, this.entropy.randomHex(8))
    const others = (await this.read({ key, recordKey }))?.others ?? new Map<string, ConversationRecord>()
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
   * Every record of conversation `open.key` but `open.recordKey` (this process's own), sanitized (damaged
   * ones are left out), and the keys read. Undefined: the store did not answer.
   */
  private async read(open: Pick<OpenConversation, 'key' | 'recordKey'>, options?: StoreCallOptions): Promise<Reading | undefined> {
    const keys = await this.calls.keys(options)
    if (keys === undefined) return undefined
    const mine = keys.filter((k) => parseRecordKey(k)?.conversation === open.key && k !== open.recordKey)
    const values = await this.calls.values(mine, options)
    if (!values) return undefined
    const others = new Map<string, ConversationRecord>()
    let damaged = false
    mine.forEach((key, i) => {
      const record = sanitizeRecord(values[i])
      if (record) others.set(key, record)
      else damaged ||= values[i] !== undefined
    })
    if (damaged && this.calls.firstDamage()) {
      this.host.log('Hark: the plugin store holds a damaged record of this conversation; it is ignored, and the work recorded elsewhere is kept.')
    }
    return { others, keys }
  }

  /** Keeps `record` as this process's record (a new version of it), `others` as the records last read, and their merge as the view. */
  private keep(recordKey: string, record: ConversationRecord, others: Others): void {
    const c = this.conversation
    c.record = record
    c.others = others
    c.view = mergeConversation(recordKey, record, others)
    c.version++
  }

  /**
   * The latest merge of every process's record into the view, reading only (a refused read leaves the view
   * as it was). Resolves to what was read (undefined: nothing, or refused).
   */
  async refresh(options?: StoreCallOptions): Promise<Reading | undefined> {
    const open = this.conversation.open
    const reading = open && (await this.read(open, options))
    if (reading) this.see(reading)
    return reading
  }

  /** Merges the records a read found with this process's record as it is now into the view. */
  private see({ others }: Reading): void {
    const c = this.conversation
    const { open, record } = c
    if (!open || !record) return
    c.others = others
    c.view = mergeConversation(open.recordKey, record, others)
  }

  /**
   * Applies `change` to this process's record, merges the conversation's other records (`options.over`, or
   * read now) into the view, and stores the record. The in-memory record changes even when the store
   * refuses the write, so nothing recorded is lost for this process's own handoff. Resolves to whether the
   * store took a write carrying the change within the wait; at exit (`options.exit`) a write not taken in
   * it counts as refused (SPEC.md, Limits).
   */
  async save(change: RecordChange = (r) => r, options: SaveOptions = {}): Promise<boolean> {
    const open = this.conversation.open
    if (!open || !this.conversation.record) return false
    const others = options.over ?? (await this.read(open, options))?.others ?? new Map<string, ConversationRecord>()
    const now = options.at ?? (await this.clock.now())
    // Read after the awaits: a change `record` made meanwhile is kept.
    const current = this.conversation.record
    if (!current) return false
    const { recordKey } = open
    const changed = change(current, { others, view: mergeConversation(recordKey, current, others), now, recordKey })
    // What another process's handoff covered leaves this record too (SPEC.md, Who reads it).
    this.keep(recordKey, keptAfterHandoff(absorb(changed, mergeConversation(recordKey, changed, others), now), recordKey), others)
    const version = this.conversation.version
    const stored = await this.calls.bounded(() => this.written(version), options)
    if (stored.done) return stored.value
    if (options.exit === true) this.refuse()
    return false
  }

  /**
   * `save`, but the caller waits at most `waitMs` in all (each store call is bounded by it too); the save
   * itself goes on.
   */
  async saveWithin(change: RecordChange, waitMs: number): Promise<boolean> {
    const result = await within(this.clock, waitMs, () => this.save(change, { waitMs }))
    return result.done && result.value
  }

  /**
   * Work a hook records (SPEC.md: prompt.submit, tool.call, turn.complete; the brief's note): the change is
   * made to this process's record in memory at once, so the handoff has it whatever the store does, and the
   * record is saved after the hook settles (a `$` call outlives its hook: docs/engine.md), so no hook waits
   * for the store. One save at most waits for the write in flight: it stores the record as it is when it
   * runs, so a slow store builds no backlog. `at`: the time, when the caller has it. Never rejects: a
   * change that throws is one log line, and nothing of it is kept.
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
    const persist = async () => {
      await c.writing?.landed
      c.persistWaiting = false
      await this.save()
    }
    persist().catch((error: unknown) => this.host.log(`Hark: storing the session's work failed (${describeError(error)}); the session carries on.`))
  }

  /**
   * Resolves once a write carrying `version` of the record, or a later one, has settled: whether the store
   * took it. One write at a time: a write waits for the one in flight, then stores the record as it is
   * then (every change made meanwhile with it). Never rejects.
   */
  private async written(version: number): Promise<boolean> {
    const c = this.conversation
    for (;;) {
      if (c.storedVersion >= version) return true
      const write = c.writing ?? this.writeNow()
      if (!write) return false
      const landed = await write.landed
      if (write.version >= version) return landed
    }
  }

  /** Starts a write of the record as it is now (none when it is as last stored). */
  private writeNow(): RecordWrite | undefined {
    const c = this.conversation
    const { open, record, version } = c
    if (!open || !record) return undefined
    const signature = JSON.stringify({ ...record, savedAt: 0 })
    if (signature === c.stored) {
      c.storedVersion = Math.max(c.storedVersion, version)
      return { version, landed: Promise.resolve(true) }
    }
    const landed = this.calls.write(open.recordKey, record).then((ok) => {
      c.writing = undefined
      if (!ok) this.refuse()
      else if (version > c.storedVersion) {
        c.storedVersion = version
        c.stored = signature
      }
      return ok
    })
    return (c.writing = { version, landed })
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
