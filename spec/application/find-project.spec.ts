// Finding the project file at the start (SPEC.md, Setup 1): every place is asked for at once, the nearest
// that names a project wins, and the start goes on once it and every nearer place have answered, however
// long a place further up takes (a network mount).
import { describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import type { Platform } from '../../core/domain/paths'
import type { Files } from '../../core/ports/files.port'
import { memoryPorts } from '../memory-ports'

const KEY = 'hark_pat_find_Qz81vLx0Pw3'
const NOW = 1_767_000_000_000

/** A start in `cwd` over `read` (a path's text, undefined, or a promise that may never settle). */
async function startIn(cwd: string, read: (path: string) => Promise<string | undefined>, platform: Platform = 'linux') {
  const hark = new InMemoryHark(undefined, KEY)
  const said: string[] = []
  const asked: string[] = []
  const base = memoryPorts({ data: new Map(), root: cwd, now: NOW, said, post: async (headers, body) => hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body }) })
  const files: Files = { ...base.files, readText: (path) => (asked.push(path), read(path)) }
  const uc = compose({ access_key: KEY }).useCases({ ...base, files, session: { ...base.session, platform: async () => platform } })
  await uc.start.onSessionStart(cwd)
  await uc.start.ensureStarted()
  return { hark, said, asked }
}

const never = () => new Promise<undefined>(() => undefined)

describe('the project file', () => {
  test('in the session folder: found while a place further up never answers', async () => {
    const w = await startIn('/home/u/work/shop/pkg', async (p) => (p === '/home/u/work/shop/pkg/.hark/project' ? 'V-012\n' : never()))
    expect(w.hark.callsTo('get_agent_brief')[0]?.arguments['venture']).toBe('V-012')
    expect(w.asked).toContain('/.hark') // asked at once, up to the root
  })

  test('further up: found once every nearer place has answered that it has none', async () => {
    const w = await startIn('/home/u/work/shop/pkg', async (p) => (p === '/home/u/work/shop/.hark' ? 'venture=V-077\n' : p.startsWith('/home/u/work/') ? undefined : never()))
    expect(w.hark.callsTo('get_agent_brief')[0]?.arguments['venture']).toBe('V-077')
  })

  test('the nearest that names a project wins; one that names none is passed over with one log line', async () => {
    const files: Record<string, string> = { '/a/b/c/.hark/project': '# nothing here\n', '/a/b/.hark': 'venture=V-001\n', '/a/.hark/project': 'V-002\n' }
    const w = await startIn('/a/b/c', async (p) => files[p])
    expect(w.hark.callsTo('get_agent_brief')[0]?.arguments['venture']).toBe('V-001')
    expect(w.said.filter((l) => l.includes('names no project code'))).toEqual([expect.stringContaining('/a/b/c/.hark/project')])
  })

  test('on Windows (C:\\…, backslashes, any case): the nearer places answer, the drive root never does', async () => {
    const w = await startIn('C:\\Work\\Shop\\pkg', async (p) => (/^c:[\\/]work[\\/]shop[\\/]\.hark$/i.test(p) ? 'venture=V-077\n' : /^c:[\\/]work/i.test(p) ? undefined : never()), 'windows')
    expect(w.hark.callsTo('get_agent_brief')[0]?.arguments['venture']).toBe('V-077')
    expect(w.asked.some((p) => /^c:[\\/]\.hark/i.test(p))).toBe(true) // asked at once, up to the drive's root
  })

  test('on macOS (/private/tmp as /tmp gives it): found in the session folder while the volume root never answers', async () => {
    const w = await startIn('/private/tmp/shop', async (p) => (p === '/private/tmp/shop/.hark/project' ? 'V-012\n' : p.startsWith('/private/tmp/') ? undefined : never()), 'macos')
    expect(w.hark.callsTo('get_agent_brief')[0]?.arguments['venture']).toBe('V-012')
  })
})
