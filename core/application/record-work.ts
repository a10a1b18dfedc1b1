/**
 * Recording the session's work (SPEC.md: tool.call for Bash and for the agent's own end_session;
 * turn.complete). Only what the handoff needs is kept: a test run's runner and result, a commit's
 * short hash and cleaned subject, a pull request URL, Claude's cleaned notes. The hooks do not wait for
 * the store: each save runs in the store's queue after the hook settles (RecordRepository.record).
 */
import { addEntry, noteSession, setNotes } from '../domain/conversation/record'
import { markHandedOff } from '../domain/conversation/merge'
import { workFromBash, type BashReport } from '../domain/bash-report'
import { cleanNotes } from '../domain/notes'
import type { ConversationReads } from './conversation-state'
import type { RecordRepository } from './record-repository'
import type { Settings } from './settings'
import type { StartReads } from './start-session'

export class RecordWork {
  constructor(
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly settings: Settings,
    private readonly store: RecordRepository,
  ) {}

  /** After a Bash command ran. */
  async bash(report: BashReport): Promise<void> {
    if (!this.start.activeProject) return
    const entries = workFromBash(report, this.settings.accessKey)
    if (entries.length === 0) return
    const session = this.conversation.open?.sessionId
    await this.store.record((record, { now }) => {
      let out = record
      for (const entry of entries) out = addEntry(out, entry, now)
      return session === undefined ? out : noteSession(out, session, now)
    })
  }

  /**
   * Claude wrote the handoff itself with an `end_session` tool that takes `what_i_did` (SPEC.md:
   * tool.call): the work so far counts as handed off, so it isn't recorded twice; the Hark session
   * stays open, and session end sends only `close_session`.
   */
  async agentHandedOff(): Promise<void> {
    const key = this.conversation.open?.recordKey
    if (!this.start.activeProject || key === undefined) return
    await this.store.save((record, { others, view, now }) => markHandedOff(key, record, view, others, now, false))
  }

  /** turn.complete: Claude's last complete answer becomes the agent notes, cleaned. */
  async notes(answer: string): Promise<void> {
    if (!this.start.activeProject || answer.trim() === '') return
    const text = cleanNotes(answer, this.settings.accessKey)
    if (text.trim() === '') return
    await this.store.record((record, { now }) => setNotes(record, text, now))
  }
}
