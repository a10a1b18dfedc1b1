// `/hark doctor` and `/hark preview` only look: they start nothing, so in the agent view's
// placeholder or a conversation not started yet they send nothing and store nothing.
import { expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { memoryPorts } from '../memory-ports'

test('doctor and preview start nothing; the other subcommands start the plugin first', async () => {
  const data = new Map<string, unknown>()
  const said: string[] = []
  const posts: string[] = []
  const app = compose({ access_key: 'hark_spec_key_0123456789' })
  const ports = memoryPorts({ data, root: '/home/dev/ledger', now: 1_767_000_000_000, said, post: async (_h, body) => (posts.push(body), { status: 500, ok: false, headers: {}, text: '' }) })
  const uc = app.useCases(ports)
  expect(['doctor', 'preview', ' Doctor ', 'PREVIEW'].map((a) => uc.command.startsPlugin(a))).toEqual([false, false, false, false])
  expect(['', 'brief', 'handoff', 'needs', 'open'].every((a) => uc.command.startsPlugin(a))).toBe(true)
  const text = await uc.command.run('preview')
  expect(text).toContain('has not started in this conversation yet')
  expect(text).toContain('Nothing has been sent or stored.')
  expect(posts).toEqual([])
  expect(data.size).toBe(0)
})
