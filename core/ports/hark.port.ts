/**
 * What the use cases ask of Hark (SPEC.md: Every outbound request). The adapter speaks MCP
 * JSON-RPC to the one fixed URL and turns each answer into these plain results; a failure is a
 * value, never a throw.
 */
import { token, type Token } from './token'
import type { Brief } from '../domain/brief'
import type { ConversationId } from '../domain/conversation/keys'
import type { GuardRecord } from '../domain/guard/records'
import type { HandoffPayload } from '../domain/handoff'
import type { Item } from '../domain/item'
import type { Venture } from '../domain/project'

/**
 * How a request failed: no answer in time; no connection, so nothing reached Hark (refused, DNS, TLS, the
 * proxy's tunnel); the connection broke once the request could have reached Hark (reset, closed mid-reply);
 * Hark refused the access key (HTTP 401 or 403); or Hark answered with another error.
 */
export type HarkFailureKind = 'timeout' | 'unreachable' | 'broken' | 'key-refused' | 'refused'

export type HarkResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly kind: HarkFailureKind; /** A short reason for the log line; never a secret. */ readonly detail: string }

export interface HarkCallOptions {
  /** Stop waiting after this many ms (default 3,000; SPEC.md: shorter at exit). */
  readonly timeoutMs?: number
  /** The conversation the request speaks for, when not this one (a handoff delivered later). */
  readonly conversationId?: ConversationId
}

/** `end_session`'s arguments (SPEC.md: The handoff), as the domain builds them. */
export type EndSessionArgs = HandoffPayload

export interface HarkGateway {
  /** `get_agent_brief {venture, depth: "compact"}`. */
  getBrief(venture: Venture, options?: HarkCallOptions): Promise<HarkResult<Brief>>
  /**
   * `list_journal_entries {venture, kind: "decision", limit: 200}`: the settled decisions that carry a
   * scope, as the edit guard reads them (entries without a scope, proposals and retired records are left out).
   */
  listDecisions(venture: Venture, options?: HarkCallOptions): Promise<HarkResult<readonly GuardRecord[]>>
  /**
   * `list_candidates {venture}`: the proposals waiting for a person (the first 200, readable), and how
   * many there are in all (HARK-API.md: each entry and each proposed build-state change counts).
   */
  listCandidates(venture: Venture, options?: HarkCallOptions): Promise<HarkResult<{ readonly items: readonly Item[]; readonly total: number }>>
  /** `get_venture {id_or_code}`: the project's id (a UUID), when Hark names one. */
  getVenture(idOrCode: Venture, options?: HarkCallOptions): Promise<HarkResult<string | undefined>>
  endSession(args: EndSessionArgs, options?: HarkCallOptions): Promise<HarkResult<void>>
  sessionStopped(venture: Venture, options?: HarkCallOptions): Promise<HarkResult<void>>
  closeSession(reason: string, options?: HarkCallOptions): Promise<HarkResult<void>>
}
export const HarkGateway: Token<HarkGateway> = token('HarkGateway')
