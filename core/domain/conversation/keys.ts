/**
 * The conversation's names (SPEC.md: What it stores; One conversation, several processes): the branded
 * conversation key (never leaves the machine) and conversation id (sent on every request) with their
 * constructors, the store's key formats and their parsers (records `c:…`, claims `handoff:…`, briefs
 * `brief:…`) and the text hashed into the conversation key (which claim wins: ./claim.ts). Pure; a parser
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
  if (!id) throw new Error('a new conversation id must be 32 lower-case hex characters')
  return id
}

export const RECORD_PREFIX = 'c:'
export const BRIEF_PREFIX = 'brief:'
export const CLAIM_PREFIX = 'handoff:'

/**
 * A record's key and a claim's, read field by field: the conversation key, whole numbers written in
 * digits only (no sign, exponent, spaces or leading zero; above 2^53 they do not parse), and a random
 * of 1 to 32 lower-case letters and digits. CLAIM_TAIL is what follows a claim prefix (`firstClaim`, ./claim.ts).
 */
const RECORD_KEY = /^c:([0-9a-f]{64}):(0|[1-9][0-9]{0,15}):([0-9a-z]{1,32})$/
const CLAIM_KEY = /^handoff:([0-9a-f]{64}):(0|[1-9][0-9]{0,15}):(0|[1-9][0-9]{0,15}):([0-9a-z]{1,32})$/
export const CLAIM_TAIL = /^(0|[1-9][0-9]{0,15}):[0-9a-z]{1,32}$/

export function recordKey(conversation: ConversationKey, loadTime: number, random: string): string {
  return `${RECORD_PREFIX}${conversation}:${loadTime}:${random}`
}

export function parseRecordKey(key: string): { conversation: ConversationKey; loadTime: number; random: string } | undefined {
  const [, conversation, time, random] = RECORD_KEY.exec(key) ?? []
  const loadTime = Number(time)
  return Number.isSafeInteger(loadTime) ? { conversation: conversation as ConversationKey, loadTime, random: random! } : undefined
}

export function claimKey(conversation: ConversationKey, segment: number, time: number, random: string): string {
  return `${CLAIM_PREFIX}${conversation}:${segment}:${time}:${random}`
}

export function parseClaimKey(key: string): { conversation: ConversationKey; segment: number; time: number; random: string } | undefined {
  const [, conversation, ...rest] = CLAIM_KEY.exec(key) ?? []
  const [segment, time] = rest.map(Number) as [number, number]
  return Number.isSafeInteger(segment) && Number.isSafeInteger(time) ? { conversation: conversation as ConversationKey, segment, time, random: rest[2]! } : undefined
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
