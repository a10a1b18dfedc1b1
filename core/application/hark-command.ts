/**
 * /hark (SPEC.md): the word after it picks the subcommand: `doctor` diagnoses the set-up (./doctor), sending
 * nothing, in or out of a Hark project; the others answer for the active project (./hark-subcommands), and
 * outside a Hark project, or without a key, /hark says how to set up. An unknown word prints the usage.
 */
import { withoutControls } from '../domain/item'
import type { Doctor } from './doctor'
import type { HarkSubcommands, ProjectWord } from './hark-subcommands'
import { KEY_HELP, PROJECT_HELP, SETUP_HELP } from './settings'
import type { StartReads } from './start-session'

const USAGE = 'Usage: /hark [brief|handoff|preview|needs|open|doctor]'
/** The words /hark knows: each project subcommand's, `help`, `doctor`, and '' (/hark alone) for the brief. */
const PROJECT_WORDS: readonly ProjectWord[] = ['brief', 'handoff', 'preview', 'needs', 'open']
const WORDS: readonly string[] = ['', ...PROJECT_WORDS, 'help', 'doctor']
const isProjectWord = (word: string): word is ProjectWord => (PROJECT_WORDS as readonly string[]).includes(word)

/** `/hark <args>`'s first word, lower-cased ('' for none). */
const subcommand = (args: string): string => (args.trim().split(/\s+/)[0] ?? '').toLowerCase()

export class HarkCommand {
  constructor(
    private readonly start: StartReads,
    private readonly doctor: Doctor,
    private readonly subcommands: HarkSubcommands,
  ) {}

  /** The usage text when `/hark <args>` names no command, before anything starts; else undefined. */
  unknown(args: string): string | undefined {
    const sub = subcommand(args)
    return WORDS.includes(sub) ? undefined : `Unknown /hark command "${withoutControls([...sub].slice(0, 40).join(''))}". ${USAGE}`
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
    return this.subcommands[isProjectWord(sub) ? sub : 'brief'].run(project)
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
}
