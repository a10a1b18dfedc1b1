/**
 * The edit guard (SPEC.md: The edit guard; tool.call for Edit, Write, MultiEdit, NotebookEdit).
 * Before an edit of a file inside the project, its path is checked on this machine against the
 * settled, scoped decisions and the non-goals; a match asks the person Allow or Stop. After a
 * successful edit, the file's path is recorded. Nothing about the edit is sent to Hark.
 *
 * State: `GuardState` lives as long as the conversation (the decisions, the guard compiled over
 * them, the fetch in flight, when a fetch last failed); GuardEdit alone changes it, and a compaction
 * asks it to fetch again through `GuardState.compacted`.
 */
import { addEntry, allow, noteSession } from '../domain/conversation/record'
import type { Brief } from '../domain/brief'
import { compileGuard, type CompiledGuard } from '../domain/guard/compiled-guard'
import type { GlobCompiler } from '../domain/guard/glob'
import { guardQuestion, stopReason } from '../domain/guard/question'
import { parseNonGoals, type GuardRecord } from '../domain/guard/records'
import { withoutControls } from '../domain/item'
import { isProjectRelative, type Venture } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { HarkGateway } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { BriefState } from './brief-service'
import type { ConversationState, ConversationStore } from './conversation-store'
import { describeError } from './deadline'
import type { ProjectPaths } from './project-paths'
import type { StartState } from './start-session'

/** SPEC.md: after a failed decision fetch, the guard uses non-goals alone and tries again a minute later. */
export const DECISION_RETRY_MS = 60_000

export const ALLOW = 'Allow'
export const STOP = 'Stop'

export type EditVerdict = { readonly go: true } | { readonly go: false; readonly deny: string }

export interface Decisions {
  /** The settled, scoped decisions from the last good fetch. */
  readonly records: readonly GuardRecord[]
  /** When they were fetched (epoch ms). */
  readonly fetchedAt: number
}

/** The edit guard's memory for one conversation. */
export class GuardState {
  private fetched: Decisions | undefined
  private stale = false
  private failedAt: number | undefined
  private inFlight: Promise<void> | undefined
  private compiled: { readonly decisions: Decisions | undefined; readonly brief: Brief | undefined; readonly guard: CompiledGuard } | undefined

  /** SPEC.md, session.compact: the decisions are fetched again on the next edit. */
  compacted(): void {
    this.stale = true
  }

  /** @internal GuardEdit's own reads and writes, below. */
  needsFetch(now: number): boolean {
    const fresh = this.fetched !== undefined && !this.stale
    const waiting = this.failedAt !== undefined && now - this.failedAt < DECISION_RETRY_MS
    return !fresh && !waiting
  }
  /** @internal Edits running in parallel share one fetch. */
  shareFetch(start: () => Promise<void>): Promise<void> {
    this.inFlight ??= start().finally(() => {
      this.inFlight = undefined
    })
    return this.inFlight
  }
  /** @internal */
  fetchedNow(decisions: Decisions): void {
    this.fetched = decisions
    this.stale = false
    this.failedAt = undefined
  }
  /** @internal True for the first failure of a run (one log line however long Hark stays away). */
  fetchFailed(now: number): boolean {
    const first = this.failedAt === undefined
    this.failedAt = now
    return first
  }
  /** @internal The guard over these decisions and this brief's non-goals, compiled once for both. */
  guardFor(brief: Brief | undefined, compile: (records: readonly GuardRecord[]) => CompiledGuard): CompiledGuard {
    const decisions = this.fetched
    const kept = this.compiled
    if (kept !== undefined && kept.decisions === decisions && kept.brief === brief) return kept.guard
    const guard = compile([...(decisions?.records ?? []), ...parseNonGoals(brief?.nonGoals ?? [])])
    this.compiled = { decisions, brief, guard }
    return guard
  }
}

export class GuardEdit {
  constructor(
    private readonly state: GuardState,
    private readonly start: StartState,
    private readonly conversation: ConversationState,
    private readonly briefs: BriefState,
    private readonly hark: HarkGateway,
    private readonly store: ConversationStore,
    private readonly clock: Clock,
    private readonly host: Host,
    private readonly paths: ProjectPaths,
    private readonly compile: GlobCompiler,
  ) {}

  /** Before the edit: `go`, or a deny that tells Claude why and not to retry. */
  async before(filePath: string): Promise<EditVerdict> {
    const path = await this.pathInProject(filePath)
    if (path === undefined) return { go: true }
    const guard = await this.guard()
    const allowed = new Set(this.conversation.view?.allowed ?? this.conversation.record?.allowed ?? [])
    const matches = guard.match(path).filter((r) => !allowed.has(r.key))
    if (matches.length === 0) return { go: true }
    let answer: string
    try {
      answer = await this.host.ask(guardQuestion(path, matches), [ALLOW, STOP])
    } catch (error) {
      const line = `Hark: ${path} is covered by ${titles(matches)}, but the question could not be shown (${describeError(error)}); the edit goes ahead.`
      this.host.log(withoutControls(line).replace(/[\r\n\t]+/g, ' '))
      return { go: true }
    }
    if (answer === ALLOW) {
      const keys = matches.map((m) => m.key)
      await this.store.save((record) => allow(record, keys))
      return { go: true }
    }
    const said = answer === STOP || answer.trim() === '' ? '' : `\nThe user answered: ${answer.trim().slice(0, 500)}`
    return { go: false, deny: `${stopReason(path, matches)}${said}` }
  }

  /** After a successful edit: record the file's path, relative to the project. */
  async after(filePath: string): Promise<void> {
    const path = await this.pathInProject(filePath)
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
   * The compiled guard over the decisions and the non-goals, kept until either changes (compiling
   * 200 records costs milliseconds; checking a path against them, microseconds).
   */
  private async guard(): Promise<CompiledGuard> {
    // The non-goals come with the start's brief; the decisions are fetched meanwhile.
    await Promise.all([this.refreshDecisions(), this.briefs.firstBrief()])
    return this.state.guardFor(this.briefs.brief, (records) => compileGuard(records, this.compile))
  }

  /** The decisions are fetched on the first guarded edit and after each compaction; a minute after a failure. */
  private async refreshDecisions(): Promise<void> {
    const project = this.start.activeProject
    if (project === undefined) return
    const now = await this.clock.now()
    // After a failed fetch, decisions from an earlier good fetch still count.
    if (this.state.needsFetch(now)) await this.state.shareFetch(() => this.fetchDecisions(project.venture, now))
  }

  private async fetchDecisions(venture: Venture, now: number): Promise<void> {
    const result = await this.hark.listDecisions(venture)
    if (result.ok) {
      this.state.fetchedNow({ records: result.value, fetchedAt: now })
    } else if (this.state.fetchFailed(now)) {
      this.host.log(`Hark: could not fetch the decisions (${result.detail}); the edit guard uses the non-goals alone and tries again a minute later.`)
    }
  }
}

function titles(records: readonly GuardRecord[]): string {
  const list = records.slice(0, 3).map((r) => `"${r.title}"`).join(', ')
  return records.length > 3 ? `${list} and ${records.length - 3} more` : list
}
