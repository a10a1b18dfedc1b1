/**
 * Reading an MCP `tools/call` reply (HARK-API.md, Transport): one JSON-RPC 2.0 message as the body
 * (`application/json`) or inside a `text/event-stream` body, where the event whose message has the
 * request's id is the answer. The tool's payload is `structuredContent` when present, otherwise the
 * text content parsed as JSON, otherwise the text itself. Every failure is a value with a short,
 * secret-free reason for the log line.
 */

export interface HttpReply {
  readonly status: number
  readonly ok: boolean
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}
import { isReasonable } from '../../core/domain/item'
import { redactAccessKey } from '../../core/domain/notes'

export type McpOutcome = { readonly ok: true; readonly payload: unknown } | { readonly ok: false; readonly detail: string }

const EXCERPT = 120
/** A reply body longer than this is not read (characters; Hark's answers are far smaller). */
export const MAX_REPLY = 16 * 1024 * 1024

/** A short, single-line excerpt of Hark's words for a log line, with `secret` (the access key) taken out first. */
function excerpt(text: string, secret?: string): string {
  // Every piece of the key, in any case (Hark may echo it lower-cased, or cut): see redactAccessKey.
  const clean = redactAccessKey(text, secret)
  // eslint-disable-next-line no-control-regex
  const line = clean.slice(0, 4 * EXCERPT).replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim()
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 3)}...` : line
}

/** A reply that could not be read, with `detail` for the log line. */
const failed = (detail: string): McpOutcome => ({ ok: false, detail })

/** A payload, unless nested too deeply to be read safely (`isReasonable`). */
const reasonable = (payload: unknown): McpOutcome => (isReasonable(payload) ? { ok: true, payload } : failed('the reply is nested too deeply'))

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * The JSON-RPC messages an SSE body carries: each event's `data:` lines joined, parsed (a blank line ends
 * an event). Split at each `\n`, not with a regex: JavaScriptCore, which runs the hooks, splits with a
 * regex one position at a time, about 9 ms over the 120 KB reply of 200 decisions.
 */
export function sseMessages(body: string): unknown[] {
  const out: unknown[] = []
  let data: string[] = []
  for (const line of `${body.replace(/\r\n?/g, '\n')}\n`.split('\n')) {
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5))
    else if (line === '' && data.length > 0) {
      try {
        out.push(JSON.parse(data.join('\n')))
      } catch {
        // An event that is not JSON (a comment, a keep-alive) carries no answer.
      }
      data = []
    }
  }
  return out
}

/** The JSON-RPC answers among `messages` (objects with a `result` or an `error`). */
const answers = (messages: readonly unknown[]): Record<string, unknown>[] => messages.filter((m): m is Record<string, unknown> => isObject(m) && ('result' in m || 'error' in m))

/** The tool payload of a `tools/call` result (HARK-API.md). */
export function toolPayload(result: unknown, secret?: string): McpOutcome {
  if (!isObject(result)) return failed('the reply has no tool result')
  const texts = Array.isArray(result['content'])
    ? result['content'].filter((c): c is Record<string, unknown> => isObject(c) && c['type'] === 'text' && typeof c['text'] === 'string').map((c) => c['text'] as string)
    : []
  if (result['isError'] === true) return failed(`the tool answered an error: ${excerpt(texts.join(' '), secret) || 'no reason given'}`)
  const structured = result['structuredContent']
  if (structured !== undefined && structured !== null) return reasonable(structured)
  const text = texts.join('\n')
  try {
    return reasonable(JSON.parse(text))
  } catch {
    return { ok: true, payload: text }
  }
}

/** Reads the HTTP reply to JSON-RPC request `id`; `secret` never appears in a failure's detail. */
export function readMcpReply(reply: HttpReply, id: number, secret?: string): McpOutcome {
  const { text } = reply
  if (!reply.ok) return failed(`HTTP ${reply.status}`)
  if (text.length > MAX_REPLY) return failed('the reply is too large')
  let messages: unknown[]
  if ((reply.headers['content-type'] ?? '').toLowerCase().includes('text/event-stream')) {
    messages = sseMessages(text)
  } else {
    try {
      messages = [JSON.parse(text)]
    } catch {
      // Some servers send SSE without the header; try that before giving up.
      messages = sseMessages(text)
      if (messages.length === 0) return failed('the reply is not JSON')
    }
  }
  // The answer to `id`, in a batch too; another answer, outside a batch, is one to another request.
  const message = answers(messages.flat()).find((m) => m['id'] === id)
  if (message === undefined) return failed(answers(messages).length > 0 ? 'the reply answers another request' : 'the reply holds no JSON-RPC answer')
  if ('error' in message) {
    const error = isObject(message['error']) ? message['error'] : {}
    const code = typeof error['code'] === 'number' ? ` ${error['code']}` : ''
    const detail = typeof error['message'] === 'string' ? `: ${excerpt(error['message'], secret)}` : ''
    return failed(`JSON-RPC error${code}${detail}`)
  }
  return toolPayload(message['result'], secret)
}
