/**
 * The conversation's brief, kept (SPEC.md: session.start, /hark, session.compact, the status line): when a brief request
 * went out and the start's brief under way; a brief that came, kept for this conversation, noted in its record
 * and cached for the project (`brief:<project code>`, which another process may reuse); a miss, one log line.
 * The status line shows each outcome at once. BriefState's writer.
 */
import type { Brief } from '../domain/brief'
import type { CachedBrief } from '../domain/conversation/sanitize'
import type { HarkFailureKind } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { BriefCache } from './brief-cache'
import type { BriefState } from './brief-service'
import { quiet } from './deadline'
import type { RecordRepository } from './record-repository'
import type { StatusLine } from './status-line'

export class KeepBrief {
  constructor(
    private readonly state: BriefState,
    private readonly records: RecordRepository,
    private readonly cache: BriefCache,
    private readonly status: StatusLine,
    private readonly host: Host,
  ) {}

  /** A brief request went out at `at` (epoch ms); `undo` puts back `at`, the time before a request that opened nothing. */
  requested(at: number, undo = false): void {
    this.state.requested(at, undo)
  }

  /** The start's brief is under way: `first` resolves once it is in or given up. */
  begin(first: Promise<void>): void {
    this.state.begin(first)
  }

  /** The project's cached brief, another process's or an earlier one's. Never rejects. */
  cached(venture: string): Promise<CachedBrief | undefined> {
    return quiet(this.cache.read(venture))
  }

  /** Another process's fresh brief, reused under the reuse rule: kept and shown, nothing stored. */
  reused(brief: Brief): void {
    this.state.got(brief)
    this.status.show()
  }

  /**
   * A brief Hark sent, asked at `now` (epoch ms). Whoever waits for it (the first message's context, the guard,
   * the handoff) goes on at once; the record's note and the project's cache are stored after the hook.
   */
  fetched(venture: string, brief: Brief, now: number): void {
    this.state.got(brief)
    const status = { state: brief.handoffState, needYou: brief.openCandidates, at: now }
    // In memory at once (so the status line shows it now), stored after the hook.
    void this.records.record((record) => ({ ...record, briefAt: now, openedAt: now, status }), now)
    this.status.show()
    void quiet(this.cache.write(venture, { text: brief.text, fetchedAt: now }))
  }

  /** A fetch that failed (`why`: "at session start", "for /hark brief"): the session carries on without it. */
  missed(why: string, failure: { readonly kind: HarkFailureKind; readonly detail: string }): void {
    const keyRefused = failure.kind === 'key-refused'
    this.state.missed(keyRefused)
    this.host.log(keyRefused
      ? `Hark: Hark refused the access key (${failure.detail}) fetching the brief ${why}; the session carries on without it. Run /plugin configure hark-memory@hark to set a new key.`
      : `Hark: could not fetch the brief ${why} (${failure.detail}); the session carries on without it.`)
    this.status.show()
  }
}
