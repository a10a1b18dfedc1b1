// Checked by `tsc -p spec/tsconfig.json` (a step of `npm test`), never run: a constructor's dependency
// list that is misordered, short or of the wrong type fails to compile. Each `@ts-expect-error` below
// fails the step if the line ever compiles.
import type { ContainerModuleLoadOptions } from '../../vendor/inversify.js'
import { perCall, perCallClass, useCase } from '../../composition/bind'
import { ConversationState, ConversationStore } from '../../core/application/conversation-store'
import { NotePrompt } from '../../core/application/note-prompt'
import { StartState } from '../../core/application/start-session'
import { Clock } from '../../core/ports/clock.port'
import { Host } from '../../core/ports/host.port'
import { token } from '../../core/ports/token'

export function typedBindings(bind: ContainerModuleLoadOptions['bind']): void {
  // Right: the constructor's parameters, in order.
  perCallClass(bind, NotePrompt, [StartState, ConversationState, ConversationStore])
  // @ts-expect-error two dependencies swapped
  perCallClass(bind, NotePrompt, [ConversationState, StartState, ConversationStore])
  // @ts-expect-error one dependency missing
  perCallClass(bind, NotePrompt, [StartState, ConversationState])
  useCase(bind, NotePrompt, [StartState, ConversationState, ConversationStore])
  // @ts-expect-error a use case's dependencies swapped
  useCase(bind, NotePrompt, [StartState, ConversationStore, ConversationState])
  const Now = token<() => number>('Now')
  perCall(bind, Now, (clock: Clock) => () => clock.now.length, [Clock])
  // @ts-expect-error a port of another type
  perCall(bind, Now, (clock: Clock) => () => clock.now.length, [Host])
}
