/**
 * prompt.context (SPEC.md): one block named `hark` in the first message's context, holding the
 * brief as `<hark-brief project="…">`, or after a compaction the recap as `<hark-recap>`.
 */
import { renderBriefBlock, renderRecapBlock } from '../domain/brief'
import type { BriefReads } from './brief-service'
import type { ConversationReads } from './conversation-state'
import type { RecordRepository } from './record-repository'
import { STORE_WAIT_MS } from './store-calls'
import type { BriefOwedWrites } from './start-session'

export interface ContextBlock {
  readonly name: string
  readonly text: string
}

export const BLOCK_NAME = 'hark'

export class ProvideContext {
  constructor(
    private readonly start: BriefOwedWrites,
    private readonly briefs: BriefReads,
    private readonly conversation: ConversationReads,
    private readonly store: RecordRepository,
  ) {}

  /**
   * The brief block for the placeholder's first task (SPEC.md: prompt.submit, "lets the first real task
   * get the brief"): its context was built while it was a placeholder, so the brief goes with the task's
   * prompt as context the person does not see. Undefined when there is no brief.
   */
  async briefForFirstTask(): Promise<string | undefined> {
    const project = this.start.activeProject
    if (project === undefined) return undefined
    await this.briefs.firstBrief()
    const brief = this.briefs.brief
    return brief === undefined ? undefined : renderBriefBlock(project.venture, brief)
  }

  /** The blocks with ours added (or replaced); unchanged when there is nothing to add. */
  async blocks(blocks: readonly ContextBlock[]): Promise<readonly ContextBlock[]> {
    const project = this.start.activeProject
    if (project !== undefined) await this.briefs.firstBrief()
    const brief = this.briefs.brief
    if (project === undefined || brief === undefined) return blocks
    let text = renderBriefBlock(project.venture, brief)
    if (this.conversation.view?.recapPending === true) {
      text = renderRecapBlock(project.venture, brief)
      await this.store.recapGiven(STORE_WAIT_MS)
    }
    // Once in the context, no prompt needs to carry it (the agent view's placeholder, released by /hark).
    this.start.briefGiven()
    return [...blocks.filter((b) => b.name !== BLOCK_NAME), { name: BLOCK_NAME, text }]
  }
}
