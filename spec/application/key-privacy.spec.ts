// The key only in the Authorization header (SPEC.md: Setup 2; Every outbound request, Never sent), proven: property tests over the whole
// plugin in Node. Random access keys; Claude's notes, commit subjects and pull request URLs that
// hold the key (whole, split across lines, in another case, inside URLs and code blocks); Hark
// failures whose bodies and error texts echo it. A short session runs each time (start, context, a
// prompt, an edit, a Bash run with a commit, notes, /hark brief and needs, the exit's handoff), and
// nothing the plugin says, stores or sends but the Authorization header holds the key or any
// 12-character piece of it, in any case.
import fc from 'fast-check'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark, type FakeHttpReply } from '../../adapters/fake-hark/in-memory-hark'
import type { EnginePorts } from '../../adapters/claude-code/engine-ports'
import { memoryPorts } from '../memory-ports'
import type { UseCases } from '../../adapters/claude-code/application'
import type { BashReport } from '../../core/domain/bash-report'
import { cleanNotes, cleanSubject, redactAccessKey } from '../../core/domain/notes'
import { readMcpReply } from '../../adapters/hark/mcp-reply'
import { McpHarkGateway, type HarkEndpoint, type HarkIdentity } from '../../adapters/hark/mcp-hark.gateway'
import type { ConversationId } from '../../core/domain/conversation/keys'
import { v } from '../support'

const ROOT = '/spec/project'
const NOW = 1_767_000_000_000
/** The length of a piece of the key that must never come out. */
const PIECE = 12

// ---------------------------------------------------------------------------------------------
// What must not come out

/** A-Z to a-z only, so indices stay put (String.prototype.toLowerCase can change a text's length). */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** The key's pieces: every 12-character substring, or the whole key when it is shorter. */
function piecesOf(key: string): string[] {
  const n = Math.min(PIECE, key.length)
  const out = new Set<string>()
  for (let i = 0; i + n <= key.length; i++) out.add(key.slice(i, i + n))
  return [...out]
}

/** The first piece of the key `text` holds: exactly, else in any case; undefined when none. */
function leakIn(text: string, key: string): string | undefined {
  const lower = asciiLower(text)
  for (const piece of piecesOf(key)) {
    if (text.includes(piece)) return `'${piece}'`
    if (lower.includes(asciiLower(piece))) return `'${piece}' (in another case)`
  }
  return undefined
}

/** Every string inside a JSON-like value (keys included), so a key escaped by JSON.stringify is still seen. */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out)
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k)
      stringsIn(v, out)
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// The world

/** How Hark answers one tool: as the fake does, or a failure whose text is `echo`. */
type Failure =
  | { readonly kind: 'http'; readonly status: number; readonly echo: string }
  | { readonly kind: 'rpc'; readonly echo: string }
  | { readonly kind: 'tool'; readonly echo: string }
  | { readonly kind: 'sse-rpc'; readonly echo: string }
  | { readonly kind: 'reject'; readonly echo: string }

const TOOLS = ['get_agent_brief', 'list_journal_entries', 'list_candidates', 'get_venture', 'end_session', 'session_stopped', 'close_session'] as const

interface Seen {
  /** Status and log lines. */
  readonly said: string[]
  /** /hark's texts, context blocks, the first task's brief, edit verdicts, thrown errors. */
  readonly shown: string[]
  /** Each request's headers and body. */
  readonly requests: { headers: Record<string, string>; body: string }[]
}

function world(key: string, failures: Partial<Record<string, Failure>>) {
  const data = new Map<string, unknown>()
  const hark = new InMemoryHark(undefined, key)
  const app = compose({ access_key: key })
  const seen: Seen = { said: [], shown: [], requests: [] }

  const fail = (failure: Failure, body: string): FakeHttpReply => {
    const id = (JSON.parse(body) as { id?: unknown }).id
    const json = (value: unknown, type = 'application/json') => ({ status: 200, ok: true, headers: { 'content-type': type }, text: JSON.stringify(value) })
    switch (failure.kind) {
      case 'http':
        return { status: failure.status, ok: false, headers: { 'content-type': 'text/plain' }, text: failure.echo }
      case 'rpc':
        return json({ jsonrpc: '2.0', id, error: { code: -32000, message: failure.echo, data: failure.echo } })
      case 'tool':
        return json({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: failure.echo }], isError: true } })
      case 'sse-rpc': {
        const text = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: failure.echo } })}\n\n`
        return { status: 200, ok: true, headers: { 'content-type': 'text/event-stream' }, text }
      }
      case 'reject':
        throw new Error(failure.echo)
    }
  }

  const ports = (): EnginePorts =>
    memoryPorts({
      data,
      root: ROOT,
      now: NOW,
      said: seen.said,
      post: async (headers, body) => {
        seen.requests.push({ headers: { ...headers }, body })
        const tool = (JSON.parse(body) as { params?: { name?: string } }).params?.name ?? ''
        const failure = failures[tool]
        if (failure !== undefined) return fail(failure, body)
        return hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body })
      },
    })

  /** One hook call, as the hooks adapter runs it: a throw becomes one log line. */
  const hook = async (event: string, work: (uc: UseCases) => Promise<void>) => {
    try {
      await work(app.useCases(ports()))
    } catch (error) {
      seen.shown.push(`the ${event} hook failed (${error instanceof Error ? error.message : String(error)})`)
    }
  }
  return { data, seen, hook }
}

/** A short session: start, context, a prompt, an edit, a Bash run, notes, /hark brief and needs, the exit. */
async function session(key: string, failures: Partial<Record<string, Failure>>, report: BashReport, answer: string) {
  const { data, seen, hook } = world(key, failures)
  const text = (value: unknown) => void seen.shown.push(typeof value === 'string' ? value : JSON.stringify(value) ?? '')
  await hook('session.start', (uc) => uc.start.onSessionStart(ROOT))
  await hook('prompt.context', async (uc) => {
    await uc.start.ensureStarted()
    text(await uc.context.blocks([]))
  })
  await hook('prompt.submit', async (uc) => {
    await uc.start.forPrompt()
    await uc.prompt.run()
    const owed = uc.start.takeOwedBrief()
    if (owed !== undefined) text(await uc.context.briefForFirstTask(owed))
  })
  const file = `${ROOT}/src/db/ledger.sql`
  await hook('tool.call', async (uc) => {
    await uc.start.ensureStarted()
    text(await uc.guard.before(file))
  })
  await hook('tool.call', (uc) => uc.guard.after(file))
  await hook('tool.call', async (uc) => {
    await uc.start.ensureStarted()
    await uc.work.bash(report)
  })
  await hook('turn.complete', (uc) => uc.work.notes(answer))
  for (const args of ['brief', 'needs']) {
    await hook('command.run', async (uc) => {
      await uc.start.forPerson()
      text(await uc.command.run(args))
    })
  }
  await hook('session.end', async (uc) => void text(await uc.handOff.run({ left: () => 1_500 })))
  return { data, seen }
}

/** Where the key came out, if anywhere: each place the plugin can speak, store or send, but Authorization. */
function leaks(key: string, data: Map<string, unknown>, seen: Seen): string[] {
  const found: string[] = []
  const check = (where: string, text: string) => {
    const leak = leakIn(text, key)
    if (leak !== undefined) found.push(`${where}: ${leak} in ${JSON.stringify(text.slice(0, 300))}`)
  }
  for (const line of seen.said) check('host', line)
  for (const shown of seen.shown) check('shown', shown)
  for (const [k, value] of data) {
    check('store key', k)
    check(`store ${k}`, JSON.stringify(value) ?? '')
    for (const s of stringsIn(value)) check(`store ${k}`, s)
  }
  for (const { headers, body } of seen.requests) {
    for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'authorization') check(`header ${name}`, `${name}: ${value}`)
    // The body as sent, each JSON escape as one character no key holds: an escape's letter next to the text
    // around it (`n\\nCG…` for the notes `n⏎CG…`) is not the key; every string in it is checked decoded below.
    check('request body', body.replace(/\\(?:u[0-9a-fA-F]{4}|.)/g, '\u0000'))
    for (const s of stringsIn(JSON.parse(body))) check('request body', s)
  }
  return found
}

// ---------------------------------------------------------------------------------------------
// Generators

/**
 * The plugin's own words: its source (every fixed text it can say or send, the fake's project
 * included) and what a session says with another key and nothing secret in it. A key with a piece
 * among these (fast-check shrinks towards keys like `rguments`) would be found where the plugin
 * only said its own words: such keys are left out, the only keys the property skips.
 */
const OWN_WORDS = (() => {
  const texts: string[] = []
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (path.endsWith('.ts')) texts.push(readFileSync(path, 'utf8'))
    }
  }
  for (const dir of ['core', 'adapters', 'composition']) visit(join(import.meta.dirname, '../..', dir))
  return asciiLower(texts.join('\n'))
})()
let baseline: string | undefined

/** A key as the settings keep it: printable ASCII, trimmed, none of its pieces among the plugin's own words. */
const keyArb = fc
  .string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 200 })
  .filter((k) => k.trim() === k && piecesOf(k).every((p) => !OWN_WORDS.includes(asciiLower(p)) && !(baseline ?? '').includes(asciiLower(p))))

/** Text around the key: words, punctuation, no key of its own. */
const filler = fc.string({ unit: fc.constantFrom(...'abc XYZ 019 .,:-_/\n'.split('')), maxLength: 40 })

/** The key as Claude might write it: whole, split across lines, in another case, in a URL or a code block. */
const keyForm = (key: string) =>
  fc.oneof(
    fc.constant(key),
    fc.integer({ min: 1, max: key.length - 1 }).map((at) => `${key.slice(0, at)}\n${key.slice(at)}`),
    fc.constant(key.toUpperCase()),
    fc.constant(key.toLowerCase()),
    fc.constant(`https://harkstudio.io/mcp?access_key=${encodeURIComponent(key)}&x=1`),
    fc.constant(`https://example.com/${key}/done`),
    fc.constant(`https://user:${key}@example.com/repo.git`),
    fc.constant(`\`\`\`sh\nexport HARK_KEY=${key}\n\`\`\``),
    fc.constant(`\`${key}\``),
  )

const textWithKey = (key: string) => fc.tuple(filler, keyForm(key), filler).map(([a, k, b]) => `${a} ${k} ${b}`)

/** A Bash run that committed: the subject (from git's summary line, or from the command's -m) holds the key. */
const reportArb = (key: string) =>
  fc
    .record({
      subject: textWithKey(key),
      fromStdout: fc.boolean(),
      pr: fc.option(keyForm(key).map((k) => `https://github.com/acme/ledger/pull/7/${k}`), { nil: undefined }),
    })
    .map(({ subject, fromStdout, pr }): BashReport => {
      const line = subject.replace(/\n/g, ' ')
      return {
        command: fromStdout ? 'git commit -F msg.txt' : `git commit -m ${JSON.stringify(line)}`,
        failed: false,
        ...(fromStdout ? { stdout: `[main 1a2b3c4] ${line}\n 1 file changed, 2 insertions(+)\n` } : {}),
        commit: { sha: '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b' },
        ...(pr === undefined ? {} : { pullRequestUrl: pr }),
      }
    })

/** Hark's echo of the key in a failure: with words around it, after a long text, in another case, in a URL. */
const echoArb = (key: string) =>
  fc.oneof(
    textWithKey(key),
    fc.integer({ min: 0, max: 160 }).map((n) => `${'x'.repeat(n)} ${key}`),
    fc.constant(`fetch(https://harkstudio.io/mcp) failed: invalid token ${key}`),
    fc.constant(`Bearer ${key.toLowerCase()} was refused`),
  )

const failureArb = (key: string): fc.Arbitrary<Failure> =>
  fc.oneof(
    fc.record({ kind: fc.constant('http' as const), status: fc.constantFrom(400, 401, 404, 429, 500, 502), echo: echoArb(key) }),
    fc.record({ kind: fc.constant('rpc' as const), echo: echoArb(key) }),
    fc.record({ kind: fc.constant('tool' as const), echo: echoArb(key) }),
    fc.record({ kind: fc.constant('sse-rpc' as const), echo: echoArb(key) }),
    fc.record({ kind: fc.constant('reject' as const), echo: echoArb(key) }),
  )

const failuresArb = (key: string) =>
  fc.record(Object.fromEntries(TOOLS.map((t) => [t, fc.option(failureArb(key), { nil: undefined, freq: 2 })])) as Record<string, fc.Arbitrary<Failure | undefined>>)

const sessionArb = keyArb.chain((key) =>
  fc.record({ key: fc.constant(key), failures: failuresArb(key), report: reportArb(key), answer: textWithKey(key) }),
)

// ---------------------------------------------------------------------------------------------

describe('the access key, only in the Authorization header', () => {
  beforeAll(async () => {
    const key = 'hark_baseline_key_0123456789'
    const report: BashReport = { command: 'git commit -m "Fix the rounding"', failed: false, commit: { sha: '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b' } }
    const { data, seen } = await session(key, {}, report, 'Done: the deposits round half-even.')
    const bodies = seen.requests.flatMap((r) => [r.body, ...Object.values(r.headers)])
    baseline = asciiLower([...seen.said, ...seen.shown, ...bodies, ...[...data].map((e) => JSON.stringify(e))].join('\n'))
  })

  test('a session whose notes, commit and Hark failures hold the key: no piece of it comes out anywhere else', async () => {
    await fc.assert(
      fc.asyncProperty(sessionArb, async ({ key, failures, report, answer }) => {
        const { data, seen } = await session(key, failures, report, answer)
        // The session did talk to Hark, with the key where it belongs.
        expect(seen.requests.length).toBeGreaterThan(0)
        for (const { headers } of seen.requests) expect(headers['Authorization']).toBe(`Bearer ${key}`)
        expect(leaks(key, data, seen)).toEqual([])
      }),
      { numRuns: 80 },
    )
  }, 60_000) // 80 whole sessions: a busy machine takes more than vitest's 5 s

  test('a session where Hark answers: the notes and the commit reach the handoff, without the key', async () => {
    await fc.assert(
      fc.asyncProperty(sessionArb, async ({ key, report, answer }) => {
        const { data, seen } = await session(key, {}, report, answer)
        const handoff = seen.requests.find((r) => r.body.includes('"end_session"'))
        expect(handoff).toBeDefined()
        expect(leaks(key, data, seen)).toEqual([])
      }),
      { numRuns: 40 },
    )
  }, 60_000)
})

// The counterexamples the properties found (shrunk by fast-check), as plain regression tests.
describe('leaks the properties found', () => {
  test.each([
    ['nCG.`GbD-atU', ' n\nCG.`GbD-atU '],
    ['!         #\\   !', ' !         #\n\\   ! '],
  ])('notes holding the key %j split where the line end’s JSON escape meets it: no piece of it is sent', async (key, answer) => {
    const report: BashReport = { command: 'git commit -m "Fix the rounding"', failed: false, commit: { sha: '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b' } }
    const { data, seen } = await session(key, {}, report, answer)
    expect(seen.requests.some((r) => r.body.includes('"end_session"'))).toBe(true)
    expect(leaks(key, data, seen)).toEqual([])
  })

  const gone = (text: string, key: string) => expect(leakIn(text, key)).toBeUndefined()

  test('notes holding the key in another case: `!   a" #` for the key `!   A" #`', () => {
    const key = '!   A" #'
    const notes = cleanNotes(' !   a" # ', key)
    gone(notes, key)
    expect(notes).toBe('[redacted]')
  })

  test('a commit subject holding the key lower-cased: the subject keeps its words, not the key', () => {
    const key = '-lleStritotyptycsPrttett'
    const subject = cleanSubject('Rotate -llestritotyptycsprttett today', key)
    gone(subject, key)
    expect(subject).toBe('Rotate [redacted] today')
  })

  test('notes holding the key split across lines: each half long enough to matter is redacted', () => {
    const key = 'hark_pat_0123456789abcdefghijKLMNOP'
    const notes = cleanNotes(`Set it to hark_pat_0123456789ab\ncdefghijKLMNOP and go.`, key)
    gone(notes, key)
    expect(notes).toBe('Set it to [redacted]\n[redacted] and go.')
  })

  test('a JSON-RPC error echoing the key lower-cased: `Bearer 05q%vzwo$-@~mx was refused`', () => {
    const key = '05q%VZwO$-@~mx'
    const reply = { status: 200, ok: true, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'Bearer 05q%vzwo$-@~mx was refused' } }) }
    const outcome = readMcpReply(reply, 7, key)
    expect(outcome).toEqual({ ok: false, detail: 'JSON-RPC error -32000: Bearer [redacted] was refused' })
  })

  test('a failed connection whose error ends with a long key: no piece of it survives the 160-character cut (found reading the code)', async () => {
    const key = `hark_pat_${'Zq7'.repeat(60)}`
    const identity: HarkIdentity = { accessKey: key, conversationId: () => '0123456789abcdef0123456789abcdef' as ConversationId, userAgent: async () => 'hark-mod/0.2.3 (claude-code/2.1.332)' }
    const endpoint: HarkEndpoint = { post: async () => Promise.reject(new Error(`fetch(https://harkstudio.io/mcp) failed: ${'x'.repeat(60)} ${key}`)) }
    const clock = { now: async () => NOW, sleep: (_ms: number, signal?: AbortSignal) => new Promise<void>((done) => signal?.addEventListener('abort', () => done())) }
    const out = await new McpHarkGateway(endpoint, clock, identity).getBrief(v('V-012'))
    expect(out.ok).toBe(false)
    gone(out.ok ? '' : out.detail, key)
  })

  test('a key shorter than 12 characters is matched whole, in any case; its parts alone stay', () => {
    expect(redactAccessKey('use AbCdEfGh9 or abcdefgh9', 'abcdEFGH9')).toBe('use [redacted] or [redacted]')
    expect(redactAccessKey('abcdefgh is not the key', 'abcdEFGH9')).toBe('abcdefgh is not the key')
  })
})
