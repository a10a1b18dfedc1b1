/**
 * The start's brief (SPEC.md: session.start, the reuse rule): once the conversation is loaded, another
 * process's fresh brief from the store when the reuse rule allows it, without calling Hark; else fetched. Got
 * in the background, so the start never waits on Hark; the first message's context, the edit guard and the
 * handoff wait for it (`BriefReads.firstBrief`).
 */
import { briefFromText } from '../domain/brief'
import { canReuseBrief } from '../domain/conversation/prune'
import type { CachedBrief } from '../domain/conversation/sanitize'
import type { Clock } from '../ports/clock.port'
import type { BriefService } from './brief-service'
import type { ConversationReads } from './conversation-state'
import { quiet } from './deadline'
import type { KeepBrief } from './keep-brief'
import type { StatusLine } from './status-line'

export class BriefAtStart {
  constructor(
    private readonly conversation: ConversationReads,
    private readonly clock: Clock,
    private readonly keep: KeepBrief,
    private readonly briefs: BriefService,
    private readonly status: StatusLine,
  ) {}

  /** The project's cached brief, read while the conversation loads (the reuse rule needs both). Never rejects. */
  readCache(venture: string): Promise<CachedBrief | undefined> {
    return this.keep.cached(venture)
  }

  /** Begins getting the start's brief, `cached` being what `readCache` read. */
  begin(cached: Promise<CachedBrief | undefined>): void {
    const first = async (): Promise<void> => {
      const brief = await cached
      const now = await this.clock.now()
      const view = this.conversation.view
      const reused = view && brief && canReuseBrief(view, brief, now) ? briefFromText(brief.text) : undefined
      if (reused) this.keep.reused(reused)
      else await this.briefs.fetch('at session start')
    }
    this.keep.begin(quiet(first()))
  }

  /** A project with no access key: no brief to get, and the status line says so. */
  withoutKey(): void {
    this.status.show()
  }
}
