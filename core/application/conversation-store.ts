/**
 * The conversation's records in the plugin's store (SPEC.md: What it stores; One conversation,
 * several processes). Reads and writes are bounded in time and never throw: a store that is slow,
 * refuses writes or holds damaged values costs one log line, and this process then hands off its
 * own work.
 *
 * State, by lifetime (./conversation-state): `StoreHealth` lives as long as the plugin load (the store
 * is the same file for every conversation of this process); `ConversationState` as long as the
 * conversation (`/clear` ends it). Both are changed by `ConversationStore` alone, which is built
 * afresh for each hook call over that call's store and clock.
 */
import {
  BRIEF_PREFIX,
  briefKey,
  CLAIM_PREFIX,
  CLAIM_TTL_MS,
  claimKey,
  claimWinner,
  parseRecordKey,
  RECORD_PREFIX,
  recordKey as makeRecordKey,
  newConversationId,
  type ConversationKey,
} from '../domain/conversation/keys'
import { newRecord, noteSession, type ConversationRecord, type ConversationView } from '../domain/conversation/record'
import type { HandoffPayload } from '../domain/handoff'
import { undeliveredKey } from '../domain/undelivered'
import { absorb, conversationIdOf, fold, mergeConversation } from '../domain/conversation/merge'
import { sanitizeCachedBrief, sanitizeRecord, type CachedBrief } from '../domain/conversation/sanitize'
import { isIdleRecord, planPrune } from '../domain/conversation/prune'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { Host } from '../ports/host.port'
import type { KeyValueStore } from '../ports/store.port'
import { describeError, within } from './deadline'
import type { ConversationState, StoreHealth } from './conversation-state'

// The state this service changes lives in ./conversation-state (one object per lifetime); importers of the
// store's vocabulary find it here too.
export { ConversationState, StoreHealth, type OpenConversation } from './conversation-state'

/** How long a store call may take before the plugin goes on without it (ms). */
export const STORE_WAIT_MS = 1_000
/** Values of the plugin's records and briefs read per session start, for pruning. */
export const PRUNE_READS = 200
/** SPEC.md: at exit, and for prompt.submit, each store write waits at most 150 ms. */
export const STORE_WAIT_EXIT_MS = 150

/** What a change to this process's record may look at: the other records and the merge before it. */
export interface ChangeContext {
  readonly others: ReadonlyMap<string, ConversationRecord>
  readonly view: ConversationView
  readonly now: number
  readonly recordKey: string
}
export type RecordChange = (record: ConversationRecord, context: ChangeContext) => ConversationRecord

export interface StoreCallOptions {
  readonly waitMs?: number
  /** The time to use instead of asking the clock (epoch ms), where the caller has just read it. */
  readonly at?: number
}

export class ConversationStore {
  /** What `open` read, for `join` in the same call. */
  private opened: ReadonlyMap<string, ConversationRecord> | undefined
  /** What the last `refresh` of this call read, for `saveOverRefresh`. */
  private refreshed: ReadonlyMap<string, ConversationRecord> | undefined

  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly host: Host,
    private readonly health: StoreHealth,
    private readonly conversation: ConversationState,
  ) {}

  /**
   * SPEC.md, session.start: reads the conversation's records and keeps the conversation id the first
   * process created (or creates it); `join` then stores this process's merged record.
   */
  async open(key: ConversationKey, loadedAt: number, sessionId: string): Promise<void> {
    const recordKey = makeRecordKey(key, loadedAt, this.entropy.randomHex(8))
    const others = (await this.readRecords(key, recordKey)) ?? new Map<string, ConversationRecord>()
    const record = newRecord(conversationIdOf(others) ?? newConversationId(this.entropy.randomHex(32)))
    this.conversation.begin({ key, recordKey, sessionId }, record, mergeConversation(recordKey, record, others))
    this.conversation.noteOthers(others)
    this.opened = others
  }

  /**
   * After `open`: stores this process's record, noting its session, merged with the records `open` just
   * read (no second read). Resolves to whether the store took the write.
   */
  join(sessionId: string): Promise<boolean> {
    const others = this.opened ?? new Map<string, ConversationRecord>()
    this.opened = undefined
    return this.health.queue(() => this.apply((r, { now }) => noteSession(r, sessionId, now), others, {}))
  }

  /** The merge of every process's record, as of this process's last save. */
  get view(): ConversationView | undefined {
    return this.conversation.view
  }

  /**
   * One store call, bounded: `options.waitMs` (default STORE_WAIT_MS), and no more than
   * STORE_WAIT_EXIT_MS once the store has failed to answer in time or refused a write in this process,
   * so a slow store costs one wait, not one per call.
   */
  private call<T>(work: () => Promise<T>, options: StoreCallOptions = {}) {
    const wait = Math.min(options.waitMs ?? STORE_WAIT_MS, this.health.slow || this.conversation.refused ? STORE_WAIT_EXIT_MS : Number.POSITIVE_INFINITY)
    return within(this.clock, wait, work).then((result) => {
      if (!result.done && result.reason === 'timeout') this.health.noteSlow()
      return result
    })
  }

  /** Every record of the conversation but `exceptKey`, sanitized; damaged ones are left out. */
  private async readRecords(conversation: ConversationKey, exceptKey: string, options: StoreCallOptions = {}): Promise<Map<string, ConversationRecord> | undefined> {
    const keys = await this.call(() => this.store.keys(), options)
    if (!keys.done) return this.failed('read', keys.reason, keys.error)
    const out = new Map<string, ConversationRecord>()
    const mine = keys.value.filter((k) => parseRecordKey(k)?.conversation === conversation && k !== exceptKey)
    const values = await this.call(() => Promise.all(mine.map((k) => this.store.get(k))), options)
    if (!values.done) return this.failed('read', values.reason, values.error)
    let damaged = false
    mine.forEach((key, i) => {
      const record = sanitizeRecord(values.value[i])
      if (record !== undefined) out.set(key, record)
      else if (values.value[i] !== undefined) damaged = true
    })
    if (damaged && this.health.firstDamage()) {
      this.host.log('Hark: the plugin store holds a damaged record of this conversation; it is ignored, and the work recorded elsewhere is kept.')
    }
    return out
  }

  /**
   * Applies `change` to this process's record, merges the conversation's other records into the
   * view, and stores the record. Saves run one at a time. The in-memory record changes even when the
   * store refuses the write, so nothing recorded is lost for this process's own handoff.
   * Resolves to whether the store took the write.
   */
  save(change: RecordChange = (r) => r, options: StoreCallOptions = {}): Promise<boolean> {
    return this.health.queue(() => this.saveNow(change, options))
  }

  /**
   * The latest merge of every process's record into the view, reading only (a refused read leaves the
   * view as it was). Queued with the saves, so it sees what this process saved before it.
   */
  refresh(options: StoreCallOptions = {}): Promise<void> {
    return this.health.queue(async () => {
      const open = this.conversation.open
      const record = this.conversation.record
      if (open === undefined || record === undefined) return
      const others = await this.readRecords(open.key, open.recordKey, options)
      this.refreshed = others
      if (others === undefined) return
      this.conversation.noteOthers(others)
      // This process's record as it is now: a change recorded while the read ran is in it.
      this.conversation.see(mergeConversation(open.recordKey, this.conversation.record ?? record, others))
    })
  }

  /**
   * classic.SessionEnd, where the exit chain begins: the other processes' records are read now (queued
   * like `refresh`, reading only) for the handoff session.end runs next, which then sends end_session a
   * read sooner (issue 11: end_session within 15 ms of session.end). Not waited for by the hook.
   */
  readAhead(options: StoreCallOptions = {}): void {
    const open = this.conversation.open
    if (open === undefined) return
    const reading = this.health.queue(() => this.readRecords(open.key, open.recordKey, options)).catch(() => undefined)
    this.conversation.noteReadAhead(reading)
  }

  /**
   * The handoff's `refresh`: over the records read ahead at the start of the exit chain when there are
   * some (taken once), merged with this process's record as it is now; else a fresh read. Records
   * another process saved since are not in the view: their work is not marked, and goes in a later
   * handoff (nothing recorded is lost).
   */
  async refreshForHandoff(options: StoreCallOptions = {}): Promise<void> {
    const ahead = await this.conversation.takeReadAhead()
    const open = this.conversation.open
    const record = this.conversation.record
    if (ahead === undefined || open === undefined || record === undefined) return this.refresh(options)
    this.refreshed = ahead
    this.conversation.noteOthers(ahead)
    this.conversation.see(mergeConversation(open.recordKey, record, ahead))
  }

  /**
   * `save`, over the other records the last `refresh` of this call read instead of reading them again
   * (a plain `save` when it read none): for the handoff's mark, which must cover exactly the view it
   * sends, and is stored a store call sooner at exit (issue 11: end_session within 15 ms).
   */
  saveOverRefresh(change: RecordChange, options: StoreCallOptions = {}): Promise<boolean> {
    return this.saveOver(this.refreshed, change, options)
  }

  /** The other records the last `refresh` or `refreshForHandoff` of this call read (undefined: none, or refused). */
  get lastRead(): ReadonlyMap<string, ConversationRecord> | undefined {
    return this.refreshed
  }

  /**
   * `save` over `others` as an earlier read found them (a plain `save` when undefined): the handoff's
   * mark over the records read when its claim was made ahead, in an earlier hook call.
   */
  saveOver(others: ReadonlyMap<string, ConversationRecord> | undefined, change: RecordChange, options: StoreCallOptions = {}): Promise<boolean> {
    // `options.at`: the caller's clock reading, for the record's times.
    if (others === undefined) return this.save(change, options)
    return this.health.queue(() => this.apply(change, others, options))
  }

  /**
   * Work a hook records (SPEC.md: prompt.submit, tool.call, turn.complete; the brief's note): the change
   * is made to this process's record in memory at once, so the handoff has it whatever the store does,
   * and the record is written in the store's queue after the hook settles (a `$` call outlives its hook:
   * docs/engine.md), so no hook waits for a store write (issue 11). One write at most waits in the
   * queue: it stores the record as it is when it runs, so a slow store builds no backlog. `at`: the
   * time, when the caller has it (else one clock reading). Never rejects: a change that throws is one
   * log line, and nothing of it is kept.
   */
  async record(change: RecordChange, at?: number): Promise<void> {
    const open = this.conversation.open
    if (open === undefined || this.conversation.record === undefined) return
    const now = at ?? (await this.clock.now())
    const current = this.conversation.record
    if (current === undefined) return
    const others = this.conversation.others
    let changed: ConversationRecord
    try {
      changed = change(current, { others, view: this.conversation.view ?? mergeConversation(open.recordKey, current, others), now, recordKey: open.recordKey })
    } catch (error) {
      this.host.log(`Hark: recording the session's work failed (${describeError(error)}); the session carries on.`)
      return
    }
    this.conversation.update(changed, mergeConversation(open.recordKey, changed, others))
    this.persistLater()
  }

  /** Queues one write of the record as it will be then, unless one already waits. */
  private persistLater(): void {
    if (!this.conversation.claimPersist()) return
    this.health
      .queue(() => {
        this.conversation.persistStarted()
        return this.saveNow((r) => r, {}, true)
      })
      .catch((error: unknown) => this.host.log(`Hark: storing the session's work failed (${describeError(error)}); the session carries on.`))
  }

  /**
   * `save`, but the caller waits at most `waitMs` in all (each store call is bounded by it too),
   * a wait in the queue behind another save included; the save itself goes on. Resolves to whether
   * the store took the write in time.
   */
  async saveWithin(change: RecordChange, waitMs: number): Promise<boolean> {
    const saving = this.save(change, { waitMs })
    const result = await within(this.clock, waitMs, () => saving)
    return result.done && result.value
  }

  private async saveNow(change: RecordChange, options: StoreCallOptions, skipUnchanged = false): Promise<boolean> {
    const open = this.conversation.open
    const current = this.conversation.record
    if (open === undefined || current === undefined) return false
    const others = (await this.readRecords(open.key, open.recordKey, options)) ?? new Map<string, ConversationRecord>()
    return this.apply(change, others, options, skipUnchanged)
  }

  /** `change` applied over `others` as read, the merge absorbed, and this process's record stored. */
  private async apply(change: RecordChange, others: ReadonlyMap<string, ConversationRecord>, options: StoreCallOptions, skipUnchanged = false): Promise<boolean> {
    const open = this.conversation.open
    if (open === undefined || this.conversation.record === undefined) return false
    const { recordKey } = open
    const now = options.at ?? (await this.clock.now())
    // Read after the clock: a change `record` made meanwhile is kept.
    const current = this.conversation.record
    if (current === undefined) return false
    this.conversation.noteOthers(others)
    const before = mergeConversation(recordKey, current, others)
    const changed = change(current, { others, view: before, now, recordKey })
    this.conversation.update(changed)
    const record = absorb(changed, mergeConversation(recordKey, changed, others), now)
    this.conversation.update(record, mergeConversation(recordKey, record, others))
    // A queued write that finds the record as an earlier one stored it (that one ran after the change) writes nothing.
    const signature = JSON.stringify({ ...record, savedAt: 0 })
    if (skipUnchanged && signature === this.conversation.stored) return true
    const written = await this.write(recordKey, record, options)
    if (written) this.conversation.noteStored(signature)
    return written
  }

  /**
   * The recap was given (SPEC.md: prompt.context): the view says so at once, so a second build of the
   * context does not repeat it while the save waits on the store (at most `waitMs`).
   */
  async recapGiven(waitMs: number): Promise<void> {
    const view = this.conversation.view
    if (view === undefined) return
    // Once: given covers the compaction that asked (recapAt), whatever the clock says.
    const done = view.recapAt
    this.conversation.see({ ...view, recapDoneAt: Math.max(view.recapDoneAt, done), recapPending: false })
    await this.saveWithin((record, { now }) => ({ ...record, recapDoneAt: Math.max(now, done) }), waitMs)
  }

  /**
   * The status changes in this process's memory (the record and the view) before, or at exit instead
   * of, a save that stores it.
   */
  noteStatus(status: NonNullable<ConversationRecord['status']>): void {
    const record = this.conversation.record
    const view = this.conversation.view
    if (record !== undefined) this.conversation.update({ ...record, status }, view === undefined ? undefined : { ...view, status })
  }

  /** Stores `value` under `key` within the wait; false (and one log line) when refused. */
  private async write(key: string, value: unknown, options: StoreCallOptions = {}): Promise<boolean> {
    const result = await this.call(() => this.store.set(key, value), options)
    if (result.done) return true
    this.failed('write', result.reason, result.error)
    return false
  }

  /**
   * SPEC.md: before handing off, store a claim; the first claim the store holds for this segment
   * wins. `won` is false when another claim came first; `refused` when the store did not take the claim
   * (the caller then hands off its own work). `passOn`: a claim this process's next handoff takes over,
   * as its own, when it finds it first: the prune's (it holds one for the segment while it folds idle
   * records) and the one the handoff stores ahead at classic.SessionEnd (HandOff.claimAhead). Any other
   * claim of this process (a handoff running beside this one) is not taken over. `key`: the claim tried.
   */
  async claim(segment: number, options: StoreCallOptions = {}, passOn = false): Promise<{ key: string | undefined; won: boolean; refused: boolean }> {
    const open = this.conversation.open
    if (open === undefined) return { key: undefined, won: false, refused: true }
    const now = options.at ?? (await this.clock.now())
    const key = claimKey(open.key, segment, now, this.entropy.randomHex(8))
    // Noted before it is written: a claim the store takes late is still known.
    if (passOn) this.conversation.notePassedOnClaim(key)
    if (!(await this.write(key, true, options))) return { key, won: false, refused: true }
    const keys = await this.call(() => this.store.keys(), options)
    if (!keys.done) {
      this.failed('read', keys.reason, keys.error)
      return { key, won: false, refused: true }
    }
    const winner = claimWinner(keys.value, open.key, segment, now)
    return { key, won: winner === key || (winner !== undefined && this.conversation.passedOn(winner)), refused: false }
  }

  /** Every key of the store, or undefined when the store did not answer (one log line at most). */
  async allKeys(options: StoreCallOptions = {}): Promise<string[] | undefined> {
    const keys = await this.call(() => this.store.keys(), options)
    return keys.done ? keys.value : this.failed('read', keys.reason, keys.error)
  }

  /** One value as stored (untrusted), or undefined. */
  async readValue(key: string, options: StoreCallOptions = {}): Promise<unknown> {
    const value = await this.call(() => this.store.get(key), options)
    return value.done ? value.value : this.failed('read', value.reason, value.error)
  }

  /** Stores a value of the plugin's own (not this process's record), within the wait. */
  keep(key: string, value: unknown, options: StoreCallOptions = {}): Promise<boolean> {
    return this.write(key, value, options)
  }

  /**
   * Keeps a handoff that reached nothing of Hark for the next session start in the project (issue 12 §2),
   * under this conversation's id. Resolves to whether the store took it.
   */
  async keepUndelivered(venture: string, payload: HandoffPayload, options: StoreCallOptions = {}): Promise<boolean> {
    const conversationId = this.conversation.record?.conversationId
    if (conversationId === undefined) return false
    const now = await this.clock.now()
    return this.write(undeliveredKey(venture, now, this.entropy.randomHex(8)), { conversationId, recordedAt: now, payload }, options)
  }

  /** Removes a key of the plugin's own; false when the store did not take it. */
  async remove(key: string, options: StoreCallOptions = {}): Promise<boolean> {
    return (await this.call(() => this.store.delete(key), options)).done
  }

  /**
   * A first-wins claim under `prefix` (`<prefix><time>:<random>`): stores one, then reads the keys; true when
   * the first claim younger than 30 s is this one (SPEC.md's claim rule, for other work than a segment's).
   */
  async claimFirst(prefix: string): Promise<boolean> {
    const now = await this.clock.now()
    const key = `${prefix}${now}:${this.entropy.randomHex(8)}`
    if (!(await this.write(key, true))) return false
    const keys = await this.allKeys()
    const first = keys?.find((k) => {
      if (!k.startsWith(prefix)) return false
      const at = Number(k.slice(prefix.length).split(':')[0])
      return Number.isSafeInteger(at) && Math.abs(now - at) <= CLAIM_TTL_MS
    })
    return first === key
  }

  async readBrief(venture: string): Promise<CachedBrief | undefined> {
    const value = await this.call(() => this.store.get(briefKey(venture)))
    return value.done ? sanitizeCachedBrief(value.value) : this.failed('read', value.reason, value.error)
  }

  async writeBrief(venture: string, brief: CachedBrief): Promise<void> {
    await this.write(briefKey(venture), { text: brief.text, fetchedAt: brief.fetchedAt })
  }

  /**
   * SPEC.md, What it stores: after storing its own merged record, remove what is old (at most 20
   * entries), folding this conversation's idle records into this one first.
   *
   * Folding takes over other processes' work, so it first wins a claim for the segment, as a
   * handoff does: while it holds it, no handoff of this segment can store its mark, so no mark is
   * lost when the folded record is removed (a store has no compare-and-delete). It folds what it
   * reads afresh under its save (a record saved meanwhile is no longer idle and stays), removes the
   * folded records, then opens the next segment. Without the claim it folds nothing this time.
   */
  async prune(): Promise<number> {
    const open = this.conversation.open
    if (open === undefined) return 0
    const { key: conversationKey, recordKey } = open
    const keys = await this.call(() => this.store.keys())
    if (!keys.done) return 0
    // Only the plugin's own keys; claims are judged by their key alone, records and briefs by their
    // value, of which at most PRUNE_READS are read per start (a store of thousands of keys costs no more).
    const ours = keys.value.filter((k) => k !== recordKey && (k.startsWith(RECORD_PREFIX) || k.startsWith(BRIEF_PREFIX) || k.startsWith(CLAIM_PREFIX)))
    const wanted = ours.filter((k) => !k.startsWith(CLAIM_PREFIX)).slice(0, PRUNE_READS)
    const read = await this.call(() => Promise.all(wanted.map((k) => this.store.get(k))))
    if (!read.done) return 0
    const values = new Map<string, unknown>()
    const byKey = new Map(wanted.map((k, i) => [k, read.value[i]]))
    for (const k of ours) if (k.startsWith(CLAIM_PREFIX) || byKey.has(k)) values.set(k, byKey.get(k) ?? true)
    const now = await this.clock.now()
    const plan = planPrune(now, values, recordKey, conversationKey)
    const folded = new Set<string>()
    let claimed: number | undefined
    if (plan.fold.length > 0) {
      const segment = this.conversation.view?.segment ?? 0
      const claim = await this.claim(segment, {}, true)
      if (claim.won) {
        claimed = segment
        const stored = await this.save((record, { others, view, now: at }) => {
          let out = record
          for (const key of plan.fold) {
            const other = others.get(key)
            if (other === undefined || !isIdleRecord(other, at)) continue
            out = fold(out, key, other, view)
            folded.add(key)
          }
          return out
        })
        // Without our own record safely stored, the idle records keep their work: remove none of them.
        if (!stored) folded.clear()
      }
    }
    const foldable = new Set(plan.fold)
    const remove = [...folded, ...plan.remove.filter((k) => !foldable.has(k))]
    let removed = 0
    for (const key of remove) {
      const done = await this.call(() => this.store.delete(key))
      if (done.done) removed++
    }
    if (claimed !== undefined) {
      const segment = claimed + 1
      await this.save((record, { view }) => ({ ...record, segment: Math.max(record.segment, view.segment, segment) }))
    }
    return removed
  }

  private failed(what: 'read' | 'write', reason: 'timeout' | 'error', error: unknown): undefined {
    if (what === 'write') this.conversation.noteRefused()
    if (!this.health.firstWarning()) return undefined
    const why = reason === 'timeout' ? 'it did not answer in time' : describeError(error)
    this.host.log(`Hark: the plugin store refused a ${what} (${why}); this session keeps its own work and hands it off itself.`)
    return undefined
  }
}
