// The status line (SPEC.md: the status line; core/application/status-line.ts): what it says for each state the
// plugin can be in, and that it says nothing outside a Hark project or once the conversation has ended (a fetch
// or a reuse still finishing after /clear must not draw over the next conversation's line).
import { describe, expect, test } from 'vitest'
import { BriefState } from '../../core/application/brief-service'
import { ConversationState } from '../../core/application/conversation-state'
import { StartState } from '../../core/application/start-session'
import { StatusLine } from '../../core/application/status-line'
import type { Brief } from '../../core/domain/brief'
import type { Host } from '../../core/ports/host.port'
import { v } from '../support'

function world(settings: { readonly accessKey?: string } = { accessKey: 'hark_pat_spec_key_0000' }) {
  const start = new StartState()
  const briefs = new BriefState()
  const drawn: string[] = []
  const host = { status: (text: string) => void drawn.push(text) } as unknown as Host
  const line = new StatusLine(start, new ConversationState(), settings, briefs, host)
  const project = { venture: v('V-012'), root: '/p', file: '/p/.hark/project' }
  return { start, briefs, drawn, line, project }
}
const BRIEF = { text: 'brief', nonGoals: [], handoffState: 'Open', openCandidates: 0 } as unknown as Brief

describe('StatusLine', () => {
  test('outside a Hark project it draws nothing', () => {
    const w = world()
    w.line.show()
    expect(w.drawn).toEqual([])
  })

  test('each state the plugin can be in', () => {
    const w = world()
    w.start.moveTo('active', { project: w.project })
    w.line.show()
    w.briefs.got(BRIEF)
    w.line.show()
    w.briefs.noteKeyRefused()
    w.line.show()
    const noKey = world({})
    noKey.start.moveTo('idle', { project: noKey.project, reason: 'no-key' })
    noKey.line.show()
    expect([...w.drawn, ...noKey.drawn]).toEqual(['Hark V-012 · offline', 'Hark V-012 · Open', 'Hark V-012 · key refused', 'Hark V-012 · no access key'])
  })

  test('once the conversation has ended (/clear, a resume) it draws nothing more', () => {
    const w = world()
    w.start.moveTo('active', { project: w.project })
    w.briefs.got(BRIEF)
    w.start.ended = true
    w.line.show()
    expect(w.drawn).toEqual([])
  })
})
