/**
 * An in-memory Hark for tests and local development: one project (a venture) with a brief,
 * decisions, non-goals and proposals, answering the MCP `tools/call` requests the plugin makes, as
 * HARK-API.md shapes them. It records every request it gets (tool, arguments, headers) and can be
 * told to misbehave. Pure TypeScript: it runs inside the engine's test kit and in Node alike.
 */

export interface FakeVenture {
  readonly code: string
  readonly id: string
  brief: Record<string, unknown>
  decisions: Record<string, unknown>[]
  candidates: Record<string, unknown>[]
}

/** One request as the fake received it. */
export interface FakeCall {
  readonly tool: string
  readonly arguments: Record<string, unknown>
  readonly headers: Readonly<Record<string, string>>
  readonly meta: Record<string, unknown>
  readonly body: string
  readonly id: unknown
}

/**
 * How the fake answers: `ok`; `http-500`; `rpc-error` (a JSON-RPC error); `tool-error` (an
 * `isError` result); `garbage` (a body that is not JSON); `wrong-id` (an answer to another
 * request); `sse` (the answer inside an event stream); `unreachable` (the connection fails, nothing
 * sent); `reset` (the connection breaks mid-reply, once the request reached Hark); `hang` (never answers).
 */
export type FakeMode = 'ok' | 'http-500' | 'rpc-error' | 'tool-error' | 'garbage' | 'wrong-id' | 'sse' | 'unreachable' | 'reset' | 'hang'

export interface FakeHttpReply {
  readonly status: number
  readonly ok: boolean
  readonly headers: Record<string, string>
  readonly text: string
}

export const FAKE_VENTURE_ID = '0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f'

export function seedVenture(): FakeVenture {
  return {
    code: 'V-012',
    id: FAKE_VENTURE_ID,
    brief: {
      identity: 'V-012 Ledger: a small-business bookkeeping app.',
      build_state: {
        current_phase: 'Beta hardening',
        summary: 'Invoices and deposits work end to end; reports are next.',
        non_goals: [
          { title: 'No mobile app this quarter', why: 'The web app comes first.', scope: { areas: ['mobile'] } },
          'No multi-currency support',
        ],
        blockers: [{ title: 'Bank sandbox credentials expire on Friday', why: 'Deposits tests need them.' }],
        next_up: [{ title: 'Monthly report export', why: 'Beta users asked for it.' }, 'Fix the rounding in deposits'],
      },
      recent_decisions: [
        { title: 'Raw SQL, no ORM (scope: src/db/**)', why: 'Queries stay visible and fast.' },
        { title: 'Money is stored in cents', rationale: 'No floating point in balances.' },
      ],
      handoff: { status: 'open' },
      open_candidates: 2,
    },
    decisions: [
      { id: 'd-1', title: 'Raw SQL, no ORM (scope: src/db/**)', why: 'Queries stay visible and fast.', status: 'accepted' },
      { id: 'd-2', title: 'Migrations are plain .sql files', why: 'Reviewable in a diff.', status: 'accepted', scope: { paths: ['*.sql'] } },
      { id: 'd-3', title: 'Billing rounds half-even', why: 'Matches the bank.', status: 'accepted', body: 'Applies to deposits too.\nscope: billing' },
      { id: 'd-4', title: 'Use an ORM after all', why: 'Proposed by a teammate.', status: 'candidate', acceptance: 'proposed', scope: { paths: ['src/db/**'] } },
      { id: 'd-5', title: 'Floats for money', why: 'Replaced.', status: 'superseded', superseded_by: 'd-2', scope_area: 'billing' },
    ],
    candidates: [
      { kind: 'decision', title: 'Use an ORM after all', why: 'Proposed by a teammate.' },
      { kind: 'non_goal', title: 'Drop the CSV import', rationale: 'Nobody uses it.' },
    ],
  }
}

function rpcResult(id: unknown, payload: unknown): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload },
  }
}

export class InMemoryHark {
  readonly calls: FakeCall[] = []
  mode: FakeMode = 'ok'
  /** Per tool, a mode that wins over `mode`. */
  readonly toolModes = new Map<string, FakeMode>()
  /** The bearer token the fake accepts; anything else gets HTTP 401. */
  expectedKey: string
  /** While set, every answer waits for it (a slow Hark; the request is recorded at once). */
  hold: Promise<void> | undefined

  constructor(
    readonly venture: FakeVenture = seedVenture(),
    expectedKey = 'hark_test_key_0123456789',
  ) {
    this.expectedKey = expectedKey
  }

  /** The calls to one tool. */
  callsTo(tool: string): FakeCall[] {
    return this.calls.filter((c) => c.tool === tool)
  }

  /**
   * Answers one HTTP request as Hark's MCP endpoint would. Resolves the reply, rejects for
   * `unreachable`, never settles for `hang`.
   */
  async handle(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<FakeHttpReply> {
    const body = typeof init.body === 'string' ? init.body : ''
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v
    let message: Record<string, unknown> = {}
    try {
      message = JSON.parse(body) as Record<string, unknown>
    } catch {
      // recorded below with an empty tool name
    }
    const params = (message['params'] ?? {}) as Record<string, unknown>
    const tool = typeof params['name'] === 'string' ? params['name'] : ''
    const args = (params['arguments'] ?? {}) as Record<string, unknown>
    const meta = (params['_meta'] ?? {}) as Record<string, unknown>
    this.calls.push({ tool, arguments: args, headers, meta, body, id: message['id'] })
    if (this.hold !== undefined) await this.hold
    const mode = this.toolModes.get(tool) ?? this.mode
    if (mode === 'hang') return new Promise<FakeHttpReply>(() => undefined)
    if (mode === 'unreachable') throw new Error(`HooksError: hark-memory: fetch(${url}) failed: ECONNREFUSED`)
    if (mode === 'reset') throw new Error(`HooksError: hark-memory: fetch(${url}) failed: ECONNRESET: The socket connection was closed unexpectedly.`)
    if (url !== 'https://harkstudio.io/mcp' || init.method !== 'POST') return this.http(404, 'not found')
    if (headers['authorization'] !== `Bearer ${this.expectedKey}`) return this.http(401, 'unauthorized')
    if (mode === 'http-500') return this.http(500, 'internal error')
    if (mode === 'garbage') return this.http(200, '<html>oops</html>', 'text/html')
    const id = message['id']
    if (mode === 'rpc-error') return this.json({ jsonrpc: '2.0', id, error: { code: -32603, message: 'internal error' } })
    if (mode === 'tool-error') return this.json({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'venture not found' }], isError: true } })
    if (mode === 'wrong-id') return this.json(rpcResult(typeof id === 'number' ? id + 1000 : 'other', {}))
    const payload = this.answer(tool, args)
    const reply = payload === undefined ? { jsonrpc: '2.0', id, error: { code: -32602, message: `unknown tool ${tool}` } } : rpcResult(id, payload)
    if (mode === 'sse') {
      return { status: 200, ok: true, headers: { 'content-type': 'text/event-stream' }, text: `event: message\ndata: ${JSON.stringify(reply)}\n\n` }
    }
    return this.json(reply)
  }

  private answer(tool: string, args: Record<string, unknown>): unknown {
    const v = this.venture
    switch (tool) {
      case 'get_agent_brief':
        return v.brief
      case 'list_journal_entries':
        return { entries: v.decisions.slice(0, typeof args['limit'] === 'number' ? args['limit'] : 200) }
      case 'list_candidates':
        return { entries: v.candidates }
      case 'get_venture':
        return args['id_or_code'] === v.code || args['id_or_code'] === v.id ? { venture: { id: v.id, code: v.code } } : undefined
      case 'end_session':
      case 'session_stopped':
      case 'close_session':
        return { ok: true }
      default:
        return undefined
    }
  }

  private http(status: number, text: string, type = 'text/plain'): FakeHttpReply {
    return { status, ok: status >= 200 && status < 300, headers: { 'content-type': type }, text }
  }

  private json(value: unknown): FakeHttpReply {
    return { status: 200, ok: true, headers: { 'content-type': 'application/json' }, text: JSON.stringify(value) }
  }
}
