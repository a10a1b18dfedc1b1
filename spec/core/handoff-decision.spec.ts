/**
 * The handoff's decision, one row per sentence of SPEC.md it implements (session.end; The handoff; One
 * conversation, several processes; Limits), and the fallbacks after the request. Each row gives the facts the
 * store showed and the one answer: claim, stay quiet, or send (which share, which tool).
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { CLAIM_TTL_MS, type ClaimAttempt } from '../../core/domain/conversation/claim'
import { afterEndSession, afterSessionStopped, decideHandoff, keepFits, type HandoffDecision, type HandoffFacts, type RequestOutcome } from '../../core/domain/conversation/handoff-decision'
import { claimKey } from '../../core/domain/conversation/keys'
import { NO_WORK, type Work } from '../../core/domain/work'
import { CONV } from '../support'

const NOW = 1_000_000
const MINE = claimKey(CONV, 0, NOW, 'mine')
const RIVAL = claimKey(CONV, 0, NOW - 1_000, 'rival')
const work = (...files: string[]): Work => ({ ...NO_WORK, files })
const LINK_ONLY: Work = { ...NO_WORK, links: ['https://github.com/acme/app/pull/7'] }

/** Facts: a conversation at segment 0 with the others' and this process's work, no claim yet, a Hark session open. */
function facts(over: Partial<HandoffFacts> = {}): HandoffFacts {
  return {
    moved: false,
    refused: false,
    unread: false,
    conversation: CONV,
    segment: 0,
    all: { work: work('src/mine.ts', 'src/theirs.ts'), notes: 'notes' },
    own: { work: work('src/mine.ts'), notes: 'notes' },
    sessionOpen: true,
    keys: [],
    held: new Set(),
    now: NOW,
    ...over,
  }
}

/** This process's claim, stored, with the keys read after it (the store's order: first set, first). */
const stored = (...keys: string[]): ClaimAttempt => ({ key: MINE, at: NOW, stored: true, keys })
const refusedClaim: ClaimAttempt = { key: MINE, at: NOW, stored: false, keys: undefined }

const all = (tool: 'end_session' | 'close_session', f: HandoffFacts = facts()): HandoffDecision => ({ kind: 'send', share: 'all', tool, pending: f.all })
const own = (tool: 'end_session' | 'close_session', f: HandoffFacts = facts()): HandoffDecision => ({ kind: 'send', share: 'own', tool, pending: f.own })

const rows: [string, HandoffFacts, HandoffDecision][] = [
  // One conversation, several processes
  ['"Before handing off, a process stores a claim."', facts(), { kind: 'claim', segment: 0 }],
  ['"Work done after a handoff … starts a new segment and gets its own handoff": the claim is for the segment the view is at', facts({ segment: 3 }), { kind: 'claim', segment: 3 }],
  ['"The first claim the store holds wins": this one came first, so it sends the segment\'s work, all of it', facts({ claim: stored(MINE, RIVAL) }), all('end_session')],
  ['"The first claim the store holds wins": another came first; "another process ending later sends nothing for that work"', facts({ claim: stored(RIVAL, MINE) }), { kind: 'quiet', why: 'taken' }],
  ['"A claim older than 30 seconds was left by a process that died mid-handoff, and is ignored."', facts({ claim: stored(claimKey(CONV, 0, NOW - CLAIM_TTL_MS - 1, 'dead'), MINE) }), all('end_session')],
  ['a claim of another segment does not count', facts({ claim: stored(claimKey(CONV, 1, NOW, 'next'), MINE) }), all('end_session')],
  ['a claim this process holds to pass on (the prune\'s, the one made ahead) counts as its own', facts({ claim: stored(RIVAL, MINE), held: new Set([RIVAL]) }), all('end_session')],
  ['"The original process stays quiet after a move."', facts({ moved: true }), { kind: 'quiet', why: 'moved' }],
  // session.end
  ['session.end: "It sends the handoff with end_session"', facts({ claim: stored(MINE) }), all('end_session')],
  ['session.end: "If there was no work, it closes the Hark session with close_session."', facts({ all: { work: NO_WORK }, claim: stored(MINE) }), all('close_session', facts({ all: { work: NO_WORK } }))],
  ['session.end: "If Claude already wrote the handoff with Hark\'s end_session tool, it sends only close_session" (its work marked, the Hark session left open)', facts({ all: { work: NO_WORK }, own: { work: NO_WORK }, claim: stored(MINE) }), all('close_session', facts({ all: { work: NO_WORK } }))],
  ['session.end: "If this plugin already handed the work off (from another process, or with /hark handoff) … it sends nothing"', facts({ all: { work: NO_WORK }, own: { work: NO_WORK }, sessionOpen: false }), { kind: 'quiet', why: 'nothing' }],
  ['session.end: "… or the conversation moved, it sends nothing"', facts({ moved: true, claim: stored(MINE) }), { kind: 'quiet', why: 'moved' }],
  // The handoff
  ['The handoff: "A session with no edits, commits or test runs (only questions and answers, say) closes its Hark session with close_session and writes no handoff"; a pull request link alone is no work', facts({ all: { work: LINK_ONLY }, claim: stored(MINE) }), all('close_session', facts({ all: { work: LINK_ONLY } }))],
  ['The handoff: "If another Claude Code process of the same conversation already handed the work off, this one sends nothing for it."', facts({ all: { work: NO_WORK }, own: { work: NO_WORK }, sessionOpen: false, claim: stored(MINE) }), { kind: 'quiet', why: 'nothing' }],
  ['The handoff: "If the conversation moved to a background process, the process it left sends nothing"', facts({ moved: true }), { kind: 'quiet', why: 'moved' }],
  // Limits
  ['Limits: "When the store refuses a write …, that process then hands off its own work": no claim is stored', facts({ refused: true }), own('end_session')],
  ['Limits: "At exit, a claim still waiting on the store\'s lock after 150 ms counts as refused": own work', facts({ claim: refusedClaim }), own('end_session')],
  ['the store could not be read for this handoff (the view may miss another process\'s handoff): own work only, no claim', facts({ unread: true, keys: undefined }), own('end_session')],
  ['Limits: a claim whose keys could not be read after it counts as refused', facts({ claim: { key: MINE, at: NOW, stored: true, keys: undefined } }), own('end_session')],
  ['Limits, refused with no work of its own: its Hark session is closed', facts({ refused: true, own: { work: NO_WORK } }), own('close_session', facts({ own: { work: NO_WORK } }))],
  ['Limits, refused with no work of its own while another process holds a live claim: "this one sends nothing for it" (no close_session under a handoff into the same Hark session)', facts({ refused: true, own: { work: NO_WORK }, keys: [RIVAL] }), { kind: 'quiet', why: 'rival' }],
  ['the same when the claim counted as refused and the keys read before it show the rival', facts({ claim: refusedClaim, own: { work: NO_WORK }, keys: [RIVAL] }), { kind: 'quiet', why: 'rival' }],
  ['a rival claim older than 30 s does not stop the close', facts({ refused: true, own: { work: NO_WORK }, keys: [claimKey(CONV, 0, NOW - CLAIM_TTL_MS - 1, 'dead')] }), own('close_session', facts({ own: { work: NO_WORK } }))],
  ['refused with no work and no Hark session open: nothing', facts({ refused: true, own: { work: NO_WORK }, sessionOpen: false }), { kind: 'quiet', why: 'nothing' }],
  ['Limits after a move: the work the store refused to take goes from the process it left, its own only', facts({ moved: true, refused: true }), own('end_session')],
  ['after a move with nothing of its own refused: quiet, never a close under the background process', facts({ moved: true, refused: true, own: { work: NO_WORK } }), { kind: 'quiet', why: 'moved' }],
]

describe('the handoff decision, one row per SPEC.md sentence', () => {
  test.each(rows)('%s', (_sentence, f, expected) => {
    expect(decideHandoff(f)).toEqual(expected)
  })
})

describe('at most one handoff per piece of work, as a property', () => {
  test("of processes claiming one segment within 30 s, whatever order their claims land in and however late each reads the keys, at most one sends the segment's work", () => {
    fc.assert(
      fc.property(
        // Each claim's age (ms before NOW), in the order the store took them, and how many later claims its reader sees too.
        fc.array(fc.tuple(fc.integer({ min: 0, max: CLAIM_TTL_MS - 1 }), fc.nat(5)), { minLength: 1, maxLength: 6 }),
        // Claims left by processes that died mid-handoff, older than 30 s, before them in the store.
        fc.array(fc.integer({ min: 1, max: CLAIM_TTL_MS }), { maxLength: 3 }),
        (claims, dead) => {
          const keys = [...dead.map((age, i) => claimKey(CONV, 0, NOW - 2 * CLAIM_TTL_MS - age, `dead${i}`)), ...claims.map(([age], i) => claimKey(CONV, 0, NOW - age, `p${i}`))]
          const senders = claims.filter(([age, later], i) => {
            const key = claimKey(CONV, 0, NOW - age, `p${i}`)
            const seen = keys.slice(0, dead.length + i + 1 + later)
            return decideHandoff(facts({ now: NOW, claim: { key, at: NOW - age, stored: true, keys: seen } })).kind === 'send'
          })
          expect(senders.length).toBeLessThanOrEqual(1)
        },
      ),
    )
  })
})

describe('after the request (SPEC.md, Fallbacks)', () => {
  const cases: [string, RequestOutcome, number, number | undefined, ReturnType<typeof afterEndSession>][] = [
    ['answered: done', 'ok', 500, 900, 'done'],
    ['"If Hark doesn\'t answer in time, the plugin doesn\'t retry."', 'timeout', 500, 900, 'give-up'],
    ['"If end_session fails other than by timing out …, the plugin calls session_stopped instead" (Hark answered an error)', 'failed', 500, 900, 'session_stopped'],
    ['the same when the connection failed', 'unreachable', 500, 900, 'session_stopped'],
    ['"… and exit time is left": none left, nothing reached Hark: kept for the next start', 'unreachable', 0, 400, 'keep'],
    ['none left, Hark answered an error: given up to Hark\'s idle sweep', 'failed', 0, 400, 'give-up'],
    ['none left and too little of the window to write it: nothing is written past the window', 'unreachable', 0, 100, 'give-up'],
    ['outside the exit (/hark handoff) a failed end_session is followed by session_stopped', 'failed', 3_000, undefined, 'session_stopped'],
  ]
  test.each(cases)('%s', (_why, outcome, requestLeft, windowLeft, expected) => {
    expect(afterEndSession(outcome, requestLeft, windowLeft)).toBe(expected)
  })

  test('after session_stopped: kept for later only when neither request reached Hark, and the write fits in the window', () => {
    expect(afterSessionStopped('unreachable', 'ok', 400)).toBe('done')
    expect(afterSessionStopped('unreachable', 'unreachable', 400)).toBe('keep')
    expect(afterSessionStopped('unreachable', 'unreachable', 149)).toBe('give-up')
    expect(afterSessionStopped('failed', 'unreachable', 400)).toBe('give-up')
    expect(afterSessionStopped('unreachable', 'failed', 400)).toBe('give-up')
    expect(afterSessionStopped('unreachable', 'unreachable', undefined)).toBe('keep')
  })

  test('a write at exit fits while its whole 150 ms wait does', () => {
    expect(keepFits(150)).toBe(true)
    expect(keepFits(149)).toBe(false)
    expect(keepFits(undefined)).toBe(true)
  })
})
