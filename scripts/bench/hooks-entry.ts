// Each hook's cost over Node-side ports, for scripts/bench-hooks.mjs: what composition costs (compose once a
// plugin load, useCases once a hook call), and a short session driven hook by hook the way
// adapters/claude-code/hooks.adapter.ts drives it, each hook with fresh ports and a fresh useCases(ports).
// A real clock, a store in memory, Hark in memory answering at once: the figures are the plugin's own work.
//
// bench-hooks.mjs bundles this one file in each tree it compares, so it uses only what a refactor of the
// composition root should keep: `compose` and the names of `UseCases` (adapters/claude-code/application.ts);
// the one place the two differ, the end of a conversation after /clear, is looked up (endConversation).
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import type { EnginePorts } from '../../adapters/claude-code/engine-ports'

const KEY = 'hark_bench_key_0123456789'
const ROOT = '/bench/project'
const OPTIONS = { access_key: KEY }

/** One plugin load's world: the store, Hark, and what the host was asked and told. */
class World {
  readonly data = new Map<string, unknown>()
  readonly hark = new InMemoryHark(undefined, KEY)
  readonly sent: string[] = []
  readonly logged: string[] = []
  asked = 0
  /** The engine calls made since `counting` was last reset, by port and method (each is a hop in the engine). */
  counting = new Map<string, number>()

  constructor(private readonly hops = false) {}

  /**
   * `ports` with every method counted into `counting`; with `hops`, each call that the engine answers
   * asynchronously answers a macrotask later, as a hop to the engine and back does (so a wait on it
   * is not settled at once, and a bounded wait starts its timer as in the engine).
   */
  private counted(ports: EnginePorts): EnginePorts {
    const sync = new Set(['host.status', 'host.log', 'host.refreshContext', 'clock.sleep'])
    const out: Record<string, Record<string, unknown>> = {}
    for (const [port, methods] of Object.entries(ports) as [string, Record<string, unknown>][]) {
      out[port] = {}
      for (const [name, method] of Object.entries(methods)) {
        out[port][name] =
          typeof method !== 'function'
            ? method
            : (...args: unknown[]) => {
                const id = `${port}.${name}`
                this.counting.set(id, (this.counting.get(id) ?? 0) + 1)
                const call = () => (method as (...a: unknown[]) => unknown)(...args)
                return this.hops && !sync.has(id) ? new Promise((done) => setImmediate(done)).then(call) : call()
              }
      }
    }
    return out as unknown as EnginePorts
  }

  /** The ports of one hook call, built afresh as enginePortsOf($) builds them. */
  ports(): EnginePorts {
    return this.counted(this.plainPorts())
  }

  private plainPorts(): EnginePorts {
    const data = this.data
    return {
      store: {
        get: async (k) => data.get(k),
        set: async (k, v) => void data.set(k, JSON.parse(JSON.stringify(v))),
        delete: async (k) => void data.delete(k),
        keys: async () => [...data.keys()],
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
      host: {
        status: () => undefined,
        log: (line) => void this.logged.push(line),
        ask: async () => {
          this.asked++
          return 'Allow'
        },
        registerCommand: async () => undefined,
        refreshContext: () => undefined,
      },
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
          const request = JSON.parse(body) as { method?: string; params?: { name?: string } }
          this.sent.push(String(request.params?.name ?? request.method))
          return this.hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body })
        },
      },
    }
  }
}

const micros = (ms: number) => ms * 1_000

/** µs each of `n` compose(options), one plugin load each. */
export function composeTimes(n: number): number[] {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    compose(OPTIONS)
    out.push(micros(performance.now() - started))
  }
  return out
}

/** µs each of `n` useCases(ports) on one load, each over a hook call's fresh ports (built outside the timing). */
export function useCasesTimes(n: number): number[] {
  const world = new World()
  const app = compose(OPTIONS)
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const ports = world.ports()
    const started = performance.now()
    app.useCases(ports)
    out.push(micros(performance.now() - started))
  }
  return out
}

export interface SessionFigures {
  /** Per hook, in the order run: its name and ms, useCases(ports) included, as the adapter pays it. */
  readonly hooks: [string, number][]
  /** What Hark was asked, the guard's questions, and the host's log lines (a failure shows there). */
  readonly sent: string[]
  readonly asked: number
  readonly logged: string[]
  /** Per hook, in the order run: the engine calls made before it settled, and those its background work made after. */
  readonly calls: [string, Map<string, number>, Map<string, number>][]
}

/**
 * After /clear, the conversation ends the way the tree's hooks adapter ends it: `app.endConversation()`
 * where the composition root offers it (since the lifetimes refactor), else `start.reset()` (before it).
 */
function endConversation(app: ReturnType<typeof compose>, cases: ReturnType<ReturnType<typeof compose>['useCases']>): void {
  const load = app as { endConversation?: () => void }
  if (typeof load.endConversation === 'function') load.endConversation()
  else (cases.start as unknown as { reset(): void }).reset()
}

/**
 * What the hooks adapter does before the use case of a hook that may come first: wait for the start
 * (`forPerson` for a prompt, where the tree has it). Before the lifetimes refactor the use cases waited
 * themselves, and this is a no-op there (already started).
 */
async function started(cases: ReturnType<ReturnType<typeof compose>['useCases']>, person = false): Promise<void> {
  const start = cases.start as unknown as { forPerson?: () => Promise<void>; ensureStarted(): Promise<void> }
  if (person && typeof start.forPerson === 'function') await start.forPerson()
  else await start.ensureStarted()
}

/** One plugin load and one short session, hook by hook, each driven as the tree's hooks adapter drives it. */
export async function sessionOnce(hops = false): Promise<SessionFigures> {
  const world = new World(hops)
  const app = compose(OPTIONS)
  const uc = () => app.useCases(world.ports())
  const hooks: [string, number][] = []
  const calls: SessionFigures['calls'][number][] = []
  const hook = async (name: string, run: () => Promise<unknown>) => {
    world.counting = new Map()
    const started = performance.now()
    await run()
    hooks.push([name, performance.now() - started])
    const inside = world.counting
    // What the hook left running (a save the hook did not wait for) makes its calls in the next turns.
    world.counting = new Map()
    for (let i = 0; i < 5; i++) await new Promise((done) => setTimeout(done, 0))
    calls.push([name, inside, world.counting])
  }
  await hook('session.start', () => uc().start.onSessionStart(ROOT))
  await hook('prompt.submit', async () => {
    const cases = uc()
    await started(cases, true)
    await cases.prompt.run()
  })
  await hook('prompt.context', async () => {
    const cases = uc()
    await started(cases)
    await cases.context.blocks([{ name: 'engine', text: 'Below.' }])
  })
  await hook('tool.call Edit, guarded (before, after)', async () => {
    const cases = uc()
    await started(cases)
    const verdict = await cases.guard.before(`${ROOT}/src/db/queries.sql`)
    if (!verdict.go) throw new Error('the guard stopped the edit')
    // As the hooks adapter does: the after part takes the path the before part placed (older trees ignore it).
    await uc().guard.after(`${ROOT}/src/db/queries.sql`, verdict.placed)
  })
  await hook('tool.call Edit, unguarded (before, after)', async () => {
    const cases = uc()
    await started(cases)
    const verdict = await cases.guard.before(`${ROOT}/src/report.ts`)
    await uc().guard.after(`${ROOT}/src/report.ts`, verdict.go ? verdict.placed : undefined)
  })
  await hook('tool.call Bash npm test', async () => {
    const cases = uc()
    await started(cases)
    await cases.work.bash({ command: 'npm test', failed: false })
  })
  await hook('turn.complete', () => uc().work.notes('Done: the report export.\n\n## Next steps\n- the rounding in deposits'))
  await hook('classic.SessionEnd', async () => {
    // As hooks.adapter.ts: the move check, and beside it the read and the claim ahead (`prepare`; trees before
    // it check the move, then call `claimAhead`).
    const cases = uc() as ReturnType<typeof uc> & { handOff: { prepare?: (moveChecked: Promise<unknown>) => Promise<void>; claimAhead?: () => Promise<void> } }
    const moveChecked = cases.move.run(`${ROOT}/.claude/transcript.jsonl`)
    if (cases.handOff.prepare) await Promise.all([moveChecked, cases.handOff.prepare(moveChecked)])
    else await moveChecked.then(() => cases.handOff.claimAhead?.())
  })
  await hook('session.end (clear)', async () => {
    const cases = uc()
    await cases.handOff.run(exitWindow(1_500))
    endConversation(app, cases)
  })
  return { hooks, sent: world.sent, asked: world.asked, logged: world.logged, calls }
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
