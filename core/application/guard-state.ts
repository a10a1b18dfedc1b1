/**
 * The edit guard's memory for one conversation (SPEC.md: The edit guard): the decisions of the last good
 * fetch, when a fetch last failed, the fetch in flight, and the guards compiled over the decisions and over
 * the brief's non-goals, each kept until what it was compiled from changes.
 *
 * Lives as long as the conversation. Written by DecisionFetch (`DecisionFetchWrites`), GuardMatch
 * (`CompiledGuards`) and Compact (`CompactedWrites`: the decisions are fetched again on the next edit).
 */
import type { Brief } from '../domain/brief'
import type { CompiledGuard } from '../domain/guard/compiled-guard'
import { parseNonGoals, type GuardRecord } from '../domain/guard/records'

/** SPEC.md: after a failed decision fetch, the guard uses non-goals alone and tries again a minute later. */
export const DECISION_RETRY_MS = 60_000

export interface Decisions {
  /** The settled, scoped decisions from the last good fetch. */
  readonly records: readonly GuardRecord[]
}

/** Compact's one write on the edit guard's memory (SPEC.md, session.compact): the decisions are fetched again on the next edit. */
export interface CompactedWrites {
  compacted(): void
}

/** DecisionFetch's reads and writes: whether and when to fetch, the fetch in flight, and its outcome. */
export interface DecisionFetchWrites {
  readonly needsClock: boolean
  needsFetch(now: number | undefined): boolean
  shareFetch(start: () => Promise<void>): Promise<void>
  fetchedNow(decisions: Decisions): void
  fetchFailed(now: number | undefined): boolean
}

/** GuardMatch's: the guards compiled over the brief's non-goals and over the decisions, each kept until its source changes. */
export interface CompiledGuards {
  nonGoalsFor(brief: Brief | undefined, compile: Compile): CompiledGuard
  decisionsFor(compile: Compile): CompiledGuard
}

export class GuardState implements DecisionFetchWrites, CompiledGuards, CompactedWrites {
  private fetched: Decisions | undefined
  private stale = false
  /** When a fetch last failed (epoch ms), UNTIMED when the clock could not say: the minute starts at the next reading it gives. */
  private failed: number | typeof UNTIMED | undefined
  private inFlight: Promise<void> | undefined
  /** The decisions' guard, compiled once per good fetch, and the non-goals', once per brief. */
  private decisionsGuard: { readonly from: Decisions | undefined; readonly guard: CompiledGuard } | undefined
  private nonGoalsGuard: { readonly from: Brief | undefined; readonly guard: CompiledGuard } | undefined

  compacted(): void {
    this.stale = true
  }

  /**
   * Whether deciding to fetch needs the time: only
   * while a failed fetch's minute may still be running (each clock reading is a call to the engine,
   * and the first guarded edit waits for every one of them).
   */
  get needsClock(): boolean {
    return !this.fresh && this.failed !== undefined
  }
  /**
   * `now` (epoch ms, undefined when the clock gave none) is needed only when `needsClock` says so.
   * While a failure is on record and no reading comes, nothing is fetched (never a request on every edit).
   */
  needsFetch(now: number | undefined): boolean {
    if (this.fresh) return false
    if (this.failed === UNTIMED) {
      if (now !== undefined) this.failed = now
      return false
    }
    return this.failed === undefined || (now !== undefined && now - this.failed >= DECISION_RETRY_MS)
  }
  private get fresh(): boolean {
    return this.fetched !== undefined && !this.stale
  }
  /** Edits running in parallel share one fetch. */
  shareFetch(start: () => Promise<void>): Promise<void> {
    return (this.inFlight ??= start().finally(() => {
      this.inFlight = undefined
    }))
  }
  fetchedNow(decisions: Decisions): void {
    this.fetched = decisions
    this.stale = false
    this.failed = undefined
  }
  /**
   * True for the first failure of a run (one log line however long Hark stays away). `now`:
   * when it failed (epoch ms), or undefined when the clock could not say.
   */
  fetchFailed(now: number | undefined): boolean {
    const first = this.failed === undefined
    this.failed = now ?? UNTIMED
    return first
  }
  /** The guard over this brief's non-goals (SPEC.md: they come with the brief), compiled once per brief. */
  nonGoalsFor(brief: Brief | undefined, compile: Compile): CompiledGuard {
    if (this.nonGoalsGuard === undefined || this.nonGoalsGuard.from !== brief) {
      this.nonGoalsGuard = { from: brief, guard: compile(parseNonGoals(brief?.nonGoals ?? [])) }
    }
    return this.nonGoalsGuard.guard
  }
  /** The guard over the decisions of the last good fetch (none before one), compiled once per fetch. */
  decisionsFor(compile: Compile): CompiledGuard {
    const decisions = this.fetched
    if (this.decisionsGuard === undefined || this.decisionsGuard.from !== decisions) {
      this.decisionsGuard = { from: decisions, guard: compile(decisions?.records ?? []) }
    }
    return this.decisionsGuard.guard
  }
}

/** GuardState's mark of a failure the clock gave no time for. */
const UNTIMED = 'untimed'

type Compile = (records: readonly GuardRecord[]) => CompiledGuard

