/**
 * Who hands off what, and what follows the request (SPEC.md: session.end; The handoff; One conversation,
 * several processes; Limits). At most one handoff per piece of work: before handing off, a process stores a
 * claim for the conversation's segment, and only the first claim the store holds sends the segment's work
 * (./claim.ts has the rule); it marks the work closed before it sends anything, so a process ending later
 * finds nothing pending and sends nothing. A process whose store refuses it, or cannot be read, sends its own
 * work only.
 *
 * `decideHandoff` reads what the store showed and answers one step: store a claim, stay quiet, or send.
 * `afterEndSession` and `afterSessionStopped` decide the fallbacks. The application gathers the facts and
 * carries the answers out (core/application/hand-off.ts). Pure; total over any facts.
 */
import { hasWork, type Work } from '../work'
import { firstClaim, judgeClaim, type Claim, type ClaimAttempt } from './claim'
import { claimPrefix, type ConversationKey } from './keys'

/** Pending work and Claude's notes with it. */
export interface Pending {
  readonly work: Work
  readonly notes?: string | undefined
}

/** What the handoff knows when it decides. */
export interface HandoffFacts {
  /** The conversation moved to a background process (classic.SessionEnd's finding). */
  readonly moved: boolean
  /** The store refused a write of this process's record, or a claim, earlier in this conversation. */
  readonly refused: boolean
  /**
   * The store could not be read for this handoff: what the view shows of the other processes may be stale
   * (a handoff of theirs it has not seen), so this process vouches for its own work only.
   */
  readonly unread: boolean
  readonly conversation: ConversationKey
  /** The segment the merged view is at: how many handoffs the conversation has had. */
  readonly segment: number
  /** Every process's pending work, as merged. */
  readonly all: Pending
  /** This process's own pending work (its record's, with the cursors the store showed). */
  readonly own: Pending
  /** A Hark session is open: opened (a brief request went out) after the last close. */
  readonly sessionOpen: boolean
  /** The store's keys as last read (undefined: not read), for other processes' live claims. */
  readonly keys: readonly string[] | undefined
  /** Claims this process stored for its own next handoff (the prune's, the one made ahead at classic.SessionEnd). */
  readonly held: ReadonlySet<string>
  /** This process's claim for `segment`, once stored. */
  readonly claim?: ClaimAttempt | undefined
  /** The clock (epoch ms), for the 30 s of the claims in `keys`. */
  readonly now: number
}

/** Which work a send carries: the whole segment (the claim won), or this process's own (the store refused it). */
export type Share = 'all' | 'own'
export type HandoffTool = 'end_session' | 'close_session'

/** Why nothing is sent. */
export type QuietReason =
  /** The conversation moved: the background process hands off. */
  | 'moved'
  /** No work pending and no Hark session open (another process or an earlier handoff took it). */
  | 'nothing'
  /** Another process's claim for the segment came first. */
  | 'taken'
  /** The store refused this process, which has no work of its own, while another process holds a live claim. */
  | 'rival'

export type HandoffDecision =
  | { readonly kind: 'claim'; readonly segment: number }
  | { readonly kind: 'quiet'; readonly why: QuietReason }
  | { readonly kind: 'send'; readonly share: Share; readonly tool: HandoffTool; readonly pending: Pending }

const quiet = (why: QuietReason): HandoffDecision => ({ kind: 'quiet', why })

/**
 * The request that carries `pending`: end_session with edits, commits or test runs ("only when there were
 * edits, commits or test runs"); close_session with none and a Hark session open; else none.
 */
export function toolFor(pending: Pending, sessionOpen: boolean): HandoffTool | undefined {
  return hasWork(pending.work) ? 'end_session' : sessionOpen ? 'close_session' : undefined
}

/** The claim as the store showed it (./claim.ts), once this process stored one. */
export function claimOf(f: HandoffFacts): Claim | undefined {
  return f.claim && judgeClaim(f.claim, claimPrefix(f.conversation, f.segment), f.held)
}

/** Another process's live claim for the segment, as the keys last read show it. */
function rivalClaim(f: HandoffFacts): boolean {
  const keys = f.claim?.keys ?? f.keys
  const first = keys && firstClaim(keys, claimPrefix(f.conversation, f.segment), f.claim?.at ?? f.now)
  return first !== undefined && first !== f.claim?.key && !f.held.has(first)
}

/**
 * SPEC.md, Limits: "When the store refuses a write …, that process then hands off its own work." Its own
 * Hark session is closed when it has none, unless another process holds a live claim: that process is
 * handing off into the same Hark session ("If another Claude Code process of the same conversation already
 * handed the work off, this one sends nothing for it"), and close_session would close it under it. After a
 * move the background process carries the Hark session: only own work the store refused goes.
 */
function ownShare(f: HandoffFacts): HandoffDecision {
  if (hasWork(f.own.work)) return { kind: 'send', share: 'own', tool: 'end_session', pending: f.own }
  if (f.moved) return quiet('moved')
  if (!f.sessionOpen) return quiet('nothing')
  return rivalClaim(f) ? quiet('rival') : { kind: 'send', share: 'own', tool: 'close_session', pending: f.own }
}

/** The next step of a handoff (session.end, /hark handoff): claim, stay quiet, or send. */
export function decideHandoff(f: HandoffFacts): HandoffDecision {
  // "If the conversation moved to a background process, the process it left sends nothing."
  if (f.moved && !f.refused) return quiet('moved')
  // Refused: no claim to store ("that process then hands off its own work"); unread, the same.
  if (f.refused || f.unread) return ownShare(f)
  const tool = toolFor(f.all, f.sessionOpen)
  // Nothing pending and no Hark session open: the work was handed off already, or there was none.
  if (tool === undefined) return quiet('nothing')
  // "Before handing off, a process stores a claim."
  const claim = claimOf(f)
  if (claim === undefined) return { kind: 'claim', segment: f.segment }
  switch (claim.outcome) {
    // "The first claim the store holds wins" and sends the segment's work.
    case 'won':
      return { kind: 'send', share: 'all', tool, pending: f.all }
    // "Another process ending later sends nothing for that work."
    case 'lost':
      return quiet('taken')
    // "At exit, a claim still waiting on the store's lock after 150 ms counts as refused."
    case 'refused':
      return ownShare(f)
  }
}

/** How a request went, as the fallbacks read it: answered; no answer in time; nothing reached Hark; another failure. */
export type RequestOutcome = 'ok' | 'timeout' | 'unreachable' | 'failed'

/** After a request: done (or given up), session_stopped, or the handoff kept for the next session start. */
export type AfterRequest = 'done' | 'session_stopped' | 'keep' | 'give-up'

/** SPEC.md: each store write at exit waits at most 150 ms. */
export const EXIT_STORE_WAIT_MS = 150

/**
 * A handoff is kept in the store only while the write's whole wait fits in what is left of the exit window
 * (`windowLeftMs`; undefined outside the exit): nothing is written past the window.
 */
export function keepFits(windowLeftMs: number | undefined): boolean {
  return windowLeftMs === undefined || windowLeftMs >= EXIT_STORE_WAIT_MS
}

/**
 * SPEC.md, Fallbacks: "If end_session fails other than by timing out …, the plugin calls session_stopped
 * instead" ("when end_session fails other than by timing out, and exit time is left"); "If Hark doesn't
 * answer in time, the plugin doesn't retry." With no time left for session_stopped, a handoff that reached
 * nothing of Hark is kept for the next session start (README, The handoff, delivered later).
 * `requestLeftMs`: what a request may still wait; `windowLeftMs`: the exit window's rest (undefined outside it).
 */
export function afterEndSession(outcome: RequestOutcome, requestLeftMs: number, windowLeftMs: number | undefined): AfterRequest {
  if (outcome === 'ok' || outcome === 'timeout') return outcome === 'ok' ? 'done' : 'give-up'
  if (requestLeftMs > 0) return 'session_stopped'
  return outcome === 'unreachable' && keepFits(windowLeftMs) ? 'keep' : 'give-up'
}

/** After session_stopped: kept for later only when neither request reached Hark; else done or given up to Hark's idle sweep. */
export function afterSessionStopped(endSession: RequestOutcome, sessionStopped: RequestOutcome, windowLeftMs: number | undefined): AfterRequest {
  if (sessionStopped === 'ok') return 'done'
  return endSession === 'unreachable' && sessionStopped === 'unreachable' && keepFits(windowLeftMs) ? 'keep' : 'give-up'
}
