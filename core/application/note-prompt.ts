/**
 * prompt.submit (SPEC.md): notes that a prompt arrived and records this process as the one carrying
 * the conversation, waiting at most 150 ms for the store. The prompt itself is never changed or kept.
 * (In the agent view's placeholder, the first real task starts the plugin: `StartSession.forPerson`,
 * which the hook runs first.)
 */
import { noteSession } from '../domain/conversation/record'
import { STORE_WAIT_EXIT_MS, type ConversationState, type ConversationStore } from './conversation-store'
import type { StartState } from './start-session'

export class NotePrompt {
  constructor(
    private readonly start: StartState,
    private readonly conversation: ConversationState,
    private readonly store: ConversationStore,
  ) {}

  async run(): Promise<void> {
    const session = this.conversation.open?.sessionId
    if (this.start.activeProject === undefined || session === undefined) return
    // At most 150 ms in all, a save queued behind another included; the save goes on after that.
    await this.store.saveWithin((record, { now }) => noteSession(record, session, now), STORE_WAIT_EXIT_MS)
  }
}
