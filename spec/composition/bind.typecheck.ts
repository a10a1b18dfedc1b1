// Checked by `tsc -p spec/tsconfig.json` (a step of `npm test`), never run: a dependency list that is
// misordered, short, of the wrong type or made of untyped symbols fails to compile, and so does a binding
// made in a container of the wrong lifetime. Each `@ts-expect-error` fails the step if its line compiles.
import { perCall, perCallClass, perContainer, useCase, type CallBind, type ConversationBind, type LoadBind } from '../../composition/bind'
import { ConversationState } from '../../core/application/conversation-state'
import { RecordRepository } from '../../core/application/record-repository'
import { NotePrompt } from '../../core/application/note-prompt'
import { StartState } from '../../core/application/start-session'
import { Clock } from '../../core/ports/clock.port'
import { Host } from '../../core/ports/host.port'
import { token } from '../../core/ports/token'

export function dependencyLists(load: LoadBind, call: CallBind): void {
  // Right: the constructor's parameters, in order.
  useCase(load, NotePrompt, [StartState, ConversationState, RecordRepository])
  // @ts-expect-error two dependencies swapped
  useCase(load, NotePrompt, [ConversationState, StartState, RecordRepository])
  // @ts-expect-error one dependency missing
  useCase(load, NotePrompt, [StartState, ConversationState])
  // @ts-expect-error an untyped symbol stands for a dependency
  useCase(load, NotePrompt, [StartState, ConversationState, Symbol('RecordRepository')])
  const Now = token<() => number>('Now')
  perCall(call, Now, (clock: Clock) => () => clock.now.length, [Clock])
  // @ts-expect-error a port of another type
  perCall(call, Now, (clock: Clock) => () => clock.now.length, [Host])
}

export function lifetimes(load: LoadBind, conversation: ConversationBind, call: CallBind): void {
  perContainer(load, StartState)
  perContainer(conversation, StartState)
  perCallClass(call, NotePrompt, [StartState, ConversationState, RecordRepository])
  // @ts-expect-error a service over a call's ports bound in the load's container would keep the first call's ports
  perCallClass(load, NotePrompt, [StartState, ConversationState, RecordRepository])
  // @ts-expect-error nor in a conversation's
  perCallClass(conversation, NotePrompt, [StartState, ConversationState, RecordRepository])
  // @ts-expect-error state that outlives a call is not bound in a call's container
  perContainer(call, StartState)
  // @ts-expect-error use cases are bound once, in the load's container
  useCase(call, NotePrompt, [StartState, ConversationState, RecordRepository])
}
