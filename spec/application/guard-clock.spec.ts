// The edit guard's retry rule (SPEC.md: The edit guard, "If the fetch fails, the guard uses non-goals alone and
// tries again a minute later") when the clock fails too: a failed decision fetch that the
// clock could not time is not tried again on every edit, and logs one line; once the clock answers again,
// the minute runs from that reading. Driven through the composition root, as the hooks adapter drives it.
import { describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import { memoryPorts } from '../memory-ports'
import { settle } from '../support'

const ROOT = '/home/dev/ledger'
const KEY = 'hark_spec_key_0123456789'
const T0 = 1_767_000_000_000

function world() {
  const data = new Map<string, unknown>()
  const said: string[] = []
  const hark = new InMemoryHark(undefined, KEY)
  const sent: string[] = []
  const app = compose({ access_key: KEY })
  const time = { now: T0, broken: false }
  const ports = () => {
    const base = memoryPorts({
      data,
      root: ROOT,
      now: T0,
      said,
      post: async (headers, body) => {
        sent.push(String((JSON.parse(body) as { params?: { name?: string } }).params?.name))
        return hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body })
      },
    })
    const now = () => (time.broken ? Promise.reject(new Error('clock gone')) : Promise.resolve(time.now))
    return { ...base, clock: { ...base.clock, now } }
  }
  return { app, ports, said, sent, hark, time }
}

describe('a failed decision fetch when the clock fails too', () => {
  test('no fetch on every edit and one log line; the minute runs from the next reading', async () => {
    const w = world()
    const uc = w.app.useCases(w.ports())
    await uc.start.onSessionStart(ROOT)
    await uc.start.ensureStarted()
    await uc.context.blocks([])
    await settle()
    w.hark.toolModes.set('list_journal_entries', 'http-500')
    w.time.broken = true
    const edit = async () => w.app.useCases(w.ports()).guard.before(`${ROOT}/src/db/query.sql`)
    for (let i = 0; i < 3; i++) expect((await edit()).go).toBe(true)
    const fetches = () => w.sent.filter((t) => t === 'list_journal_entries').length
    expect(fetches()).toBe(1)
    expect(w.said.filter((l) => l.includes('could not fetch the decisions'))).toHaveLength(1)
    // The clock is back: that reading starts the minute; nothing is fetched before it has run.
    w.time.broken = false
    await edit()
    w.time.now += 59_000
    await edit()
    expect(fetches()).toBe(1)
    w.time.now += 1_000
    w.hark.toolModes.delete('list_journal_entries')
    await edit()
    expect(fetches()).toBe(2)
    expect(w.said.filter((l) => l.includes('could not fetch the decisions'))).toHaveLength(1)
  })
})
