/**
 * The world beneath the plugin in `claude plugin test`: an in-memory Hark behind `$.http.fetch`,
 * an in-memory file system, plugin store and environment, a mocked clock, and the engine's own
 * answers to the events the plugin hooks. It records what the plugin did (status lines, log lines,
 * questions, commands) and what it must never do (write a file, start a program, read another
 * variable), so a test asserts on outcomes.
 */
import type { On } from 'claude-code'
import { mock, type MockClock } from 'claude-code/testing'
import { InMemoryHark } from '../adapters/fake-hark/in-memory-hark'
import { conversationKeyInput, type ConversationKey } from '../core/domain/conversation/keys'

export const KEY = 'hark_test_key_0123456789'

/**
 * Test options: the access key set (or not), and a time limit above the kit's 5 s, since each test
 * loads the plugin afresh and a busy machine can take seconds to do it.
 */
export const WITH_KEY = { options: { access_key: KEY }, timeoutMs: 30_000 } as const
export const NO_KEY = { timeoutMs: 30_000 } as const
export const PROJECT = '/home/dev/ledger'
export const SESSION = '6f1d2c3b-0000-4000-8000-000000000001'
export const STARTED_AT = 1_767_000_000_000

/** The plugin store, shared between "processes" when a test passes the same one to several worlds. */
export class FakeStore {
  readonly data = new Map<string, unknown>()
  /** Make every write reject (a damaged store, a lock not granted). */
  refuseWrites = false
  /** Make every write hang until released. */
  hangWrites = false
  /** Refuse only the writes of keys this matches (a claim refused while records are stored, say). */
  refuseKeys: RegExp | undefined
  readonly writes: string[] = []
  /** The keys read, in order. */
  readonly reads: string[] = []
  /** Make every read of keys hang (a store whose lock is never granted). */
  hangReads = false

  constructor(entries: Record<string, unknown> = {}) {
    for (const [k, v] of Object.entries(entries)) this.data.set(k, v)
  }

  keysWith(prefix: string): string[] {
    return [...this.data.keys()].filter((k) => k.startsWith(prefix))
  }
}

export interface WorldOptions {
  /** Files by absolute path. Default: the project file `.hark/project` holding V-012. */
  files?: Record<string, string>
  /** The working directory (default the project root). */
  cwd?: string
  env?: Record<string, string>
  store?: FakeStore
  hark?: InMemoryHark
  sessionId?: string
  startedAt?: number
  turns?: number
  now?: number
  /** How the person answers the guard's question: a label, or 'dismiss'. */
  answer?: string | 'dismiss'
  /** What the engine answers for a tool call, by tool: the whole tool.call result. Default `{ result: { ok: true } }`. */
  toolResults?: Record<string, (input: Record<string, unknown>) => unknown>
  /** What the engine answers for a compaction (default: the messages, cut to the last one); `{ skip }` skips it. */
  compact?: (e: { trigger: string; messages: readonly unknown[] }) => unknown
}

export interface World {
  readonly hark: InMemoryHark
  readonly store: FakeStore
  readonly clock: MockClock
  readonly files: Map<string, string>
  readonly statuses: (string | undefined)[]
  readonly logs: string[]
  readonly questions: { question: string; options: string[] }[]
  readonly commands: string[]
  readonly envReads: string[]
  readonly fileReads: string[]
  readonly fileWrites: string[]
  readonly processRuns: unknown[]
  readonly invalidated: string[]
  answer: string | 'dismiss'
  sessionId: string
  startedAt: number
  turns: number
  lastStatus(): string | undefined
}

/** The plugin's manifest as the plugin reads it from its root. */
export const MANIFEST = JSON.stringify({ name: 'hark-memory', version: '0.2.3' })

export const DEFAULT_FILES: Record<string, string> = { [`${PROJECT}/.hark/project`]: 'V-012\n' }

export function createWorld(on: On, options: WorldOptions = {}): World {
  const hark = options.hark ?? new InMemoryHark(undefined, KEY)
  const store = options.store ?? new FakeStore()
  const clock = mock.clock(on, { now: options.now ?? STARTED_AT + 1_000 })
  const files = new Map(Object.entries(options.files ?? DEFAULT_FILES))
  const env = options.env ?? {}
  const world: World = {
    hark,
    store,
    clock,
    files,
    statuses: [],
    logs: [],
    questions: [],
    commands: [],
    envReads: [],
    fileReads: [],
    fileWrites: [],
    processRuns: [],
    invalidated: [],
    answer: options.answer ?? 'Allow',
    sessionId: options.sessionId ?? SESSION,
    startedAt: options.startedAt ?? STARTED_AT,
    turns: options.turns ?? 0,
    lastStatus: () => world.statuses.at(-1),
  }
  const cwd = options.cwd ?? PROJECT

  // The network: Hark, in memory.
  on('http.fetch', async (_$, e) => {
    try {
      return { value: await hark.handle(e.url, { ...(e.init ?? {}) } as never) }
    } catch (error) {
      // A refused connection: the engine rejects the plugin's fetch.
      return { deny: error instanceof Error ? error.message : String(error) }
    }
  })

  // The plugin store.
  on('store.get', (_$, e) => {
    store.reads.push(e.key)
    return { value: store.data.get(e.key) }
  })
  on('store.keys', async () => {
    if (store.hangReads) await new Promise(() => undefined)
    return { value: [...store.data.keys()] }
  })
  on('store.delete', (_$, e) => {
    store.data.delete(e.key)
    return { value: undefined }
  })
  on('store.set', async (_$, e) => {
    store.writes.push(e.key)
    if (store.hangWrites) await new Promise(() => undefined)
    if (store.refuseWrites || store.refuseKeys?.test(e.key) === true) return { deny: 'the store file is damaged' }
    // The engine keeps JSON data: what comes back is a copy.
    store.data.set(e.key, JSON.parse(JSON.stringify(e.value ?? null)))
    return { value: undefined }
  })

  // The file system: reads from memory; a write is recorded (the plugin must never write).
  on('fs.read', (_$, e) => {
    // The plugin reads its own manifest for the User-Agent.
    if (e.path.endsWith('/.claude-plugin/plugin.json')) return { value: MANIFEST }
    world.fileReads.push(e.path)
    const text = files.get(e.path)
    if (text === undefined) return { deny: `${e.path} failed: ENOENT` }
    const opts = (e as { options?: { offset?: number; length?: number } }).options
    if (opts?.offset !== undefined || opts?.length !== undefined) {
      const bytes = new TextEncoder().encode(text)
      const start = opts.offset ?? 0
      return { value: new TextDecoder().decode(bytes.slice(start, start + (opts.length ?? bytes.length))) }
    }
    return { value: text }
  })
  on('fs.stat', (_$, e) => {
    const text = files.get(e.path)
    if (text === undefined) return { deny: `${e.path} failed: ENOENT` }
    const size = sizes.get(e.path) ?? new TextEncoder().encode(text).length
    return { value: { kind: 'file', size, mtimeMs: 0, isLink: false } }
  })
  on('fs.write', (_$, e) => {
    world.fileWrites.push(e.path)
    return { value: undefined }
  })
  on('process.run', (_$, e) => {
    world.processRuns.push(e)
    return { deny: 'no programs in tests' }
  })
  on('env.get', (_$, e) => {
    world.envReads.push(e.name)
    return { value: env[e.name] }
  })

  // The session.
  on('session.id', () => ({ value: world.sessionId }))
  on('session.cwd', () => ({ value: cwd }))
  on('session.root', () => ({ value: cwd }))
  on('session.turns', () => ({ value: world.turns }))
  on('session.usage', () => ({ value: { startedAt: world.startedAt, context: { window: 200_000 }, rateLimits: [] } }))
  on('session.version', () => ({ value: { version: '2.1.332', base: '2.1.332' } }))

  // The interface.
  on('ui.status', (_$, e) => {
    world.statuses.push(e.text)
    return { value: undefined }
  })
  on('ui.log', (_$, e) => {
    world.logs.push(e.text)
    return { value: undefined }
  })
  on('ui.invalidate', (_$, e) => {
    world.invalidated.push(e.event)
    return { value: undefined }
  })
  on('command.register', (_$, e) => {
    world.commands.push(e.name)
    return { value: { command: e.name } }
  })
  // $.ui.ask is an AskUserQuestion tool call underneath.
  on('tool.call', { tool: 'AskUserQuestion' }, (_$, e) => {
    const q = (e as unknown as { questions: { question: string; options: { label: string }[] }[] }).questions[0]
    world.questions.push({ question: q?.question ?? '', options: (q?.options ?? []).map((o) => o.label) })
    if (world.answer === 'dismiss') return { isError: true, result: 'The user dismissed the question', text: 'The user dismissed the question' }
    return { result: { questions: [], answers: { [q?.question ?? '']: world.answer } } }
  })

  // The engine's own answers to the events the plugin hooks.
  on('session.start', (_$, e) => ({ cwd: e.cwd }))
  on('prompt.context', (_$, e) => ({ blocks: e.blocks }))
  on('prompt.submit', (_$, e) => ({ text: e.text, origin: e.origin }))
  on('turn.complete', (_$, e) => ({ text: e.answer }))
  on('session.end', (_$, e) => ({ sessionId: e.sessionId }))
  on('classic.SessionEnd', () => ({}))
  on('session.compact', (_$, e) => (options.compact === undefined ? { messages: e.messages.slice(-1) } : (options.compact(e) as never)))
  on('tool.call', (_$, e) => {
    const input = e as unknown as Record<string, unknown>
    const answer = options.toolResults?.[e.tool]
    return (answer === undefined ? { result: { ok: true } } : answer(input)) as never
  })
  return world
}

/** Runs `/hark <args>` as the person would type it. */
export function hark($: { command: { run: (e: { command: string; args: string; origin: { kind: 'composer' }; presentation: { isFullscreen: boolean; columns: number } }) => Promise<{ text?: string }> } }, args: string) {
  return $.command.run({ command: 'hark', args, origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 100 } })
}

/** Sizes that differ from the text held (a transcript "over 4 MiB"). */
export const sizes = new Map<string, number>()

/** The session's first hooks, as Claude Code runs them at the start of a -p run. */
export async function startSession($: { session: { start: (e: { cwd: string; surface: null; isInteractive: boolean }) => Promise<unknown> } }, cwd = PROJECT) {
  await $.session.start({ cwd, surface: null, isInteractive: false })
}

/**
 * One conversation played by several processes, one per test, in a chain of tests: the kit loads the
 * plugin afresh for every test (a fresh plugin load: a "process") while the test file's own variables
 * survive, so the store and the time go on from one process to the next (see docs/engine.md,
 * "Several processes of one conversation in the test kit"). Each process gets its own in-memory Hark,
 * so a test counts what that process sent.
 */
export class Conversation {
  readonly store: FakeStore
  readonly worlds: World[] = []
  /** The time the next process starts at (the last process's clock, or what `pass` made of it). */
  now: number

  constructor(options: { store?: FakeStore; now?: number } = {}) {
    this.store = options.store ?? new FakeStore()
    this.now = options.now ?? STARTED_AT + 1_000
  }

  /** A process of this conversation (same launch time unless given), over the shared store, from the time reached so far. */
  process(on: On, options: WorldOptions = {}): World {
    const last = this.worlds.at(-1)
    if (last !== undefined) this.now = Math.max(this.now, last.clock.now())
    const world = createWorld(on, { store: this.store, now: this.now, ...options })
    this.worlds.push(world)
    return world
  }

  /** Time passing between two processes. */
  pass(ms: number): void {
    const last = this.worlds.at(-1)
    if (last !== undefined) this.now = Math.max(this.now, last.clock.now())
    this.now += ms
  }
}

/**
 * Drives the mock clock until `work` settles (a store or Hark that hangs waits on the plugin's clock),
 * in `stepMs` steps, at most `maxMs`. Resolves to the mock time it took, or rejects past `maxMs`.
 */
export async function settle(clock: MockClock, work: Promise<unknown>, maxMs = 20_000, stepMs = 50): Promise<number> {
  let done = false
  const watched = work.then(
    () => {
      done = true
    },
    () => {
      done = true
    },
  )
  const start = clock.now()
  await clock.settle()
  while (!done) {
    if (clock.now() - start > maxMs) throw new Error(`still waiting after ${maxMs} ms of the mock clock`)
    await clock.advance(stepMs)
  }
  await watched
  return clock.now() - start
}

/** The conversation key the plugin computes: SHA-256 of the project root and the first launch time. */
export async function conversationKey(root = PROJECT, startedAt = STARTED_AT): Promise<ConversationKey> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(conversationKeyInput(root, startedAt)))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('') as ConversationKey
}
