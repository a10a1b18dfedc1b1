import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { readMcpReply, sseMessages, toolPayload } from '../../adapters/hark/mcp-reply'

const json = (value: unknown, status = 200) => ({ status, ok: status < 300, headers: { 'content-type': 'application/json' }, text: JSON.stringify(value) })
const sse = (text: string) => ({ status: 200, ok: true, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, text })
const result = (payload: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload })

describe('reading an MCP tools/call reply (HARK-API.md, Transport)', () => {
  test('structuredContent is the payload', () => {
    expect(readMcpReply(json({ jsonrpc: '2.0', id: 7, result: result({ a: 1 }) }), 7)).toEqual({ ok: true, payload: { a: 1 } })
  })

  test('without structuredContent, the text content parsed as JSON', () => {
    const reply = json({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: '{"entries":[1]}' }] } })
    expect(readMcpReply(reply, 7)).toEqual({ ok: true, payload: { entries: [1] } })
  })

  test('otherwise the text itself', () => {
    const reply = json({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'plain brief' }, { type: 'image', data: 'x' }] } })
    expect(readMcpReply(reply, 7)).toEqual({ ok: true, payload: 'plain brief' })
  })

  test('an SSE stream: the event whose message has our id is the answer', () => {
    const body = [
      ': keep-alive',
      '',
      'event: message',
      `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })}`,
      '',
      'event: message',
      `data: ${JSON.stringify({ jsonrpc: '2.0', id: 3, result: result({ ok: 'yes' }) })}`,
      '',
    ].join('\r\n')
    expect(readMcpReply(sse(body), 3)).toEqual({ ok: true, payload: { ok: 'yes' } })
  })

  test('an SSE data field split over several lines', () => {
    expect(sseMessages('data: {"a":\ndata: 1}\n\n')).toEqual([{ a: 1 }])
  })

  test('SSE events end at a blank line, whichever line ends the body uses; the last needs none', () => {
    const events = ['data: {"n":1}', 'event: message\ndata:{"n":2}', ': a comment', 'data: not json', 'id: 4\ndata: [3,\ndata: 4]']
    for (const end of ['\n', '\r\n', '\r']) {
      const body = events.map((e) => e.replace(/\n/g, end)).join(end + end + end)
      expect(sseMessages(body)).toEqual([{ n: 1 }, { n: 2 }, [3, 4]])
      expect(sseMessages(body + end + end)).toEqual([{ n: 1 }, { n: 2 }, [3, 4]])
    }
    expect(sseMessages('\n\n\ndata: 5')).toEqual([5])
  })

  test('SSE bodies read line by line as they were read event by event (fast-check, against the split the reader had)', () => {
    // The reader before, which split the body into events with a regex (slow in the engine's hooks worker).
    const byEvents = (body: string): unknown[] => {
      const out: unknown[] = []
      for (const event of body.replace(/\r\n?/g, '\n').split(/\n\n+/)) {
        const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''))
        if (data.length === 0) continue
        try {
          out.push(JSON.parse(data.join('\n')))
        } catch {
          // not JSON
        }
      }
      return out
    }
    const line = fc.oneof(
      fc.constantFrom('', ' ', 'event: message', ': keep-alive', 'id: 7', 'data:', 'data: ', 'data:1', 'data: [1,', 'data: 2]', 'data: {"a": "b"}', 'data:  3', 'retry: 10'),
      fc.string({ maxLength: 6 }).map((t) => `data: ${t}`),
    )
    const body = fc.tuple(fc.array(line, { maxLength: 12 }), fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 12, maxLength: 12 }))
      .map(([lines, ends]) => lines.map((l, i) => l + ends[i]).join(''))
    fc.assert(
      fc.property(body, (b) => {
        expect(sseMessages(b)).toEqual(byEvents(b))
      }),
      { numRuns: 2_000 },
    )
  })

  test.each([
    ['HTTP error', { status: 502, ok: false, headers: {}, text: 'bad gateway' }, 'HTTP 502'],
    ['not JSON', { status: 200, ok: true, headers: { 'content-type': 'text/html' }, text: '<html>' }, 'the reply is not JSON'],
    ['another id', json({ jsonrpc: '2.0', id: 8, result: result({}) }), 'the reply answers another request'],
    ['no answer at all', json({ jsonrpc: '2.0', method: 'ping' }), 'the reply holds no JSON-RPC answer'],
    ['a JSON-RPC error', json({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } }), 'JSON-RPC error -32601: Method not found'],
    ['an isError result', json({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'no such venture V-999' }], isError: true } }), 'the tool answered an error: no such venture V-999'],
    ['an empty SSE stream', sse(''), 'the reply holds no JSON-RPC answer'],
  ])('%s is a failure with a short reason', (_name, reply, detail) => {
    expect(readMcpReply(reply, 7)).toEqual({ ok: false, detail })
  })

  test('a long error text is cut for the log line', () => {
    const out = readMcpReply(json({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x'.repeat(1000) } }), 1)
    expect(out.ok).toBe(false)
    expect(!out.ok && out.detail.length).toBeLessThan(160)
  })

  test('a result that is not an object is no tool result', () => {
    expect(toolPayload('nope')).toEqual({ ok: false, detail: 'the reply has no tool result' })
  })

  test('a batch array holding our answer', () => {
    expect(readMcpReply(json([{ jsonrpc: '2.0', id: 2, result: result(1) }, { jsonrpc: '2.0', id: 7, result: result(2) }]), 7)).toEqual({ ok: true, payload: 2 })
  })
})

describe('hostile replies', () => {
  const KEY = 'hark_secret_key_abcdef123456'
  test('the access key Hark echoes never reaches the detail, even cut short', () => {
    const long = `${'x'.repeat(470)} token ${KEY} revoked`
    const rpc = readMcpReply(json({ jsonrpc: '2.0', id: 1, error: { code: 1, message: `token ${KEY} revoked` } }), 1, KEY)
    const tool = readMcpReply(json({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: long }], isError: true } }), 1, KEY)
    for (const out of [rpc, tool]) {
      expect(out.ok).toBe(false)
      expect(JSON.stringify(out)).not.toContain(KEY.slice(0, 10))
    }
  })

  test('control characters and bidi overrides leave the excerpt', () => {
    const out = readMcpReply(json({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'a\u001b[2Jb\u202ec\r\nd' } }), 1)
    expect(out).toEqual({ ok: false, detail: 'JSON-RPC error 1: a [2Jb c d' })
  })

  test('a payload nested deeper than 64 levels is refused, quickly', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
    const started = performance.now()
    const out = readMcpReply({ status: 200, ok: true, headers: { 'content-type': 'application/json' }, text: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":${JSON.stringify(deep)}}]}}` }, 1)
    expect(out).toEqual({ ok: false, detail: 'the reply is nested too deeply' })
    const structured = readMcpReply(json({ jsonrpc: '2.0', id: 1, result: { structuredContent: { a: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) } } }), 1)
    expect(structured).toEqual({ ok: false, detail: 'the reply is nested too deeply' })
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  test('a reply over 16 MB is not read', () => {
    expect(readMcpReply({ status: 200, ok: true, headers: {}, text: ' '.repeat(16 * 1024 * 1024 + 1) }, 1)).toEqual({ ok: false, detail: 'the reply is too large' })
  })
})
