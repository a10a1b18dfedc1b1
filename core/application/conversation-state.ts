/**
 * This process's part of one conversation (SPEC.md: One conversation, several processes; docs/architecture.md,
 * Lifetimes): its record, the merged view of every process's record, the other records as last read, and
 * whether the store refused it or the conversation moved to a background process. Lives until `/clear` or
 * a resume ends the conversation.
 *
 * Written by RecordRepository alone (`ConversationState` is its type), and `moved` by DetectMove
 * (`MovedWrites`); everyone else is handed `ConversationReads`, which has no writer. spec/application/
 * ownership.spec.ts fails when another class names the writing types.
 */
import type { ConversationKey } from '../domain/conversation/keys'
import type { ConversationRecord, ConversationView } from '../domain/conversation/record'

/** What a process holds of its conversation once the conversation is open. */
export interface OpenConversation {
  /** SHA-256 of the project root and the first launch time; names store keys, never sent anywhere. */
  readonly key: ConversationKey
  /** This load's own record key, `c:<conversation key>:<load time>:<random>`. */
  readonly recordKey: string
  /** The Claude Code session this process runs under. */
  readonly sessionId: string
}

/** The other processes' records of the conversation, by key, as one read found them. */
export type Others = ReadonlyMap<string, ConversationRecord>

/** What everyone but the writers reads. */
export interface ConversationReads {
  /** Set once the conversation is loaded from the store (SPEC.md: session.start). */
  readonly open: OpenConversation | undefined
  readonly record: ConversationRecord | undefined
  /** The merge of every process's record, as of this process's last read or save. */
  readonly view: ConversationView | undefined
  /** The other processes' records as last read (merged into the view). */
  readonly others: Others
  /** The store refused a write of the record: this process hands off its own work (SPEC.md, Limits). */
  readonly refused: boolean
  /** The conversation moved to a background process: this one stays quiet at exit. */
  readonly moved: boolean
}

/** DetectMove's one write: its finding at classic.SessionEnd. */
export interface MovedWrites extends ConversationReads {
  noteMoved(moved: boolean): void
}

/** A write of this process's record in flight: the version of the record it carries, and whether the store took it. */
export interface RecordWrite {
  readonly version: number
  readonly landed: Promise<boolean>
}

export class ConversationState implements MovedWrites {
  open: OpenConversation | undefined
  record: ConversationRecord | undefined
  view: ConversationView | undefined
  others: Others = new Map()
  refused = false
  moved = false
  /** The record's version: raised by each change kept in memory; a write carries the version it stores. */
  version = 0
  /** The highest version the store took. */
  storedVersion = 0
  /** The write of the record in flight: one at a time, so the store takes them in the order they were made. */
  writing: RecordWrite | undefined
  /** A write after the hook is waiting for the one in flight: a later change needs no other. */
  persistWaiting = false
  /** The record as last stored, but for its `savedAt`. */
  stored: string | undefined

  begin(open: OpenConversation, record: ConversationRecord, view: ConversationView): void {
    this.open = open
    this.record = record
    this.view = view
  }

  noteMoved(moved: boolean): void {
    this.moved = moved
  }
}
