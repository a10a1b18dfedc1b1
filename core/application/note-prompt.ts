/**
 * prompt.submit (SPEC.md): notes that a prompt arrived and records this process as the one carrying
 * the conversation, without waiting for the store (the save runs after the hook settles). The prompt itself is never changed or kept.
 * (In the agent view's placeholder, the first real task starts the plugin: `StartSession.forPerson`,
 * which the hook runs first.)
 */
import { noteSession } from '../domain/conversation/record'
import type { ConversationReads } from './conversation-state'
import type { RecordRepository } from './record-repository'
import type { StartReads } from './start-session'

export class NotePrompt {
  constructor(
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly store: RecordRepository,
  ) {}

  async run(): Promise<void> {
    const session = this.conversation.open?.sessionId
    if (this.start.activeProject === undefined || session === undefined) return
    // The prompt never waits for the store: the save runs in the queue after the hook settles.
    await this.store.record((record, { now }) => noteSession(record, session, now))
  }
}
