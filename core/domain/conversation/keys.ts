/**
 * The conversation's names (SPEC.md: What it stores; One conversation, several processes): the branded
 * conversation key (never leaves the machine) and conversation id (sent on every request) with their
 * constructors, the store's key formats and their parsers (records `c:…`, claims `handoff:…`, briefs
 * `brief:…`), the text hashed into the conversation key, and which handoff claim wins. Pure; a parser
 * returns undefined for anything not written by the plugin.
 */
const HEX64 = /^[0-9a-f]{64}$/
const HEX32 = /^[0-9a-f]{32}$/

declare const brand: unique symbol

/**
 * The conversation key: 64 lower-case hex characters, the SHA-256 of the project root and the
 * conversation's first launch time. It names the conversation's keys in the store and never leaves
 * the machine (SPEC.md: What it stores). A type of its own, so it cannot be sent where the id goes.
 */
export type ConversationKey = string & { readonly [brand]: 'ConversationKey' }

/**
 * The conversation id: 32 lower-case hex characters, created by the conversation's first process
 * and sent to Hark as `params._meta.conversation` (SPEC.md: Every outbound request).
 */
export type ConversationId = string & { readonly [brand]: 'ConversationId' }

/** A conversation key from a SHA-256 digest (64 lower-case hex characters); undefined otherwise. */
export function conversationKeyOf(digest: string): ConversationKey | undefined {
  return HEX64.test(digest) ? (digest as ConversationKey) : undefined
}

/** A conversation id from 32 lower-case hex characters; undefined otherwise. */
export function conversationIdOfText(text: string): ConversationId | undefined {
  return HEX32.test(text) ? (text as ConversationId) : undefined
}

/**
 * A new conversation id from 32 random hex characters (the Entropy port's `randomHex(32)`). Throws when
 * given anything else: the port broke its promise, and no id is better than a malformed one.
 */
export function newConversationId(random: string): ConversationId {
  const id = conversationIdOfText(random)
  if (id === undefined) throw new Error('a new conversation id must be 32 lower-case hex characters')
  return id
}

export const RECORD_PREFIX = 'c:'
export const BRIEF_PREFIX = 'brief:'
export const CLAIM_PREFIX = 'handoff:'

/** A claim older than this was left by a process that died mid-handoff (SPEC.md: 30 seconds). */
export const CLAIM_TTL_MS = 30_000

const TOKEN = /^[0-9a-z]{1,32}$/
/** A whole number written in digits only (no sign, exponent, spaces or empty string). */
const DIGITS = /^(0|[1-9][0-9]{0,15})$/

function whole(text: string | undefined): number | undefined {
  if (text === undefined || !DIGITS.test(text)) return undefined
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : undefined
}

export function recordKey(conversation: ConversationKey, loadTime: number, random: string): string {
  return `${RECORD_PREFIX}${conversation}:${loadTime}:${random}`
}

export function parseRecordKey(key: string): { conversation: ConversationKey; loadTime: number; random: string } | undefined {
  if (!key.startsWith(RECORD_PREFIX)) return undefined
  const [conversation, loadTime, random, ...rest] = key.slice(RECORD_PREFIX.length).split(':')
  const time = whole(loadTime)
  if (rest.length > 0 || conversation === undefined || !HEX64.test(conversation) || time === undefined) return undefined
  if (random === undefined || !TOKEN.test(random)) return undefined
  return { conversation: conversation as ConversationKey, loadTime: time, random }
}

export function claimKey(conversation: ConversationKey, segment: number, time: number, random: string): string {
  return `${CLAIM_PREFIX}${conversation}:${segment}:${time}:${random}`
}

export function parseClaimKey(key: string): { conversation: ConversationKey; segment: number; time: number; random: string } | undefined {
  if (!key.startsWith(CLAIM_PREFIX)) return undefined
  const [conversation, segment, time, random, ...rest] = key.slice(CLAIM_PREFIX.length).split(':')
  const seg = whole(segment)
  const t = whole(time)
  if (rest.length > 0 || conversation === undefined || !HEX64.test(conversation)) return undefined
  if (seg === undefined || t === undefined || random === undefined || !TOKEN.test(random)) return undefined
  return { conversation: conversation as ConversationKey, segment: seg, time: t, random }
}

export function briefKey(venture: string): string {
  return `${BRIEF_PREFIX}${venture}`
}

/** The text hashed (SHA-256) into the conversation key: the project root and the first launch time. */
export function conversationKeyInput(projectRoot: string, startedAt: number): string {
  return `hark-memory conversation\n${projectRoot}\n${startedAt}`
}

/** The start of every claim key for one segment of a conversation. */
export function claimPrefix(conversation: ConversationKey, segment: number): string {
  return `${CLAIM_PREFIX}${conversation}:${segment}:`
}

/**
 * SPEC.md: the first claim the store holds wins (keys keep the order they were first set); a claim older
 * than 30 seconds is ignored. Returns the first fresh claim of the keys `<prefix><time>:<random>`, if any.
 */
export function firstClaim(keys: readonly string[], prefix: string, now: number): string | undefined {
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue
    const [time, random, ...rest] = key.slice(prefix.length).split(':')
    const at = whole(time)
    if (at === undefined || random === undefined || !TOKEN.test(random) || rest.length > 0) continue
    // Older than 30 s: left by a process that died mid-handoff. Dated well ahead of now: a clock or a
    // writer gone wrong; neither may hold the work.
    if (now - at > CLAIM_TTL_MS || at - now > CLAIM_TTL_MS) continue
    return key
  }
  return undefined
}

/** The winning claim's key for `segment` of the conversation, if any (`firstClaim`). */
export function claimWinner(keys: readonly string[], conversation: ConversationKey, segment: number, now: number): string | undefined {
  return firstClaim(keys, claimPrefix(conversation, segment), now)
}
