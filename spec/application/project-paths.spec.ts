// Where an edited file is in the project (core/application/project-paths.ts) and what placing it asks of
// the engine: an absolute path, which is what Claude Code's edit tools give, is placed without asking the
// session folder (a round trip every edit would wait for); a relative one, or a Windows path from the root
// of the session's drive, still asks for it. The session folder, when asked, gives the same answer as before.
import * as td from 'testdouble'
import { afterEach, describe, expect, test } from 'vitest'
import { PathState, ProjectPaths } from '../../core/application/project-paths'
import { pathRules } from '../../core/domain/paths'
import type { Files } from '../../core/ports/files.port'
import type { SessionInfo } from '../../core/ports/session.port'

afterEach(() => td.reset())

async function placed(root: string, platform: 'linux' | 'windows', cwd: string) {
  const session = td.object<SessionInfo>()
  const files = td.object<Files>()
  td.when(session.cwd()).thenResolve(cwd)
  td.when(files.realPath(td.matchers.anything())).thenResolve(undefined)
  const paths = new ProjectPaths(new PathState(), files, session)
  await paths.settle(root, pathRules(platform, root))
  const asked = () => td.explain(session.cwd).callCount
  return { paths, asked }
}

describe('placing an edited file in the project', () => {
  test('an absolute path is placed without asking the session folder', async () => {
    const p = await placed('/home/dev/ledger', 'linux', '/home/dev/ledger/src')
    expect(await p.paths.relative('/home/dev/ledger/src/db/schema.sql')).toBe('src/db/schema.sql')
    expect(await p.paths.relative('/home/dev/other/x.ts')).toBeUndefined()
    expect(p.asked()).toBe(0)
  })

  test('a relative path is placed against the session folder, asked for it', async () => {
    const p = await placed('/home/dev/ledger', 'linux', '/home/dev/ledger/src')
    expect(await p.paths.relative('db/schema.sql')).toBe('src/db/schema.sql')
    expect(await p.paths.relative('../../other/x.ts')).toBeUndefined()
    expect(p.asked()).toBe(2)
  })

  test('on Windows, a drive path needs no session folder; `\\x` is from the root of the session’s drive', async () => {
    const p = await placed('C:\\Work\\Ledger', 'windows', 'C:\\Work\\Ledger\\src')
    expect(await p.paths.relative('c:\\work\\ledger\\src\\db\\Q.SQL')).toBe('src/db/Q.SQL')
    expect(p.asked()).toBe(0)
    expect(await p.paths.relative('\\Work\\Ledger\\src\\a.ts')).toBe('src/a.ts')
    expect(p.asked()).toBe(1)
  })

  test('a path that cannot be placed is outside, the session folder asked once as before', async () => {
    const p = await placed('/home/dev/ledger', 'linux', '/home/dev/ledger')
    expect(await p.paths.relative('')).toBeUndefined()
    expect(await p.paths.relative('a\u0000b')).toBeUndefined()
    expect(p.asked()).toBe(2)
  })
})
