import * as td from 'testdouble'
import { afterEach, describe, expect, test } from 'vitest'
import { v } from '../support'
import { McpHarkGateway, type HarkEndpoint, type HarkIdentity } from '../../adapters/hark/mcp-hark.gateway'
import type { HttpReply } from '../../adapters/hark/mcp-reply'
import type { ConversationId } from '../../core/domain/conversation/keys'
import type { Clock } from '../../core/ports/clock.port'
import { HarkAnswers } from '../../core/application/hark-answers'

const KEY = 'hark_secret_key_abcdef123456'
const CONVERSATION = '0123456789abcdef0123456789abcdef' as ConversationId

/** A clock whose waits never end by themselves (the endpoint answers first) unless told. */
function clock(expired = false): Clock {
  return { now: async () => 1_000, sleep: (ms: number, signal?: AbortSignal) => (expired ? Promise.resolve() : new Promise<void>((done) => signal?.addEventListener('abort', () => done()))) }
}

const identity: HarkIdentity = { accessKey: KEY, conversationId: () => CONVERSATION, userAgent: async () => 'hark-mod/0.2.3 (claude-code/2.1.332)' }

/** What the endpoint double was asked, in order. */
let sent: { headers: Readonly<Record<string, string>>; body: string }[] = []

function answer(payload: unknown) {
  return (headers: Readonly<Record<string, string>>, body: string): Promise<HttpReply> => {
    sent.push({ headers, body })
    const id = (JSON.parse(body) as { id: number }).id
    return Promise.resolve({ status: 200, ok: true, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ jsonrpc: '2.0', id, result: { content: [], structuredContent: payload } }) })
  }
}

afterEach(() => {
  td.reset()
  sent = []
})

describe('the Hark MCP client', () => {
  test('get_agent_brief: one tools/call with the SPEC headers and _meta', async () => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ identity: 'V-012 Ledger', open_candidates: 3 }))
    const gateway = new McpHarkGateway(endpoint, clock(), identity)
    const out = await gateway.getBrief(v('V-012'))
    expect(out.ok && out.value.openCandidates).toBe(3)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.headers).toEqual({
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${KEY}`,
      'User-Agent': 'hark-mod/0.2.3 (claude-code/2.1.332)',
      'x-hark-client': 'claude-code-mod',
    })
    const body = JSON.parse(sent[0]!.body) as Record<string, unknown>
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      method: 'tools/call',
      params: { name: 'get_agent_brief', arguments: { venture: 'V-012', depth: 'compact' }, _meta: { client: 'claude-code-mod', conversation: CONVERSATION } },
    })
    expect(typeof body['id']).toBe('number')
    expect(JSON.stringify(body)).not.toContain(KEY)
  })

  test.each([
    ['listDecisions', ['V-012'], 'list_journal_entries', { venture: 'V-012', kind: 'decision', limit: 200 }],
    ['listCandidates', ['V-012'], 'list_candidates', { venture: 'V-012' }],
    ['getVenture', ['V-012'], 'get_venture', { id_or_code: 'V-012' }],
    ['sessionStopped', ['V-012'], 'session_stopped', { venture: 'V-012' }],
    ['closeSession', ['Claude Code session with no edits, commits or test runs'], 'close_session', { reason: 'Claude Code session with no edits, commits or test runs' }],
  ] as const)('%s sends %s with the SPEC arguments', async (method, args, tool, expected) => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ entries: [] }))
    const gateway = new McpHarkGateway(endpoint, clock(), identity)
    await (gateway[method] as (...a: unknown[]) => Promise<unknown>)(...args)
    expect(sent).toHaveLength(1)
    expect(JSON.parse(sent[0]!.body).params).toMatchObject({ name: tool, arguments: expected })
  })

  test('list_journal_entries comes back as the guard\'s records: settled and scoped only, parsed at the adapter', async () => {
    const endpoint = td.object<HarkEndpoint>()
    const entries = [
      { id: 'd1', title: 'Raw SQL, no ORM', why: 'speed', status: 'accepted', scope: { paths: ['src/db/**'] } },
      { id: 'd2', title: 'Proposal', status: 'candidate', scope: { paths: ['src/**'] } },
      { id: 'd3', title: 'No scope at all', status: 'accepted' },
    ]
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ entries }))
    const out = await new McpHarkGateway(endpoint, clock(), identity).listDecisions(v('V-012'))
    expect(out.ok).toBe(true)
    if (!out.ok) return
    expect(out.value.map((r) => r.title)).toEqual(['Raw SQL, no ORM'])
    expect(out.value[0]).toMatchObject({ why: 'speed' })
  })

  test('list_journal_entries without entries is a refusal, not an empty guard', async () => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ nothing: true }))
    const out = await new McpHarkGateway(endpoint, clock(), identity).listDecisions(v('V-012'))
    expect(out).toMatchObject({ ok: false, detail: 'no entries in the reply' })
  })

  test.each([
    [401, 'key-refused'],
    [403, 'key-refused'],
    [429, 'refused'],
    [500, 'refused'],
    [503, 'refused'],
  ] as const)('HTTP %i is "%s"', async (status, kind) => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenResolve({ status, ok: false, headers: {}, text: `denied ${KEY}` })
    const out = await new McpHarkGateway(endpoint, clock(), identity).getBrief(v('V-012'))
    expect(out).toEqual({ ok: false, kind, detail: `HTTP ${status}` })
  })

  test('a rejected connection is "unreachable", and the key never reaches the log detail', async () => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenReject(new Error(`HooksError: hark-memory: fetch(https://harkstudio.io/mcp) failed: ECONNREFUSED ${KEY}`))
    const out = await new McpHarkGateway(endpoint, clock(), identity).getBrief(v('V-012'))
    expect(out).toEqual({ ok: false, kind: 'unreachable', detail: 'could not connect (ECONNREFUSED [redacted])' })
  })

  test.each([
    ['ECONNREFUSED', 'unreachable'],
    ['ENOTFOUND harkstudio.io', 'unreachable'],
    ['ERR_PROXY_TUNNEL: Proxy refused to open a tunnel: 502 Bad Gateway', 'unreachable'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate', 'unreachable'],
    ['SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain', 'unreachable'],
    ['ECONNRESET: The socket connection was closed unexpectedly.', 'broken'],
    ['EPIPE', 'broken'],
    ['something nobody foresaw', 'broken'],
  ] as const)('a connection that fails with %s is "%s" (only a failure before sending is "nothing reached Hark")', async (cause, kind) => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenReject(new Error(`HooksError: hark-memory: $.http.fetch(https://harkstudio.io/mcp) failed: ${cause}`))
    const out = await new McpHarkGateway(endpoint, clock(), identity).endSession({ venture: 'V-012', what_i_did: '', what_changed: '', whats_next: '', links: [] })
    expect(out).toEqual({ ok: false, kind, detail: `${kind === 'unreachable' ? 'could not connect' : 'the connection broke'} (${cause})` })
  })

  test('no answer before the clock runs out is a timeout', async () => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenReturn(new Promise<HttpReply>(() => undefined))
    const out = await new McpHarkGateway(endpoint, clock(true), identity).endSession({ venture: 'V-012', what_i_did: '', what_changed: '', whats_next: '', links: [] }, { timeoutMs: 700 })
    expect(out).toEqual({ ok: false, kind: 'timeout', detail: 'no answer within 0.7 s' })
  })

  test('no time left: nothing is sent', async () => {
    const endpoint = td.object<HarkEndpoint>()
    const out = await new McpHarkGateway(endpoint, clock(), identity).closeSession('x', { timeoutMs: 0 })
    expect(out).toEqual({ ok: false, kind: 'timeout', detail: 'no time left to send it' })
    td.verify(endpoint.post(td.matchers.anything(), td.matchers.anything()), { times: 0 })
  })

  test('get_venture reads the id from {venture: {id}} or {id}', async () => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ venture: { id: '0B7C6F4E-8D1A-4C3B-9F2E-1A2B3C4D5E6F' } }))
    expect(await new McpHarkGateway(endpoint, clock(), identity).getVenture(v('V-012'))).toEqual({ ok: true, value: '0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f' })
  })

  test('list_candidates counts each proposal and each proposed build-state change', async () => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ entries: [{ title: 'A' }, { text: 'B', why: 'because' }, 7], build_state_fields: [{ field: 'next_up' }] }))
    const out = await new McpHarkGateway(endpoint, clock(), identity).listCandidates(v('V-012'))
    expect(out).toEqual({ ok: true, value: { items: [{ title: 'A' }, { title: 'B', why: 'because' }, { title: 'Change to next_up' }], total: 4 } })
  })
})

test('list_candidates: 500 proposals count as 500, the first 200 readable', async () => {
  const endpoint = td.object<HarkEndpoint>()
  td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ entries: Array.from({ length: 500 }, (_, i) => ({ title: `P${i}` })) }))
  const out = await new McpHarkGateway(endpoint, clock(), identity).listCandidates(v('V-012'))
  expect(out.ok && out.value.total).toBe(500)
  expect(out.ok && out.value.items.length).toBe(200)
})

describe('noting the answer for /hark doctor (the caller never waits for the clock)', () => {
  const settle = () => new Promise((done) => setTimeout(done, 0))

  test('the result comes before the clock has answered; the answer is noted once it has', async () => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ entries: [] }))
    let tell: (at: number) => void = () => undefined
    const slow: Clock = { ...clock(), now: () => new Promise<number>((done) => (tell = done)) }
    const answers = new HarkAnswers()
    const out = await new McpHarkGateway(endpoint, slow, identity, answers).listCandidates(v('V-012'))
    expect(out.ok).toBe(true)
    expect(answers.last).toEqual([])
    tell(5_000)
    await settle()
    expect(answers.last).toEqual([{ tool: 'list_candidates', outcome: 'ok', status: 200, at: 5_000 }])
  })

  test.each([
    ['rejects', (): Promise<number> => Promise.reject(new Error('clock gone'))],
    ['throws at once', (): Promise<number> => {
      throw new Error('clock gone')
    }],
  ] as const)('a clock that %s: the result still comes, nothing is noted, nothing is left unhandled', async (_what, now) => {
    const endpoint = td.object<HarkEndpoint>()
    td.when(endpoint.post(td.matchers.anything(), td.matchers.anything())).thenDo(answer({ entries: [] }))
    const answers = new HarkAnswers()
    const out = await new McpHarkGateway(endpoint, { ...clock(), now }, identity, answers).listCandidates(v('V-012'))
    expect(out.ok).toBe(true)
    await settle()
    expect(answers.last).toEqual([])
  })
})
