/**
 * A refused key is not "offline" (SPEC.md, the status line; README, Setup, lists `key refused`): whichever request Hark answers with
 * HTTP 401 or 403 (the decisions at an edit, the handoff, /hark needs, a handoff delivered later), the status
 * line turns to `key refused`, until a brief is fetched again (KeepBrief). Wraps the Hark gateway; the brief's own
 * result is KeepBrief's (it draws the status line itself), so only the other requests are watched here.
 */
import type { EndSessionArgs, HarkCallOptions, HarkGateway, HarkResult } from '../ports/hark.port'
import type { Venture } from '../domain/project'
import type { KeyRefusedWrites } from './brief-service'
import type { StatusLine } from './status-line'

export class KeyWatch implements HarkGateway {
  constructor(
    private readonly inner: HarkGateway,
    private readonly briefs: KeyRefusedWrites,
    private readonly status: StatusLine,
  ) {}

  getBrief(venture: Venture, options?: HarkCallOptions) {
    return this.inner.getBrief(venture, options)
  }
  listDecisions(venture: Venture, options?: HarkCallOptions) {
    return this.watch(this.inner.listDecisions(venture, options))
  }
  listCandidates(venture: Venture, options?: HarkCallOptions) {
    return this.watch(this.inner.listCandidates(venture, options))
  }
  getVenture(idOrCode: Venture, options?: HarkCallOptions) {
    return this.watch(this.inner.getVenture(idOrCode, options))
  }
  endSession(args: EndSessionArgs, options?: HarkCallOptions) {
    return this.watch(this.inner.endSession(args, options))
  }
  sessionStopped(venture: Venture, options?: HarkCallOptions) {
    return this.watch(this.inner.sessionStopped(venture, options))
  }
  closeSession(reason: string, options?: HarkCallOptions) {
    return this.watch(this.inner.closeSession(reason, options))
  }

  /** Notes a refused key, and redraws the status line when that changed what it says. */
  private async watch<T>(request: Promise<HarkResult<T>>): Promise<HarkResult<T>> {
    const result = await request
    // Another answer says little of the key (a request may be let through that the brief's is not): only a
    // fetched brief turns the line back.
    if (!result.ok && result.kind === 'key-refused' && this.briefs.noteKeyRefused()) this.status.show()
    return result
  }
}
