// An edit's hook call (adapters/claude-code/hooks.adapter.ts, onEdit): the check before the edit and the record
// after it share the call's use cases, composed once (composing them again cost every edit 1–2 ms in the
// engine's hooks worker); a refused or failed edit records nothing; a throw is a log line.
import * as td from 'testdouble'
import type { EngineInterface, ToolCallInput, ToolCallResult } from 'claude-code'
import { afterEach, describe, expect, test } from 'vitest'
import type { Application, UseCases } from '../../adapters/claude-code/application'
import { onEdit } from '../../adapters/claude-code/hooks.adapter'

afterEach(() => td.reset())

function world(verdict: { go: true; placed?: { path: string } } | { go: false; deny: string }) {
  const app = td.object<Application>()
  const before = td.func<(file: string) => Promise<typeof verdict>>()
  const after = td.func<(file: string, placed?: { path: string }) => Promise<void>>()
  td.when(before(td.matchers.anything())).thenResolve(verdict)
  td.when(after(td.matchers.anything(), td.matchers.anything())).thenResolve(undefined)
  const uc = { start: { ensureStarted: async () => undefined }, guard: { before, after } } as unknown as UseCases
  td.when(app.useCases(td.matchers.anything())).thenReturn(uc)
  const logged: string[] = []
  const $ = { ui: { log: (line: string) => void logged.push(line) } } as unknown as EngineInterface
  const e = { tool: 'Edit', file_path: '/p/src/a.ts' } as unknown as ToolCallInput
  return { app, before, after, $, e, logged }
}

describe('an edit hook call', () => {
  test('composes its use cases once for the check and the record', async () => {
    const w = world({ go: true, placed: { path: 'src/a.ts' } })
    const result = await onEdit(w.app, w.$, w.e, async () => ({ result: 'ok' }) as ToolCallResult)
    expect(result).toEqual({ result: 'ok' })
    td.verify(w.app.useCases(td.matchers.anything()), { times: 1 })
    td.verify(w.after('/p/src/a.ts', { path: 'src/a.ts' }), { times: 1 })
  })

  test('a refused edit, or one that failed, is not recorded', async () => {
    const stop = world({ go: false, deny: 'Stop' })
    expect(await onEdit(stop.app, stop.$, stop.e, async () => ({ result: 'ran' }) as ToolCallResult)).toEqual({ deny: 'Stop' })
    const failed = world({ go: true })
    await onEdit(failed.app, failed.$, failed.e, async () => ({ result: 'x', isError: true }) as ToolCallResult)
    for (const w of [stop, failed]) td.verify(w.after(td.matchers.anything(), td.matchers.anything()), { times: 0 })
  })

  test('use cases that cannot be composed: the edit goes ahead, a log line for each part that could not run', async () => {
    const w = world({ go: true })
    td.when(w.app.useCases(td.matchers.anything())).thenThrow(new Error('no container'))
    expect(await onEdit(w.app, w.$, w.e, async () => ({ result: 'ok' }) as ToolCallResult)).toEqual({ result: 'ok' })
    expect(w.logged).toEqual(Array(2).fill('Hark: the tool.call hook failed (no container); the session carries on.'))
  })
})
