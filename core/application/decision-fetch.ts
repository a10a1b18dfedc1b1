/**
 * When the edit guard fetches the decisions (SPEC.md: The edit guard): `list_journal_entries` on the first
 * guarded edit and on the first after each compaction; after a failure, the non-goals alone until a minute
 * has passed (`DECISION_RETRY_MS`), with one log line however long Hark stays away. Edits running in parallel
 * share one fetch.
 */
import type { Venture } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { HarkGateway } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import { quiet } from './deadline'
import type { DecisionFetchWrites } from './guard-state'
import type { StartReads } from './start-session'

export class DecisionFetch {
  constructor(
    private readonly state: DecisionFetchWrites,
    private readonly start: StartReads,
    private readonly hark: HarkGateway,
    private readonly clock: Clock,
    private readonly host: Host,
  ) {}

  /** Fetches the decisions when the rule above says so; resolves once they are in, or the fetch failed. */
  async refresh(): Promise<void> {
    const project = this.start.activeProject
    if (project === undefined) return
    // The clock's reading (epoch ms), undefined when it gives none.
    const now = this.state.needsClock ? await quiet(this.clock.now()) : undefined
    // After a failed fetch, decisions from an earlier good fetch still count.
    if (this.state.needsFetch(now)) await this.state.shareFetch(() => this.fetch(project.venture, now))
  }

  /** `asked`: when the fetch was decided on, if the clock was read for it (the failure's minute runs from then). */
  private async fetch(venture: Venture, asked: number | undefined): Promise<void> {
    const result = await this.hark.listDecisions(venture)
    if (result.ok) {
      this.state.fetchedNow({ records: result.value })
      return
    }
    const now = asked ?? (await quiet(this.clock.now()))
    if (this.state.fetchFailed(now)) {
      this.host.log(`Hark: could not fetch the decisions (${result.detail}); the edit guard uses the non-goals alone and tries again a minute later.`)
    }
  }
}
