/**
 * The /hark subcommands that answer for the active project (SPEC.md: /hark), one handler each, looked up
 * by word in `HarkSubcommands`: `brief` fetches and prints the brief; `handoff` ends the Hark session now
 * and records the handoff; `preview` prints what the handoff would send now, sending and storing nothing;
 * `needs` lists the proposals waiting for a person and updates the count; `open` prints the project's link
 * and starts no program.
 *
 * State: `ProjectLink` lives as long as the plugin load (each project's id, once Hark named it, so `/clear`
 * does not ask again); OpenCommand alone changes it.
 */
import { renderBriefText } from '../domain/brief'
import type { HandoffPayload } from '../domain/handoff'
import { describeItem } from '../domain/item'
import { isProjectId, type ProjectRef } from '../domain/project'
import type { HarkFailureKind, HarkGateway } from '../ports/hark.port'
import type { BriefReads, BriefService } from './brief-service'
import type { ConversationReads } from './conversation-state'
import type { DeliverLater } from './deliver-later'
import type { HandOff, HandoffOutcome, HandoffPreview } from './hand-off'
import type { RecordRepository } from './record-repository'
import { KEY_HELP, SETUP_HELP } from './settings'
import type { StatusLine } from './status-line'

export const STUDIO_URL = 'https://harkstudio.io/studio'
export const VENTURE_URL = 'https://harkstudio.io/ventures/'

/** A /hark subcommand for the active project: the text to print. */
export interface ProjectSubcommand {
  run(project: ProjectRef): Promise<string>
}

/** The handlers of the words that need a project, by word. */
export class HarkSubcommands {
  constructor(
    readonly brief: BriefCommand,
    readonly handoff: HandoffCommand,
    readonly preview: PreviewCommand,
    readonly needs: NeedsCommand,
    readonly open: OpenCommand,
  ) {}
}
export type ProjectWord = keyof HarkSubcommands

/** `n` and `noun`, plural but for one: `1 file`, `2 files`. */
const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`

/**
 * `/hark brief` (and `/hark` alone): the brief, fetched now (the last one this session has when the fetch
 * fails), and the handoffs of earlier sessions that could not reach Hark and wait on this machine
 * (core/domain/undelivered.ts).
 */
export class BriefCommand implements ProjectSubcommand {
  constructor(
    private readonly briefs: BriefService,
    private readonly delivery: DeliverLater,
  ) {}

  async run({ venture }: ProjectRef): Promise<string> {
    const result = await this.briefs.fetch('for /hark brief')
    const n = await this.delivery.waiting(venture)
    const waiting = n === 0 ? '' : `\n\n${counted(n, 'handoff')} of earlier sessions could not reach Hark and wait${n === 1 ? 's' : ''} on this machine; the next session start sends ${n === 1 ? 'it' : 'them'}.`
    if (result.ok) return `Hark brief for ${venture}:\n\n${renderBriefText(result.value)}${waiting}`
    const last = this.briefs.brief
    const failed = `Could not fetch the brief for ${venture} (${result.detail}).${keyHelp(result.kind)}${waiting}`
    return last ? `${failed}\nThe last brief this session has:\n\n${renderBriefText(last)}` : failed
  }
}

/** `/hark handoff`: the handoff, now; the status line shows the session it closed. */
export class HandoffCommand implements ProjectSubcommand {
  constructor(
    private readonly handOff: HandOff,
    private readonly status: StatusLine,
  ) {}

  async run(): Promise<string> {
    const outcome = await this.handOff.run()
    if (outcome.kind === 'sent') this.status.show()
    return describeHandoff(outcome)
  }
}

/** `/hark preview`: what the handoff would send now; sends and stores nothing. */
export class PreviewCommand implements ProjectSubcommand {
  constructor(private readonly handOff: HandOff) {}

  async run(): Promise<string> {
    return describePreview(await this.handOff.preview())
  }
}

/** `/hark needs`: the proposals waiting for a person, whose count the record and the status line take. */
export class NeedsCommand implements ProjectSubcommand {
  constructor(
    private readonly conversation: ConversationReads,
    private readonly briefs: BriefReads,
    private readonly hark: HarkGateway,
    private readonly store: RecordRepository,
    private readonly status: StatusLine,
  ) {}

  async run({ venture }: ProjectRef): Promise<string> {
    const result = await this.hark.listCandidates(venture)
    if (!result.ok) return `Could not list the proposals for ${venture} (${result.detail}).${keyHelp(result.kind)}`
    const { items, total } = result.value
    const state = this.conversation.view?.status?.state ?? this.briefs.brief?.handoffState ?? 'Open'
    await this.store.save((record, { now }) => ({ ...record, openedAt: Math.max(record.openedAt, now), status: { state, needYou: Math.min(total, 9_999), at: now } }))
    this.status.show()
    if (total === 0) return `No proposals wait for a person in ${venture}.`
    const lines = items.slice(0, 50).map((item) => `- ${describeItem(item)}`)
    if (total > lines.length) lines.push(`- and ${total - lines.length} more`)
    return `${counted(total, 'proposal')} wait${total === 1 ? 's' : ''} for a person in ${venture}:\n${lines.join('\n')}`
  }
}

/** Each project's id (a UUID), once `get_venture` named it, for /hark open. */
export class ProjectLink {
  private readonly known = new Map<string, string>()

  idOf(venture: string): string | undefined {
    return this.known.get(venture)
  }

  /** OpenCommand's own write. */
  learn(venture: string, id: string): void {
    this.known.set(venture, id)
  }
}

/** `/hark open` (SPEC.md): prints the link (asking get_venture once when the file holds a code); starts no program. */
export class OpenCommand implements ProjectSubcommand {
  constructor(
    private readonly link: ProjectLink,
    private readonly hark: HarkGateway,
  ) {}

  async run(project: ProjectRef): Promise<string> {
    let id = project.id ?? this.link.idOf(project.venture)
    if (id === undefined && !isProjectId(project.venture)) {
      const result = await this.hark.getVenture(project.venture)
      if (result.ok && result.value !== undefined) this.link.learn(project.venture, (id = result.value))
    }
    return id === undefined ? `Hark's studio (the project's id could not be found): ${STUDIO_URL}` : `${project.venture} on Hark: ${VENTURE_URL}${id}`
  }
}

/** After a request that failed as `kind`: how to set a new key when Hark refused it (HTTP 401 or 403), else ''. */
const keyHelp = (kind: HarkFailureKind): string => (kind === 'key-refused' ? `\nHark refused the access key.\n${KEY_HELP}` : '')

function describeHandoff(outcome: HandoffOutcome): string {
  switch (outcome.kind) {
    case 'idle':
      return SETUP_HELP
    case 'moved':
      return 'This conversation moved to a background process; that process hands it off.'
    case 'nothing':
      return 'Nothing to hand off: no edits, commits or test runs since the last handoff, and no Hark session is open.'
    case 'taken':
      return 'Another Claude Code process of this conversation is handing this work off.'
    case 'failed':
      return `The handoff did not reach Hark: ${outcome.tool} failed (${outcome.detail}).${keyHelp(outcome.failure)}`
    case 'sent': {
      if (outcome.tool === 'close_session') return 'No edits, commits or test runs to hand off: closed the Hark session.'
      const { files, commits, tests } = outcome.work
      const what = `${counted(files.length, 'file')}, ${counted(commits.length, 'commit')}, ${counted(tests.length, 'test run')}`
      return outcome.tool === 'end_session'
        ? `Handed off to Hark (${what}). Work from here on starts a new handoff.`
        : `end_session failed, so Hark drafts the handoff from repo activity (${what}).`
    }
  }
}

/** The payload's fields /hark preview shows, in order (`links` one a line; a field left out is not shown). */
const PREVIEW_FIELDS = 'what_i_did what_changed whats_next links watch_out_for'.split(' ') as readonly (keyof Omit<HandoffPayload, 'venture'>)[]

/**
 * /hark preview (SPEC.md): each field of what the handoff would send now, exactly as it would go
 * (cleaned), or what would happen instead.
 */
export function describePreview(preview: HandoffPreview): string {
  switch (preview.kind) {
    case 'idle':
      return SETUP_HELP
    case 'moved':
      return 'This conversation moved to a background process; that process hands it off. Nothing has been sent or stored.'
    case 'nothing':
      return 'Nothing to hand off: no edits, commits or test runs since the last handoff, and no Hark session is open, so nothing would be sent. Nothing has been sent or stored.'
    case 'close_session':
      return `Nothing to hand off: no edits, commits or test runs since the last handoff. If the session ended now, close_session would be sent to close the open Hark session, with the reason "${preview.reason}". Nothing has been sent or stored.`
    case 'end_session': {
      const p = preview.payload
      return [
        `If the session ended now, end_session would send this to Hark for ${p.venture}, after cleaning. Nothing has been sent or stored.`,
        ...PREVIEW_FIELDS.flatMap((name) => {
          const value = name === 'links' ? p.links.join('\n') : p[name]
          return value === undefined ? [] : [`${name}:\n${value || '(empty)'}`]
        }),
      ].join('\n\n')
    }
  }
}
