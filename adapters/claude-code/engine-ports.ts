/**
 * The bridge from the engine's `$` to the core's ports. The engine lets `$` reach only function
 * declarations, spelled `$.noun.event(...)` at every call; the function below turns `$` into
 * port objects of closures, so everything past this file is ordinary TypeScript that holds ports,
 * never `$`. Built afresh for every hook call, so each call's waits count against its own hook.
 */
import type { EngineInterface } from 'claude-code'
import { quiet } from '../../core/application/deadline'
import type { Clock } from '../../core/ports/clock.port'
import type { Files } from '../../core/ports/files.port'
import type { Host } from '../../core/ports/host.port'
import type { Platform } from '../../core/domain/paths'
import type { SessionInfo } from '../../core/ports/session.port'
import type { KeyValueStore } from '../../core/ports/store.port'
import type { HarkEndpoint } from '../hark/mcp-hark.gateway'

/** The ports one hook call gets. */
export interface EnginePorts {
  readonly store: KeyValueStore
  readonly clock: Clock
  readonly host: Host
  readonly files: Files
  readonly session: SessionInfo
  readonly hark: HarkEndpoint
}

/** The platforms the session reports that the plugin knows (SessionInfo.platform). */
const PLATFORMS: readonly (string | undefined)[] = ['macos', 'windows', 'wsl', 'linux']

/** Each port as closures over `$`; a failed read of a file is undefined, never a throw. */
export function enginePortsOf($: EngineInterface): EnginePorts {
  return {
    store: {
      get: (key) => $.store.get(key),
      set: (key, value) => $.store.set(key, value),
      delete: (key) => $.store.delete(key),
      keys: () => $.store.keys(),
    },
    clock: {
      now: () => $.clock.now(),
      sleep: (ms, signal) => quiet($.clock.sleep(ms, signal && { signal })),
    },
    host: {
      status: (text) => $.ui.status(text),
      log: (line) => $.ui.log(line),
      ask: (question, options) => $.ui.ask(question, { options, header: 'Hark' }),
      registerCommand: async (name, description, argumentHint) => {
        await $.command.register({ name, description, argumentHint })
      },
      refreshContext: () => $.ui.invalidate('prompt.context'),
    },
    files: {
      readText: (path) => quiet($.fs.read(path)),
      realPath: (path) => $.fs.stat(path, { resolve: true }).then(
        // The real path when it is a non-empty string, else undefined.
        (stat: { realPath?: unknown } | undefined) => (typeof stat?.realPath === 'string' && stat.realPath) || undefined,
        () => undefined,
      ),
      size: (path) => $.fs.stat(path).then(
        (stat) => (stat.kind === 'file' ? stat.size : undefined),
        () => undefined,
      ),
      readRange: (path, offset, length) => quiet($.fs.read(path, { offset, length })),
    },
    session: {
      id: () => $.session.id(),
      cwd: () => $.session.cwd(),
      startedAt: async () => (await $.session.usage()).startedAt,
      turns: () => $.session.turns(),
      engineVersion: async () => (await $.session.version()).version,
      pluginVersion: async () => {
        const text = await quiet($.fs.read(`${$.plugin.root}/.claude-plugin/plugin.json`))
        // A file that could not be read (undefined) fails the parse, as damaged JSON does.
        try {
          const version = (JSON.parse(text as string) as { version?: unknown }).version
          return typeof version === 'string' && /^[0-9A-Za-z.+-]{1,40}$/.test(version) ? version : undefined
        } catch {
          return undefined
        }
      },
      platform: async () => {
        const platform = (await $.session.info()).platform
        return PLATFORMS.includes(platform) ? (platform as Platform) : undefined
      },
      isPlaceholderSource: async () => (await $.env.get('CLAUDE_BG_SOURCE')) === 'spare',
    },
    // The one network call the plugin makes (SPEC.md: Every outbound request), to the one fixed URL.
    hark: {
      post: async (headers, body) => {
        const reply = await $.http.fetch('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body })
        return { status: reply.status, ok: reply.ok, headers: reply.headers, text: reply.text }
      },
    },
  }
}
