/**
 * classic.SessionEnd (SPEC.md): whether the conversation moved to a background process. The
 * transcript is read through the engine's file API (files up to 4 MiB), only its last 64 KB, and
 * nothing of it is kept. For a transcript that can't be read, the store's record of the process
 * that last joined, got a prompt or recorded work decides.
 */
import { endsWithMove, TRANSCRIPT_READ_LIMIT, TRANSCRIPT_TAIL_BYTES } from '../domain/transcript'
import type { Clock } from '../ports/clock.port'
import type { Files } from '../ports/files.port'
import { within } from './deadline'
import type { MovedWrites } from './conversation-state'
import type { RecordRepository } from './record-repository'
import type { StartReads } from './start-session'
import { STORE_WAIT_EXIT_MS } from './store-calls'

export class DetectMove {
  constructor(
    private readonly start: StartReads,
    private readonly conversation: MovedWrites,
    private readonly files: Files,
    private readonly store: RecordRepository,
    private readonly clock: Clock,
  ) {}

  async run(transcriptPath: string | undefined): Promise<void> {
    const { start, conversation } = this
    // Idle or a placeholder: nothing to hand off, nothing to read.
    if (start.phase === 'idle' || start.phase === 'placeholder') return
    // The transcript needs no start: read it first, so a start still going (a slow store) loses nothing.
    const tail = await this.tail(transcriptPath)
    if (tail !== undefined) {
      return conversation.noteMoved(endsWithMove(tail))
    }
    await within(this.clock, STORE_WAIT_EXIT_MS, () => start.started())
    if (!start.activeProject) return
    // Refresh the view (bounded like every store call at exit, and so is its wait in the store's queue),
    // then see who carries the conversation.
    await within(this.clock, 2 * STORE_WAIT_EXIT_MS, () => this.store.refresh({ waitMs: STORE_WAIT_EXIT_MS }))
    const active = conversation.view?.active
    const session = conversation.open?.sessionId
    conversation.noteMoved(active !== undefined && session !== undefined && active.session !== session)
  }

  private async tail(path: string | undefined): Promise<string | undefined> {
    if (!path) return undefined
    const size = await this.files.size(path)
    if (size === undefined || size > TRANSCRIPT_READ_LIMIT) return undefined
    const offset = Math.max(0, size - TRANSCRIPT_TAIL_BYTES)
    return this.files.readRange(path, offset, size - offset)
  }
}
