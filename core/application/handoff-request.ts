/**
 * The handoff's requests (SPEC.md: The handoff; Fallbacks; Every outbound request): `end_session` with the
 * work, or `close_session` when only a Hark session is open; after a failed `end_session`, what the domain's
 * fallback rules say (core/domain/conversation/handoff-decision.ts): `session_stopped`, or the handoff kept
 * for the next session start in the project (./deliver-later), or nothing more. One log line tells each
 * failure's whole story.
 */
import { afterEndSession, afterSessionStopped, type HandoffTool, type Pending, type RequestOutcome } from '../domain/conversation/handoff-decision'
import { buildHandoff, CLOSE_REASON, type HandoffPayload } from '../domain/handoff'
import type { Venture } from '../domain/project'
import { pathKey } from '../domain/paths'
import { oneSpellingPerFile, type Work } from '../domain/work'
import type { HarkFailureKind, HarkGateway, HarkResult } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { ConversationReads } from './conversation-state'
import type { DeliverLater } from './deliver-later'
import type { ExitBudget } from './exit-budget'
import type { ProjectPaths } from './project-paths'
import type { Settings } from './settings'

/** What the log line adds when a handoff is kept for later: a sentence, and a clause after a semicolon. */
const LATER = ' The handoff is kept on this machine and sent at the next session start in this project.'
const LATER_CLAUSE = ' the handoff is kept on this machine and sent at the next session start in this project.'

type RequestTool = HandoffTool | 'session_stopped'

/** How a handoff's requests went: sent by `tool`, or failed (`failure`: how; `detail`: for the log line), with the work carried. */
export type RequestsOutcome =
  | { readonly kind: 'sent'; readonly tool: RequestTool; readonly work: Work }
  | {
      readonly kind: 'failed'
      readonly tool: RequestTool
      readonly detail: string
      /** How it failed (`key-refused` when Hark refused the access key for any of the requests). */
      readonly failure: HarkFailureKind
      readonly work: Work
    }

/** `end_session`'s arguments for some work, with the work as sent (one spelling per file). */
export interface Prepared {
  readonly work: Work
  readonly payload: HandoffPayload
}

/** A request's result as the fallback rules read it. */
const outcomeOf = (result: HarkResult<void>): RequestOutcome => (result.ok ? 'ok' : result.kind === 'timeout' || result.kind === 'unreachable' ? result.kind : 'failed')

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
  payloadFor(venture: Venture, { work: recorded, notes }: Pending): Prepared {
    const rules = this.paths.place?.rules
    const work = rules ? oneSpellingPerFile(recorded, (path) => pathKey(path, rules)) : recorded
    return { work, payload: buildHandoff(venture, work, notes, this.settings.accessKey) }
  }

  /** Carries `pending` to Hark with `tool`, and the fallbacks after it. */
  carry(tool: HandoffTool, venture: Venture, pending: Pending, budget: ExitBudget): Promise<RequestsOutcome> {
    return tool === 'end_session' ? this.send(venture, this.payloadFor(venture, pending), budget) : this.close(pending.work, budget)
  }

  private async send(venture: Venture, { work, payload }: Prepared, budget: ExitBudget): Promise<RequestsOutcome> {
    const sent = await this.hark.endSession(payload, { timeoutMs: budget.request() })
    const next = afterEndSession(outcomeOf(sent), budget.request(), budget.windowLeft())
    // Sent, or no answer in time: no retry.
    if (sent.ok || (next === 'give-up' && sent.kind === 'timeout')) return this.outcome('end_session', work, sent)
    if (next !== 'session_stopped') {
      const kept = next === 'keep' && (await this.keep(venture, payload, budget))
      this.host.log(`Hark: end_session failed (${sent.detail}), and no exit time was left to ask Hark to draft the handoff instead.${kept ? LATER : ''}`)
      return { kind: 'failed', tool: 'end_session', detail: sent.detail, failure: sent.kind, work }
    }
    const stopped = await this.hark.sessionStopped(venture, { timeoutMs: budget.request() })
    if (stopped.ok) {
      this.host.log(`Hark: end_session failed (${sent.detail}); Hark drafts the handoff from repo activity instead.`)
      return { kind: 'sent', tool: 'session_stopped', work }
    }
    // Nothing reached Hark: the handoff is kept for the next start in the project, when the window leaves time to write it.
    const kept = afterSessionStopped(outcomeOf(sent), outcomeOf(stopped), budget.windowLeft()) === 'keep' && (await this.keep(venture, payload, budget))
    const after = kept ? LATER_CLAUSE : stopped.kind === 'key-refused' ? ' Hark refused the access key: run /plugin configure hark-memory@hark to set a new one.' : " Hark's idle sweep drafts the handoff."
    this.host.log(`Hark: end_session failed (${sent.detail}), and so did session_stopped (${stopped.detail});${after}`)
    return { kind: 'failed', tool: 'session_stopped', detail: stopped.detail, failure: sent.kind === 'key-refused' ? sent.kind : stopped.kind, work }
  }

  /** `close_session`: no work, a Hark session open. */
  private async close(work: Work, budget: ExitBudget): Promise<RequestsOutcome> {
    return this.outcome('close_session', work, await this.hark.closeSession(CLOSE_REASON, { timeoutMs: budget.request() }))
  }

  /** Keeps the handoff in the store for the next session start in the project; whether the store took it. */
  private async keep(venture: Venture, payload: HandoffPayload, budget: ExitBudget): Promise<boolean> {
    const conversationId = this.conversation.record?.conversationId
    return conversationId !== undefined && this.later.keep(venture, conversationId, payload, budget.keepStore)
  }

  private outcome(tool: RequestTool, work: Work, result: HarkResult<void>): RequestsOutcome {
    if (result.ok) return { kind: 'sent', tool, work }
    const after = result.kind === 'timeout' ? " Hark's idle sweep drafts the handoff." : ''
    this.host.log(`Hark: ${tool} failed (${result.detail}).${after}`)
    return { kind: 'failed', tool, detail: result.detail, failure: result.kind, work }
  }
}
