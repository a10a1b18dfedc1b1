// One call container per hook call (docs/architecture.md, Lifetimes): a hook whose steps are guarded one by
// one (a compaction's begin and end) composes its use cases once, for all of them.
import * as td from 'testdouble'
import type { EngineInterface, SessionCompactInput } from 'claude-code'
import { afterEach, expect, test } from 'vitest'
import type { Application, UseCases } from '../../adapters/claude-code/application'
import { onCompact } from '../../adapters/claude-code/hooks.adapter'

afterEach(() => td.reset())

test('a compaction composes its use cases once for its begin and its end', async () => {
  const app = td.object<Application>()
  const steps: string[] = []
  const uc = {
    start: { ensureStarted: async () => undefined },
    compact: { begin: async () => void steps.push('begin'), end: async (done: boolean) => void steps.push(`end ${done}`) },
  } as unknown as UseCases
  td.when(app.useCases(td.matchers.anything())).thenReturn(uc)
  const $ = { ui: { log: () => undefined } } as unknown as EngineInterface
  const e = { trigger: 'manual' } as unknown as SessionCompactInput
  await onCompact(app, $, e, (async () => ({})) as never)
  expect(steps).toEqual(['begin', 'end true'])
  td.verify(app.useCases(td.matchers.anything()), { times: 1 })
})
