// A scripted model: the Anthropic Messages API (POST /v1/messages, streamed as SSE) on 127.0.0.1, playing a
// scenario file (scenarios/*.json). The session points at it with ANTHROPIC_BASE_URL.
//
// Scenario: { prompt, steps: [[block, ...], ...], sideReply?: [block, ...] }, where a block is
// { type: "text", text } or { type: "tool_use", name, input }. "{{PROJECT_DIR}}" anywhere is replaced.
// A request of the main loop (it offers the Bash tool) gets step N, N = the assistant messages it already holds,
// so a retry gets the same answer; past the last step the last repeats. Other requests (titles, summaries) get
// sideReply. Every request body is kept, so a test can read what the model was sent (the <hark-brief> block).
// Each log line has `receivedAt`, when the request reached the fake (its `t` is when the body had been read
// and the answer begun), from the system clock, the clock the bench's other readings use.
// `onStep`, when given, is called before a main-loop request is answered, and awaited: a test acts at one
// point of the conversation (the fault matrix takes the plugin store's lock just before the final answer).
import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'

/** Reads a scenario file, filling in {{NAME}} from vars. */
export function loadScenario(file, vars = {}) {
  const raw = fs.readFileSync(file, 'utf8').replace(/\{\{(\w+)\}\}/g, (m, k) => vars[k] ?? m)
  return JSON.parse(raw)
}

const usage = (input, output) => ({ input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })

function stream(res, message) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${message.id}` })
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: usage(100, 1) } })
  message.content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      send('content_block_start', { index, content_block: { ...block, input: {} } })
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } })
    } else {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } })
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } })
    }
    send('content_block_stop', { index })
  })
  send('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } })
  send('message_stop', {})
  res.end()
}

/**
 * @param {object} o
 * @param {object} o.scenario  from loadScenario
 * @param {string} o.dir       where model.jsonl and bodies/NNN.json go
 * @param {(request: {n: number, step: number, last: boolean}) => unknown} [o.onStep]  called with each main-loop
 *                             request (n: the fake's request number; step: the step it gets; last: it is the
 *                             scenario's last) before the answer goes out, and awaited; a throw is logged, and the
 *                             request answered all the same
 * @returns {Promise<{port: number, close: () => Promise<void>}>}
 */
export async function startFakeModel({ scenario, dir, port = 0, ttlS = 300, onStep }) {
  fs.mkdirSync(path.join(dir, 'bodies'), { recursive: true })
  const log = (entry) => fs.appendFileSync(path.join(dir, 'model.jsonl'), JSON.stringify({ t: new Date().toISOString(), ...entry }) + '\n')
  let n = 0
  let toolN = 0

  const server = http.createServer((req, res) => {
    const receivedAt = new Date().toISOString()
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const url = new URL(req.url, 'http://model')
      const id = ++n
      const bodyFile = path.join(dir, 'bodies', `${String(id).padStart(3, '0')}.json`)
      fs.writeFileSync(bodyFile, raw)
      if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
        log({ n: id, receivedAt, http: `${req.method} ${url.pathname}`, unhandled: true })
        return res.writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `fake model: no ${url.pathname}` } }))
      }
      const body = JSON.parse(raw || '{}')
      const messages = body.messages ?? []
      const main = (body.tools ?? []).some((t) => t.name === 'Bash')
      const step = messages.filter((m) => m.role === 'assistant').length
      if (main && onStep) {
        try {
          await onStep({ n: id, step, last: step >= scenario.steps.length - 1 })
        } catch (e) {
          log({ n: id, onStepError: String(e?.stack ?? e) })
        }
      }
      const blocks = main ? scenario.steps[Math.min(step, scenario.steps.length - 1)] : (scenario.sideReply ?? [{ type: 'text', text: 'ok' }])
      const content = blocks.map((b) => b.type === 'tool_use'
        ? { type: 'tool_use', id: `toolu_e2e_${String(++toolN).padStart(4, '0')}`, name: b.name, input: b.input ?? {} }
        : { type: 'text', text: b.text })
      const last = messages.at(-1)
      const toolResults = Array.isArray(last?.content) ? last.content.filter((c) => c.type === 'tool_result') : []
      log({
        n: id,
        receivedAt,
        main,
        step: main ? step : 'side',
        stream: !!body.stream,
        body: path.basename(bodyFile),
        toolResults: toolResults.map((r) => ({ id: r.tool_use_id, isError: !!r.is_error, content: JSON.stringify(r.content).slice(0, 300) })),
        replied: content.map((b) => (b.type === 'tool_use' ? `tool_use ${b.name}` : `text ${b.text.slice(0, 50)}`)),
      })
      const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
      const message = { id: `msg_e2e_${id}`, type: 'message', role: 'assistant', model: body.model ?? 'fake', content, stop_reason: stop, stop_sequence: null, usage: usage(100, 20) }
      if (body.stream) return stream(res, message)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message))
    })
  })

  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  const close = () => new Promise((resolve) => {
    clearTimeout(ttl)
    server.closeAllConnections()
    server.close(() => resolve())
  })
  const ttl = setTimeout(close, ttlS * 1000)
  ttl.unref()
  return { port: server.address().port, close }
}
