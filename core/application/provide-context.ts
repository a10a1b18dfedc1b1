/**
 * prompt.context (SPEC.md): one block named `hark` in the first message's context, holding the
 * brief as `<hark-brief project="…">`, or after a compaction the recap as `<hark-recap>`.
 */
import { renderBriefBlock, renderRecapBlock } from '../domain/brief'
import type { BriefReads } from './brief-service'
import type { ConversationReads } from './conversation-state'
import type { RecordRepository } from './record-repository'
import { STORE_WAIT_MS } from './store-calls'
import type { BriefOwedWrites, OwedBrief } from './start-session'

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
   * The brief block a first prompt owes (`StartState.takeOwedBrief`), as context the person does not see: the
   * placeholder's first task (SPEC.md: prompt.submit, "lets the first real task get the brief"), whose context
   * was built while it was a placeholder; or, `fetched`, the first prompt of a resume, when this process fetched
   * the brief (a reused one is the brief the resumed context holds). Undefined when there is none to give.
   */
  async briefForFirstTask(owed: OwedBrief = 'brief'): Promise<string | undefined> {
    const project = this.start.activeProject
    if (!project) return undefined
    await this.briefs.firstBrief()
    const brief = this.briefs.brief
    return !brief || (owed === 'fetched' && this.briefs.askedAt === 0) ? undefined : renderBriefBlock(project.venture, brief)
  }

  /** The blocks with ours added (or replaced); unchanged when there is nothing to add. */
  async blocks(blocks: readonly ContextBlock[]): Promise<readonly ContextBlock[]> {
    const project = this.start.activeProject
    if (project === undefined) return blocks
    await this.briefs.firstBrief()
    const brief = this.briefs.brief
    if (brief === undefined) return blocks
    const recap = this.conversation.view?.recapPending === true
    const text = (recap ? renderRecapBlock : renderBriefBlock)(project.venture, brief)
    if (recap) await this.store.recapGiven(STORE_WAIT_MS)
    // Once in the context, no prompt needs to carry it (the agent view's placeholder, released by /hark).
    this.start.briefGiven()
    return [...blocks.filter((b) => b.name !== BLOCK_NAME), { name: BLOCK_NAME, text }]
  }
}
