/**
 * SPEC.md, What it stores: at a session start, after this process's record is stored, remove what is old (at
 * most 20 entries: records, cached briefs, claims; core/domain/conversation/prune.ts), folding this
 * conversation's idle records into this one first.
 *
 * Folding takes over other processes' work, so it first wins a claim for the segment, as a handoff does:
 * while it holds it, no handoff of this segment can store its mark, so no mark is lost when the folded
 * record is removed (a store has no compare-and-delete). It folds what it reads afresh under its save (a
 * record saved meanwhile is no longer idle and stays), removes the folded records, then opens the next
 * segment. Without the claim it folds nothing this time.
 */
import { BRIEF_PREFIX, CLAIM_PREFIX, RECORD_PREFIX } from '../domain/conversation/keys'
import { foldIdle, planPrune } from '../domain/conversation/prune'
import type { Clock } from '../ports/clock.port'
import type { Claims } from './claims'
import type { ConversationReads } from './conversation-state'
import type { RecordRepository } from './record-repository'
import type { StoreCalls } from './store-calls'

/** Values of the plugin's records and briefs read per session start, for pruning. */
export const PRUNE_READS = 200

export class StorePruning {
  constructor(
    private readonly calls: StoreCalls,
    private readonly records: RecordRepository,
    private readonly claims: Claims,
    private readonly conversation: ConversationReads,
    private readonly clock: Clock,
  ) {}

  /** Resolves to how many keys were removed. */
  async prune(): Promise<number> {
    const open = this.conversation.open
    if (!open) return 0
    const { key: conversationKey, recordKey } = open
    const keys = await this.calls.keys()
    if (keys === undefined) return 0
    // Only the plugin's own keys; claims are judged by their key alone, records and briefs by their
    // value, of which at most PRUNE_READS are read per start (a store of thousands of keys costs no more).
    const ours = keys.filter((k) => k !== recordKey && (k.startsWith(RECORD_PREFIX) || k.startsWith(BRIEF_PREFIX) || k.startsWith(CLAIM_PREFIX)))
    const wanted = ours.filter((k) => !k.startsWith(CLAIM_PREFIX)).slice(0, PRUNE_READS)
    const read = await this.calls.values(wanted)
    if (read === undefined) return 0
    const values = new Map<string, unknown>()
    const byKey = new Map(wanted.map((k, i) => [k, read[i]]))
    for (const k of ours) if (k.startsWith(CLAIM_PREFIX) || byKey.has(k)) values.set(k, byKey.get(k) ?? true)
    const plan = planPrune(await this.clock.now(), values, recordKey, conversationKey)
    const folded = new Set<string>()
    const segment = this.conversation.view?.segment ?? 0
    const claimed = plan.fold.length > 0 && (await this.claims.won(segment))
    if (claimed) {
      const stored = await this.records.save((record, { others, view, now }) => foldIdle(record, plan.fold, others, view, now, folded))
      // Without our own record safely stored, the idle records keep their work: remove none of them.
      if (!stored) folded.clear()
    }
    const foldable = new Set(plan.fold)
    let removed = 0
    for (const key of [...folded, ...plan.remove.filter((k) => !foldable.has(k))]) if (await this.calls.delete(key)) removed++
    if (claimed) await this.records.save((record, { view }) => ({ ...record, segment: Math.max(record.segment, view.segment, segment + 1) }))
    return removed
  }
}
