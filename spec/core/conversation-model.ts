/**
 * A model of the multi-process protocol for the randomized interleaving spec
 * (conversation-interleave.spec.ts). It drives the real domain functions of
 * core/domain/conversation/ exactly as the use cases do (StartSession, RecordRepository.save,
 * Claims.claim, StorePruning.prune, HandOff.run, RecordWork), but splits every use case into its individual store
 * calls, so that a seeded scheduler can interleave the calls of two or three processes in any
 * order. The store is a Map with insertion order (as Claude Code keeps its store's keys), values
 * copied through JSON on the way in and out; each store call is atomic.
 *
 * Not a spec file itself (vitest runs `*.spec.ts` only).
 */
import { claimWinner } from '../../core/domain/conversation/claim'
import { claimKey, parseRecordKey, recordKey, type ConversationId, type ConversationKey } from '../../core/domain/conversation/keys'
import {
  addEntry,
  newRecord,
  noteSession,
  setNotes,
  type ConversationRecord,
  type ConversationView,
} from '../../core/domain/conversation/record'
import { absorb, conversationIdOf, markHandedOff, mergeConversation } from '../../core/domain/conversation/merge'
import { sanitizeRecord } from '../../core/domain/conversation/sanitize'
import { foldIdle, planPrune } from '../../core/domain/conversation/prune'
import { hasWork, type WorkEntry } from '../../core/domain/work'

export const CONV = 'c0'.repeat(32) as ConversationKey
export const T0 = 1_767_000_000_000
const MINUTE = 60_000

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

/** One store call, or the process's save lock (saves run one at a time within a process). */
type Op =
  | { readonly t: 'keys' }
  | { readonly t: 'get'; readonly key: string }
  | { readonly t: 'set'; readonly key: string; readonly value: unknown }
  | { readonly t: 'delete'; readonly key: string }
  | { readonly t: 'lock' }
  | { readonly t: 'unlock' }
type Step = Generator<Op, void, unknown>

interface Proc {
  readonly name: string
  readonly key: string
  readonly session: string
  record: ConversationRecord | undefined
  view: ConversationView | undefined
  /** FIFO of tasks waiting for the save lock, and the holder. */
  readonly queue: Task[]
  holder: Task | undefined
  crashed: boolean
  started: boolean
  /** The actions left to start, and when the next one starts (sim time). */
  readonly script: Action[]
  nextAt: number
  /** Conversation ids this process sent with its handoffs. */
  readonly idsSent: string[]
  /** The store step where this process's last save began reading, and where it was stored. */
  lastRead: number
  lastStored: number
}

interface Task {
  readonly proc: Proc
  readonly gen: Step
  op: Op | undefined
  readonly end: boolean
}

export type Action = (
  | { readonly kind: 'start' }
  | { readonly kind: 'record'; readonly work: WorkEntry }
  | { readonly kind: 'notes'; readonly text: string }
  | { readonly kind: 'handoff' }
  | { readonly kind: 'agent' }
  | { readonly kind: 'end' }
) & {
  /** Not before this time (ms after T0). */
  readonly at?: number
}

export interface ModelOptions {
  readonly processes: number
  /** Processes may stop dead at any store step (no handoff): only "at most once" then holds. */
  readonly crashes: boolean
  /**
   * Long pauses (over 30 minutes) between actions, so that pruning folds idle records; with
   * 'together', the first process ends after such a pause just as the others start (and fold it).
   */
  readonly idle: boolean | 'together'
  /** Claude's own end_session (RecordWork.agentHandedOff) now and then. */
  readonly agent: boolean
}

/**
 * One item handed off: by the plugin (end_session; `read` = the store step where the handoff's
 * snapshot read began) or by Claude's own end_session (`stored` = the step where the mark was stored;
 * `read` where its read began).
 */
export interface Handed {
  readonly by: 'plugin' | 'agent'
  readonly proc: string
  readonly read: number
  readonly stored: number
}

export interface Outcome {
  /** Items (work identities) and each time one was handed off. */
  readonly handed: ReadonlyMap<string, readonly Handed[]>
  /** Items whose recording the store took (the save's write went through). */
  readonly recorded: ReadonlySet<string>
  /** Items pending in the merge of every stored record at the end. */
  readonly pending: ReadonlySet<string>
  /** The notes texts sent, with their count. */
  readonly notesSent: ReadonlyMap<string, number>
  /** Each handoff sent: process, segment, items. */
  readonly log: readonly string[]
  readonly idsSent: readonly string[]
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

function hex(rnd: () => number, chars: number): string {
  let out = ''
  for (let i = 0; i < chars; i++) out += Math.floor(rnd() * 16).toString(16)
  return out
}

/** Builds each process's script: start, work (files, test runs, commits, notes), maybe /hark handoff, end. */
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
    } else actions.push({ kind: 'end' })
    out.push(actions)
  }
  return out
}

export class Model {
  readonly store = new Map<string, unknown>()
  now = T0
  private readonly tasks: Task[] = []
  private readonly procs: Proc[] = []
  private readonly handed = new Map<string, Handed[]>()
  private readonly notesSent = new Map<string, number>()
  private readonly recorded = new Set<string>()
  private readonly log: string[] = []
  private steps = 0

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

  /** One more process, started after all others settled, that starts and ends at once. */
  sweep(): Outcome {
    this.now += 1_000
    this.addProc('sweep', [{ kind: 'start' }, { kind: 'end' }], this.now)
    this.loop()
    return this.outcome()
  }

  private addProc(name: string, script: readonly Action[], at: number): void {
    const loadTime = at
    this.procs.push({
      name,
      key: recordKey(CONV, loadTime, hex(this.rnd, 8)),
      session: `session-${name}`,
      record: undefined,
      view: undefined,
      queue: [],
      holder: undefined,
      crashed: false,
      started: false,
      script: [...script],
      nextAt: at,
      idsSent: [],
      lastRead: 0,
      lastStored: 0,
    })
  }

  private loop(): void {
    for (;;) {
      this.spawnDue()
      const runnable = this.tasks.filter((t) => this.runnable(t))
      if (runnable.length === 0) {
        const waiting = this.procs.filter((p) => !p.crashed && p.script.length > 0 && this.canSpawn(p))
        const due = (p: Proc) => Math.max(p.nextAt, p.script[0]?.at === undefined ? 0 : T0 + p.script[0].at)
        if (waiting.length === 0) {
          if (this.tasks.length > 0) throw new Error('deadlock in the model')
          return
        }
        this.now = Math.max(this.now, Math.min(...waiting.map(due)))
        continue
      }
      const task = runnable[Math.floor(this.rnd() * runnable.length)]!
      this.steps++
      this.now += Math.floor(this.rnd() * 15)
      if (this.options.crashes && task.proc.name !== 'sweep' && this.rnd() < 0.004) {
        this.crash(task.proc)
        continue
      }
      this.execute(task)
    }
  }

  /** Whether the process may start its next action now ('end' waits for everything else). */
  private canSpawn(p: Proc): boolean {
    const next = p.script[0]
    if (next === undefined) return false
    const busy = this.tasks.some((t) => t.proc === p)
    // 'start' runs alone and first; 'end' waits for the process's other work (the session is over).
    if (next.kind === 'end' || next.kind === 'start') return !busy
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
        this.spawn(p, this.actionOf(p, action), action.kind === 'end')
        if (!p.started) break
      }
    }
  }

  private spawn(proc: Proc, gen: Step, end: boolean): void {
    const task: Task = { proc, gen, op: undefined, end }
    this.tasks.push(task)
    this.advance(task, undefined)
  }

  private runnable(t: Task): boolean {
    if (t.op?.t !== 'lock') return true
    const p = t.proc
    return p.holder === undefined && p.queue[0] === t
  }

  private advance(task: Task, input: unknown): void {
    const r = task.gen.next(input)
    if (r.done === true) {
      this.tasks.splice(this.tasks.indexOf(task), 1)
      return
    }
    task.op = r.value
    if (r.value.t === 'lock') task.proc.queue.push(task)
  }

  trace = false
  private execute(task: Task): void {
    const op = task.op!
    const p = task.proc
    if (this.trace) console.log(this.now - T0, p.name, op.t, 'key' in op ? op.key.slice(0, 40) : '')
    let result: unknown
    switch (op.t) {
      case 'lock':
        p.queue.shift()
        p.holder = task
        break
      case 'unlock':
        p.holder = undefined
        break
      case 'keys':
        result = [...this.store.keys()]
        break
      case 'get': {
        const v = this.store.get(op.key)
        result = v === undefined ? undefined : JSON.parse(JSON.stringify(v))
        break
      }
      case 'set':
        this.store.set(op.key, JSON.parse(JSON.stringify(op.value)))
        break
      case 'delete':
        this.store.delete(op.key)
        break
    }
    this.advance(task, result)
  }

  private crash(p: Proc): void {
    p.crashed = true
    for (const t of this.tasks.filter((x) => x.proc === p)) this.tasks.splice(this.tasks.indexOf(t), 1)
  }

  // -------------------------------------------------------------------------------------------
  // The use cases, store call by store call.

  private *actionOf(p: Proc, action: Action): Step {
    switch (action.kind) {
      case 'start':
        return yield* this.start(p)
      case 'record': {
        const id = itemOf(action.work)
        const stored = yield* this.save(p, (r, { now }) => noteSession(addEntry(r, action.work, now), p.session, now))
        if (stored) this.recorded.add(id)
        return
      }
      case 'notes':
        yield* this.save(p, (r, { now }) => setNotes(r, action.text, now))
        return
      case 'handoff':
      case 'end':
        return yield* this.handOff(p)
      case 'agent':
        return yield* this.agentHandedOff(p)
    }
  }

  /** RecordRepository's read: keys, then every record of the conversation but our own. */
  private *readRecords(p: Proc): Generator<Op, Map<string, ConversationRecord>, unknown> {
    const keys = (yield { t: 'keys' }) as string[]
    const out = new Map<string, ConversationRecord>()
    for (const key of keys.filter((k) => parseRecordKey(k)?.conversation === CONV && k !== p.key)) {
      const record = sanitizeRecord(yield { t: 'get', key })
      if (record !== undefined) out.set(key, record)
    }
    return out
  }

  /** RecordRepository.save: under the process's lock, read → merge → change → absorb → write. */
  private *save(
    p: Proc,
    change: (r: ConversationRecord, ctx: { others: ReadonlyMap<string, ConversationRecord>; view: ConversationView; now: number }) => ConversationRecord,
  ): Generator<Op, boolean, unknown> {
    yield { t: 'lock' }
    try {
      const read = this.steps + 1
      const others = yield* this.readRecords(p)
      p.lastRead = read
      const now = this.now
      const before = mergeConversation(p.key, p.record!, others)
      p.record = change(p.record!, { others, view: before, now })
      const view = mergeConversation(p.key, p.record, others)
      p.record = absorb(p.record, view, now)
      p.view = mergeConversation(p.key, p.record, others)
      yield { t: 'set', key: p.key, value: p.record }
      p.lastStored = this.steps
      return true
    } finally {
      yield { t: 'unlock' }
    }
  }

  /** StartSession.loadConversation, then the brief fetch (BriefService.fetch notes briefAt and openedAt). */
  private *start(p: Proc): Step {
    const others = yield* this.readRecords(p)
    p.record = newRecord(conversationIdOf(others) ?? (hex(this.rnd, 32) as ConversationId))
    p.view = mergeConversation(p.key, p.record, others)
    yield* this.save(p, (r, { now }) => noteSession(r, p.session, now))
    yield* this.prune(p)
    yield* this.save(p, (r, { now }) => ({ ...r, briefAt: now, openedAt: now }))
    p.started = true
  }

  /** StorePruning.prune: folding first wins a claim, folds the fresh read, removes, then opens the next segment. */
  private *prune(p: Proc): Step {
    const keys = (yield { t: 'keys' }) as string[]
    const values = new Map<string, unknown>()
    for (const key of keys.filter((k) => k !== p.key)) values.set(key, yield { t: 'get', key })
    const plan = planPrune(this.now, values, p.key, CONV)
    const folded = new Set<string>()
    let claimed: number | undefined
    if (plan.fold.length > 0) {
      const segment = p.view?.segment ?? 0
      if (yield* this.claim(segment)) {
        claimed = segment
        yield* this.save(p, (record, { others, view, now }) => foldIdle(record, plan.fold, others, view, now, folded))
      }
    }
    const fold_ = new Set(plan.fold)
    for (const key of [...folded, ...plan.remove.filter((k) => !fold_.has(k))]) yield { t: 'delete', key }
    if (claimed !== undefined) {
      const next = claimed + 1
      yield* this.save(p, (record, { view }) => ({ ...record, segment: Math.max(record.segment, view.segment, next) }))
    }
  }

  /** Claims.claim: write the claim, then read the keys; the first fresh claim wins. */
  private *claim(segment: number): Generator<Op, boolean, unknown> {
    const now = this.now
    const key = claimKey(CONV, segment, now, hex(this.rnd, 8))
    yield { t: 'set', key, value: true }
    const keys = (yield { t: 'keys' }) as string[]
    return claimWinner(keys, CONV, segment, now) === key
  }

  /** HandOff.run (the store never refuses here). */
  private *handOff(p: Proc): Step {
    yield* this.save(p, (r) => r)
    const read = p.lastRead
    const view = p.view!
    const tool = hasWork(view.work) ? 'end_session' : view.sessionOpen ? 'close_session' : undefined
    if (tool === undefined) return
    const won = yield* this.claim(view.segment)
    if (!won) return
    yield* this.save(p, (r, { others, view: latest, now }) => markHandedOff(p.key, r, latest, others, now, true, view))
    if (tool === 'end_session') {
      // What end_session carries: the snapshot's pending work and notes.
      const items = view.pending.map((x) => itemOf(x.entry.work))
      for (const item of new Set(items)) this.hand(item, { by: 'plugin', proc: p.name, read, stored: p.lastStored })
      if (view.notes !== undefined) this.notesSent.set(view.notes, (this.notesSent.get(view.notes) ?? 0) + 1)
      this.log.push(`${p.name} seg ${view.segment}: ${[...new Set(items)].join(' ')}`)
      p.idsSent.push(p.record!.conversationId)
    }
  }

  /** RecordWork.agentHandedOff: Claude wrote the handoff itself; everything pending counts as handed off. */
  private *agentHandedOff(p: Proc): Step {
    let items: string[] = []
    yield* this.save(p, (r, { others, view, now }) => {
      items = view.pending.map((x) => itemOf(x.entry.work))
      return markHandedOff(p.key, r, view, others, now, false)
    })
    for (const item of new Set(items)) this.hand(item, { by: 'agent', proc: p.name, read: p.lastRead, stored: p.lastStored })
    this.log.push(`${p.name} agent: ${[...new Set(items)].join(' ')}`)
  }

  private hand(item: string, h: Handed): void {
    this.handed.set(item, [...(this.handed.get(item) ?? []), h])
  }

  private outcome(): Outcome {
    const records = new Map<string, ConversationRecord>()
    for (const [k, v] of this.store) {
      if (parseRecordKey(k)?.conversation !== CONV) continue
      const r = sanitizeRecord(v)
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
      store: new Map(this.store),
      steps: this.steps,
    }
  }
}
