// Handoffs of one process that meet, over a store like the engine's (docs/SPEC.md: "At most one handoff per piece
// of work"; prompt.submit waits at most 150 ms for the store): /hark handoff still storing its claim when the exit
// begins, and the first prompt of a conversation while another process holds the store's lock. The whole plugin
// runs in Node (composition root and use cases) on a real clock, the store answering a plugin's calls one at a time
// in the order made and each write waiting on a held lock for up to 0.7 s, as the engine's does (docs/engine.md,
// "The store's lock").
import { describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import type { KeyValueStore } from '../../core/ports/store.port'
import { memoryPorts } from '../memory-ports'

const ROOT = '/home/dev/ledger'
const KEY = 'hark_spec_key_0123456789'
const NOW = 1_767_000_000_000
const wait = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

/** A store answering calls one at a time in the order made, its writes waiting on a held lock (50 ms retries, 0.7 s). */
class EngineStore {
  readonly data = new Map<string, unknown>()
  locked = false
  /** Each call's wait before it is answered (ms). */
  delayMs = 0
  private queue: Promise<unknown> = Promise.resolve()

  port(): KeyValueStore {
    const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
      const run = this.queue.then(async () => {
        if (this.delayMs > 0) await wait(this.delayMs)
        return work()
      })
      this.queue = run.then(
        () => undefined,
        () => undefined,
      )
      return run
    }
    const locked = async () => {
      for (let waited = 0; this.locked; waited += 50) {
        if (waited >= 700) throw new Error('Lock file is already being held')
        await wait(50)
      }
    }
    return {
      get: (k) => inOrder(async () => this.data.get(k)),
      keys: () => inOrder(async () => [...this.data.keys()]),
      set: (k, v) => inOrder(async () => void (await locked(), this.data.set(k, JSON.parse(JSON.stringify(v))))),
      delete: (k) => inOrder(async () => void (await locked(), this.data.delete(k))),
    }
  }
}

/** One plugin load over `store`, on the real clock (its waits end), Hark in memory. */
function load(store: EngineStore) {
  const t0 = Date.now()
  const hark = new InMemoryHark(undefined, KEY)
  const app = compose({ access_key: KEY })
  const ports = () => {
    const base = memoryPorts({ data: store.data, root: ROOT, now: NOW, said: [], post: (headers, body) => hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body }) })
    return {
      ...base,
      store: store.port(),
      clock: {
        now: async () => NOW + (Date.now() - t0),
        sleep: (ms: number, signal?: AbortSignal) =>
          new Promise<void>((done) => {
            const timer = setTimeout(done, ms)
            signal?.addEventListener('abort', () => (clearTimeout(timer), done()))
          }),
      },
    }
  }
  return { uc: () => app.useCases(ports()), hark }
}

/** The exit's window: 1.5 s from now. */
const exitWindow = () => {
  const end = Date.now() + 1_500
  return { left: () => Math.max(0, end - Date.now()) }
}

async function started(p: ReturnType<typeof load>) {
  await p.uc().start.onSessionStart(ROOT)
  await p.uc().start.ensureStarted()
  await p.uc().context.blocks([])
}

/** classic.SessionEnd, then session.end, as the hooks adapter runs them. */
async function exit(p: ReturnType<typeof load>) {
  const classic = p.uc()
  const moveChecked = classic.move.run(undefined)
  await Promise.all([moveChecked, classic.handOff.prepare(moveChecked)])
  return p.uc().handOff.run(exitWindow())
}

const changed = (p: ReturnType<typeof load>) => p.hark.callsTo('end_session').map((c) => String(c.arguments['what_changed']))

describe('/hark handoff still under way when the exit begins: the work goes out once', () => {
  test('its claim waiting on a lock another process holds for 450 ms', { timeout: 10_000 }, async () => {
    const store = new EngineStore()
    const p = load(store)
    await started(p)
    await p.uc().guard.after(`${ROOT}/src/a.ts`)
    await wait(50)
    store.locked = true
    const handing = p.uc().handOff.run()
    setTimeout(() => (store.locked = false), 450)
    await wait(20)
    await Promise.all([handing, exit(p)])
    expect(changed(p)).toEqual(['edited src/a.ts'])
  })

  test('a store answering each call in 10 ms, the exit beginning at once: the claim made ahead is the exit\'s own, not /hark handoff\'s', { timeout: 10_000 }, async () => {
    const store = new EngineStore()
    const p = load(store)
    await started(p)
    await p.uc().guard.after(`${ROOT}/src/a.ts`)
    await wait(50)
    store.delayMs = 10
    const handing = p.uc().handOff.run()
    await Promise.all([handing, exit(p)])
    expect(changed(p)).toEqual(['edited src/a.ts'])
  })
})

describe('the first prompt of a conversation while another process holds the store\'s lock', () => {
  test('waits for the conversation to be read, not for its record\'s write on the lock', { timeout: 10_000 }, async () => {
    const store = new EngineStore()
    store.locked = true
    const p = load(store)
    await p.uc().start.onSessionStart(ROOT)
    const began = Date.now()
    const uc = p.uc()
    // As onPromptSubmit runs it.
    await uc.start.forPrompt()
    await uc.prompt.run()
    const owed = uc.start.takeOwedBrief()
    if (owed) await uc.context.briefForFirstTask(owed)
    // The record's write waits on the lock for 0.7 s; the prompt does not.
    expect(Date.now() - began).toBeLessThan(300)
  })
})
