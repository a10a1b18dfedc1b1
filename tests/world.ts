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
  /**
   * Another process holds the store's lock: each write and delete retries for about 0.7 s, then fails, as the
   * engine's does (docs/engine.md, "The store's lock"); one that finds the lock released meanwhile goes through.
   * Reads take no lock.
   */
  locked = false
  /** Hold the writes of keys this matches until `land` takes them: a store that takes writes late, in an order of its choosing. */
  holdKeys: RegExp | undefined
  /** The writes held, oldest first. */
  readonly held: { readonly key: string; readonly land: () => void }[] = []

  constructor(entries: Record<string, unknown> = {}) {
    for (const [k, v] of Object.entries(entries)) this.data.set(k, v)
  }

  keysWith(prefix: string): string[] {
    return [...this.data.keys()].filter((k) => k.startsWith(prefix))
  }

  /** Lets the held writes land, newest or oldest first; how many landed. */
  land(order: 'newest-first' | 'oldest-first'): number {
    const writes = this.held.splice(0)
    for (const w of order === 'newest-first' ? writes.reverse() : writes) w.land()
    return writes.length
  }
}

/** The engine's store lock (proper-lockfile): retried this often, and given up after this long (ms). */
const LOCK_RETRY_MS = 50
const LOCK_GIVE_UP_MS = 700


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
  /**
   * The operating system the engine says it runs on, answered through `session.info` (unset: no
   * `session.info` answer, as before). With it the world's file system is that platform's: on Windows
   * drive paths with `\` or `/` (the test host's folder taken off the front, see `hostPrefix`) and case
   * ignored; on macOS case and Unicode form ignored (APFS's default); on Linux names compared exactly.
   */
  platform?: WorldPlatform
  /**
   * Symbolic-link folders, link → where it lands (`/tmp` → `/private/tmp`), followed by `fs.read` and
   * `fs.stat`. Giving `platform` or `links` also makes `fs.stat` a file system's: `{ resolve: true }`
   * answers `realPath`, and a folder (cwd, one above it, or one holding a known file) is `kind: 'dir'`.
   */
  links?: Record<string, string>
}

/** The platforms a world can play (`SessionInfo.platform`). */
export type WorldPlatform = 'windows' | 'macos' | 'linux'

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
  /** Every `$.fs.stat` the plugin made, the path as the plugin spelled it (the test host's prefix taken off). */
  readonly stats: { path: string; resolve: boolean }[]
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
    stats: [],
    answer: options.answer ?? 'Allow',
    sessionId: options.sessionId ?? SESSION,
    startedAt: options.startedAt ?? STARTED_AT,
    turns: options.turns ?? 0,
    lastStatus: () => world.statuses.at(-1),
  }
  const cwd = options.cwd ?? PROJECT
  const disk = new WorldDisk(options.platform, options.links, cwd, files)

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
  /** Waits for the lock as the engine does: whether it was granted. */
  const lockGranted = async () => {
    for (let waited = 0; store.locked; waited += LOCK_RETRY_MS) {
      if (waited >= LOCK_GIVE_UP_MS) return false
      await clock.sleep(LOCK_RETRY_MS)
    }
    return true
  }
  const LOCK_HELD = '$.store.set failed: Lock file is already being held'
  on('store.delete', async (_$, e) => {
    if (!(await lockGranted())) return { deny: LOCK_HELD }
    store.data.delete(e.key)
    return { value: undefined }
  })
  on('store.set', async (_$, e) => {
    store.writes.push(e.key)
    if (store.hangWrites) await new Promise(() => undefined)
    if (store.holdKeys?.test(e.key) === true) await new Promise<void>((land) => store.held.push({ key: e.key, land }))
    if (!(await lockGranted())) return { deny: LOCK_HELD }
    if (store.refuseWrites || store.refuseKeys?.test(e.key) === true) return { deny: 'the store file is damaged' }
    // The engine keeps JSON data: what comes back is a copy.
    store.data.set(e.key, JSON.parse(JSON.stringify(e.value ?? null)))
    return { value: undefined }
  })

  // The file system: reads from memory; a write is recorded (the plugin must never write).
  on('fs.read', (_$, e) => {
    // The plugin reads its own manifest for the User-Agent.
    if (e.path.endsWith('/.claude-plugin/plugin.json')) return { value: MANIFEST }
    world.fileReads.push(disk.asked(e.path))
    const text = files.get(e.path) ?? disk.find(e.path)?.text
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
    const resolve = e.resolve === true
    world.stats.push({ path: disk.asked(e.path), resolve })
    if (!disk.isPlatform) {
      // The plain world, as before: known files only, no realPath.
      const text = files.get(e.path)
      if (text === undefined) return { deny: `${e.path} failed: ENOENT` }
      const size = sizes.get(e.path) ?? new TextEncoder().encode(text).length
      return { value: { kind: 'file', size, mtimeMs: 0, isLink: false } }
    }
    const stat = disk.stat(e.path, resolve)
    return stat === undefined ? { deny: `${e.path} failed: ENOENT` } : { value: stat }
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
  const platform = options.platform
  if (platform !== undefined) {
    // What the engine says of a local session on that machine: not hosted, not remote, no data rules.
    on('session.info', () => ({ value: { transcriptPath: '', platform, isHosted: false, isScreenReader: false, isWorkspaceRemote: false, dataRules: [] } }))
  }

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
  on('prompt.submit', (_$, e) => ({ text: e.text, origin: e.origin, ...(e.context === undefined ? {} : { context: e.context }) }))
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

/**
 * The test host runs on Linux: it takes a Windows path as relative and joins it to the plugin's folder
 * (the DIR given to `claude plugin test`), `/` segments folded, `\` kept: `C:\Work\x` reaches a test's `fs`
 * hooks as `<DIR>/C:\Work\x`, `C:/` as `<DIR>/C:`. Real Windows never shows that prefix, so a Windows world
 * takes it off. See docs/engine.md, "Paths on other platforms in the test kit".
 */
export const hostPrefix = /^\/.*?\/(?=[A-Za-z]:|[\\/]{2})/

/**
 * A platform's file system over the world's files: where a path lands (links followed, `.` and `..`
 * folded first, as the engine's tools resolve a path), and which spellings name one file (case ignored
 * on Windows and macOS, Unicode form on macOS). Files are named by where they land.
 */
class WorldDisk {
  private readonly windows: boolean
  private readonly ignoreCase: boolean
  private readonly links: [string, string][]

  constructor(
    private readonly platform: WorldPlatform | undefined,
    links: Record<string, string> | undefined,
    private readonly cwd: string,
    private readonly files: Map<string, string>,
  ) {
    this.windows = platform === 'windows'
    this.ignoreCase = platform === 'windows' || platform === 'macos'
    this.links = Object.entries(links ?? {}).map(([from, to]) => [this.absolute(from) ?? from, this.absolute(to) ?? to])
  }

  /** Whether the world plays a platform's file system (a platform or links given). */
  get isPlatform(): boolean {
    return this.platform !== undefined || this.links.length > 0
  }

  /**
   * The path as the plugin spelled it: on Windows without the test host's folder (and a drive's root,
   * whose `/` the host drops when it joins `C:/`, given back).
   */
  asked(path: string): string {
    if (!this.windows) return path
    const own = path.replace(hostPrefix, '')
    return /^[A-Za-z]:$/.test(own) && own !== path ? `${own}/` : own
  }

  /** A known file the path lands on, by the name it is held under. */
  find(path: string): { name: string; text: string; real: string } | undefined {
    if (!this.isPlatform) return undefined
    const real = this.land(path)
    if (real === undefined) return undefined
    const key = this.key(real)
    for (const [name, text] of this.files) {
      if (this.key(this.land(name) ?? name) === key) return { name, text, real }
    }
    return undefined
  }

  /** `$.fs.stat` of a path: a known file, a folder holding one (or the cwd and those above it); else undefined. */
  stat(path: string, resolve: boolean): { kind: 'file' | 'dir'; size: number; mtimeMs: number; isLink: boolean; realPath?: string } | undefined {
    const real = this.land(path)
    if (real === undefined) return undefined
    const isLink = this.isLink(path)
    const realPath = resolve ? { realPath: this.native(real) } : {}
    const file = this.find(path)
    if (file !== undefined) {
      const size = sizes.get(file.name) ?? new TextEncoder().encode(file.text).length
      return { kind: 'file', size, mtimeMs: 0, isLink, ...realPath }
    }
    return this.isFolder(real) ? { kind: 'dir', size: 0, mtimeMs: 0, isLink, ...realPath } : undefined
  }

  /** Where `path` lands, spelled with `/`: absolute, `.` and `..` folded, every link followed; undefined for a network or device path. */
  private land(path: string): string | undefined {
    const absolute = this.absolute(path)
    if (absolute === undefined) return undefined
    const [root, ...names] = this.split(absolute)
    let landed = root!
    for (const name of names) {
      landed = this.join(landed, name)
      // A link to a link is followed too (a bounded number of times).
      for (let hops = 0; hops < 8; hops++) {
        const link = this.links.find(([from]) => this.key(from) === this.key(landed))
        if (link === undefined) break
        landed = link[1]
      }
    }
    return landed
  }

  /** Absolute, `/`-separated, `.` and `..` folded; relative paths taken against the cwd. */
  private absolute(path: string): string | undefined {
    let p = this.asked(path)
    if (this.windows) {
      p = p.replace(/\\/g, '/')
      if (p.startsWith('//')) return undefined
      if (!/^[A-Za-z]:\//.test(p)) p = p.startsWith('/') ? `${this.absolute(this.cwd)!.slice(0, 2)}${p}` : `${this.absolute(this.cwd)}/${p}`
    } else if (!p.startsWith('/')) {
      p = `${this.cwd}/${p}`
    }
    const [root, ...rest] = p.startsWith('/') ? ['/', ...p.slice(1).split('/')] : [`${p.slice(0, 2)}/`, ...p.slice(3).split('/')]
    const names: string[] = []
    for (const name of rest) {
      if (name === '' || name === '.') continue
      if (name === '..') names.pop()
      else names.push(name)
    }
    return `${root}${names.join('/')}`
  }

  private split(absolute: string): string[] {
    const root = absolute.startsWith('/') ? '/' : absolute.slice(0, 3)
    return [root, ...absolute.slice(root.length).split('/').filter((n) => n !== '')]
  }

  private join(folder: string, name: string): string {
    return folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`
  }

  /** What two spellings of one place have in common on this platform. */
  private key(path: string): string {
    const p = this.platform === 'macos' ? path.normalize('NFC') : path
    return this.ignoreCase ? p.toLowerCase() : p
  }

  /** The cwd or a folder above it, a folder holding a known file, or a link's target or a folder above it. */
  private isFolder(real: string): boolean {
    const key = this.key(real)
    const prefix = key.endsWith('/') ? key : `${key}/`
    const atOrUnder = (path: string | undefined) => path !== undefined && (this.key(path) === key || this.key(path).startsWith(prefix))
    if (atOrUnder(this.land(this.cwd))) return true
    if ([...this.files.keys()].some((name) => this.key(this.land(name) ?? '').startsWith(prefix))) return true
    return this.links.some(([, to]) => atOrUnder(this.land(to)))
  }

  /** Whether the path itself (its folders followed) is one of the links. */
  private isLink(path: string): boolean {
    const absolute = this.absolute(path)
    if (absolute === undefined) return false
    const names = this.split(absolute)
    const last = names.pop()
    if (last === undefined || names.length === 0) return false
    const parent = this.land(names.length === 1 ? names[0]! : this.join(names[0]!, names.slice(1).join('/')))
    if (parent === undefined) return false
    const key = this.key(this.join(parent, last))
    return this.links.some(([from]) => this.key(from) === key)
  }

  /** A path as the platform spells it: `C:\Work\Shop` on Windows. */
  private native(path: string): string {
    return this.windows ? path.replace(/\//g, '\\') : path
  }
}

/** Runs `/hark <args>` as the person would type it. */
export function hark($: { command: { run: (e: { command: string; args: string; origin: { kind: 'composer' }; presentation: { isFullscreen: boolean; columns: number } }) => Promise<{ text?: string }> } }, args: string) {
  return $.command.run({ command: 'hark', args, origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 100 } })
}

/** Sizes that differ from the text held (a transcript "over 4 MiB"). */
export const sizes = new Map<string, number>()

/** The session's first hooks, as Claude Code runs them at the start of a -p run. */
/**
 * The session starts, and its first message's context is built: session.start settles without waiting on
 * Hark (the brief comes in the background), and prompt.context waits for the brief, so once this resolves
 * the start's requests are done, as they are by the time a person's first message goes out. A test of the
 * start alone calls `$.session.start` itself.
 */
export async function startSession(
  $: {
    session: { start: (e: { cwd: string; surface: null; isInteractive: boolean }) => Promise<unknown> }
    prompt: { context: (e: never) => Promise<unknown> }
  },
  cwd = PROJECT,
) {
  await $.session.start({ cwd, surface: null, isInteractive: false })
  await $.prompt.context({ blocks: [], instructionFiles: [] } as never)
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
