/**
 * Fetching the brief and showing the status line (SPEC.md: session.start, /hark brief, the status
 * line). Used by starting, compaction and /hark.
 *
 * State: `BriefState` lives as long as the conversation (the brief, and whether the last fetch
 * reached Hark); BriefService changes it, and KeyWatch asks it to note a refused key (`noteKeyRefused`).
 */
import { briefFromText, type Brief } from '../domain/brief'
import { canReuseBrief } from '../domain/conversation/prune'
import type { CachedBrief } from '../domain/conversation/sanitize'
import { statusLine } from '../domain/status'
import type { Clock } from '../ports/clock.port'
import type { HarkGateway, HarkResult } from '../ports/hark.port'
import type { Host } from '../ports/host.port'
import type { BriefCache } from './brief-cache'
import type { ConversationReads } from './conversation-state'
import { quiet, within } from './deadline'
import type { Settings } from './settings'
import type { RecordRepository } from './record-repository'
import type { StartReads } from './start-session'

export class BriefService {
  constructor(
    private readonly state: BriefState,
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly settings: Settings,
    private readonly hark: HarkGateway,
    private readonly records: RecordRepository,
    private readonly cache: BriefCache,
    private readonly clock: Clock,
    private readonly host: Host,
  ) {}

  get brief(): Brief | undefined {
    return this.state.brief
  }

  /** The project's cached brief (`brief:<project code>`), read at start beside the conversation. Never rejects. */
  cached(venture: string): Promise<CachedBrief | undefined> {
    return quiet(this.cache.read(venture))
  }

  /**
   * SPEC.md, session.start: the start's brief, once the conversation is loaded: another process's fresh one
   * (`cached`, read meanwhile), when the reuse rule allows it, without calling Hark; else fetched. Got in
   * the background so that the start never waits on Hark; the first message's context, the edit guard and
   * the handoff wait for it (`firstBrief`).
   */
  beginAtStart(cached: Promise<CachedBrief | undefined>): void {
    const first = async (): Promise<void> => {
      const brief = await cached
      const now = await this.clock.now()
      const view = this.conversation.view
      const reused = view && brief && canReuseBrief(view, brief, now) ? briefFromText(brief.text) : undefined
      // SPEC.md, the reuse rule: another process's fresh brief, from the store, kept without calling Hark.
      if (!reused) await this.fetch('at session start')
      else {
        this.state.got(reused)
        this.showStatus()
      }
    }
    this.state.begin(quiet(first()))
  }

  /** When a brief request last went out in this conversation (see BriefState.askedAt). */
  get askedAt(): number {
    return this.state.askedAt
  }

  /**
   * Waits for the start's brief at most `ms` (at exit, within the window; see `within`); whether it came
   * (or none was asked) in that time. Never rejects.
   */
  async firstBriefWithin(ms: number | (() => number | Promise<number>)): Promise<boolean> {
    return (await within(this.clock, ms, () => this.state.firstBrief())).done
  }

  /**
   * `get_agent_brief {venture, depth: "compact"}`; on success the brief is kept, cached for the
   * project and noted in the conversation's record; on failure one log line, and the status line
   * says offline.
   */
  async fetch(why: string): Promise<HarkResult<Brief>> {
    const { state, start } = this
    const project = start.project
    if (!project) return { ok: false, kind: 'refused', detail: 'no project' }
    const now = await this.clock.now()
    const before = state.askedAt
    state.requested(now)
    const { venture } = project
    const result = await this.hark.getBrief(venture)
    // Hark refused it, or it never reached Hark: no Hark session was opened.
    if (!result.ok && result.kind !== 'timeout') state.requested(before, true)
    // The conversation ended meanwhile (`/clear`): the next one has the store and the status line.
    if (start.ended) return result
    if (result.ok) {
      // The brief is in: whoever waits for it (the first message's context, the guard, the handoff) goes
      // on while the store takes the project's cache and the record's note of it, the record's save queued
      // before every later save and handoff. The status line shows the brief's state at once.
      const brief = result.value
      state.got(brief)
      const status = { state: brief.handoffState, needYou: brief.openCandidates, at: now }
      // In memory at once (so the status line shows it now), stored after the hook.
      void this.records.record((record) => ({ ...record, briefAt: now, openedAt: now, status }), now)
      this.showStatus()
      void quiet(this.cache.write(venture, { text: brief.text, fetchedAt: now }))
      return result
    }
    const keyRefused = result.kind === 'key-refused'
    state.missed(keyRefused)
    this.host.log(keyRefused
      ? `Hark: Hark refused the access key (${result.detail}) fetching the brief ${why}; the session carries on without it. Run /plugin configure hark-memory@hark to set a new key.`
      : `Hark: could not fetch the brief ${why} (${result.detail}); the session carries on without it.`)
    this.showStatus()
    return result
  }

  /** The status line for what the plugin knows now (nothing outside a Hark project). */
  showStatus(): void {
    showStatusLine(this.start, this.conversation, this.settings, this.state, this.host)
  }
}

/**
 * Draws the status line for what the plugin knows now (nothing outside a Hark project): no key; the key
 * refused (by any request: KeyWatch); offline (the last brief fetch failed and none is in); else online.
 */
export function showStatusLine(start: StartReads, conversation: ConversationReads, settings: Settings, state: BriefReads, host: Host): void {
  const project = start.project
  if (!project) return
  const { venture } = project
  const kind = !settings.accessKey ? 'no-key' : state.keyRefused ? 'key-refused' : !state.online && !state.brief ? 'offline' : 'online'
  const status = conversation.view?.status ?? conversation.record?.status
  host.status(statusLine(kind === 'online' ? { kind, venture, state: status?.state ?? 'Open', needYou: status?.needYou ?? 0 } : { kind, venture }))
}

/** What everyone but its writers reads of the conversation's brief. */
export interface BriefReads {
  /** The last brief this conversation got (fetched, or reused from another process). */
  readonly brief: Brief | undefined
  /** Whether Hark refused the access key at the last request that reached it (the status line says so). */
  readonly keyRefused: boolean
  /** Whether the last brief fetch reached Hark (the status line says offline otherwise). */
  readonly online: boolean
  /**
   * When a brief request last went out in this conversation (epoch ms; 0: never): Hark opened a session for
   * it even when its answer, or the record noting it, did not arrive (the handoff then closes it).
   */
  readonly askedAt: number
  /**
   * The start's brief (fetched, or reused from the store): resolves once it is in, or given up (the
   * fetch's own 3 s limit); at once when none began. Never rejects.
   */
  firstBrief(): Promise<void>
}

/**
 * KeyWatch's one write, on a request other than the brief: Hark refused the key (HTTP 401 or 403). Returns
 * whether that changed what the status line says. A brief fetched again clears it.
 */
export interface KeyRefusedWrites extends BriefReads {
  noteKeyRefused(): boolean
}

/** The conversation's brief. Written by BriefService (`BriefState`) and KeyWatch (`KeyRefusedWrites`). */
export class BriefState implements KeyRefusedWrites {
  brief: Brief | undefined
  online = false
  askedAt = 0
  keyRefused = false
  private first: Promise<void> | undefined

  noteKeyRefused(): boolean {
    const changed = !this.keyRefused
    this.keyRefused = true
    return changed
  }

  firstBrief(): Promise<void> {
    return this.first ?? Promise.resolve()
  }

  /** `undo` puts back the time before a request that opened nothing. */
  requested(at: number, undo = false): void {
    this.askedAt = undo ? at : Math.max(this.askedAt, at)
  }
  begin(first: Promise<void>): void {
    this.first = first
  }
  got(brief: Brief): void {
    this.brief = brief
    this.online = true
    this.keyRefused = false
  }
  /** `keyRefused`: Hark refused the access key (HTTP 401 or 403). */
  missed(keyRefused = false): void {
    this.online = false
    this.keyRefused = keyRefused
  }
}
