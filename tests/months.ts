// A heavy user's months through the engine, for the store's size (SPEC.md: What it stores; pruning at
// session.start): simulated days of one project, so many sessions a day: work sessions that exit
// normally, sessions that crash (no exit hook), question-only sessions (no work) and resumes of an
// earlier conversation, the clock moved on between them. A test is one plugin load (a process,
// docs/engine.md): each of the day's two tests plays half the day's sessions one after another, as
// /clear does in one process (each conversation with its own record, as in a process of its own), and
// its last session exits or crashes. Played by tests/months.test.ts (12 a day) and tests/months-20.ts
// (20 a day for 30 days, run by hand: `claude plugin test --file tests/months-20.ts .`).
import { test, type Engine } from 'claude-code/testing'
import { createWorld, FakeStore, KEY, PROJECT, STARTED_AT, startSession } from './world'

const MINUTE = 60_000
const DAY = 86_400_000
export const DAYS = 20
/** What the engine's Bash tool answers for a test run. */
const bash = () => ({ result: { stdout: 'Tests: 42 passed', stderr: '', interrupted: false } })

const answer = (text: string) => ({ answer: text, durationMs: 10, isAborted: false, turnId: 't1', reason: 'answer' as const })

/** Claude's last answer in a session: about 1.6 KB of prose, different in every session. */
function notesOf(day: number, session: number): string {
  const lines = [`Day ${day}, session ${session}: I went through the ledger's import path and the reconciliation job.`]
  for (let i = 0; lines.join('\n').length < 1_600; i++) lines.push(`Step ${i + 1}: checked the ${['parser', 'totals', 'currency table', 'retry loop', 'report'][i % 5]} for day ${day} and left it consistent with the schema.`)
  return `${lines.join('\n')}\n\n## Next steps\n- Look at the nightly export again.`
}

/** The store after a day: its bytes as the engine keeps it (one JSON object), its records, their bytes, and the oldest one's age (ms). */
export interface Size {
  readonly bytes: number
  readonly records: number
  readonly recordBytes: number
  readonly oldest: number
}

function measure(store: FakeStore, now: number): Size {
  const size = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length
  const keys = store.keysWith('c:')
  const oldest = Math.max(0, ...keys.map((k) => now - (store.data.get(k) as { savedAt: number }).savedAt))
  return { bytes: size(Object.fromEntries(store.data)), records: keys.length, recordBytes: keys.reduce((n, k) => n + size(k) + size(store.data.get(k)), 0), oldest }
}

type Kind = 'work' | 'question' | 'resume'
/** The day's sessions, in turn: work, a question, a resume of an earlier conversation, work, a question, work. */
const KINDS: readonly Kind[] = ['work', 'question', 'resume', 'work', 'question', 'work']

/**
 * Declares the tests that play `perDay` sessions a day for `days` days, two processes a day; the series
 * they fill holds the store's size after each day, once they have run.
 */
export function months(perDay: number, days = DAYS): Size[] {
  const store = new FakeStore()
  const series: Size[] = []
  const conversations: { startedAt: number; sessionId: string }[] = []
  const slot = Math.floor((10 * 60 * MINUTE) / perDay)
  const half = perDay / 2
  for (let day = 1; day <= days; day++) {
    for (const part of [0, 1]) {
      // One process a day crashes: the first of the day on even days, the second on odd days.
      const crashes = part === day % 2
      test(`${perDay} a day: day ${day}, process ${part + 1} (${half} sessions, the last ${crashes ? 'crashes' : 'exits'})`, { options: { access_key: KEY }, timeoutMs: 30_000 }, async ($, on) => {
        const first = STARTED_AT + day * DAY + 8 * 60 * MINUTE + part * half * slot
        const world = createWorld(on, { store, now: first, toolResults: { Bash: bash } })
        for (let i = 0; i < half; i++) {
          const s = part * half + i
          const at = first + i * slot
          await world.clock.set(Math.max(at, world.clock.now()))
          const kind = KINDS[s % KINDS.length]!
          const resumed = kind === 'resume' ? conversations.at(-2) : undefined
          const conversation = resumed ?? { startedAt: at, sessionId: `6f1d2c3b-0000-4000-8000-${String(day * 100 + s).padStart(12, '0')}` }
          if (resumed === undefined) conversations.push(conversation)
          world.startedAt = conversation.startedAt
          world.sessionId = conversation.sessionId
          await session($, world.clock, kind, day, s)
          const last = i === half - 1
          if (last && crashes) break
          const reason = last ? 'other' : 'clear'
          await $.classic.SessionEnd({ reason, transcript_path: '' })
          await $.session.end({ reason, sessionId: conversation.sessionId, resume: { id: conversation.sessionId } })
        }
        // What the hooks queued is stored before the process goes (a crash comes later than that).
        await world.clock.advance(MINUTE)
        if (part === 1) series.push(measure(store, world.clock.now()))
      })
    }
  }
  return series
}

/** One session: the start and its first message, then work or only a question, then Claude's notes. */
async function session($: Engine, clock: { advance: (ms: number) => Promise<void> }, kind: Kind, day: number, s: number): Promise<void> {
  await startSession($)
  await $.prompt.submit({ text: 'go on', wait: false, origin: { kind: 'composer' } } as never)
  if (kind !== 'question') {
    for (let f = 0; f < 4; f++) {
      await clock.advance(3 * MINUTE)
      await $.tool.call({ tool: 'Write', file_path: `${PROJECT}/src/ledger/part${(day * 7 + s * 3 + f) % 40}.ts`, content: 'export {}' })
    }
    await $.tool.call({ tool: 'Bash', command: 'npm test' })
  }
  await clock.advance(2 * MINUTE)
  await $.turn.complete(answer(notesOf(day, s)))
}

/** Prints a series: the store's bytes, records and bytes per record after each day. */
export function print(perDay: number, series: readonly Size[]): void {
  const out = (globalThis as unknown as { console: { log: (text: string) => void } }).console
  const rows = series.map((m, i) => `day ${String(i + 1).padStart(2)}: ${String(m.bytes).padStart(7)} bytes, ${String(m.records).padStart(3)} records, ${m.records === 0 ? 0 : Math.round(m.recordBytes / m.records)} bytes a record`)
  out.log([`The store, ${perDay} sessions a day:`, ...rows].join('\n'))
}

