/**
 * What one plugin load knows between hooks (module memory: a reload starts over; the store
 * outlives it). One instance per load, shared by every use case.
 */
import type { Brief } from '../domain/brief'
import type { ConversationRecord, ConversationView } from '../domain/conversation'
import type { CompiledGuard } from '../domain/guard/compiled-guard'
import type { GuardRecord } from '../domain/guard/records'
import type { ProjectRef } from '../domain/project'

export type Phase =
  /** Nothing looked at yet. */
  | 'unstarted'
  /** The agent view's empty placeholder: /hark only, until a task arrives. */
  | 'placeholder'
  /** Not in a Hark project, or no access key: nothing is sent or stored. */
  | 'idle'
  /** In a Hark project with a key. */
  | 'active'

export interface Decisions {
  /** The settled, scoped decisions from the last good fetch. */
  readonly records: readonly GuardRecord[]
  /** When they were fetched (epoch ms). */
  readonly fetchedAt: number
}

export class PluginState {
  phase: Phase = 'unstarted'
  /** Why the plugin is idle, for /hark. */
  idleReason: 'no-project' | 'no-key' | undefined
  project: ProjectRef | undefined
  /** SHA-256 of the project root and the conversation's first launch time; never sent anywhere. */
  conversationKey: string | undefined
  /** This load's own record key, `c:<conversation key>:<load time>:<random>`. */
  recordKey: string | undefined
  record: ConversationRecord | undefined
  view: ConversationView | undefined
  /** The Claude Code session this conversation runs under (changes after /clear). */
  sessionId: string | undefined
  brief: Brief | undefined
  /** Whether the last brief fetch reached Hark (the status line shows offline otherwise). */
  online = false
  decisions: Decisions | undefined
  /** The guard compiled over `decisions` and `brief`'s non-goals, kept while both stay the same. */
  compiledGuard: { readonly decisions: Decisions | undefined; readonly brief: Brief | undefined; readonly guard: CompiledGuard } | undefined
  /** A decision fetch in progress, shared by edits running in parallel. */
  decisionsFetch: Promise<void> | undefined
  /** When the decision fetch last failed; the guard tries again a minute later (SPEC.md). */
  decisionsFailedAt: number | undefined
  /** A compaction happened since the decisions were fetched. */
  decisionsStale = false
  /** The project's id (a UUID) once known, for /hark open. */
  ventureId: string | undefined
  /** The conversation moved to a background process: this one stays quiet at exit. */
  moved = false
  /** The store refused a write: this process hands off its own work (SPEC.md, Limits). */
  storeRefused = false
  /** The store failed to answer in time once: later calls wait no longer than at exit. */
  storeSlow = false
  /** The store's trouble has been logged once already. */
  storeWarned = false
  /** A damaged record of this conversation has been logged once already. */
  damageWarned = false
  /** When the plugin loaded (epoch ms); part of the record key. */
  loadedAt: number | undefined
  /** The agent view's placeholder got a task: start for real. */
  placeholderReleased = false
  /** A conversation id for a request made before the conversation loaded. */
  fallbackConversationId: string | undefined
  /** The `User-Agent` of requests to Hark, once known. */
  userAgent: string | undefined
  /** A start in progress, shared by the hooks that may start the plugin. */
  starting: Promise<void> | undefined
  /** Saves run one at a time within a process. */
  saveChain: Promise<unknown> = Promise.resolve()
}
