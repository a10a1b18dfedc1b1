/**
 * The edit guard (SPEC.md: The edit guard; tool.call for Edit, Write, MultiEdit, NotebookEdit).
 * Before an edit of a file inside the project, its path is checked on this machine against the
 * settled, scoped decisions and the non-goals; a match asks the person Allow or Stop. After a
 * successful edit, the file's path is recorded. Nothing about the edit is sent to Hark.
 *
 * State: `GuardState` lives as long as the conversation (the decisions, the guards compiled over them
 * and over the brief's non-goals, the fetch in flight, when a fetch last failed); GuardEdit alone changes
 * it, and a compaction asks it to fetch again through `GuardState.compacted`.
 */
import { addEntry, allow, noteSession } from '../domain/conversation/record'
import type { Brief } from '../domain/brief'
import { compileGuard, type CompiledGuard } from '../domain/guard/compiled-guard'
import { guardQuestion, stopReason } from '../domain/guard/question'
import { parseNonGoals, type GuardRecord } from '../domain/guard/records'
import { withoutControls } from '../domain/item'
import { isProjectRelative, type Venture } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { HarkGateway } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { BriefReads } from './brief-service'
import type { ConversationReads } from './conversation-state'
import type { RecordRepository } from './record-repository'
import { describeError, quiet } from './deadline'
import type { ProjectPaths } from './project-paths'
import type { StartReads } from './start-session'

/** SPEC.md: after a failed decision fetch, the guard uses non-goals alone and tries again a minute later. */
export const DECISION_RETRY_MS = 60_000

export const ALLOW = 'Allow'
export const STOP = 'Stop'

/**
 * Before an edit: `go`, or a deny. A `go` carries where the file was placed inside the project, when it was,
 * for the same call's `after`, so the session folder is not asked twice.
 */
export type EditVerdict = { readonly go: true; readonly placed?: Placed } | { readonly go: false; readonly deny: string }

/** Where `before` placed the edited file: relative to the project, with `/`. */
export interface Placed {
  readonly path: string
}

export interface Decisions {
  /** The settled, scoped decisions from the last good fetch. */
  readonly records: readonly GuardRecord[]
}

/** Compact's one write on the edit guard's memory (SPEC.md, session.compact): the decisions are fetched again on the next edit. */
export interface CompactedWrites {
  compacted(): void
}

/** The edit guard's memory for one conversation. Written by GuardEdit (`GuardState`) and Compact (`CompactedWrites`). */
export class GuardState implements CompactedWrites {
  private fetched: Decisions | undefined
  private stale = false
  /** When a fetch last failed (epoch ms), UNTIMED when the clock could not say: the minute starts at the next reading it gives. */
  private failed: number | typeof UNTIMED | undefined
  private inFlight: Promise<void> | undefined
  /** The decisions' guard, compiled once per good fetch, and the non-goals', once per brief. */
  private decisionsGuard: { readonly from: Decisions | undefined; readonly guard: CompiledGuard } | undefined
  private nonGoalsGuard: { readonly from: Brief | undefined; readonly guard: CompiledGuard } | undefined

  compacted(): void {
    this.stale = true
  }

  /**
   * GuardEdit's own reads and writes, below. Whether deciding to fetch needs the time: only
   * while a failed fetch's minute may still be running (each clock reading is a call to the engine,
   * and the first guarded edit waits for every one of them).
   */
  get needsClock(): boolean {
    return !this.fresh && this.failed !== undefined
  }
  /**
   * `now` (epoch ms, undefined when the clock gave none) is needed only when `needsClock` says so.
   * While a failure is on record and no reading comes, nothing is fetched (never a request on every edit).
   */
  needsFetch(now: number | undefined): boolean {
    if (this.fresh) return false
    if (this.failed === UNTIMED) {
      if (now !== undefined) this.failed = now
      return false
    }
    return this.failed === undefined || (now !== undefined && now - this.failed >= DECISION_RETRY_MS)
  }
  private get fresh(): boolean {
    return this.fetched !== undefined && !this.stale
  }
  /** Edits running in parallel share one fetch. */
  shareFetch(start: () => Promise<void>): Promise<void> {
    return (this.inFlight ??= start().finally(() => {
      this.inFlight = undefined
    }))
  }
  fetchedNow(decisions: Decisions): void {
    this.fetched = decisions
    this.stale = false
    this.failed = undefined
  }
  /**
   * True for the first failure of a run (one log line however long Hark stays away). `now`:
   * when it failed (epoch ms), or undefined when the clock could not say.
   */
  fetchFailed(now: number | undefined): boolean {
    const first = this.failed === undefined
    this.failed = now ?? UNTIMED
    return first
  }
  /** The guard over this brief's non-goals (SPEC.md: they come with the brief), compiled once per brief. */
  nonGoalsFor(brief: Brief | undefined, compile: Compile): CompiledGuard {
    if (this.nonGoalsGuard === undefined || this.nonGoalsGuard.from !== brief) {
      this.nonGoalsGuard = { from: brief, guard: compile(parseNonGoals(brief?.nonGoals ?? [])) }
    }
    return this.nonGoalsGuard.guard
  }
  /** The guard over the decisions of the last good fetch (none before one), compiled once per fetch. */
  decisionsFor(compile: Compile): CompiledGuard {
    const decisions = this.fetched
    if (this.decisionsGuard === undefined || this.decisionsGuard.from !== decisions) {
      this.decisionsGuard = { from: decisions, guard: compile(decisions?.records ?? []) }
    }
    return this.decisionsGuard.guard
  }
}

/** GuardState's mark of a failure the clock gave no time for. */
const UNTIMED = 'untimed'

type Compile = (records: readonly GuardRecord[]) => CompiledGuard

export class GuardEdit {
  constructor(
    private readonly state: GuardState,
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly briefs: BriefReads,
    private readonly hark: HarkGateway,
    private readonly store: RecordRepository,
    private readonly clock: Clock,
    private readonly host: Host,
    private readonly paths: ProjectPaths,
  ) {}

  /** Before the edit: `go`, or a deny that tells Claude why and not to retry. */
  async before(filePath: string): Promise<EditVerdict> {
    const path = await this.pathInProject(filePath)
    if (path === undefined) return { go: true }
    // Carried to `after` only when found: a Write that creates folders may land inside only once it has run.
    const go = { go: true, placed: { path } } as const
    const covering = await this.covering(path)
    // Read once the guards are ready: an edit running in parallel may have been allowed meanwhile.
    const allowed = new Set(this.conversation.view?.allowed ?? this.conversation.record?.allowed ?? [])
    const matches = covering.filter((r) => !allowed.has(r.key))
    if (matches.length === 0) return go
    let answer: string
    try {
      answer = await this.host.ask(guardQuestion(path, matches), [ALLOW, STOP])
    } catch (error) {
      const line = `Hark: ${path} is covered by ${titles(matches)}, but the question could not be shown (${describeError(error)}); the edit goes ahead.`
      this.host.log(withoutControls(line).replace(/[\r\n\t]+/g, ' '))
      return go
    }
    if (answer === ALLOW) {
      await this.store.save((record) => allow(record, matches.map((m) => m.key)))
      return go
    }
    // What the person typed instead of Stop, trimmed, at most 500 characters (empty: nothing to add).
    const said = answer === STOP ? '' : answer.trim().slice(0, 500)
    return { go: false, deny: `${stopReason(path, matches)}${said && `\nThe user answered: ${said}`}` }
  }

  /** After a successful edit: record the file's path, relative to the project (`placed`: as `before` found it). */
  async after(filePath: string, placed?: Placed): Promise<void> {
    const path = placed === undefined ? await this.pathInProject(filePath) : placed.path
    // Only a path the store and the handoff take (no `\`, no drive-like first name, at most 1,000
    // characters): a file recorded but never sent would make the handoff say less than was done.
    if (path === undefined || !isProjectRelative(path)) return
    const session = this.conversation.open?.sessionId
    // The edit's hook settles while the save runs in the queue (nothing later reads the store before it).
    await this.store.record((record, { now }) => {
      const out = addEntry(record, { kind: 'file', path }, now)
      return session === undefined ? out : noteSession(out, session, now)
    })
  }

  private async pathInProject(filePath: string): Promise<string | undefined> {
    if (this.start.activeProject === undefined) return undefined
    return this.paths.relative(filePath)
  }

  /**
   * The records covering `path`: decisions first, then non-goals (docs/guard.md, Matching), each from its
   * compiled guard, kept until what it was compiled from changes (compiling 200 records costs
   * milliseconds; checking a path against them, microseconds).
   * The non-goals come with the start's brief and are compiled while the decisions are fetched, when the
   * hook would only wait for Hark: the fetch is begun first, and is on its way before the brief's wait ends.
   */
  private async covering(path: string): Promise<GuardRecord[]> {
    const nonGoals = () => this.state.nonGoalsFor(this.briefs.brief, compileGuard)
    await Promise.all([this.refreshDecisions(), this.briefs.firstBrief().then(nonGoals)])
    // The brief may have changed while the decisions came (a compaction): compiled again only then.
    return [...this.state.decisionsFor(compileGuard).match(path), ...nonGoals().match(path)]
  }

  /** The decisions are fetched on the first guarded edit and after each compaction; a minute after a failure. */
  private async refreshDecisions(): Promise<void> {
    const project = this.start.activeProject
    if (project === undefined) return
    // The clock's reading (epoch ms), undefined when it gives none.
    const now = this.state.needsClock ? await quiet(this.clock.now()) : undefined
    // After a failed fetch, decisions from an earlier good fetch still count.
    if (this.state.needsFetch(now)) await this.state.shareFetch(() => this.fetchDecisions(project.venture, now))
  }

  /** `asked`: when the fetch was decided on, if the clock was read for it (the failure's minute runs from then). */
  private async fetchDecisions(venture: Venture, asked: number | undefined): Promise<void> {
    const result = await this.hark.listDecisions(venture)
    if (result.ok) {
      this.state.fetchedNow({ records: result.value })
      return
    }
    const now = asked ?? (await quiet(this.clock.now()))
    if (this.state.fetchFailed(now)) {
      this.host.log(`Hark: could not fetch the decisions (${result.detail}); the edit guard uses the non-goals alone and tries again a minute later.`)
    }
  }
}

function titles(records: readonly GuardRecord[]): string {
  const list = records.slice(0, 3).map((r) => `"${r.title}"`).join(', ')
  return records.length > 3 ? `${list} and ${records.length - 3} more` : list
}
