/**
 * The project's last brief in the store, `brief:<project code>` (SPEC.md: What it stores; the reuse rule),
 * written by any process that fetched one. A write the store refuses costs the cache only: the conversation
 * is not refused for it.
 */
import { briefKey } from '../domain/conversation/keys'
import { sanitizeCachedBrief, type CachedBrief } from '../domain/conversation/sanitize'
import type { StoreCalls } from './store-calls'

export class BriefCache {
  constructor(private readonly calls: StoreCalls) {}

  async read(venture: string): Promise<CachedBrief | undefined> {
    return sanitizeCachedBrief(await this.calls.get(briefKey(venture)))
  }

  async write(venture: string, brief: CachedBrief): Promise<void> {
    await this.calls.set(briefKey(venture), { text: brief.text, fetchedAt: brief.fetchedAt })
  }
}
