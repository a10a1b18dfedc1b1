/**
 * prompt.submit (SPEC.md): notes that a prompt arrived and records this process as the one carrying
 * the conversation, waiting at most 150 ms for the store. In the agent view's placeholder the first
 * real task starts the plugin (and gets the brief). The prompt itself is never changed or kept.
 */
import { noteSession } from '../domain/conversation'
import { STORE_WAIT_EXIT_MS, type ConversationStore } from './conversation-store'
import type { PluginState } from './plugin-state'
import type { StartSession } from './start-session'

export class NotePrompt {
  constructor(
    private readonly state: PluginState,
    private readonly start: StartSession,
    private readonly store: ConversationStore,
  ) {}

  async run(): Promise<void> {
    if (this.state.phase === 'placeholder') await this.start.releasePlaceholder()
    else await this.start.ensureStarted()
    const session = this.state.sessionId
    if (this.state.phase !== 'active' || session === undefined) return
    // At most 150 ms in all, a save queued behind another included; the save goes on after that.
    await this.store.saveWithin((record, { now }) => noteSession(record, session, now), STORE_WAIT_EXIT_MS)
  }
}
