// The edit guard's compiled guards (core/application/guard-match.ts, guard-state.ts; docs/guard.md, Matching): the
// decisions' guard is compiled once per good fetch, the non-goals' once per brief, and the non-goals are
// compiled while the decisions are fetched (after the request is on its way, before its answer). Matches
// list the decisions first, then the non-goals, and a failed fetch leaves the non-goals alone, as SPEC.md says.
import { describe, expect, test } from 'vitest'
import { DecisionFetch } from '../../core/application/decision-fetch'
import { GuardEdit, STOP } from '../../core/application/guard-edit'
import { GuardMatch } from '../../core/application/guard-match'
import { GuardState } from '../../core/application/guard-state'
import type { BriefState } from '../../core/application/brief-service'
import type { ConversationState } from '../../core/application/conversation-state'
import type { RecordRepository } from '../../core/application/record-repository'
import type { ProjectPaths } from '../../core/application/project-paths'
import type { StartState } from '../../core/application/start-session'
import type { Brief } from '../../core/domain/brief'
import type { CompiledGuard } from '../../core/domain/guard/compiled-guard'
import { compileGuard } from '../../core/domain/guard/compiled-guard'
import { parseDecisionEntries, type GuardRecord } from '../../core/domain/guard/records'
import type { Clock } from '../../core/ports/clock.port'
import type { HarkGateway, HarkResult } from '../../core/ports/hark.port'
import type { Host } from '../../core/ports/host.port'

const brief = (nonGoals: unknown[]) => ({ nonGoals }) as unknown as Brief
const MOBILE = brief([{ title: 'No mobile app', why: 'Web first.', scope: { areas: ['mobile'] } }])
const DECISIONS = parseDecisionEntries([{ id: 'd-2', title: 'Migrations are plain .sql files', why: 'Reviewable.', status: 'accepted', scope: { paths: ['*.sql'] } }])

/** A GuardEdit over plain stand-ins for its collaborators; `order` records the request and each non-goal compile. */
function world(briefNow: Brief) {
  const order: string[] = []
  const said: string[] = []
  const state = new GuardState()
  const nonGoalsFor = state.nonGoalsFor.bind(state)
  state.nonGoalsFor = (b, compile) => nonGoalsFor(b, (records) => (order.push('non-goals compiled'), compile(records)))
  const answers: ((result: HarkResult<GuardRecord[]>) => void)[] = []
  const hark = {
    listDecisions: () => {
      order.push('request')
      return new Promise<HarkResult<GuardRecord[]>>((answer) => answers.push(answer))
    },
  } as unknown as HarkGateway
  const briefs = { firstBrief: async () => undefined, brief: briefNow } as unknown as BriefState
  const start = { activeProject: { venture: 'V-012' } } as unknown as StartState
  const host = { ask: async () => STOP, log: (line: string) => void said.push(line) } as unknown as Host
  const clock = { now: async () => 1_000, sleep: async () => undefined } as unknown as Clock
  const paths = { relative: async (p: string) => p } as unknown as ProjectPaths
  const match = new GuardMatch(state, briefs, new DecisionFetch(state, start, hark, clock, host))
  const guard = new GuardEdit(start, paths, match, {} as ConversationState, {} as RecordRepository, host)
  return { guard, order, said, answers, briefs: briefs as { brief: Brief } }
}

const ticks = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

describe('the decisions’ guard and the non-goals’ guard', () => {
  test('the non-goals are compiled while the decisions are fetched; matches list the decisions first', async () => {
    const w = world(MOBILE)
    const verdict = w.guard.before('src/mobile/schema.sql')
    await ticks()
    expect(w.order).toEqual(['request', 'non-goals compiled'])
    w.answers[0]?.({ ok: true, value: DECISIONS })
    const out = await verdict
    expect(out.go).toBe(false)
    const deny = out.go ? '' : out.deny
    expect(deny.indexOf('Migrations are plain .sql files')).toBeGreaterThan(0)
    expect(deny.indexOf('No mobile app')).toBeGreaterThan(deny.indexOf('Migrations are plain .sql files'))
  })

  test('a failed fetch leaves the non-goals alone, compiled once; the next edit within the minute fetches nothing', async () => {
    const w = world(MOBILE)
    const first = w.guard.before('src/mobile/a.sql')
    await ticks()
    w.answers[0]?.({ ok: false, kind: 'unreachable', detail: 'could not connect (ECONNREFUSED)' })
    const out = await first
    expect(!out.go && out.deny.includes('No mobile app') && !out.deny.includes('.sql files')).toBe(true)
    expect(w.said.filter((l) => l.includes('could not fetch the decisions'))).toHaveLength(1)
    await w.guard.before('src/mobile/b.sql')
    expect(w.order).toEqual(['request', 'non-goals compiled'])
  })

  test('a new brief compiles its non-goals again, and only them', async () => {
    const w = world(MOBILE)
    const first = w.guard.before('src/mobile/a.sql')
    await ticks()
    w.answers[0]?.({ ok: true, value: DECISIONS })
    await first
    w.briefs.brief = brief([{ title: 'No new payment providers', scope: { areas: ['billing'] } }])
    const out = await w.guard.before('src/billing/a.sql')
    expect(!out.go && out.deny.includes('No new payment providers') && out.deny.includes('.sql files')).toBe(true)
    expect(w.order).toEqual(['request', 'non-goals compiled', 'non-goals compiled'])
  })
})

describe('GuardState keeps each compiled guard until what it was compiled from changes', () => {
  const counting = () => {
    const compiled: number[] = []
    return { compiled, compile: (records: readonly GuardRecord[]): CompiledGuard => (compiled.push(records.length), compileGuard(records)) }
  }

  test('the non-goals once per brief; the decisions once per good fetch, none before one', () => {
    const state = new GuardState()
    const c = counting()
    const a = state.nonGoalsFor(MOBILE, c.compile)
    expect(state.nonGoalsFor(MOBILE, c.compile)).toBe(a)
    const none = state.decisionsFor(c.compile)
    expect(none.match('x.sql')).toEqual([])
    expect(state.decisionsFor(c.compile)).toBe(none)
    state.fetchedNow({ records: DECISIONS })
    const d = state.decisionsFor(c.compile)
    expect(d.match('x.sql').map((r) => r.key)).toEqual(['id:d-2'])
    expect(state.decisionsFor(c.compile)).toBe(d)
    expect(state.nonGoalsFor(brief([]), c.compile)).not.toBe(a)
    expect(state.decisionsFor(c.compile)).toBe(d)
    expect(c.compiled).toEqual([1, 0, 1, 0])
  })
})
