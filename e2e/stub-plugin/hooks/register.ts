import type { Register } from 'claude-code'

// A stand-in for hark-memory, just enough to prove the e2e harness: one get_agent_brief at session start,
// the brief as a <hark-brief> block, one status line. Not the product: see the repository root for that.
const URL_ = 'https://harkstudio.io/mcp'

function hex32(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

// The answer is JSON or one SSE event whose data line holds the JSON-RPC message.
function payloadOf(text: string): unknown {
  const line = text.split('\n').find((l) => l.startsWith('data:'))
  const msg = JSON.parse(line ? line.slice(5) : text)
  const result = msg.result ?? {}
  return result.structuredContent ?? JSON.parse(result.content?.[0]?.text ?? 'null')
}

export const register: Register = (on, options) => {
  const key = typeof options.access_key === 'string' ? options.access_key : ''
  const conversation = hex32()
  let brief = ''
  let venture = ''

  on('session.start', async ($, e, next) => {
    try {
      venture = (await $.fs.read('.hark/project')).trim()
    } catch {
      return next(e)
    }
    if (!key) {
      $.ui.log('hark stub: no access key')
      return next(e)
    }
    try {
      const engine = await $.session.version()
      const r = await $.http.fetch(URL_, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${key}`,
          'User-Agent': `hark-mod/0.0.0-stub (claude-code/${engine.version})`,
          'X-Hark-Client': 'claude-code-mod',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'get_agent_brief',
            arguments: { venture, depth: 'compact' },
            _meta: { client: 'claude-code-mod', conversation },
          },
        }),
      })
      const data = payloadOf(r.text) as { open_candidates?: number } | null
      brief = JSON.stringify(data)
      $.ui.status(`Hark ${venture} · Open · ${data?.open_candidates ?? 0} need you`)
    } catch (err) {
      $.ui.log(`hark stub: brief failed: ${String(err).slice(0, 200)}`)
    }
    return next(e)
  })

  on('prompt.context', async ($, e, next) => {
    if (!brief) return next(e)
    return next({ ...e, blocks: [...e.blocks, { name: 'hark', text: `<hark-brief project="${venture}">\n${brief}\n</hark-brief>` }] })
  })
}
