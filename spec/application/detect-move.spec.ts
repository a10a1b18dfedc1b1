// classic.SessionEnd (core/application/detect-move.ts): the transcript says whether the conversation moved
// to a background process, even while the start is still held up (a slow store): it is read first.
import * as td from 'testdouble'
import { expect, test } from 'vitest'
import { ConversationState } from '../../core/application/conversation-state'
import type { RecordRepository } from '../../core/application/record-repository'
import { DetectMove } from '../../core/application/detect-move'
import { StartState } from '../../core/application/start-session'
import type { Clock } from '../../core/ports/clock.port'
import type { Files } from '../../core/ports/files.port'

const moved = [JSON.stringify({ type: 'user' }), JSON.stringify({ type: 'continued-in', continuedInSessionId: 'bg' })].join('\n') + '\n'

test('a start that has not finished does not hide a move the transcript shows', async () => {
  const start = new StartState()
  // The start never finishes (its store does not answer).
  void start.begin(() => new Promise(() => undefined))
  const conversation = new ConversationState()
  const files: Files = { readText: async () => undefined, realPath: async () => undefined, size: async () => moved.length, readRange: async () => moved }
  // Every wait runs out at once.
  const clock: Clock = { now: async () => 0, sleep: async () => undefined }
  await new DetectMove(start, conversation, files, td.object<RecordRepository>(), clock).run('/t/transcript.jsonl')
  expect(conversation.moved).toBe(true)
})

test('an idle session reads nothing', async () => {
  const start = new StartState()
  start.moveTo('idle', { reason: 'no-project' })
  const files = td.object<Files>()
  await new DetectMove(start, new ConversationState(), files, td.object<RecordRepository>(), { now: async () => 0, sleep: async () => undefined }).run('/t/x.jsonl')
  td.verify(files.size(td.matchers.anything()), { times: 0 })
})

test('with no transcript to read and the store stuck, the check stops waiting for the refresh (the exit window is shared)', async () => {
  const start = new StartState()
  start.moveTo('active', { project: { venture: 'V-012' as never, root: '/p', file: '/p/.hark/project' } })
  const conversation = new ConversationState()
  const store = td.object<RecordRepository>()
  // A store that never answers the read.
  td.when(store.refresh(td.matchers.anything())).thenReturn(new Promise(() => undefined))
  const files: Files = { readText: async () => undefined, realPath: async () => undefined, size: async () => undefined, readRange: async () => undefined }
  const waited: number[] = []
  // A wait ends when it is asked for: the check is cut at its bound, not at the store's pace.
  const clock: Clock = { now: async () => 0, sleep: async (ms) => void waited.push(ms) }
  await new DetectMove(start, conversation, files, store, clock).run('')
  expect(waited).toContain(300)
  expect(conversation.moved).toBe(false)
})
