/**
 * /hark (SPEC.md): `brief` (the default) fetches and prints the brief; `handoff` ends the Hark
 * session now and records the handoff; `needs` lists the proposals waiting for a person and updates
 * the count; `open` prints the project's link and starts no program; `preview` prints what the
 * handoff would send now, and sends and stores nothing; `doctor` diagnoses the set-up (./doctor),
 * sending nothing, in or out of a Hark project. Outside a Hark project, or without a key, it says how
 * to set up.
 *
 * State: `ProjectLink` lives as long as the plugin load (each project's id, once Hark named it, so
 * `/clear` does not ask again); HarkCommand alone changes it.
 */
import { renderBriefText } from '../domain/brief'
import type { HandoffPayload } from '../domain/handoff'
import { describeItem } from '../domain/item'
import { isProjectId, type Venture } from '../domain/project'
import type { HarkFailureKind, HarkGateway } from '../ports/hark.port'
import type { BriefService } from './brief-service'
import type { ConversationReads } from './conversation-state'
import type { RecordRepository } from './record-repository'
import type { DeliverLater } from './deliver-later'
import type { Doctor } from './doctor'
import type { HandOff, HandoffOutcome, HandoffPreview } from './hand-off'
import { KEY_HELP, PROJECT_HELP, SETUP_HELP } from './settings'
import type { StartReads } from './start-session'

export const STUDIO_URL = 'https://harkstudio.io/studio'
export const VENTURE_URL = 'https://harkstudio.io/ventures/'

const USAGE = 'Usage: /hark [brief|handoff|preview|needs|open|doctor]'
/** The words /hark knows, '' (/hark alone) for the brief. */
const SUBCOMMANDS = '|brief|handoff|preview|needs|open|help|doctor'.split('|')

/** `n` and `noun`, plural but for one: `1 file`, `2 files`. */
const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`

/** `/hark <args>`'s first word, lower-cased ('' for none). */
const subcommand = (args: string): string => (args.trim().split(/\s+/)[0] ?? '').toLowerCase()

/** Each project's id (a UUID), once `get_venture` named it, for /hark open. */
export class ProjectLink {
  private readonly known = new Map<string, string>()

  idOf(venture: string): string | undefined {
    return this.known.get(venture)
  }

  /** HarkCommand's own write. */
  learn(venture: string, id: string): void {
    this.known.set(venture, id)
  }
}

export class HarkCommand {
  constructor(
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly link: ProjectLink,
    private readonly briefs: BriefService,
    private readonly handOff: HandOff,
    private readonly hark: HarkGateway,
    private readonly store: RecordRepository,
    private readonly delivery: DeliverLater,
    private readonly doctor: Doctor,
  ) {}

  /** The usage text when `/hark <args>` names no command, before anything starts; else undefined. */
  unknown(args: string): string | undefined {
    const sub = subcommand(args)
    return SUBCOMMANDS.includes(sub) ? undefined : `Unknown /hark command "${sub.slice(0, 40)}". ${USAGE}`
  }

  /**
   * Whether `/hark <args>` starts the plugin first (SPEC.md: a person's turn starts it, in the agent
   * view's placeholder too). `doctor` and `preview` only look: they start nothing, so they send and store
   * nothing (a start would fetch the brief).
   */
  startsPlugin(args: string): boolean {
    const sub = subcommand(args)
    return sub !== 'doctor' && sub !== 'preview'
  }

  /** The text to print for `/hark <args>`, once the conversation has started. */
  async run(args: string): Promise<string> {
    const sub = subcommand(args)
    const { phase, activeProject: project } = this.start
    const unknown = this.unknown(args)
    if (unknown) return unknown
    if (sub === 'doctor') return this.doctor.report()
    if (sub === 'preview' && (phase === 'unstarted' || phase === 'placeholder')) {
      return 'Nothing to hand off: the plugin has not started in this conversation yet (it starts with the first prompt), so nothing would be sent. Nothing has been sent or stored.'
    }
    if (sub === 'help') return project ? USAGE : `${USAGE}\n${SETUP_HELP}`
    if (!project) return this.setupText()
    if (sub === 'handoff') {
      const outcome = await this.handOff.run()
      if (outcome.kind === 'sent') this.briefs.showStatus()
      return describeHandoff(outcome)
    }
    if (sub === 'preview') return describePreview(await this.handOff.preview())
    if (sub === 'needs') return this.needs(project.venture)
    return sub === 'open' ? this.open() : this.brief(project.venture)
  }

  private setupText(): string {
    const { idleReason, project } = this.start
    if (idleReason === 'unplaced-folder') {
      return 'This session runs in a network share or a device path, which the plugin does not read, so nothing is sent. Open the project through a drive letter (map the share) to use Hark.'
    }
    return idleReason === 'no-key' && project
      ? `Hark project ${project.venture} (from ${project.file}), but no access key is set, so nothing is sent.\n${KEY_HELP}`
      : `No Hark project file (.hark/project or .hark) was found in this folder or its parents, so nothing is sent.\n${PROJECT_HELP}`
  }

  /**
   * The brief of `venture` (the active project), fetched now (the last one this session has when the fetch
   * fails), and the handoffs of earlier sessions that could not reach Hark and wait on this machine
   * (core/domain/undelivered.ts).
   */
  private async brief(venture: Venture): Promise<string> {
    const result = await this.briefs.fetch('for /hark brief')
    const active = this.start.activeProject
    const n = active ? await this.delivery.waiting(active.venture) : 0
    const waiting = n === 0 ? '' : `\n\n${counted(n, 'handoff')} of earlier sessions could not reach Hark and wait${n === 1 ? 's' : ''} on this machine; the next session start sends ${n === 1 ? 'it' : 'them'}.`
    if (result.ok) return `Hark brief for ${venture}:\n\n${renderBriefText(result.value)}${waiting}`
    const last = this.briefs.brief
    const failed = `Could not fetch the brief for ${venture} (${result.detail}).${keyHelp(result.kind)}${waiting}`
    return last ? `${failed}\nThe last brief this session has:\n\n${renderBriefText(last)}` : failed
  }

  private async needs(venture: Venture): Promise<string> {
    const result = await this.hark.listCandidates(venture)
    if (!result.ok) return `Could not list the proposals for ${venture} (${result.detail}).${keyHelp(result.kind)}`
    const { items, total } = result.value
    const state = this.conversation.view?.status?.state ?? this.briefs.brief?.handoffState ?? 'Open'
    await this.store.save((record, { now }) => ({ ...record, openedAt: Math.max(record.openedAt, now), status: { state, needYou: Math.min(total, 9_999), at: now } }))
    this.briefs.showStatus()
    if (total === 0) return `No proposals wait for a person in ${venture}.`
    const lines = items.slice(0, 50).map((item) => `- ${describeItem(item)}`)
    if (total > lines.length) lines.push(`- and ${total - lines.length} more`)
    return `${counted(total, 'proposal')} wait${total === 1 ? 's' : ''} for a person in ${venture}:\n${lines.join('\n')}`
  }

  /** SPEC.md: prints the link (asking get_venture once when the file holds a code); starts no program. */
  private async open(): Promise<string> {
    const project = this.start.project
    if (!project) return STUDIO_URL
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
