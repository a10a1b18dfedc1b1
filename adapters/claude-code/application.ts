/**
 * What the hooks adapter asks of the composition root: the use cases, wired to one hook call's
 * ports. The composition root implements it; nothing here names a concrete adapter.
 */
import type { Compact } from '../../core/application/compact'
import type { DetectMove } from '../../core/application/detect-move'
import type { GuardEdit } from '../../core/application/guard-edit'
import type { HandOff } from '../../core/application/hand-off'
import type { HarkCommand } from '../../core/application/hark-command'
import type { NotePrompt } from '../../core/application/note-prompt'
import type { ProvideContext } from '../../core/application/provide-context'
import type { RecordWork } from '../../core/application/record-work'
import type { StartSession } from '../../core/application/start-session'
import type { EnginePorts } from './engine-ports'

export interface UseCases {
  readonly start: StartSession
  readonly context: ProvideContext
  readonly prompt: NotePrompt
  readonly guard: GuardEdit
  readonly work: RecordWork
  readonly move: DetectMove
  readonly handOff: HandOff
  readonly compact: Compact
  readonly command: HarkCommand
}

export interface Application {
  /** The use cases for one hook call, over that call's ports and the current conversation. */
  useCases(ports: EnginePorts): UseCases
  /**
   * The conversation ended (`/clear`, or a resume into another session): its state is dropped, and
   * the next hook starts a new one (SPEC.md: session.end). What the load holds stays.
   */
  endConversation(): void
}
