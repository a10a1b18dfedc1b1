/**
 * The handoff's requests (SPEC.md: The handoff; fallbacks): `end_session` with the work, falling back to
 * `session_stopped` when it fails other than by timing out and time is left; `close_session` when only a
 * Hark session is open. A handoff that reached nothing of Hark is kept for the next session start in the
 * project (./deliver-later). One log line tells each failure's whole story.
 */
import { buildHandoff, CLOSE_REASON, type HandoffPayload } from '../domain/handoff'
import type { Venture } from '../domain/project'
import { pathKey } from '../domain/paths'
import { oneSpellingPerFile, type Work } from '../domain/work'
import type { HarkFailureKind, HarkGateway, HarkResult } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { ConversationReads } from './conversation-state'
import type { DeliverLater } from './deliver-later'
import type { ExitBudget } from './exit-budget'
import type { HandoffOutcome } from './hand-off'
import type { ProjectPaths } from './project-paths'
import type { Settings } from './settings'

/** What the log line adds when a handoff is kept for later: a sentence, and a clause after a semicolon. */
const LATER = ' The handoff is kept on this machine and sent at the next session start in this project.'
const LATER_CLAUSE = ' the handoff is kept on this machine and sent at the next session start in this project.'

/** `end_session`'s arguments for some work, with the work as sent (one spelling per file). */
/** A handoff whose `tool` failed (`failure`: how; `detail`: for the log line), with the work it carried. */
function failed(tool: 'end_session' | 'session_stopped' | 'close_session', detail: string, failure: HarkFailureKind, work: Work): HandoffOutcome {
  return { kind: 'failed', tool, detail, failure, work }
}

export interface Prepared {
  readonly work: Work
  readonly payload: HandoffPayload
}

export class HandoffRequest {
  constructor(
    private readonly hark: HarkGateway,
    private readonly host: Host,
    private readonly settings: Settings,
    private readonly paths: ProjectPaths,
    private readonly later: DeliverLater,
    private readonly conversation: ConversationReads,
  ) {}

  /** `end_session`'s arguments for this work: one spelling per file, then the payload builder (core/domain/handoff.ts). */
  payloadFor(venture: Venture, recorded: Work, notes: string | undefined): Prepared {
    const rules = this.paths.place?.rules
    const work = rules ? oneSpellingPerFile(recorded, (path) => pathKey(path, rules)) : recorded
    return { work, payload: buildHandoff(venture, work, notes, this.settings.accessKey) }
  }

  async send(venture: Venture, { work, payload }: Prepared, budget: ExitBudget): Promise<HandoffOutcome> {
    const sent = await this.hark.endSession(payload, { timeoutMs: budget.request() })
    if (sent.ok || sent.kind === 'timeout') return this.outcome('end_session', work, sent)
    // SPEC.md: end_session failed other than by timing out: session_stopped, if exit time is left.
    const left = budget.request()
    if (left <= 0) {
      const kept = sent.kind === 'unreachable' && (await this.keep(venture, payload, budget))
      this.host.log(`Hark: end_session failed (${sent.detail}), and no exit time was left to ask Hark to draft the handoff instead.${kept ? LATER : ''}`)
      return failed('end_session', sent.detail, sent.kind, work)
    }
    const stopped = await this.hark.sessionStopped(venture, { timeoutMs: left })
    if (!stopped.ok) {
      // Nothing reached Hark: the handoff is kept for the next start in the project.
      const kept = sent.kind === 'unreachable' && stopped.kind === 'unreachable' && (await this.keep(venture, payload, budget))
      const after = kept ? LATER_CLAUSE : stopped.kind === 'key-refused' ? ' Hark refused the access key: run /plugin configure hark-memory@hark to set a new one.' : " Hark's idle sweep drafts the handoff."
      this.host.log(`Hark: end_session failed (${sent.detail}), and so did session_stopped (${stopped.detail});${after}`)
      return failed('session_stopped', stopped.detail, sent.kind === 'key-refused' ? sent.kind : stopped.kind, work)
    }
    this.host.log(`Hark: end_session failed (${sent.detail}); Hark drafts the handoff from repo activity instead.`)
    return this.outcome('session_stopped', work, stopped)
  }

  /** `close_session`: no work, a Hark session open. */
  async close(work: Work, budget: ExitBudget): Promise<HandoffOutcome> {
    return this.outcome('close_session', work, await this.hark.closeSession(CLOSE_REASON, { timeoutMs: budget.request() }))
  }

  /** Keeps the handoff in the store for the next session start in the project; whether the store took it. */
  private async keep(venture: Venture, payload: HandoffPayload, budget: ExitBudget): Promise<boolean> {
    const conversationId = this.conversation.record?.conversationId
    return conversationId !== undefined && this.later.keep(venture, conversationId, payload, budget.store)
  }

  private outcome(tool: 'end_session' | 'session_stopped' | 'close_session', work: Work, result: HarkResult<void>): HandoffOutcome {
    if (result.ok) return { kind: 'sent', tool, work }
    const after = result.kind === 'timeout' ? " Hark's idle sweep drafts the handoff." : ''
    this.host.log(`Hark: ${tool} failed (${result.detail}).${after}`)
    return failed(tool, result.detail, result.kind, work)
  }
}
