// The brief of a resumed conversation (docs/engine.md, "claude -p --resume"): the engine keeps the first
// message's context the conversation already holds, so a `prompt.context` block of a later process never
// reaches the model. A process whose conversation goes on from other processes' records gives a brief it
// fetched with its first prompt; a brief it reused is the one the resumed history holds. The agent view's
// placeholder owes its first task the brief whichever way it came.
import { describe, expect, test } from 'vitest'
import { BriefState } from '../../core/application/brief-service'
import { ConversationState } from '../../core/application/conversation-state'
import { ProvideContext } from '../../core/application/provide-context'
import type { RecordRepository } from '../../core/application/record-repository'
import { StartState } from '../../core/application/start-session'
import { briefFromText } from '../../core/domain/brief'
import { v } from '../support'

function world({ fetched }: { fetched: boolean }) {
  const start = new StartState()
  start.moveTo('active', { project: { venture: v('V-012'), root: '/p', file: '/p/.hark/project' } })
  const briefs = new BriefState()
  if (fetched) briefs.requested(1_000_000)
  briefs.got(briefFromText('{"identity":"Ledgerline"}') as NonNullable<ReturnType<typeof briefFromText>>)
  const context = new ProvideContext(start, briefs, new ConversationState(), {} as RecordRepository)
  return { start, context }
}

describe('what the first prompt owes the model', () => {
  test('a resumed conversation whose brief this process fetched: the first prompt carries it, once', async () => {
    const w = world({ fetched: true })
    w.start.noteResumed()
    // The first message's context was built meanwhile; in a resumed conversation the engine does not send it.
    await w.context.blocks([])
    const owed = w.start.takeOwedBrief()
    expect(owed).toBe('fetched')
    expect(await w.context.briefForFirstTask(owed)).toMatch(/^<hark-brief project="V-012">/)
    expect(w.start.takeOwedBrief()).toBeUndefined()
  })

  test('a resumed conversation whose brief was reused from the store: nothing more (the history holds it)', async () => {
    const w = world({ fetched: false })
    w.start.noteResumed()
    expect(await w.context.briefForFirstTask(w.start.takeOwedBrief())).toBeUndefined()
  })

  test('a conversation of its own: the first message context carries the brief, and no prompt owes it', async () => {
    const w = world({ fetched: true })
    expect((await w.context.blocks([])).map((b) => b.name)).toEqual(['hark'])
    expect(w.start.takeOwedBrief()).toBeUndefined()
  })

  test("the placeholder's first task owes the brief, fetched or reused", async () => {
    const w = world({ fetched: false })
    w.start.oweBrief()
    const owed = w.start.takeOwedBrief()
    expect(owed).toBe('brief')
    expect(await w.context.briefForFirstTask(owed)).toMatch(/^<hark-brief project="V-012">/)
  })
})
