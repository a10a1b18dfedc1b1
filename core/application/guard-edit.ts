/**
 * The edit guard (SPEC.md: The edit guard; tool.call for Edit, Write, MultiEdit, NotebookEdit).
 * Before an edit of a file inside the project, its path is checked on this machine against the
 * settled, scoped decisions and the non-goals; a match asks the person Allow or Stop. After a
 * successful edit, the file's path is recorded. Nothing about the edit is sent to Hark.
 */
import { allow, addEntry, noteSession } from '../domain/conversation'
import { compileGuard, type CompiledGuard } from '../domain/guard/compiled-guard'
import type { GlobCompiler } from '../domain/guard/glob'
import { guardQuestion, stopReason } from '../domain/guard/question'
import { parseDecisionEntries, parseNonGoals, type GuardRecord } from '../domain/guard/records'
import { withoutControls } from '../domain/item'
import { relativeToProject } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { HarkGateway } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { SessionInfo } from '../ports/session.port'
import type { ConversationStore } from './conversation-store'
import { describeError } from './deadline'
import type { PluginState } from './plugin-state'
import type { StartSession } from './start-session'

/** SPEC.md: after a failed decision fetch, the guard uses non-goals alone and tries again a minute later. */
export const DECISION_RETRY_MS = 60_000

export const ALLOW = 'Allow'
export const STOP = 'Stop'

export type EditVerdict = { readonly go: true } | { readonly go: false; readonly deny: string }

export class GuardEdit {
  constructor(
    private readonly state: PluginState,
    private readonly start: StartSession,
    private readonly hark: HarkGateway,
    private readonly store: ConversationStore,
    private readonly clock: Clock,
    private readonly host: Host,
    private readonly session: SessionInfo,
    private readonly compile: GlobCompiler,
  ) {}

  /** Before the edit: `go`, or a deny that tells Claude why and not to retry. */
  async before(filePath: string): Promise<EditVerdict> {
    await this.start.ensureStarted()
    const path = await this.pathInProject(filePath)
    if (path === undefined) return { go: true }
    const guard = await this.guard()
    const allowed = new Set(this.state.view?.allowed ?? this.state.record?.allowed ?? [])
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
    if (path === undefined) return
    const session = this.state.sessionId
    await this.store.save((record, { now }) => {
      const out = addEntry(record, { kind: 'file', path }, now)
      return session === undefined ? out : noteSession(out, session, now)
    })
  }

  private async pathInProject(filePath: string): Promise<string | undefined> {
    const project = this.state.project
    if (this.state.phase !== 'active' || project === undefined || typeof filePath !== 'string') return undefined
    const cwd = await this.session.cwd().catch(() => project.root)
    return relativeToProject(project.root, filePath, cwd)
  }

  /**
   * The compiled guard over the decisions and the non-goals, kept until either changes (compiling
   * 200 records costs milliseconds; checking a path against them, microseconds).
   */
  private async guard(): Promise<CompiledGuard> {
    await this.refreshDecisions()
    const { decisions, brief, compiledGuard } = this.state
    if (compiledGuard !== undefined && compiledGuard.decisions === decisions && compiledGuard.brief === brief) return compiledGuard.guard
    const records = [...(decisions?.records ?? []), ...parseNonGoals(brief?.nonGoals ?? [])]
    const guard = compileGuard(records, this.compile)
    this.state.compiledGuard = { decisions, brief, guard }
    return guard
  }

  /** The decisions are fetched on the first guarded edit and after each compaction; a minute after a failure. */
  private async refreshDecisions(): Promise<void> {
    const project = this.state.project
    if (project === undefined) return
    const now = await this.clock.now()
    const fresh = this.state.decisions !== undefined && !this.state.decisionsStale
    const waiting = this.state.decisionsFailedAt !== undefined && now - this.state.decisionsFailedAt < DECISION_RETRY_MS
    if (!fresh && !waiting) {
      // Edits running in parallel share one fetch.
      this.state.decisionsFetch ??= this.fetchDecisions(project.venture, now).finally(() => {
        this.state.decisionsFetch = undefined
      })
      // After a failed fetch, decisions from an earlier good fetch still count.
      await this.state.decisionsFetch
    }
  }

  private async fetchDecisions(venture: string, now: number): Promise<void> {
    const result = await this.hark.listDecisions(venture)
    if (result.ok) {
      this.state.decisions = { records: parseDecisionEntries(result.value), fetchedAt: now }
      this.state.decisionsStale = false
      this.state.decisionsFailedAt = undefined
    } else {
      // One line for a run of failures, not one a minute while Hark stays away.
      if (this.state.decisionsFailedAt === undefined) {
        this.host.log(`Hark: could not fetch the decisions (${result.detail}); the edit guard uses the non-goals alone and tries again a minute later.`)
      }
      this.state.decisionsFailedAt = now
    }
  }
}

function titles(records: readonly GuardRecord[]): string {
  const list = records.slice(0, 3).map((r) => `"${r.title}"`).join(', ')
  return records.length > 3 ? `${list} and ${records.length - 3} more` : list
}
