// A refused key is not "offline" (README, Setup: `key refused`): KeyWatch turns the status line to `key refused` when Hark
// answers any request but the brief with HTTP 401 or 403, until a brief is fetched again; nothing else turns
// it back.
import * as td from 'testdouble'
import { afterEach, describe, expect, test } from 'vitest'
import { BriefState } from '../../core/application/brief-service'
import { ConversationState } from '../../core/application/conversation-state'
import { KeyWatch } from '../../core/application/key-watch'
import { StartState } from '../../core/application/start-session'
import { StatusLine } from '../../core/application/status-line'
import type { HarkGateway, HarkResult } from '../../core/ports/hark.port'
import type { Host } from '../../core/ports/host.port'
import { v } from '../support'

function world() {
  const inner = td.object<HarkGateway>()
  const host = td.object<Host>()
  const start = new StartState()
  start.moveTo('active', { project: { venture: v('V-012'), root: '/p', file: '/p/.hark/project' } })
  const briefs = new BriefState()
  const status = new StatusLine(start, new ConversationState(), { accessKey: 'hark_pat_spec_key_0000' }, briefs, host)
  const watch = new KeyWatch(inner, briefs, status)
  const statuses: string[] = []
  td.when(host.status(td.matchers.isA(String))).thenDo((text: string) => void statuses.push(text))
  return { inner, watch, briefs, statuses }
}
const fail = (kind: 'key-refused' | 'timeout' | 'refused' | 'unreachable' | 'broken'): HarkResult<never> => ({ ok: false, kind, detail: kind })
const args = { venture: 'V-012', what_i_did: '', what_changed: '', whats_next: '', links: [] }

afterEach(() => td.reset())

describe('KeyWatch', () => {
  test.each(['listDecisions', 'endSession', 'sessionStopped', 'listCandidates'] as const)('%s answered 401/403: the status line says key refused, once', async (method) => {
    const w = world()
    const first = method === 'endSession' ? args : v('V-012')
    const inner = w.inner as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>
    const watch = w.watch as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>
    const call = () => watch[method]!(first)
    td.when(inner[method]!(first, undefined)).thenResolve(fail('key-refused'))
    expect(await call()).toEqual(fail('key-refused'))
    await call()
    expect(w.statuses).toEqual(['Hark V-012 · key refused'])
    expect(w.briefs.keyRefused).toBe(true)
  })

  test('only a fetched brief turns it back: another request let through leaves it', async () => {
    const w = world()
    td.when(w.inner.listDecisions(v('V-012'), undefined)).thenResolve(fail('key-refused'), { ok: true, value: [] })
    await w.watch.listDecisions(v('V-012'))
    await w.watch.listDecisions(v('V-012'))
    expect(w.statuses).toEqual(['Hark V-012 · key refused'])
    expect(w.briefs.keyRefused).toBe(true)
    w.briefs.got({ text: 'brief', handoffState: 'Open', openCandidates: 0 } as never)
    expect(w.briefs.keyRefused).toBe(false)
  })

  test.each(['timeout', 'refused', 'unreachable', 'broken'] as const)('%s says nothing about the key', async (kind) => {
    const w = world()
    td.when(w.inner.listDecisions(v('V-012'), undefined)).thenResolve(fail(kind))
    await w.watch.listDecisions(v('V-012'))
    expect(w.statuses).toEqual([])
    expect(w.briefs.keyRefused).toBe(false)
  })

  test("the brief's result is left to KeepBrief (it draws the status line itself)", async () => {
    const w = world()
    td.when(w.inner.getBrief(v('V-012'), undefined)).thenResolve(fail('key-refused'))
    await w.watch.getBrief(v('V-012'))
    expect(w.statuses).toEqual([])
  })
})
