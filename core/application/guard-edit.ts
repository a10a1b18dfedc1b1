/**
 * The edit guard (SPEC.md: The edit guard; tool.call for Edit, Write, MultiEdit, NotebookEdit).
 * Before an edit of a file inside the project, its path is checked on this machine against the
 * settled, scoped decisions and the non-goals (GuardMatch); a match asks the person Allow or Stop. After a
 * successful edit, the file's path is recorded. Nothing about the edit is sent to Hark.
 */
import { addEntry, allow, noteSession } from '../domain/conversation/record'
import { guardQuestion, stopReason } from '../domain/guard/question'
import type { GuardRecord } from '../domain/guard/records'
import { withoutControls } from '../domain/item'
import { isProjectRelative } from '../domain/project'
import type { Host } from '../ports/host.port'
import type { ConversationReads } from './conversation-state'
import { describeError } from './deadline'
import type { GuardMatch } from './guard-match'
import type { ProjectPaths } from './project-paths'
import type { RecordRepository } from './record-repository'
import type { StartReads } from './start-session'

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

export class GuardEdit {
  constructor(
    private readonly start: StartReads,
    private readonly paths: ProjectPaths,
    private readonly match: GuardMatch,
    private readonly conversation: ConversationReads,
    private readonly store: RecordRepository,
    private readonly host: Host,
  ) {}

  /** Before the edit: `go`, or a deny that tells Claude why and not to retry. */
  async before(filePath: string): Promise<EditVerdict> {
    const path = await this.pathInProject(filePath)
    if (path === undefined) return { go: true }
    // Carried to `after` only when found: a Write that creates folders may land inside only once it has run.
    const go = { go: true, placed: { path } } as const
    const covering = await this.match.covering(path)
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
}

function titles(records: readonly GuardRecord[]): string {
  const list = records.slice(0, 3).map((r) => `"${r.title}"`).join(', ')
  return records.length > 3 ? `${list} and ${records.length - 3} more` : list
}
