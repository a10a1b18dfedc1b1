/**
 * Asking Hark for the brief (SPEC.md: session.start, /hark brief, session.compact): `get_agent_brief`; when the
 * request went out, and what comes back, go to KeepBrief.
 *
 * State: `BriefState` lives as long as the conversation (the brief, when a brief request last went out,
 * whether the last fetch reached Hark). KeepBrief writes it, and KeyWatch notes a refused key (`noteKeyRefused`).
 */
import type { Brief } from '../domain/brief'
import type { Clock } from '../ports/clock.port'
import type { HarkGateway, HarkResult } from '../ports/hark.port'
import type { KeepBrief } from './keep-brief'
import type { StartReads } from './start-session'

export class BriefService {
  constructor(
    private readonly briefs: BriefReads,
    private readonly start: StartReads,
    private readonly hark: HarkGateway,
    private readonly clock: Clock,
    private readonly keep: KeepBrief,
  ) {}

  /** The last brief this conversation got. */
  get brief(): Brief | undefined {
    return this.briefs.brief
  }

  /**
   * `get_agent_brief {venture, depth: "compact"}` for the project; `why` ends the log line of a failure ("at
   * session start"). The outcome goes to KeepBrief, unless the conversation ended meanwhile (`/clear`: the next
   * one has the store and the status line).
   */
  async fetch(why: string): Promise<HarkResult<Brief>> {
    const { keep, start } = this
    const project = start.project
    if (!project) return { ok: false, kind: 'refused', detail: 'no project' }
    const now = await this.clock.now()
    const before = this.briefs.askedAt
    keep.requested(now)
    const result = await this.hark.getBrief(project.venture)
    // Hark refused it, or it never reached Hark: no Hark session was opened.
    if (!result.ok && result.kind !== 'timeout') keep.requested(before, true)
    if (start.ended) return result
    if (result.ok) keep.fetched(project.venture, result.value, now)
    else keep.missed(why, result)
    return result
  }
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

/** The conversation's brief. Written by KeepBrief (`BriefState`) and KeyWatch (`KeyRefusedWrites`). */
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
