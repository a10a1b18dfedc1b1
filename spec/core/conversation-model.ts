/**
 * A model of the multi-process protocol for the randomized interleaving spec (conversation-interleave.spec.ts).
 * It drives the real domain functions (core/domain/conversation/) exactly as the use cases do (StartSession,
 * RecordRepository.save and .record with their one write at a time, Claims.claim, StorePruning.prune, HandOff.run
 * with decideHandoff, RecordWork), but splits every use case into its single store calls, so that a seeded
 * scheduler can interleave the calls of two or three processes in any order.
 *
 * The store is a Map with insertion order (as Claude Code keeps its store's keys), values copied through JSON on
 * the way in and out. A write is issued, then lands later: at once, or after a random delay (`store: 'late'`),
 * and now and then only once another process lets go of the store's lock (`store: 'locked'`; held up to 1.2 s,
 * the engine gives a write up after 0.7 s of it, which the writer sees as refused). Writes land in any order across processes;
 * with `outOfOrder` a process's own writes too (the engine lands them in the order made: docs/engine.md, "The
 * store's lock"; a store that does not, as the test kit's held writes, is what the one-write-at-a-time rule is
 * for). As in the engine, a process's read waits while a write of it is in flight (but with `outOfOrder`). Each caller waits as the code does (1 s; 150 ms at exit, where a
 * write still waiting counts as refused), the model's clock moving 0 to 2 ms a step.
 *
 * Not a spec file itself (vitest runs `*.spec.ts` only).
 */
import { judgeClaim, type ClaimAttempt } from '../../core/domain/conversation/claim'
import { decideHandoff, type HandoffFacts } from '../../core/domain/conversation/handoff-decision'
import { claimKey, claimPrefix, parseRecordKey, recordKey, type ConversationId, type ConversationKey } from '../../core/domain/conversation/keys'
import { absorb, conversationIdOf, markHandedOff, markOwnHandedOff, mergeConversation, ownWork } from '../../core/domain/conversation/merge'
import { addEntry, keptAfterHandoff, newRecord, noteSession, setNotes, type ConversationRecord, type ConversationView } from '../../core/domain/conversation/record'
import { sanitizeRecord } from '../../core/domain/conversation/sanitize'
import { foldIdle, planPrune } from '../../core/domain/conversation/prune'
import type { Work, WorkEntry } from '../../core/domain/work'

export const CONV = 'c0'.repeat(32) as ConversationKey
export const T0 = 1_767_000_000_000
const MINUTE = 60_000
/** The waits of the code: a store call's (STORE_WAIT_MS), at exit (STORE_WAIT_EXIT_MS), a late claim's (LATE_WRITE_MS). */
const WAIT_MS = 1_000
const EXIT_WAIT_MS = 150
const LATE_WRITE_MS = 3_000
/** The engine gives a write up after this long waiting on the lock. */
const LOCK_GIVE_UP_MS = 700
/** SPEC.md: the exit window, and each request stops waiting 0.4 s before it ends. */
const EXIT_REQUEST_BY_MS = 1_500 - 400

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** A write issued to the store and not yet landed (or refused); `settle` runs when it does, as the code's `.then`. */
interface Write {
  readonly proc: Proc
  readonly key: string
  /** The value (JSON), or undefined for a delete. */
  readonly value: string | undefined
  readonly issuedAt: number
  readonly landAt: number
  readonly refused: boolean
  outcome: 'landed' | 'refused' | undefined
  readonly settle: (landed: boolean) => void
}

/** When the store takes a write, or the engine gives it up. */
const settlesAt = (w: Write): number => (w.refused ? w.issuedAt + LOCK_GIVE_UP_MS : w.landAt)

/** One store call of a task. A read is answered once no write of its process is in flight, or undefined at `until`. */
type Op =
  | { readonly t: 'keys'; readonly until: number }
  | { readonly t: 'get'; readonly key: string; readonly until: number }
  | { readonly t: 'write'; readonly key: string; readonly value: unknown }
  | { readonly t: 'delete'; readonly key: string }
  | { readonly t: 'await'; readonly write: Write; readonly until: number }
type Step = Generator<Op, void, unknown>
/** What a read answered: ok, or it ran out of time (the engine still held it behind a write). */
type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false }

interface Proc {
  readonly name: string
  readonly key: string
  readonly session: string
  record: ConversationRecord | undefined
  view: ConversationView | undefined
  others: Map<string, ConversationRecord>
  /** RecordRepository's write state: the record's version, the highest stored, the write in flight, the last stored. */
  version: number
  storedVersion: number
  writing: { readonly version: number; readonly write: Write } | undefined
  stored: string | undefined
  persistWaiting: boolean
  /** The version the last save kept. */
  saved: number
  refused: boolean
  readonly held: Set<string>
  /** The step of this process's last read of the other records that the store answered (how fresh its view is). */
  lastSeen: number
  /** Each version that landed, and the step it landed at. */
  readonly landed: { readonly version: number; readonly step: number }[]
  crashed: boolean
  started: boolean
  readonly script: Action[]
  nextAt: number
  readonly idsSent: string[]
}

interface Task {
  readonly proc: Proc
  readonly gen: Step
  op: Op | undefined
  /** A write of the record the hook did not wait for (RecordRepository.record): the session's end does not wait for it. */
  readonly background: boolean
}

export type Action = (
  | { readonly kind: 'start' }
  | { readonly kind: 'record'; readonly work: WorkEntry }
  | { readonly kind: 'notes'; readonly text: string }
  | { readonly kind: 'handoff' }
  | { readonly kind: 'agent' }
  | { readonly kind: 'end' }
  /** The process stops without an exit (killed, or the machine slept for good): no handoff. */
  | { readonly kind: 'stop' }
) & {
  /** Not before this time (ms after T0). */
  readonly at?: number
}

export interface ModelOptions {
  readonly processes: number
  /** Processes may stop dead at any store step (no handoff, their writes in flight gone): only "at most once" then holds. */
  readonly crashes: boolean
  /**
   * Long pauses (over 30 minutes) between actions, so that pruning folds idle records; with
   * 'together', the first process ends after such a pause just as the others start (and fold it).
   */
  readonly idle: boolean | 'together'
  /** Claude's own end_session (RecordWork.agentHandedOff) now and then. */
  readonly agent: boolean
  /**
   * How the store takes writes: `prompt`, each at once (the default); `late`, each 0 to 60 ms late, so they land
   * in any order across processes, within every wait of the code; `locked`, also now and then long after, while
   * another process holds the store's lock (up to 1.2 s: the engine gives a write up after 0.7 s), so a write at
   * exit may count as refused and the process exit before it lands (SPEC.md, Limits).
   */
  readonly store?: 'prompt' | 'late' | 'locked'
  /** A process's own writes may land in any order too (the test kit's held writes; not the engine's way). */
  readonly outOfOrder?: boolean
}

/**
 * One item handed off: by the plugin (end_session; `share`: the whole segment, or the process's own work after
 * the store refused it) or by Claude's own end_session. `read`: the step its read of the store began; `stored`:
 * the step its mark landed (Infinity when it never did).
 */
export interface Handed {
  readonly by: 'plugin' | 'agent'
  readonly share: 'all' | 'own'
  readonly proc: string
  /** When its claim was made (model ms), and for which segment, for a share of the whole segment. */
  readonly claimedAt?: number
  readonly segment?: number
  readonly read: number
  readonly stored: number
  /** The step its mark left the store with the record holding it (a fold removed it), or Infinity. */
  readonly removed: number
}

export interface Outcome {
  /** Items (work identities) and each time one was handed off. */
  readonly handed: ReadonlyMap<string, readonly Handed[]>
  /** Items some record holding them landed in the store. */
  readonly recorded: ReadonlySet<string>
  /** Items pending in the merge of every stored record at the end. */
  readonly pending: ReadonlySet<string>
  /** The notes texts sent, with each handoff that sent them. */
  readonly notesSent: ReadonlyMap<string, readonly Handed[]>
  /** Each handoff sent: process, segment, items. */
  readonly log: readonly string[]
  readonly idsSent: readonly string[]
  /** Exits whose request left later than SPEC's window allows (ms after the exit began), with the process. */
  readonly lateExits: readonly string[]
  /** Exits that sent a request, and the longest time one took to leave (ms). */
  readonly exits: number
  readonly slowestExitMs: number
  readonly store: ReadonlyMap<string, unknown>
  readonly steps: number
}

export function itemOf(work: WorkEntry): string {
  switch (work.kind) {
    case 'file':
      return `file:${work.path}`
    case 'commit':
      return `commit:${work.sha}`
    case 'test':
      return `test:${work.runner}`
    case 'link':
      return `link:${work.url}`
  }
}

/** The items of some Work, as itemOf names them. */
function itemsOf(work: Work): string[] {
  return [...work.files.map((p) => `file:${p}`), ...work.commits.map((c) => `commit:${c.sha}`), ...work.tests.map((t) => `test:${t.runner}`), ...work.links.map((u) => `link:${u}`)]
}

function hex(rnd: () => number, chars: number): string {
  let out = ''
  for (let i = 0; i < chars; i++) out += Math.floor(rnd() * 16).toString(16)
  return out
}

/**
 * Builds each process's script: start, work (files, test runs, commits, notes), maybe /hark handoff, end (over a
 * store that takes writes late, now and then a stop with no exit instead: what it wrote is for a later process).
 */
export function scripts(rnd: () => number, options: ModelOptions): Action[][] {
  const out: Action[][] = []
  for (let p = 0; p < options.processes; p++) {
    const actions: Action[] = [{ kind: 'start' }]
    const n = Math.floor(rnd() * 6)
    for (let i = 0; i < n; i++) {
      const r = rnd()
      if (r < 0.45) actions.push({ kind: 'record', work: { kind: 'file', path: `src/p${p}/f${i}.ts` } })
      else if (r < 0.65) actions.push({ kind: 'record', work: { kind: 'test', runner: `runner-p${p}-${i}`, result: rnd() < 0.5 ? 'passed' : 'failed' } })
      else if (r < 0.8) actions.push({ kind: 'record', work: { kind: 'commit', sha: `${p}${i}`.padStart(7, 'a') + hex(rnd, 4), subject: `c${p}-${i}` } })
      else if (r < 0.9) actions.push({ kind: 'notes', text: `notes p${p} #${i}` })
      else if (r < 0.97 || !options.agent) actions.push({ kind: 'handoff' })
      else actions.push({ kind: 'agent' })
    }
    if (options.idle === 'together') {
      const at = 40 * MINUTE + Math.floor(rnd() * 400)
      if (p === 0) actions.push({ kind: 'end', at })
      else actions[0] = { kind: 'start', at }
      if (p > 0) actions.push({ kind: 'end' })
    } else actions.push({ kind: (options.store ?? 'prompt') !== 'prompt' && rnd() < 0.2 ? 'stop' : 'end' })
    out.push(actions)
  }
  return out
}

export class Model {
  readonly store = new Map<string, string>()
  now = T0
  private readonly tasks: Task[] = []
  private readonly procs: Proc[] = []
  private readonly writes: Write[] = []
  private readonly handed = new Map<string, Handed[]>()
  private readonly notesSent = new Map<string, Handed[]>()
  private readonly recorded = new Set<string>()
  private readonly log: string[] = []
  private readonly lateExits: string[] = []
  private exits = 0
  private slowestExitMs = 0
  /** Another process holds the store's lock until then. */
  private lockedUntil = 0
  /** The store takes every write within milliseconds, and nobody takes its lock (the sweep's). */
  private quiet = false
  private steps = 0
  /** Marks whose step is known only once they land: [handed entry list, index, process, version]. */
  private readonly marks: { readonly list: Handed[]; readonly index: number; readonly proc: Proc; readonly version: number }[] = []
  /** When each record key was removed from the store (its last removal), by step. */
  private readonly removedAt = new Map<string, number>()

  constructor(
    private readonly rnd: () => number,
    private readonly options: ModelOptions,
  ) {}

  /** Plays every process's script with their store calls interleaved at random. */
  run(all: readonly Action[][]): Outcome {
    all.forEach((script, i) => this.addProc(`p${i}`, script, T0 + Math.floor(this.rnd() * 300) + (this.options.idle && this.rnd() < 0.2 ? 31 * MINUTE : 0)))
    this.loop()
    return this.outcome()
  }

  /**
   * One more process, started after all others settled (their writes landed), that starts and ends at once, over a
   * quiet store. Over a store that takes writes late, it comes after the others' claims lapsed (30 s), as a
   * `--resume` minutes later would: a mark the store lost or never took shows then.
   */
  sweep(): Outcome {
    this.now = Math.max(this.now, this.lockedUntil) + ((this.options.store ?? 'prompt') === 'prompt' ? 1_000 : 31_000)
    this.quiet = true
    this.addProc('sweep', [{ kind: 'start' }, { kind: 'end' }], this.now)
    this.loop()
    return this.outcome()
  }

  private addProc(name: string, script: readonly Action[], at: number): void {
    this.procs.push({
      name,
      key: recordKey(CONV, at, hex(this.rnd, 8)),
      session: `session-${name}`,
      record: undefined,
      view: undefined,
      others: new Map(),
      version: 0,
      storedVersion: 0,
      writing: undefined,
      stored: undefined,
      persistWaiting: false,
      saved: 0,
      refused: false,
      held: new Set(),
      lastSeen: 0,
      landed: [],
      crashed: false,
      started: false,
      script: [...script],
      nextAt: at,
      idsSent: [],
    })
  }

  private loop(): void {
    for (;;) {
      this.spawnDue()
      const runnable = this.tasks.filter((t) => this.runnable(t))
      const landable = this.landable().filter((w) => settlesAt(w) <= this.now)
      if (runnable.length + landable.length === 0) {
        const next = this.nextEvent()
        if (next === undefined) {
          if (this.tasks.length > 0) throw new Error('deadlock in the model')
          return
        }
        this.now = Math.max(this.now, next)
        continue
      }
      const pick = Math.floor(this.rnd() * (runnable.length + landable.length))
      this.steps++
      this.now += Math.floor(this.rnd() * 3)
      if (this.options.store === 'locked' && !this.quiet && this.rnd() < 0.002) this.lockedUntil = Math.max(this.lockedUntil, this.now + 100 + Math.floor(this.rnd() * 1_100))
      if (pick >= runnable.length) {
        this.land(landable[pick - runnable.length]!)
        continue
      }
      const task = runnable[pick]!
      if (this.options.crashes && task.proc.name !== 'sweep' && this.rnd() < 0.004) {
        this.crash(task.proc)
        continue
      }
      this.execute(task)
    }
  }

  /** The writes the store may take next: any, or with the engine's order only each process's first. */
  private landable(): Write[] {
    return this.options.outOfOrder ? this.writes : this.writes.filter((w) => this.writes.find((x) => x.proc === w.proc) === w)
  }

  /** The next time something can happen: a write due, a wait running out, a script's next action. */
  private nextEvent(): number | undefined {
    const times: number[] = []
    for (const w of this.landable()) times.push(settlesAt(w))
    for (const t of this.tasks) if (t.op !== undefined && 'until' in t.op) times.push(t.op.until)
    for (const p of this.procs) {
      if (!p.crashed && p.script.length > 0 && this.canSpawn(p)) times.push(Math.max(p.nextAt, p.script[0]?.at === undefined ? 0 : T0 + p.script[0].at))
    }
    return times.length === 0 ? undefined : Math.min(...times)
  }

  /** Whether the process may start its next action now ('start' and 'end' wait for its other work but writes after hooks). */
  private canSpawn(p: Proc): boolean {
    const next = p.script[0]
    if (next === undefined) return false
    const busy = this.tasks.some((t) => t.proc === p && !t.background)
    // 'start' runs alone and first; 'end' and 'stop' wait for the process's other work (the session is over).
    if (next.kind === 'end' || next.kind === 'stop' || next.kind === 'start') return !busy
    // Every use case awaits the start (StartSession.ensureStarted); after it, actions may overlap.
    return !busy || p.started
  }

  private spawnDue(): void {
    for (const p of this.procs) {
      while (!p.crashed && p.script.length > 0 && p.nextAt <= this.now && this.canSpawn(p)) {
        const action = p.script[0]!
        if (action.at !== undefined && T0 + action.at > this.now) {
          p.nextAt = Math.max(p.nextAt, T0 + action.at)
          break
        }
        p.script.shift()
        // Mostly a pause of a few ms between actions; sometimes none (overlap); sometimes over 30 minutes.
        const r = this.rnd()
        const think = r < 0.3 ? 0 : this.options.idle && r > 0.93 ? 31 * MINUTE + Math.floor(this.rnd() * 5 * MINUTE) : Math.floor(this.rnd() * 200)
        p.nextAt = this.now + think
        this.spawn(p, this.actionOf(p, action), false)
        if (!p.started) break
      }
    }
  }

  private spawn(proc: Proc, gen: Step, background: boolean): void {
    const task: Task = { proc, gen, op: undefined, background }
    this.tasks.push(task)
    this.advance(task, undefined)
  }

  /**
   * Whether a read of `p` waits: in the engine a plugin's store calls are answered in the order made, so a read
   * waits behind its writes in flight; a store that takes writes in any order answers reads at once.
   */
  private inFlight(p: Proc): boolean {
    return this.options.outOfOrder !== true && this.writes.some((w) => w.proc === p && w.outcome === undefined)
  }

  private runnable(t: Task): boolean {
    const op = t.op
    if (op === undefined) return false
    if (op.t === 'keys' || op.t === 'get') return !this.inFlight(t.proc) || this.now >= op.until
    if (op.t === 'await') return op.write.outcome !== undefined || this.now >= op.until
    return true
  }

  private advance(task: Task, input: unknown): void {
    const r = task.gen.next(input)
    if (r.done === true) {
      this.tasks.splice(this.tasks.indexOf(task), 1)
      return
    }
    task.op = r.value
  }

  /** Prints every store step (for replaying a seed by hand). */
  trace = false

  private execute(task: Task): void {
    const op = task.op!
    const p = task.proc
    if (this.trace) console.log(this.steps, this.now - T0, p.name, op.t, 'key' in op ? op.key.slice(0, 24) : '', 'write' in op ? op.write.key.slice(0, 24) : '')
    let result: unknown
    switch (op.t) {
      case 'keys':
        result = this.inFlight(p) ? { ok: false } : { ok: true, value: [...this.store.keys()] }
        break
      case 'get': {
        const v = this.store.get(op.key)
        result = this.inFlight(p) ? { ok: false } : { ok: true, value: v === undefined ? undefined : JSON.parse(v) }
        break
      }
      case 'write':
      case 'delete':
        result = this.issue(p, op.key, op.t === 'write' ? JSON.stringify(op.value) : undefined)
        break
      case 'await':
        result = op.write.outcome ?? 'timeout'
        break
    }
    this.advance(task, result)
  }

  /** A write (or delete) handed to the store: when it lands, and whether the engine gives it up on the lock. */
  private issue(p: Proc, key: string, value: string | undefined, settle: (landed: boolean) => void = () => undefined): Write {
    const store = this.options.store ?? 'prompt'
    const jitter = store === 'prompt' ? 0 : store === 'late' || this.quiet ? Math.floor(this.rnd() * 60) : this.rnd() < 0.85 ? Math.floor(this.rnd() * 10) : Math.floor(this.rnd() * 400)
    const landAt = Math.max(this.now, this.lockedUntil) + jitter
    const write: Write = { proc: p, key, value, issuedAt: this.now, landAt, refused: landAt - this.now > LOCK_GIVE_UP_MS, outcome: undefined, settle }
    this.writes.push(write)
    return write
  }

  private land(w: Write): void {
    this.writes.splice(this.writes.indexOf(w), 1)
    w.outcome = w.refused ? 'refused' : 'landed'
    if (this.trace) console.log(this.steps, this.now - T0, w.proc.name, w.outcome, w.key.slice(0, 24), w.value?.slice(0, 300))
    if (w.outcome === 'landed') {
      if (w.value === undefined) {
        if (this.store.delete(w.key)) this.removedAt.set(w.key, this.steps)
      } else this.store.set(w.key, w.value)
    }
    w.settle(w.outcome === 'landed')
  }

  /** The process is gone after its exit: its writes after the hook go with it; its exit's own task ends. */
  private exited(p: Proc): void {
    for (const t of this.tasks.filter((x) => x.proc === p && x.background)) this.tasks.splice(this.tasks.indexOf(t), 1)
    this.dropWrites(p)
  }

  private crash(p: Proc): void {
    p.crashed = true
    for (const t of this.tasks.filter((x) => x.proc === p)) this.tasks.splice(this.tasks.indexOf(t), 1)
    this.dropWrites(p)
  }

  /**
   * A process gone: its writes in flight go with it, as the engine's do (they wait in the process); a store that
   * takes writes in any order holds them itself (the test kit's held writes), so they still land.
   */
  private dropWrites(p: Proc): void {
    if (this.options.outOfOrder === true) return
    for (const w of this.writes.filter((x) => x.proc === p)) this.writes.splice(this.writes.indexOf(w), 1)
  }

  // -------------------------------------------------------------------------------------------
  // The use cases, store call by store call.

  private *actionOf(p: Proc, action: Action): Step {
    switch (action.kind) {
      case 'start':
        return yield* this.start(p)
      case 'record':
        return this.record(p, (r, now) => noteSession(addEntry(r, action.work, now), p.session, now))
      case 'notes':
        return this.record(p, (r, now) => setNotes(r, action.text, now))
      case 'handoff':
        return yield* this.handOff(p, false)
      case 'end':
        yield* this.handOff(p, true)
        // Claude Code exits once session.end settles: what the process still writes goes with it (over a store
        // that delays; a free one has taken every write by then).
        if ((this.options.store ?? 'prompt') !== 'prompt') this.exited(p)
        return
      case 'agent':
        return yield* this.agentHandedOff(p)
      case 'stop':
        for (const t of this.tasks.filter((x) => x.proc === p && x.background)) this.tasks.splice(this.tasks.indexOf(t), 1)
        return this.dropWrites(p)
    }
  }

  /**
   * A caller's wait: the code's over a store that takes writes late; over one that takes each at once, no
   * bound (every call is answered long before it, as a free store answers in milliseconds).
   */
  private wait(ms: number): number {
    return (this.options.store ?? 'prompt') === 'prompt' ? Number.POSITIVE_INFINITY : ms
  }

  /** StoreCalls.keys: the keys, or not in time. */
  private *keys(until: number): Generator<Op, string[] | undefined, unknown> {
    const read = (yield { t: 'keys', until }) as Read<string[]>
    return read.ok ? read.value : undefined
  }

  /** RecordRepository's read: keys, then every record of the conversation but our own (one bounded call each). */
  private *readRecords(p: Proc, wait: number): Generator<Op, { others: Map<string, ConversationRecord>; keys: string[] } | undefined, unknown> {
    const began = this.steps + 1
    const keys = yield* this.keys(this.now + wait)
    if (keys === undefined) return undefined
    const until = this.now + wait
    const others = new Map<string, ConversationRecord>()
    for (const key of keys.filter((k) => parseRecordKey(k)?.conversation === CONV && k !== p.key)) {
      const read = (yield { t: 'get', key, until }) as Read<unknown>
      if (!read.ok) return undefined
      const record = sanitizeRecord(read.value)
      if (record !== undefined) others.set(key, record)
    }
    p.lastSeen = Math.max(p.lastSeen, began)
    return { others, keys }
  }

  /** RecordRepository.keep: the record's new version in memory, and the view. */
  private keep(p: Proc, record: ConversationRecord, others: Map<string, ConversationRecord>): void {
    p.record = record
    p.others = others
    p.view = mergeConversation(p.key, record, others)
    p.version++
  }

  /** RecordRepository.writeNow: the record as it is now, after the write in flight (never two at once), handed to the store at once. */
  private writeNow(p: Proc): { version: number; write: Write } | undefined {
    const record = p.record!
    const version = p.version
    const signature = JSON.stringify({ ...record, savedAt: 0 })
    if (signature === p.stored) {
      p.storedVersion = Math.max(p.storedVersion, version)
      return undefined
    }
    if (this.writes.some((w) => w.proc === p && w.key === p.key)) throw new Error(`${p.name}: two writes of its record in flight`)
    const settle = (landed: boolean) => {
      p.writing = undefined
      if (!landed) p.refused = true
      else {
        for (const e of record.entries) this.recorded.add(itemOf(e.work))
        p.landed.push({ version, step: this.steps })
        if (version > p.storedVersion) {
          p.storedVersion = version
          p.stored = signature
        }
      }
    }
    return (p.writing = { version, write: this.issue(p, p.key, JSON.stringify(record), settle) })
  }

  /** RecordRepository.written: waits (until `until`) for a write carrying `version` or later; true/false, or 'timeout'. */
  private *written(p: Proc, version: number, until: number): Generator<Op, boolean | 'timeout', unknown> {
    for (;;) {
      if (p.storedVersion >= version) return true
      const w = p.writing ?? this.writeNow(p)
      if (w === undefined) {
        if (p.storedVersion >= version) return true
        return false
      }
      const r = (yield { t: 'await', write: w.write, until }) as 'landed' | 'refused' | 'timeout'
      if (r === 'timeout') return 'timeout'
      if (w.version >= version) return r === 'landed'
    }
  }

  /** RecordRepository.save: read (unless `over`), change the record in memory, then wait for a write of it. */
  private *save(
    p: Proc,
    change: (r: ConversationRecord, ctx: { others: ReadonlyMap<string, ConversationRecord>; view: ConversationView; now: number }) => ConversationRecord,
    options: { wait?: number; exit?: boolean; over?: Map<string, ConversationRecord> } = {},
  ): Generator<Op, boolean, unknown> {
    const wait = options.wait ?? this.wait(WAIT_MS)
    const others = options.over ?? (yield* this.readRecords(p, wait))?.others ?? new Map<string, ConversationRecord>()
    const now = this.now
    const current = p.record!
    const changed = change(current, { others, view: mergeConversation(p.key, current, others), now })
    this.keep(p, keptAfterHandoff(absorb(changed, mergeConversation(p.key, changed, others), now), p.key), others)
    p.saved = p.version
    const version = p.version
    const stored = yield* this.written(p, version, this.now + wait)
    if (stored === true) return true
    if (stored === 'timeout') {
      // The caller stops waiting; the write goes on (the code's `written` runs on behind its wait).
      const model = this
      this.spawn(p, (function* (): Step { yield* model.written(p, version, Number.POSITIVE_INFINITY) })(), true)
      if (options.exit === true) p.refused = true
    }
    return false
  }

  /** RecordRepository.record: the change in memory at once; one save after the hook waits for the write in flight. */
  private record(p: Proc, change: (r: ConversationRecord, now: number) => ConversationRecord): void {
    const record = p.record
    if (record === undefined) return
    this.keep(p, change(record, this.now), p.others)
    if (p.persistWaiting) return
    p.persistWaiting = true
    const model = this
    this.spawn(
      p,
      (function* (): Step {
        const inFlight = p.writing
        if (inFlight !== undefined) yield { t: 'await', write: inFlight.write, until: Number.POSITIVE_INFINITY }
        p.persistWaiting = false
        yield* model.save(p, (r) => r)
      })(),
      true,
    )
  }

  /** StartSession: load the conversation, join (store this record), prune; the brief fetched is recorded (KeepBrief.fetched). */
  private *start(p: Proc): Step {
    const read = yield* this.readRecords(p, this.wait(WAIT_MS))
    const others = read?.others ?? new Map<string, ConversationRecord>()
    p.record = newRecord(conversationIdOf(others) ?? (hex(this.rnd, 32) as ConversationId))
    p.others = others
    p.view = mergeConversation(p.key, p.record, others)
    yield* this.save(p, (r, { now }) => noteSession(r, p.session, now), { over: others })
    yield* this.prune(p)
    this.record(p, (r, now) => ({ ...r, briefAt: now, openedAt: now }))
    p.started = true
  }

  /** Claims.claim: the claim written, waited for (a late one a while longer outside the exit), then the keys read. */
  private *claim(p: Proc, segment: number, exit: boolean, passOn: boolean): Generator<Op, ClaimAttempt, unknown> {
    const at = this.now
    const key = claimKey(CONV, segment, at, hex(this.rnd, 8))
    if (passOn) p.held.add(key)
    const wait = this.wait(exit ? EXIT_WAIT_MS : WAIT_MS)
    const write = (yield { t: 'write', key, value: true }) as Write
    let outcome = (yield { t: 'await', write, until: this.now + wait }) as 'landed' | 'refused' | 'timeout'
    if (outcome === 'timeout' && !exit) outcome = (yield { t: 'await', write, until: this.now + LATE_WRITE_MS }) as typeof outcome
    const stored = outcome === 'landed'
    return { key, at, stored, keys: stored ? yield* this.keys(this.now + wait) : undefined }
  }

  /** StorePruning.prune: folding first wins a claim, folds the fresh read, removes, then opens the next segment. */
  private *prune(p: Proc): Step {
    const keys = yield* this.keys(this.now + this.wait(WAIT_MS))
    if (keys === undefined) return
    const until = this.now + this.wait(WAIT_MS)
    const values = new Map<string, unknown>()
    for (const key of keys.filter((k) => k !== p.key)) {
      const read = (yield { t: 'get', key, until }) as Read<unknown>
      if (!read.ok) return
      values.set(key, read.value)
    }
    const plan = planPrune(this.now, values, p.key, CONV)
    const folded = new Set<string>()
    const segment = p.view?.segment ?? 0
    let claimed = false
    if (plan.fold.length > 0) {
      const attempt = yield* this.claim(p, segment, false, true)
      claimed = judgeClaim(attempt, claimPrefix(CONV, segment), p.held).outcome === 'won'
    }
    if (claimed) {
      const stored = yield* this.save(p, (record, { others, view, now }) => foldIdle(record, plan.fold, others, view, now, folded))
      if (!stored) folded.clear()
    }
    const foldable = new Set(plan.fold)
    for (const key of [...folded, ...plan.remove.filter((k) => !foldable.has(k))]) {
      const write = (yield { t: 'delete', key }) as Write
      yield { t: 'await', write, until: this.now + this.wait(WAIT_MS) }
    }
    if (claimed) yield* this.save(p, (record, { view }) => ({ ...record, segment: Math.max(record.segment, view.segment, segment + 1) }))
  }

  /** HandOff.run: the read, decideHandoff, the claim, the mark, the request (at exit every wait 150 ms). */
  private *handOff(p: Proc, exit: boolean): Step {
    const began = this.now
    const wait = this.wait(exit ? EXIT_WAIT_MS : WAIT_MS)
    const reading = yield* this.readRecords(p, wait)
    // How fresh the view it decides on is: this read's, or an earlier one's when the store did not answer.
    const readStep = p.lastSeen
    if (reading) {
      p.others = reading.others
      p.view = mergeConversation(p.key, p.record!, reading.others)
    }
    const view = p.view!
    const record = p.record!
    const others = p.others
    const facts: HandoffFacts = {
      moved: false,
      refused: p.refused,
      unread: reading === undefined,
      conversation: CONV,
      segment: view.segment,
      all: { work: view.work, notes: view.notes },
      own: ownWork({ ...record, cursors: view.cursors }, p.key),
      sessionOpen: view.sessionOpen,
      keys: reading?.keys,
      held: p.held,
      now: this.now,
    }
    let decision = decideHandoff(facts)
    let claimedAt: number | undefined
    if (decision.kind === 'claim') {
      claimedAt = this.now
      decision = decideHandoff({ ...facts, claim: yield* this.claim(p, decision.segment, exit, false) })
    }
    if (decision.kind !== 'send') return
    if (decision.share === 'all' && claimedAt === undefined) throw new Error(`${p.name}: the whole segment sent without a claim`)
    const share = decision.share
    if (share === 'own') p.refused = true
    yield* this.save(
      p,
      share === 'all' ? (r, { others: read, view: latest, now }) => markHandedOff(p.key, r, latest, read, now, true, view) : (r, { view: latest, now }) => markOwnHandedOff({ ...r, cursors: latest.cursors }, p.key, now, record),
      { wait, exit, over: others },
    )
    const markVersion = p.saved
    if (exit) {
      this.exits++
      this.slowestExitMs = Math.max(this.slowestExitMs, this.now - began)
      if (this.now - began > EXIT_REQUEST_BY_MS) this.lateExits.push(`${p.name}: ${this.now - began} ms`)
    }
    if (decision.tool !== 'end_session') return
    const items = [...new Set(itemsOf(decision.pending.work))]
    const handed: Handed = { by: 'plugin', share, proc: p.name, read: readStep, stored: Number.POSITIVE_INFINITY, removed: Number.POSITIVE_INFINITY, ...(share === 'all' && { claimedAt, segment: view.segment }) }
    for (const item of items) this.hand(this.handed, item, handed, p, markVersion)
    const notes = decision.pending.notes
    if (notes !== undefined) this.hand(this.notesSent, notes, handed, p, markVersion)
    this.log.push(`${p.name} seg ${view.segment} ${share}${exit ? ' at exit' : ''}: ${items.join(' ')}`)
    p.idsSent.push(p.record!.conversationId)
  }

  /** RecordWork.agentHandedOff: Claude wrote the handoff itself; everything pending counts as handed off. */
  private *agentHandedOff(p: Proc): Step {
    let items: string[] = []
    let readStep = 0
    yield* this.save(p, (r, { others, view, now }) => {
      readStep = p.lastSeen
      items = view.pending.map((x) => itemOf(x.entry.work))
      return markHandedOff(p.key, r, view, others, now, false)
    })
    for (const item of new Set(items)) this.hand(this.handed, item, { by: 'agent', share: 'all', proc: p.name, read: readStep, stored: Number.POSITIVE_INFINITY, removed: Number.POSITIVE_INFINITY }, p, p.saved)
    this.log.push(`${p.name} agent: ${[...new Set(items)].join(' ')}`)
  }

  /** Notes a handoff of `item`; its mark's step is filled in once known (the version landing). */
  private hand(into: Map<string, Handed[]>, item: string, h: Handed, p: Proc, version: number): void {
    const list = into.get(item) ?? []
    list.push(h)
    into.set(item, list)
    this.marks.push({ list, index: list.length - 1, proc: p, version })
  }

  private outcome(): Outcome {
    for (const m of this.marks) {
      const landed = m.proc.landed.find((l) => l.version >= m.version)
      const removed = this.removedAt.get(m.proc.key)
      m.list[m.index] = { ...m.list[m.index]!, stored: landed?.step ?? Number.POSITIVE_INFINITY, removed: landed && removed !== undefined && removed > landed.step ? removed : Number.POSITIVE_INFINITY }
    }
    const records = new Map<string, ConversationRecord>()
    for (const [k, v] of this.store) {
      if (parseRecordKey(k)?.conversation !== CONV) continue
      const r = sanitizeRecord(JSON.parse(v))
      if (r !== undefined) records.set(k, r)
    }
    const probe = recordKey(CONV, 0, 'probe')
    const view = mergeConversation(probe, newRecord('0'.repeat(32) as ConversationId), records)
    return {
      handed: new Map(this.handed),
      recorded: new Set(this.recorded),
      pending: new Set(view.pending.map((x) => itemOf(x.entry.work))),
      notesSent: new Map(this.notesSent),
      log: [...this.log],
      idsSent: this.procs.flatMap((p) => p.idsSent),
      lateExits: [...this.lateExits],
      exits: this.exits,
      slowestExitMs: this.slowestExitMs,
      store: new Map([...this.store].map(([k, v]) => [k, JSON.parse(v)])),
      steps: this.steps,
    }
  }
}
