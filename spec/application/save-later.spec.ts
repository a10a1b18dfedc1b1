// Work recorded without the hook waiting for the store (RecordRepository.record; docs/performance.md): the hook's
// use case resolves while the store still holds the write, and what runs later (a handoff) is queued
// behind it, so nothing recorded is lost and the order of saves is kept.
import { describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import { memoryPorts } from '../memory-ports'
import { settle } from '../support'

const ROOT = '/home/dev/ledger'
const KEY = 'hark_spec_key_0123456789'

/** An exit window of `ms` from now, on the real clock. */
function exitWindow(ms: number) {
  const start = Date.now()
  return { left: () => Math.max(0, ms - (Date.now() - start)) }
}

/** One plugin load over a store whose writes wait until `release()` while `held`. */
function world({ realClock = false } = {}) {
  const data = new Map<string, unknown>()
  const said: string[] = []
  const hark = new InMemoryHark(undefined, KEY)
  const sent: string[] = []
  let held = false
  let waiting: (() => void)[] = []
  const app = compose({ access_key: KEY })
  const ports = () => {
    const base = memoryPorts({
      data,
      root: ROOT,
      now: 1_767_000_000_000,
      said,
      post: async (headers, body) => {
        sent.push(String((JSON.parse(body) as { params?: { name?: string } }).params?.name))
        return hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body })
      },
    })
    const set = base.store.set
    const clock = realClock
      ? {
          now: async () => Date.now(),
          sleep: (ms: number, signal?: AbortSignal) =>
            new Promise<void>((done) => {
              const t = setTimeout(done, ms)
              signal?.addEventListener('abort', () => (clearTimeout(t), done()))
            }),
        }
      : base.clock
    return {
      ...base,
      clock,
      store: {
        ...base.store,
        set: async (k: string, v: unknown) => {
          if (held) await new Promise<void>((done) => waiting.push(done))
          return set(k, v)
        },
      },
    }
  }
  const records = () => [...data].filter(([k]) => k.startsWith('c:')).map(([, v]) => v as { entries: { work: { kind: string } }[]; notes?: { text: string } })
  return {
    app,
    ports,
    said,
    sent,
    records,
    hold: () => void (held = true),
    release: () => {
      held = false
      for (const done of waiting) done()
      waiting = []
    },
  }
}

async function started(w: ReturnType<typeof world>) {
  const uc = w.app.useCases(w.ports())
  await uc.start.onSessionStart(ROOT)
  await uc.start.ensureStarted()
  await uc.context.blocks([])
  await settle()
}

describe('a hook records its work without waiting for the store', () => {
  test('a Bash run and a final answer resolve while their writes are held; the store has them once released', async () => {
    const w = world()
    await started(w)
    w.hold()
    await w.app.useCases(w.ports()).work.bash({ command: 'npm test', failed: false } as never)
    await w.app.useCases(w.ports()).work.notes('Done.\n\n## Next steps\n- ship it')
    // Both use cases are done; nothing of them is in the store yet.
    expect(w.records().flatMap((r) => r.entries)).toEqual([])
    w.release()
    await settle()
    expect(w.records().flatMap((r) => r.entries.map((e) => e.work.kind))).toEqual(['test'])
    expect(w.records()[0]!.notes?.text).toContain('ship it')
  })

  test('the handoff runs after the saves queued before it, and hands off their work', async () => {
    const w = world()
    await started(w)
    w.hold()
    const edit = w.app.useCases(w.ports())
    await edit.guard.after(`${ROOT}/src/app.ts`)
    const ending = w.app.useCases(w.ports()).handOff.run(undefined)
    await settle()
    expect(w.sent).not.toContain('end_session')
    w.release()
    const outcome = await ending
    expect(outcome.kind).toBe('sent')
    expect(outcome.kind === 'sent' ? outcome.work.files : []).toEqual(['src/app.ts'])
  })

  test("with the store's writes hanging, the exit still hands off every edit and the notes (from memory)", async () => {
    const w = world({ realClock: true })
    await started(w)
    w.hold()
    for (const f of ['a', 'b', 'c']) await w.app.useCases(w.ports()).guard.after(`${ROOT}/src/${f}.ts`)
    await w.app.useCases(w.ports()).work.notes('Done.\n\n## Next steps\n- ship it')
    const outcome = await w.app.useCases(w.ports()).handOff.run(exitWindow(1_500))
    expect(w.sent).toContain('end_session')
    expect(outcome.kind === 'sent' || outcome.kind === 'failed' ? outcome.work.files : []).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])
    w.release()
  }, 10_000)

  test('a save that throws is one log line, never a rejection', async () => {
    const w = world()
    await started(w)
    const uc = w.app.useCases(w.ports())
    const store = (uc.work as unknown as { store: { record(change: () => never): Promise<void> } }).store
    await store.record(() => {
      throw new Error('a bug in a change')
    })
    await settle()
    expect(w.said.filter((l) => l.includes('a bug in a change'))).toHaveLength(1)
  })
})
