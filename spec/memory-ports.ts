// The engine's ports for a whole plugin driven in Node (composition root and use cases, no engine): a store
// over a Map, a clock standing at `now` whose waits end only when aborted, a host that writes what it is told
// into `said`, the project file `<root>/.hark/project` holding V-012, a Linux session at `root`, and Hark
// behind `post`. Shared by specs that drive `compose(options).useCases(ports)` as the hooks adapter does.
// (The benchmark entries under scripts/bench keep their own: `--against` bundles them in older trees.)
import type { EnginePorts } from '../adapters/claude-code/engine-ports'
import type { HarkEndpoint } from '../adapters/hark/mcp-hark.gateway'

export interface MemoryPortsOptions {
  readonly data: Map<string, unknown>
  readonly root: string
  readonly now: number
  /** `status: <text>` and `log: <line>`, in order. */
  readonly said: string[]
  readonly post: HarkEndpoint['post']
}

export function memoryPorts(o: MemoryPortsOptions): EnginePorts {
  const { data, root, now, said } = o
  return {
    store: {
      get: async (k) => data.get(k),
      set: async (k, v) => void data.set(k, JSON.parse(JSON.stringify(v))),
      delete: async (k) => void data.delete(k),
      keys: async () => [...data.keys()],
    },
    clock: { now: async () => now, sleep: (_ms, signal) => new Promise((done) => signal?.addEventListener('abort', () => done())) },
    host: {
      status: (text) => void said.push(`status: ${text}`),
      log: (line) => void said.push(`log: ${line}`),
      ask: async () => 'Allow',
      registerCommand: async () => undefined,
      refreshContext: () => undefined,
    },
    files: { readText: async (p) => (p === `${root}/.hark/project` ? 'V-012\n' : undefined), size: async () => undefined, realPath: async () => undefined, readRange: async () => undefined },
    session: {
      id: async () => 'spec-session',
      cwd: async () => root,
      startedAt: async () => now,
      turns: async () => 1,
      engineVersion: async () => '2.1.332',
      pluginVersion: async () => '0.2.3',
      platform: async () => 'linux' as const,
      isPlaceholderSource: async () => false,
    },
    hark: { post: o.post },
  }
}
