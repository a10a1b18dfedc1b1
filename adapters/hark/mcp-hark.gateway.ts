/**
 * The Hark MCP client (SPEC.md: Every outbound request): one stateless JSON-RPC `tools/call` per
 * HTTPS POST to the one fixed URL (the endpoint below holds it), with every header of the SPEC's
 * table and `params._meta` naming the client and the conversation. A request is abandoned after
 * 3 seconds (or the caller's shorter limit). Failures come back as values, never as throws. How each
 * request ended is noted in HarkAnswers (the load's record for /hark doctor): the tool, the outcome, the
 * HTTP status, the time; nothing of the request or the reply.
 */
import { parseBrief } from '../../core/domain/brief'
import { parseDecisionEntries } from '../../core/domain/guard/records'
import { parseItems } from '../../core/domain/item'
import { redactAccessKey } from '../../core/domain/notes'
import { isProjectId, type Venture } from '../../core/domain/project'
import type { ConversationId } from '../../core/domain/conversation/keys'
import type { Clock } from '../../core/ports/clock.port'
import type { EndSessionArgs, HarkCallOptions, HarkFailureKind, HarkGateway, HarkResult } from '../../core/ports/hark.port'
import { describeError, within } from '../../core/application/deadline'
import { HarkAnswers } from '../../core/application/hark-answers'
import { readMcpReply, type HttpReply } from './mcp-reply'

/** The HTTPS POST to `https://harkstudio.io/mcp`; rejects when the connection fails. */
export interface HarkEndpoint {
  post(headers: Readonly<Record<string, string>>, body: string): Promise<HttpReply>
}

/** Who is asking: the key, the conversation, and the versions for the User-Agent. */
export interface HarkIdentity {
  readonly accessKey: string
  /** 32 hex characters, the same in every process of the conversation. */
  conversationId(): ConversationId
  /** `hark-mod/<plugin version> (claude-code/<engine version>)`. */
  userAgent(): Promise<string>
}

export const REQUEST_TIMEOUT_MS = 3_000
export const CLIENT_NAME = 'claude-code-mod'

let nextRequestId = 1

/** A failure of `kind`, with `detail` for the log line. */
const failure = (kind: HarkFailureKind, detail: string): HarkResult<never> => ({ ok: false, kind, detail })

/** `value`'s fields when it is an object (an array included), else undefined. */
const fieldsOf = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined)

/** `value` when it is an array, else an empty one. */
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

export class McpHarkGateway implements HarkGateway {
  constructor(
    private readonly endpoint: HarkEndpoint,
    private readonly clock: Clock,
    private readonly identity: HarkIdentity,
    private readonly answers: HarkAnswers = new HarkAnswers(),
  ) {}

  async getBrief(venture: Venture, options?: HarkCallOptions) {
    return this.call('get_agent_brief', { venture, depth: 'compact' }, options, parseBrief, 'no brief in the reply')
  }

  async listDecisions(venture: Venture, options?: HarkCallOptions) {
    return this.call(
      'list_journal_entries',
      { venture, kind: 'decision', limit: 200 },
      options,
      (payload) => {
        const entries = Array.isArray(payload) ? payload : fieldsOf(payload)?.['entries']
        return Array.isArray(entries) ? parseDecisionEntries(entries) : undefined
      },
      'no entries in the reply',
    )
  }

  async listCandidates(venture: Venture, options?: HarkCallOptions) {
    return this.call(
      'list_candidates',
      { venture },
      options,
      (payload) => {
        const o = fieldsOf(payload)
        // An array is the entries alone (an array's own `entries` is its method).
        const entries = listOf(Array.isArray(payload) ? payload : o?.['entries'])
        const fields = listOf(o?.['build_state_fields'])
        // A field that is not a string gives `false`, which parseItems leaves out like any non-item.
        const fieldItems = fields.slice(0, 200).map((f) => {
          const field = fieldsOf(f)?.['field']
          return typeof field === 'string' && `Change to ${field}`
        })
        const items = [...parseItems(entries), ...parseItems(fieldItems)].slice(0, 200)
        return { items, total: entries.length + fields.length }
      },
      'no proposals in the reply',
    )
  }

  async getVenture(idOrCode: Venture, options?: HarkCallOptions): Promise<HarkResult<string | undefined>> {
    const result = await this.call('get_venture', { id_or_code: idOrCode }, options, (payload) => {
      const o = fieldsOf(payload) ?? {}
      const id = (fieldsOf(o['venture']) ?? o)['id']
      return { found: typeof id === 'string' && isProjectId(id) ? id.toLowerCase() : undefined }
    })
    return result.ok ? { ok: true, value: result.value.found } : result
  }

  async endSession(args: EndSessionArgs, options?: HarkCallOptions) {
    return this.call<void>('end_session', { ...args }, options)
  }

  async sessionStopped(venture: Venture, options?: HarkCallOptions) {
    return this.call<void>('session_stopped', { venture }, options)
  }

  async closeSession(reason: string, options?: HarkCallOptions) {
    return this.call<void>('close_session', { reason }, options)
  }

  /**
   * One `tools/call`, its ending noted in HarkAnswers once the clock has said when (never throws: a clock
   * that does is left unnoted), its payload then read by `read` (undefined from it: a failure, `missing`
   * its detail; no `read`: the call's value is undefined). The caller does not wait for that reading of the
   * clock: it is a call to the engine, and the first guarded edit or the handoff would wait for it before
   * going on with Hark's answer.
   */
  private async call<T>(tool: string, args: Record<string, unknown>, options?: HarkCallOptions, read?: (payload: unknown) => T | undefined, missing = ''): Promise<HarkResult<T>> {
    // The request's JSON-RPC id, which grows with each request of the plugin load (HarkAnswers keeps the latest).
    const order = nextRequestId++
    const [result, status] = await this.send(tool, args, order, options)
    const outcome = result.ok ? 'ok' : result.kind
    Promise.resolve()
      .then(() => this.clock.now())
      .then(
        (at) => this.answers.record({ tool, outcome, ...(status !== undefined && { status }), at }, order),
        () => undefined,
      )
    if (!result.ok) return result
    const value = read?.(result.value) as T
    return read !== undefined && value === undefined ? failure('refused', missing) : { ok: true, value }
  }

  /** Builds request `id`, waits at most the limit, reads the reply; with the HTTP status when one came. */
  private async send(tool: string, args: Record<string, unknown>, id: number, options?: HarkCallOptions): Promise<[result: HarkResult<unknown>, status?: number]> {
    const key = this.identity.accessKey
    // A failure's detail may quote Hark's own words or the engine's error, which might echo the key: never
    // let it out, nor any piece of it in any case (a cut-off or lower-cased echo; see redactAccessKey).
    const withoutKey = (text: string) => redactAccessKey(text, key)
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: tool, arguments: args, _meta: { client: CLIENT_NAME, conversation: options?.conversationId ?? this.identity.conversationId() } },
    })
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${key}`,
      'User-Agent': await this.identity.userAgent(),
      // SPEC.md's X-Hark-Client (names are case-insensitive): the engine parses a module holding "Client" twice at load (build-module.mjs refuses it).
      'x-hark-client': CLIENT_NAME,
    }
    const limit = Math.min(options?.timeoutMs ?? REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS)
    if (limit <= 0) return [failure('timeout', 'no time left to send it')]
    const reply = await within(this.clock, limit, () => this.endpoint.post(headers, body))
    if (!reply.done) {
      if (reply.reason === 'timeout') return [failure('timeout', `no answer within ${(limit / 1000).toFixed(1)} s`)]
      // The engine's rejection names the URL and the cause; keep the cause only, never the key: redacted before
      // describeError cuts the line at 160 characters (a cut key is harder to find) and after.
      const raw: unknown = reply.error instanceof Error ? reply.error.message : reply.error
      const text = withoutKey(describeError(typeof raw === 'string' ? withoutKey(raw) : raw))
      const cause = /failed:\s*(.*)$/.exec(text)?.[1] ?? text
      // Only a failure before the request went out is "nothing reached Hark" (such a handoff is kept for later: core/domain/undelivered.ts).
      return [nothingSent(cause) ? failure('unreachable', `could not connect (${cause})`) : failure('broken', `the connection broke (${cause})`)]
    }
    const status = reply.value.status
    // The key refused is its own failure: the status line and /hark say how to set a new one.
    if (status === 401 || status === 403) return [failure('key-refused', `HTTP ${status}`), status]
    const outcome = readMcpReply(reply.value, id, key)
    return [outcome.ok ? { ok: true, value: outcome.payload } : failure('refused', withoutKey(outcome.detail)), status]
  }
}

/**
 * Causes that come before any byte of the request is sent: a refused connection, a name that does not
 * resolve, no route, the proxy refusing the tunnel, a TLS handshake or certificate the engine rejects (codes as
 * Node and Bun name them, e.g. `ECONNREFUSED`, `ERR_PROXY_TUNNEL`, `UNABLE_TO_VERIFY_LEAF_SIGNATURE`). Anything
 * else (`ECONNRESET`, a socket closed mid-reply, an unknown cause) may have reached Hark.
 */
const BEFORE_SENDING = /\b(ECONNREFUSED|ConnectionRefused|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ERR_PROXY_TUNNEL|FailedToOpenSocket|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_[A-Z_]+)\b/

/** Whether a connection failure's cause shows that nothing of the request reached Hark. */
export function nothingSent(cause: string): boolean {
  return BEFORE_SENDING.test(cause)
}
