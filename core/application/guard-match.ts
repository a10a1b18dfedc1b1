/**
 * The records covering a path (SPEC.md: The edit guard; docs/guard.md, Matching): the decisions first, then
 * the brief's non-goals, each from its compiled guard, kept until what it was compiled from changes
 * (compiling 200 records costs milliseconds; checking a path against them, microseconds).
 */
import { compileGuard } from '../domain/guard/compiled-guard'
import type { GuardRecord } from '../domain/guard/records'
import type { BriefReads } from './brief-service'
import type { DecisionFetch } from './decision-fetch'
import type { CompiledGuards } from './guard-state'

export class GuardMatch {
  constructor(
    private readonly state: CompiledGuards,
    private readonly briefs: BriefReads,
    private readonly decisions: DecisionFetch,
  ) {}

  /**
   * The non-goals come with the start's brief and are compiled while the decisions are fetched, when the
   * hook would only wait for Hark: the fetch is begun first, and is on its way before the brief's wait ends.
   */
  async covering(path: string): Promise<GuardRecord[]> {
    const nonGoals = () => this.state.nonGoalsFor(this.briefs.brief, compileGuard)
    await Promise.all([this.decisions.refresh(), this.briefs.firstBrief().then(nonGoals)])
    // The brief may have changed while the decisions came (a compaction): compiled again only then.
    return [...this.state.decisionsFor(compileGuard).match(path), ...nonGoals().match(path)]
  }
}
