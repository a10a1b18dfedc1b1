/**
 * session.compact (SPEC.md), in the main conversation only: a fresh brief is fetched while the
 * summary is written; if the compaction goes through, the conversation is marked for the
 * `<hark-recap>` block, Claude Code rebuilds the first message's context, and the edit guard
 * fetches the decisions again on its next edit.
 */
import type { Host } from '../ports/host.port'
import type { BriefService } from './brief-service'
import type { RecordRepository } from './record-repository'
import type { CompactedWrites } from './guard-state'
import type { StartReads } from './start-session'

export class Compact {
  constructor(
    private readonly start: StartReads,
    private readonly guard: CompactedWrites,
    private readonly briefs: BriefService,
    private readonly store: RecordRepository,
    private readonly host: Host,
  ) {}

  /** As the compaction starts: the brief fetch, to await once the compaction settled. */
  begin(): Promise<unknown> {
    if (!this.start.activeProject) return Promise.resolve()
    return this.briefs.fetch('for the compaction')
  }

  /** Once the compaction settled: `compacted` is false when it was skipped. */
  async end(compacted: boolean): Promise<void> {
    if (!this.start.activeProject || !compacted) return
    this.guard.compacted()
    if (!this.briefs.brief) return
    // Strictly after the last recap given, so a compaction in the same millisecond still asks for one.
    await this.store.save((record, { now, view }) => ({ ...record, recapAt: Math.max(now, view.recapDoneAt + 1) }))
    this.host.refreshContext()
  }
}
