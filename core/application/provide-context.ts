/**
 * prompt.context (SPEC.md): one block named `hark` in the first message's context, holding the
 * brief as `<hark-brief project="…">`, or after a compaction the recap as `<hark-recap>`.
 */
import { renderBriefBlock, renderRecapBlock } from '../domain/brief'
import { STORE_WAIT_MS, type ConversationStore } from './conversation-store'
import type { PluginState } from './plugin-state'
import type { StartSession } from './start-session'

export interface ContextBlock {
  readonly name: string
  readonly text: string
}

export const BLOCK_NAME = 'hark'

export class ProvideContext {
  constructor(
    private readonly state: PluginState,
    private readonly start: StartSession,
    private readonly store: ConversationStore,
  ) {}

  /** The blocks with ours added (or replaced); unchanged when there is nothing to add. */
  async blocks(blocks: readonly ContextBlock[]): Promise<readonly ContextBlock[]> {
    await this.start.ensureStarted()
    const { phase, project, brief } = this.state
    if (phase !== 'active' || project === undefined || brief === undefined) return blocks
    let text = renderBriefBlock(project.venture, brief)
    const view = this.state.view
    if (view?.recapPending === true) {
      text = renderRecapBlock(project.venture, brief)
      // Once: given covers the compaction that asked (recapAt), whatever the clock says. The view
      // changes at once, so a second build does not repeat it while the save waits on the store.
      const done = view.recapAt
      this.state.view = { ...view, recapDoneAt: Math.max(view.recapDoneAt, done), recapPending: false }
      await this.store.saveWithin((record, { now }) => ({ ...record, recapDoneAt: Math.max(now, done) }), STORE_WAIT_MS)
    }
    return [...blocks.filter((b) => b.name !== BLOCK_NAME), { name: BLOCK_NAME, text }]
  }
}
