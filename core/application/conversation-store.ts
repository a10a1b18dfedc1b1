/**
 * The conversation's records in the plugin's store (SPEC.md: What it stores; One conversation,
 * several processes). Reads and writes are bounded in time and never throw: a store that is slow,
 * refuses writes or holds damaged values costs one log line, and this process then hands off its
 * own work.
 */
import {
  absorb,
  BRIEF_PREFIX,
  CLAIM_PREFIX,
  RECORD_PREFIX,
  briefKey,
  claimKey,
  claimWinner,
  fold,
  isIdleRecord,
  mergeConversation,
  parseRecordKey,
  planPrune,
  sanitizeCachedBrief,
  sanitizeRecord,
  type CachedBrief,
  type ConversationRecord,
  type ConversationView,
} from '../domain/conversation'
import type { Clock } from '../ports/clock.port'
import type { Entropy } from '../ports/entropy.port'
import type { Host } from '../ports/host.port'
import type { KeyValueStore } from '../ports/store.port'
import { describeError, within } from './deadline'
import type { PluginState } from './plugin-state'

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
}

export class ConversationStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    private readonly entropy: Entropy,
    private readonly host: Host,
    private readonly state: PluginState,
  ) {}

  /**
   * One store call, bounded: `options.waitMs` (default STORE_WAIT_MS), and no more than
   * STORE_WAIT_EXIT_MS once the store has failed to answer in time or refused a write in this process,
   * so a slow store costs one wait, not one per call.
   */
  private call<T>(work: () => Promise<T>, options: StoreCallOptions = {}) {
    const wait = Math.min(options.waitMs ?? STORE_WAIT_MS, this.state.storeSlow || this.state.storeRefused ? STORE_WAIT_EXIT_MS : Number.POSITIVE_INFINITY)
    return within(this.clock, wait, work).then((result) => {
      if (!result.done && result.reason === 'timeout') this.state.storeSlow = true
      return result
    })
  }

  /** Every record of the conversation but `exceptKey`, sanitized; damaged ones are left out. */
  async readRecords(conversation: string, options: StoreCallOptions = {}): Promise<Map<string, ConversationRecord> | undefined> {
    const keys = await this.call(() => this.store.keys(), options)
    if (!keys.done) return this.failed('read', keys.reason, keys.error)
    const out = new Map<string, ConversationRecord>()
    const mine = keys.value.filter((k) => parseRecordKey(k)?.conversation === conversation && k !== this.state.recordKey)
    const values = await this.call(() => Promise.all(mine.map((k) => this.store.get(k))), options)
    if (!values.done) return this.failed('read', values.reason, values.error)
    let damaged = false
    mine.forEach((key, i) => {
      const record = sanitizeRecord(values.value[i])
      if (record !== undefined) out.set(key, record)
      else if (values.value[i] !== undefined) damaged = true
    })
    if (damaged && !this.state.damageWarned) {
      this.state.damageWarned = true
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
    const run = this.state.saveChain.then(() => this.saveNow(change, options))
    this.state.saveChain = run.catch(() => undefined)
    return run
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

  private async saveNow(change: RecordChange, options: StoreCallOptions): Promise<boolean> {
    const { conversationKey, recordKey } = this.state
    if (conversationKey === undefined || recordKey === undefined || this.state.record === undefined) return false
    const others = (await this.readRecords(conversationKey, options)) ?? new Map<string, ConversationRecord>()
    const now = await this.clock.now()
    const before = mergeConversation(recordKey, this.state.record, others)
    this.state.record = change(this.state.record, { others, view: before, now, recordKey })
    const view = mergeConversation(recordKey, this.state.record, others)
    const record = absorb(this.state.record, view, now)
    this.state.record = record
    this.state.view = mergeConversation(recordKey, record, others)
    return this.write(recordKey, record, options)
  }

  /** Stores `value` under `key` within the wait; false (and one log line) when refused. */
  async write(key: string, value: unknown, options: StoreCallOptions = {}): Promise<boolean> {
    const result = await this.call(() => this.store.set(key, value), options)
    if (result.done) return true
    this.failed('write', result.reason, result.error)
    return false
  }

  /**
   * SPEC.md: before handing off, store a claim; the first claim the store holds for this segment
   * wins. `won` is false when another process's claim came first; `refused` when the store did not
   * take the claim (the caller then hands off its own work).
   */
  async claim(conversation: string, segment: number, options: StoreCallOptions = {}): Promise<{ won: boolean; refused: boolean }> {
    const now = await this.clock.now()
    const key = claimKey(conversation, segment, now, this.entropy.randomHex(8))
    if (!(await this.write(key, true, options))) return { won: false, refused: true }
    const keys = await this.call(() => this.store.keys(), options)
    if (!keys.done) {
      this.failed('read', keys.reason, keys.error)
      return { won: false, refused: true }
    }
    return { won: claimWinner(keys.value, conversation, segment, now) === key, refused: false }
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
    const { conversationKey, recordKey } = this.state
    if (conversationKey === undefined || recordKey === undefined) return 0
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
      const segment = this.state.view?.segment ?? 0
      const claim = await this.claim(conversationKey, segment)
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
    if (what === 'write') this.state.storeRefused = true
    if (this.state.storeWarned) return undefined
    this.state.storeWarned = true
    const why = reason === 'timeout' ? 'it did not answer in time' : describeError(error)
    this.host.log(`Hark: the plugin store refused a ${what} (${why}); this session keeps its own work and hands it off itself.`)
    return undefined
  }
}
