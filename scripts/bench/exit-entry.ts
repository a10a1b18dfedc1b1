// The exit hook's use case over Node-side ports, for scripts/bench-exit.mjs: a real clock, a store
// in memory (optionally slow), and Hark in memory answering after a delay, or never.
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import type { EnginePorts } from '../../adapters/claude-code/engine-ports'

export interface Scenario {
  readonly harkDelayMs: number | 'hang'
  readonly storeDelayMs: number
}

const KEY = 'hark_bench_key_0123456789'
const ROOT = '/bench/project'

/** Runs one session (start, a few edits and test runs) and returns how long session.end's handoff took (ms). */
export async function exitOnce(s: Scenario, sleep: (ms: number) => Promise<void>): Promise<{ ms: number; sent: string[] }> {
  const hark = new InMemoryHark(undefined, KEY)
  const asked: string[] = []
  const data = new Map<string, unknown>()
  const later = <T>(value: T) => (s.storeDelayMs > 0 ? sleep(s.storeDelayMs).then(() => value) : Promise.resolve(value))
  let exiting = false
  const ports: EnginePorts = {
    store: {
      get: (k) => later(data.get(k)),
      set: (k, v) => later(void data.set(k, JSON.parse(JSON.stringify(v)))),
      delete: (k) => later(void data.delete(k)),
      keys: () => later([...data.keys()]),
    },
    clock: {
      now: async () => Date.now(),
      sleep: (ms, signal) =>
        new Promise<void>((done) => {
          const t = setTimeout(done, ms)
          signal?.addEventListener('abort', () => {
            clearTimeout(t)
            done()
          })
        }),
    },
    host: { status: () => undefined, log: () => undefined, ask: async () => 'Allow', registerCommand: async () => undefined, refreshContext: () => undefined },
    files: {
      readText: async (p) => (p === `${ROOT}/.hark/project` ? 'V-012\n' : undefined),
      size: async () => undefined,
      realPath: async () => undefined,
      readRange: async () => undefined,
    },
    session: {
      id: async () => 'bench-session',
      cwd: async () => ROOT,
      startedAt: async () => 1_700_000_000_000,
      turns: async () => 1,
      engineVersion: async () => '2.1.332',
      pluginVersion: async () => '0.2.3',
      platform: async () => 'linux' as const,
      isPlaceholderSource: async () => false,
    },
    hark: {
      post: async (headers, body) => {
        if (exiting) asked.push(String((JSON.parse(body) as { params?: { name?: string } }).params?.name))
        if (exiting && s.harkDelayMs === 'hang') return new Promise(() => undefined)
        if (exiting && typeof s.harkDelayMs === 'number') await sleep(s.harkDelayMs)
        return hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body })
      },
    },
  }
  const app = compose({ access_key: KEY })
  const uc = () => app.useCases(ports)
  await uc().start.onSessionStart(ROOT)
  // As the hooks adapter: the hooks after session.start wait for the start.
  await uc().start.ensureStarted()
  for (const f of ['src/a.ts', 'src/b.ts', 'src/db/c.sql']) await uc().guard.after(`${ROOT}/${f}`)
  await uc().work.bash({ command: 'npm test', failed: false })
  await uc().work.notes('Done.\n\n## Next steps\n- more')
  exiting = true
  const started = performance.now()
  // As hooks.adapter.ts at classic.SessionEnd: the move check, and beside it the read and the claim ahead
  // (`prepare`; trees before it check the move, then call `claimAhead`).
  const exit = uc()
  const handOff = exit.handOff as { prepare?: (moveChecked: Promise<unknown>) => Promise<void>; claimAhead?: () => Promise<void> }
  const moveChecked = exit.move.run(undefined)
  if (handOff.prepare) await Promise.all([moveChecked, handOff.prepare(moveChecked)])
  else await moveChecked.then(() => handOff.claimAhead?.())
  await uc().handOff.run(exitWindow(1_500))
  const ms = performance.now() - started
  return { ms, sent: asked }
}

/**
 * The exit window for any tree the bench runs: an epoch-ms deadline as a number (the handoff before
 * it took an ExitWindow) that is also an ExitWindow, `left()` the ms left of it on the real clock.
 */
function exitWindow(ms: number): never {
  const deadline = Date.now() + ms
  // eslint-disable-next-line no-new-wrappers
  return Object.assign(new Number(deadline), { left: () => Math.max(0, deadline - Date.now()) }) as never
}
