/**
 * Handoffs that could not reach Hark (beyond SPEC.md's fallbacks: SPEC.md, The handoff; README, The handoff): when
 * nothing reached Hark at exit (a refused connection, a DNS or TLS failure), the handoff is kept in the store
 * as `undelivered:<project>:<recorded at>:<random>` and the next session start in the project sends it once.
 * Kept 14 days at most, 5 per project at most (the oldest dropped first). What is kept is the end_session
 * payload as built, already cleaned (never the transcript, never the key), and the conversation id it was
 * recorded under. Values read back are untrusted (any program can write the store): checked again here.
 */
import { conversationIdOfText, type ConversationId } from './conversation/keys'
import type { HandoffPayload } from './handoff'
import { object } from './item'

export const UNDELIVERED_PREFIX = 'undelivered:'
/** A claim on an undelivered handoff: `undelivered-claim:<its key>:<time>:<random>` (the first one wins). */
export const UNDELIVERED_CLAIM_PREFIX = 'undelivered-claim:'
export const UNDELIVERED_KEEP_MS = 14 * 86_400_000
export const UNDELIVERED_PER_PROJECT = 5
/** Longest text field kept: above the most `buildHandoff` makes (100 paths of 300 characters, 50 commits). */
const MAX_FIELD = 40_000
const MAX_LINKS = 20
/**
 * `undelivered:<project>:<recorded at>:<random>`: a project without `:`, a time of at most 15 digits (a
 * time a Date can show, under its ±8.64e15 ms, so what_i_did can say when), a random of lower-case letters
 * and digits.
 */
const UNDELIVERED_KEY = /^undelivered:([^:]+):([0-9]{1,15}):[0-9a-z]{1,32}$/

export interface Undelivered {
  readonly conversationId: ConversationId
  /** When the work was handed off and could not reach Hark (epoch ms). */
  readonly recordedAt: number
  readonly payload: HandoffPayload
}

export function undeliveredKey(venture: string, recordedAt: number, random: string): string {
  return `${UNDELIVERED_PREFIX}${venture}:${recordedAt}:${random}`
}

/** The project and the time of an undelivered handoff's key; undefined for another key. */
export function parseUndeliveredKey(key: string): { venture: string; recordedAt: number } | undefined {
  const m = UNDELIVERED_KEY.exec(key)
  return m ? { venture: m[1]!, recordedAt: Number(m[2]) } : undefined
}

/**
 * An undelivered handoff from the value stored under `key`, or undefined when it is not one: its time must
 * be the key's, and its project the key's (any program can write the store).
 */
export function sanitizeUndelivered(value: unknown, key: string): Undelivered | undefined {
  const named = parseUndeliveredKey(key)
  const o = object(value) ?? {}
  const q = object(o['payload']) ?? {}
  const id = typeof o['conversationId'] === 'string' ? conversationIdOfText(o['conversationId']) : undefined
  if (!named || !id || o['recordedAt'] !== named.recordedAt || q['venture'] !== named.venture) return undefined
  const text = (k: string) => (typeof q[k] === 'string' ? (q[k] as string).slice(0, MAX_FIELD) : undefined)
  const [did, changed, next, watch] = ['what_i_did', 'what_changed', 'whats_next', 'watch_out_for'].map(text)
  if ([did, changed, next].includes(undefined)) return undefined
  const links = Array.isArray(q['links']) ? q['links'].filter((l): l is string => typeof l === 'string').slice(0, MAX_LINKS).map((l) => l.slice(0, 2_000)) : []
  return {
    conversationId: id,
    recordedAt: named.recordedAt,
    payload: { venture: named.venture.slice(0, MAX_FIELD), what_i_did: did!, what_changed: changed!, whats_next: next!, links, ...(watch === undefined ? {} : { watch_out_for: watch }) },
  }
}

/** The payload as sent later: `what_i_did` first says when the work was recorded. */
export function deliveredLater(u: Undelivered): HandoffPayload {
  const when = new Date(u.recordedAt).toISOString().replace(/\.\d{3}Z$/, 'Z')
  return { ...u.payload, what_i_did: `Recorded ${when}; Hark could not be reached then, so it is delivered later.\n${u.payload.what_i_did}` }
}

/**
 * What to do with a project's undelivered handoffs, by key: send the newest UNDELIVERED_PER_PROJECT kept
 * less than 14 days (oldest first), drop the rest of the project's.
 */
export function planUndelivered(now: number, keys: readonly string[], venture: string): { send: string[]; drop: string[] } {
  const mine = keys.flatMap((key) => {
    const parsed = parseUndeliveredKey(key)
    return parsed?.venture === venture ? [{ key, at: parsed.recordedAt }] : []
  })
  mine.sort((a, b) => a.at - b.at)
  const send = mine.filter((k) => Math.abs(now - k.at) <= UNDELIVERED_KEEP_MS).slice(-UNDELIVERED_PER_PROJECT).map((k) => k.key)
  return { send, drop: mine.map((k) => k.key).filter((k) => !send.includes(k)) }
}
