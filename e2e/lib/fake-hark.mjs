// A fake Hark: the MCP server behind https://harkstudio.io/mcp, on 127.0.0.1, built on the official MCP SDK
// (McpServer + Streamable HTTP transport, stateless: a fresh server and transport per POST, as the SDK requires,
// so a `tools/call` needs no `initialize` first). It serves the tools the plugin calls over an in-memory project
// seeded from a fixture file, checks the bearer token, and appends every request it receives to a JSON-lines log.
//
// Failure modes, one per run: http500 (every POST answers HTTP 500), rpc-error (a JSON-RPC error message),
// tool-error (an MCP result with isError: true), hang (answers nothing; drops the connection after `hangS`
// seconds, or never when hangS is 0). `delayMs` makes every answer that many ms late (a slow Hark, for the bench).
// Per-tool faults (`faults: { <tool>: <mode> }`, the fault matrix of e2e/run-faults.mjs): one tool fails in one of
// TOOL_FAULTS, the others answer normally. Connection faults before any byte reaches Hark (a refused connection,
// an untrusted certificate) are the TLS proxy's (lib/tls-proxy.mjs, `connectFault`), not this server's.
import http from 'node:http'
import fs from 'node:fs'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import * as z from 'zod'

export const FAILURES = ['http500', 'rpc-error', 'tool-error', 'hang']

/**
 * What one tool can be made to do (`faults`):
 *   reset      Hark runs the tool, starts the SSE reply (200, headers, half an event), then drops the connection
 *   http401 http403 http429 http500 http503   that HTTP status (429 and 503 with Retry-After), a short body
 *   not-json   200, `application/json`, an HTML page
 *   rpc-error  a JSON-RPC error message (-32603)
 *   wrong-id   a well-formed JSON-RPC result, for another request id
 *   sse-noise  the right answer, after SSE comments, a progress and a log notification (not a failure)
 *   tool-error an MCP result with isError: true
 *   hang       no answer; the connection dropped after `hangS` seconds
 */
export const TOOL_FAULTS = ['reset', 'http401', 'http403', 'http429', 'http500', 'http503', 'not-json', 'rpc-error', 'wrong-id', 'sse-noise', 'tool-error', 'hang']
const HTTP_FAULTS = { http401: 401, http403: 403, http429: 429, http500: 500, http503: 503 }

const text = z.union([z.string(), z.array(z.string())]) // a handoff field: a text, or a list of lines

/** Loads a fixture file into a mutable project: { venture, brief, journal, candidates, handoffs }. */
export function loadProject(fixturePath) {
  const f = JSON.parse(fs.readFileSync(fixturePath, 'utf8'))
  return { venture: f.venture, brief: f.brief, journal: f.journal ?? [], candidates: f.candidates ?? { entries: [] }, handoffs: [] }
}

// What each tool does to the project and answers. A thrown Error becomes an isError result (McpServer's rule).
function tools(project) {
  const known = (v) => {
    if (v !== project.venture.code && v !== project.venture.id) throw new Error(`unknown venture: ${v}`)
  }
  return {
    get_agent_brief: {
      input: { venture: z.string(), depth: z.string().optional() },
      run: ({ venture }) => { known(venture); return project.brief },
    },
    list_journal_entries: {
      input: { venture: z.string(), kind: z.string().optional(), limit: z.number().int().positive().optional() },
      run: ({ venture, kind, limit = 50 }) => {
        known(venture)
        return { entries: project.journal.filter((e) => !kind || e.kind === kind).slice(0, limit) }
      },
    },
    list_candidates: {
      input: { venture: z.string() },
      run: ({ venture }) => { known(venture); return project.candidates },
    },
    get_venture: {
      input: { id_or_code: z.string() },
      run: ({ id_or_code }) => { known(id_or_code); return { venture: project.venture } },
    },
    end_session: {
      input: { venture: z.string(), what_i_did: text, what_changed: text, whats_next: text, links: text, watch_out_for: text.optional() },
      run: (args) => {
        known(args.venture)
        project.handoffs.push(args)
        project.brief = { ...project.brief, handoff: { status: 'clean' } }
        return { ok: true, handoff: { status: 'clean', n: project.handoffs.length } }
      },
    },
    session_stopped: {
      input: { venture: z.string() },
      run: ({ venture }) => {
        known(venture)
        project.brief = { ...project.brief, handoff: { status: 'open', draft: { from: 'repo activity' } } }
        return { ok: true, drafting: true }
      },
    },
    close_session: {
      input: { reason: z.string(), venture: z.string().optional() },
      run: () => ({ ok: true, closed: true }),
    },
  }
}

const readBody = (req) => new Promise((resolve, reject) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  req.on('error', reject)
})

const rpcError = (res, status, id, code, message, extra = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...extra }).end(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message } }))

/** An MCP tool result as the SDK writes one, for a payload. */
const toolResult = (payload) => ({ content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload })

/**
 * Answers request `msg` with fault `mode` (one of TOOL_FAULTS but hang and tool-error, which go the normal way);
 * `note(outcome, payload)` records what happened for the log. Returns false when the request is not a
 * tools/call of a known tool (the SDK answers it then).
 */
function toolFault(res, mode, msg, table, note) {
  const tool = table[msg?.params?.name]
  if (msg?.method !== 'tools/call' || tool === undefined) return false
  const id = msg.id
  const status = HTTP_FAULTS[mode]
  if (status !== undefined) {
    note(mode)
    const retry = status === 429 || status === 503 ? { 'retry-after': '30' } : {}
    res.writeHead(status, { 'content-type': 'text/plain', ...retry }).end(`fake hark: failing on purpose (${mode})\n`)
    return true
  }
  if (mode === 'not-json') {
    note(mode)
    res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>\n')
    return true
  }
  if (mode === 'rpc-error') {
    note(mode)
    rpcError(res, 200, id, -32603, 'fake hark: failing on purpose (rpc-error)')
    return true
  }
  // The rest run the tool first: Hark did the work, whatever then happens to the reply.
  let payload
  try {
    payload = tool.run(msg.params.arguments ?? {})
  } catch {
    return false // an unknown venture: the SDK's isError answer
  }
  const frame = (forId) => JSON.stringify({ jsonrpc: '2.0', id: forId, result: toolResult(payload) })
  if (mode === 'wrong-id') {
    note(mode, payload)
    res.writeHead(200, { 'content-type': 'application/json' }).end(frame(typeof id === 'number' ? id + 1000 : 'another-request'))
    return true
  }
  if (mode === 'sse-noise') {
    note('ok', payload)
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    res.write(': fake hark keep-alive comment\n\n')
    res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 2 } })}\n\n`)
    res.write(': another comment, then a log notification\n\n')
    res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working on it' } })}\n\n`)
    res.end(`event: message\ndata: ${frame(id)}\n\n`)
    return true
  }
  if (mode === 'reset') {
    note(mode, payload)
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const whole = `event: message\ndata: ${frame(id)}\n\n`
    res.write(whole.slice(0, Math.floor(whole.length / 2)), () => setTimeout(() => res.socket?.destroy(), 20))
    return true
  }
  return false
}

/**
 * @param {object} o
 * @param {string} o.fixture   path of the fixture (see fixtures/venture.json)
 * @param {string} o.key       the access key expected after "Bearer "
 * @param {string} [o.fail]    one of FAILURES, or nothing
 * @param {string} [o.logFile] JSON-lines log of every request
 * @param {boolean} [o.jsonResponse] answer application/json instead of an SSE stream (the SDK's default)
 * @param {number} [o.hangS]   mode hang: drop the unanswered connection after this many seconds (0 = never).
 *                             The plugin gives up after 3 s; the engine holds an abandoned $.http.fetch open
 *                             until it settles (30 s at most) and a -p run does not exit before that, so the
 *                             e2e runs drop it after a few seconds.
 * @param {number} [o.delayMs] wait this long after a request arrives before answering it (default 0)
 * @param {Record<string, string>} [o.faults] per tool, one of TOOL_FAULTS; the other tools answer normally
 * @param {boolean} [o.closeEach] answer with `Connection: close`, so each request opens its own connection (and
 *                             CONNECT through the proxy): the proxy's connection faults then hit one request each
 * @returns {Promise<{port: number, project: object, close: () => Promise<void>}>}
 */
export async function startFakeHark({ fixture, key, fail, logFile, jsonResponse = false, port = 0, ttlS = 300, hangS = 0, delayMs = 0, faults = {}, closeEach = false }) {
  if (fail && !FAILURES.includes(fail)) throw new Error(`unknown failure mode ${fail}; one of ${FAILURES.join(', ')}`)
  for (const [tool, mode] of Object.entries(faults)) if (!TOOL_FAULTS.includes(mode)) throw new Error(`unknown fault ${mode} for ${tool}; one of ${TOOL_FAULTS.join(', ')}`)
  const project = loadProject(fixture)
  const table = tools(project)
  let n = 0
  const log = (entry) => { if (logFile) fs.appendFileSync(logFile, JSON.stringify({ t: new Date().toISOString(), ...entry }) + '\n') }

  const server = http.createServer(async (req, res) => {
    const receivedAt = new Date().toISOString() // when the request reached the fake (the log's t is when it was answered)
    const raw = await readBody(req).catch(() => '')
    let msg
    try { msg = raw ? JSON.parse(raw) : undefined } catch { msg = undefined }
    const auth = req.headers.authorization ?? ''
    const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : undefined
    const entry = {
      n: ++n,
      receivedAt,
      http: `${req.method} ${req.url}`,
      host: req.headers.host,
      method: msg?.method,
      tool: msg?.params?.name,
      arguments: msg?.params?.arguments,
      meta: msg?.params?._meta,
      id: msg?.id,
      headers: req.headers,
      bearer,
      body: raw,
    }
    // Every answer is logged once the response closes, with its status and the start of what went on the wire.
    let outcome = 'answered-by-sdk' // unless a tool ran: an unknown tool, arguments the schema refuses, a 406...
    let payload
    const wire = []
    const write = res.write.bind(res)
    const end = res.end.bind(res)
    const keep = (chunk) => { if (chunk && typeof chunk !== 'function') wire.push(Buffer.from(chunk).toString('utf8')) }
    res.write = (chunk, ...rest) => { keep(chunk); return write(chunk, ...rest) }
    res.end = (chunk, ...rest) => { keep(chunk); return end(chunk, ...rest) }
    res.on('close', () => {
      const reply = wire.join('')
      if (outcome === 'answered-by-sdk' && reply.includes('"isError":true')) outcome = 'isError'
      log({ ...entry, outcome, payload, status: res.statusCode, reply: reply.slice(0, 2000) })
    })

    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    if (closeEach) {
      // The SDK writes `Connection: keep-alive` itself: put close in its place, so the client opens a new one.
      const writeHead = res.writeHead.bind(res)
      res.writeHead = (status, ...rest) => {
        for (const h of rest) if (h && typeof h === 'object' && !Array.isArray(h)) for (const k of Object.keys(h)) if (k.toLowerCase() === 'connection') delete h[k]
        res.setHeader('connection', 'close')
        return writeHead(status, ...rest)
      }
    }
    if (req.method !== 'POST' || req.url !== '/mcp') {
      outcome = 'not-found'
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('fake hark: POST /mcp only\n')
    }
    if (bearer !== key) {
      outcome = 'unauthorized'
      return rpcError(res, 401, msg?.id, -32001, 'fake hark: missing or wrong access key', { 'www-authenticate': 'Bearer' })
    }
    const fault = faults[entry.tool]
    if (fault !== undefined && fault !== 'hang' && fault !== 'tool-error') {
      const answered = toolFault(res, fault, msg, table, (o, p) => { outcome = o; payload = p })
      if (answered) return
    }
    if (fail === 'hang' || fault === 'hang') {
      outcome = 'hang' // never answered; the client gives up, hangS drops the socket, or close() does
      if (hangS > 0) {
        const drop = setTimeout(() => req.socket.destroy(), hangS * 1000)
        res.on('close', () => clearTimeout(drop))
      }
      return
    }
    if (fail === 'http500') {
      outcome = 'http500'
      return res.writeHead(500, { 'content-type': 'text/plain' }).end('fake hark: failing on purpose (http500)\n')
    }
    if (fail === 'rpc-error') {
      outcome = 'rpc-error'
      return rpcError(res, 200, msg?.id, -32603, 'fake hark: failing on purpose (rpc-error)')
    }

    // The real path: the SDK parses, validates the arguments against the tool's schema, and answers.
    const mcp = new McpServer({ name: 'fake-hark', version: '0.0.0' })
    for (const [name, tool] of Object.entries(table)) {
      mcp.registerTool(name, { inputSchema: tool.input }, async (args) => {
        try {
          if (fail === 'tool-error' || fault === 'tool-error') throw new Error('fake hark: failing on purpose (tool-error)')
          payload = tool.run(args)
          outcome = 'ok'
          return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload }
        } catch (e) {
          outcome = 'isError'
          throw e // McpServer turns it into { isError: true, content: [{ type: 'text', text: message }] }
        }
      })
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: jsonResponse })
    res.on('close', () => { transport.close(); mcp.close() })
    await mcp.connect(transport)
    await transport.handleRequest(req, res, msg)
  })

  const sockets = new Set()
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  const close = () => new Promise((resolve) => {
    clearTimeout(ttl)
    for (const s of sockets) s.destroy()
    server.close(() => resolve())
  })
  const ttl = setTimeout(close, ttlS * 1000)
  ttl.unref()
  return { port: server.address().port, project, close }
}
