// Whole sessions on every platform Claude Code runs on (SPEC.md: Setup 1, The edit guard, The
// handoff; docs/guard.md, "Paths"): a Windows world (drive paths with `\` or `/`, case ignored, other drives
// and network shares outside), a macOS world (`/tmp` → `/private/tmp`, `/var` → `/private/var`, NFC and
// NFD names, case ignored, a symlinked checkout) and Linux (case kept). The worlds: tests/world.ts, options
// `platform` and `links`. V-012's decisions (fake Hark seed): d-1 "Raw SQL, no ORM (scope: src/db/**)",
// d-2 "Migrations are plain .sql files" (paths *.sql), d-3 "Billing rounds half-even" (area billing).
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { Conversation, createWorld, hark, KEY, PROJECT, startSession, type World, type WorldOptions } from './world'

const options = { access_key: KEY }
const T = { options, timeoutMs: 30_000 } as const
const MINUTE = 60_000

const edit = (file_path: string) => ({ tool: 'Edit', file_path, old_string: 'a', new_string: 'EDITED_TEXT' }) as const
const end = ($: Engine) => $.session.end({ reason: 'other', sessionId: 'sess', resume: { id: 'sess' } })
const denied = (out: unknown) => typeof out === 'object' && out !== null && 'deny' in out && (out as { deny?: unknown }).deny !== undefined
const handoff = (world: World) => {
  const calls = world.hark.callsTo('end_session')
  expect(calls).toHaveLength(1)
  return calls[0]!.arguments as Record<string, unknown>
}
const ids = (world: World) => world.hark.calls.map((c) => String(c.meta['conversation']))
const everything = (world: World) => world.hark.calls.map((c) => c.body).join('\n')

// ---------------------------------------------------------------------------------------------- Windows

const WIN_ROOT = 'C:\\Work\\Shop'
const WIN_CWD = 'C:\\Work\\Shop\\packages\\api'
const WIN_FILES: Record<string, string> = {
  [`${WIN_ROOT}\\.hark\\project`]: 'V-012\n',
  [`${WIN_ROOT}\\src\\db\\q.sql`]: 'select 1;\n',
  [`${WIN_ROOT}\\src\\Billing\\Deposit.ts`]: 'export {}\n',
  [`${WIN_ROOT}\\packages\\api\\index.ts`]: 'export {}\n',
}
const windows = (extra: WorldOptions = {}): WorldOptions => ({ platform: 'windows', cwd: WIN_CWD, files: { ...WIN_FILES }, ...extra })

describe('Windows: session folder C:\\Work\\Shop\\packages\\api, .hark\\project at C:\\Work\\Shop', () => {
  test('the project file is found from the subfolder; the guard asks with the record’s title and why, for `\\` and odd-case spellings', T, async ($, on) => {
    const world = createWorld(on, windows({ answer: 'Stop' }))
    await startSession($, WIN_CWD)
    // Found two folders up: the brief was asked for V-012.
    const brief = world.hark.callsTo('get_agent_brief')
    expect(brief).toHaveLength(1)
    expect(brief[0]!.arguments['venture']).toBe('V-012')
    expect(world.fileReads.some((p) => /^C:[\\/]Work[\\/]Shop[\\/]\.hark[\\/]project$/.test(p))).toBe(true)

    expect(denied(await $.tool.call(edit(`${WIN_ROOT}\\src\\db\\q.sql`)))).toBe(true)
    expect(world.questions).toHaveLength(1)
    expect(world.questions[0]!.question).toContain('src/db/q.sql')
    expect(world.questions[0]!.question).toContain('Raw SQL, no ORM')
    expect(world.questions[0]!.question).toContain('Queries stay visible and fast.')
    expect(world.questions[0]!.question).toContain('Migrations are plain .sql files')

    // The same file in another case, drive letter lower-case: the same records ask again (Stop was answered).
    expect(denied(await $.tool.call(edit('c:\\WORK\\shop\\SRC\\DB\\Q.SQL')))).toBe(true)
    expect(world.questions).toHaveLength(2)
    expect(world.questions[1]!.question).toContain('Raw SQL, no ORM')
    expect(world.questions[1]!.question).toContain('Migrations are plain .sql files')

    // A new file, first seen in odd case: globs ignore case (docs/guard.md), so both records ask.
    expect(denied(await $.tool.call({ tool: 'Write', file_path: 'c:/work/SHOP\\Src\\Db\\New.SQL', content: 'EDITED_TEXT' }))).toBe(true)
    expect(world.questions).toHaveLength(3)
    expect(world.questions[2]!.question).toContain('New.SQL')
    expect(world.questions[2]!.question).toContain('Raw SQL, no ORM')
    expect(world.questions[2]!.question).toContain('Migrations are plain .sql files')

    // The billing area, reached by a relative path with backslashes from the session folder.
    expect(denied(await $.tool.call(edit('..\\..\\src\\Billing\\Deposit.ts')))).toBe(true)
    expect(world.questions).toHaveLength(4)
    expect(world.questions[3]!.question).toContain('src/Billing/Deposit.ts')
    expect(world.questions[3]!.question).toContain('Billing rounds half-even')
    expect(world.questions[3]!.question).toContain('Matches the bank.')
    expect(world.questions[3]!.question).not.toContain('Raw SQL')
    expect(world.logs).toEqual([])
  })

  test('one file, one entry whatever its spelling; another drive, a share and a device path are outside; the handoff', T, async ($, on) => {
    const world = createWorld(on, windows())
    await startSession($, WIN_CWD)
    await $.tool.call(edit(`${WIN_ROOT}\\src\\db\\q.sql`))
    expect(world.questions).toHaveLength(1)
    await $.tool.call(edit('C:/Work/Shop/src/db/q.sql'))
    await $.tool.call(edit('c:\\WORK\\shop\\src\\db\\Q.SQL'))
    await $.tool.call({ tool: 'Write', file_path: 'C:\\Work/Shop\\src/db\\q.sql', content: 'EDITED_TEXT' })
    // Allow was remembered for those records: no more questions for the same file.
    expect(world.questions).toHaveLength(1)
    await $.tool.call(edit('..\\..\\src\\Billing\\Deposit.ts'))
    expect(world.questions).toHaveLength(2)
    expect(world.questions[1]!.question).toContain('Billing rounds half-even')
    // Outside: not asked, not recorded, no log line.
    for (const path of ['D:\\Other\\x.sql', 'D:/Other/billing/x.ts', '\\\\server\\share\\src\\db\\x.sql', '//server/share/x.sql', '\\\\?\\C:\\Work\\Shop\\src\\db\\y.sql', 'D:src\\db\\z.sql']) {
      const out = await $.tool.call(edit(path))
      expect(denied(out)).toBe(false)
    }
    expect(world.questions).toHaveLength(2)
    expect(world.logs).toEqual([])
    // A network or device path costs no file-system call.
    expect(world.stats.filter((s) => s.path.includes('server') || s.path.includes('?'))).toEqual([])

    await end($)
    const args = handoff(world)
    expect(args['what_changed']).toBe('edited src/db/q.sql\nedited src/Billing/Deposit.ts')
    expect(String(args['what_i_did'])).toContain('Edited 2 files')
    const sent = everything(world)
    for (const outside of ['Other', 'server', 'share', 'y.sql', 'z.sql', 'Q.SQL']) expect(sent).not.toContain(outside)
  })
})

describe('Windows: a second process of the conversation reports the root as c:\\work\\shop', () => {
  const conv = new Conversation()
  let firstId = ''
  test('process one (session folder C:\\Work\\Shop\\packages\\api) fetches the brief and edits src\\db\\q.sql', T, async ($, on) => {
    const world = conv.process(on, windows({ sessionId: 'win-one' }))
    await startSession($, WIN_CWD)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    firstId = ids(world)[0]!
    expect(firstId).toMatch(/^[0-9a-f]{32}$/)
    await $.tool.call(edit(`${WIN_ROOT}\\src\\db\\q.sql`))
    expect(world.questions).toHaveLength(1)
    await world.clock.settle()
  })
  test('process two (same launch time, folder c:\\work\\shop): same conversation, brief reused, one handoff of both processes’ edits', T, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, windows({ sessionId: 'win-two', cwd: 'c:\\work\\shop' }))
    await startSession($, 'c:\\work\\shop')
    // The brief cached by process one is reused: nothing asked of Hark at start.
    expect(world.hark.callsTo('get_agent_brief')).toEqual([])
    // The Allow answer carries over, also for the file spelled in another case.
    await $.tool.call(edit('c:\\work\\shop\\SRC\\DB\\Q.SQL'))
    expect(world.questions).toEqual([])
    await $.tool.call(edit('src\\Billing\\Deposit.ts'))
    expect(world.questions).toHaveLength(1)
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/q.sql\nedited src/Billing/Deposit.ts')
    expect(new Set(ids(world))).toEqual(new Set([firstId]))
  })
})

// ----------------------------------------------------------------------------------------------- macOS

const MAC_LINKS = { '/tmp': '/private/tmp', '/var': '/private/var' }
const MAC_ROOT = '/private/tmp/shop'
const NFC = 'caf\u00e9'
const NFD = 'cafe\u0301'
const MAC_FILES: Record<string, string> = {
  [`${MAC_ROOT}/.hark/project`]: 'V-012\n',
  [`${MAC_ROOT}/src/db/q.sql`]: 'select 1;\n',
  [`${MAC_ROOT}/src/billing/deposit.ts`]: 'export {}\n',
  [`${MAC_ROOT}/src/${NFD}.ts`]: 'export {}\n',
  [`${MAC_ROOT}/src/x.ts`]: 'export {}\n',
}
const macos = (extra: WorldOptions = {}): WorldOptions => ({ platform: 'macos', links: MAC_LINKS, cwd: MAC_ROOT, files: { ...MAC_FILES }, ...extra })

describe('macOS: /tmp → /private/tmp, /var → /private/var, case and Unicode form ignored', () => {
  test('the root is found under /private/tmp; edits through /tmp/… and /var/../… land inside: guarded and recorded', T, async ($, on) => {
    const world = createWorld(on, macos({ answer: 'Stop' }))
    await startSession($, MAC_ROOT)
    expect(world.hark.callsTo('get_agent_brief')[0]?.arguments['venture']).toBe('V-012')
    expect(denied(await $.tool.call(edit('/tmp/shop/src/db/q.sql')))).toBe(true)
    expect(world.questions).toHaveLength(1)
    expect(world.questions[0]!.question).toContain('src/db/q.sql')
    expect(world.questions[0]!.question).toContain('Raw SQL, no ORM')
    expect(world.questions[0]!.question).toContain('Queries stay visible and fast.')
    expect(denied(await $.tool.call(edit('/var/../private/tmp/shop/src/billing/deposit.ts')))).toBe(true)
    expect(world.questions).toHaveLength(2)
    expect(world.questions[1]!.question).toContain('Billing rounds half-even')
    // Asked again through the link: the folder is resolved once for the conversation.
    await $.tool.call(edit('/tmp/shop/src/db/q.sql'))
    expect(world.questions).toHaveLength(3)
    expect(world.stats.filter((s) => s.path === '/tmp/shop/src/db')).toEqual([{ path: '/tmp/shop/src/db', resolve: true }])
    expect(world.logs).toEqual([])
  })

  test('recorded once per file: /tmp and /private/tmp spellings, NFC and NFD names, the root in another case', T, async ($, on) => {
    const world = createWorld(on, macos())
    await startSession($, MAC_ROOT)
    await $.tool.call(edit('/tmp/shop/src/db/q.sql'))
    await $.tool.call(edit(`${MAC_ROOT}/src/db/q.sql`))
    await $.tool.call(edit('/var/../private/tmp/shop/src/billing/deposit.ts'))
    // Decomposed first (as HFS+ gives names), then precomposed: one file, stored and sent in NFC.
    await $.tool.call(edit(`${MAC_ROOT}/src/${NFD}.ts`))
    await $.tool.call(edit(`${MAC_ROOT}/src/${NFC}.ts`))
    await $.tool.call(edit(`/tmp/shop/src/${NFD}.ts`))
    await $.tool.call(edit('/private/tmp/Shop/src/x.ts'))
    await $.tool.call(edit('/PRIVATE/TMP/SHOP/SRC/X.TS'))
    // Outside: a sibling folder through the link, and one that does not exist.
    await $.tool.call(edit('/tmp/shopping/src/db/q.sql'))
    await $.tool.call(edit('/var/folders/zz/T/other.sql'))
    await end($)
    const args = handoff(world)
    expect(args['what_changed']).toBe(['edited src/db/q.sql', 'edited src/billing/deposit.ts', `edited src/${NFC}.ts`, 'edited src/x.ts'].join('\n'))
    expect(String(args['what_i_did'])).toContain('Edited 4 files')
    expect(everything(world)).not.toContain(NFD)
    expect(everything(world)).not.toContain('shopping')
    expect(everything(world)).not.toContain('other.sql')
    expect(world.logs).toEqual([])
  })

  test('a project under /private/var found from the session folder, edits reported through /var', T, async ($, on) => {
    const root = '/private/var/folders/xy/T/shop'
    const world = createWorld(on, macos({ cwd: `${root}/packages/web`, files: { [`${root}/.hark/project`]: 'V-012\n', [`${root}/src/db/q.sql`]: '', [`${root}/packages/web/a.ts`]: '' } }))
    await startSession($, `${root}/packages/web`)
    await $.tool.call(edit('/var/folders/xy/T/shop/src/db/q.sql'))
    expect(world.questions).toHaveLength(1)
    expect(world.questions[0]!.question).toContain('Raw SQL, no ORM')
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/q.sql')
  })

  test('a symlinked checkout: session folder /Users/dev/work/shop → /Volumes/Data/shop, edits reported through the real path', T, async ($, on) => {
    const real = '/Volumes/Data/shop'
    const world = createWorld(
      on,
      macos({
        cwd: '/Users/dev/work/shop',
        links: { ...MAC_LINKS, '/Users/dev/work/shop': real },
        files: { [`${real}/.hark/project`]: 'V-012\n', [`${real}/src/db/q.sql`]: '', [`${real}/src/app.ts`]: '' },
      }),
    )
    await startSession($, '/Users/dev/work/shop')
    expect(world.hark.callsTo('get_agent_brief')[0]?.arguments['venture']).toBe('V-012')
    await $.tool.call(edit(`${real}/src/db/q.sql`))
    expect(world.questions).toHaveLength(1)
    expect(world.questions[0]!.question).toContain('Raw SQL, no ORM')
    await $.tool.call(edit('/Users/dev/work/shop/src/db/q.sql'))
    await $.tool.call(edit('/Users/dev/work/shop/src/app.ts'))
    await $.tool.call(edit('/Volumes/Data/shop2/src/app.ts'))
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/q.sql\nedited src/app.ts')
    expect(everything(world)).not.toContain('Volumes')
    expect(everything(world)).not.toContain('/Users/')
  })
})

describe('macOS: a second process that reports the root through /tmp shares the conversation', () => {
  const conv = new Conversation()
  let firstId = ''
  test('process one (session folder /private/tmp/shop) edits src/db/q.sql', T, async ($, on) => {
    const world = conv.process(on, macos({ sessionId: 'mac-one' }))
    await startSession($, MAC_ROOT)
    firstId = ids(world)[0]!
    expect(firstId).toMatch(/^[0-9a-f]{32}$/)
    await $.tool.call(edit(`${MAC_ROOT}/src/db/q.sql`))
    expect(world.questions).toHaveLength(1)
  })
  test('process two (same launch time, folder /tmp/Shop): same conversation id, brief reused, one handoff of both', T, async ($, on) => {
    conv.pass(MINUTE)
    const world = conv.process(on, macos({ sessionId: 'mac-two', cwd: '/tmp/Shop' }))
    await startSession($, '/tmp/Shop')
    expect(world.hark.callsTo('get_agent_brief')).toEqual([])
    await $.tool.call(edit('/tmp/Shop/src/db/q.sql'))
    expect(world.questions).toEqual([])
    await $.tool.call(edit('/tmp/Shop/src/x.ts'))
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/q.sql\nedited src/x.ts')
    expect(new Set(ids(world))).toEqual(new Set([firstId]))
  })
})

// ----------------------------------------------------------------------------------------------- Linux

describe('Linux keeps case', () => {
  test('SRC/x.ts and src/x.ts are two files; the root in another case is outside', T, async ($, on) => {
    const world = createWorld(on, { platform: 'linux', files: { [`${PROJECT}/.hark/project`]: 'V-012\n', [`${PROJECT}/src/x.ts`]: '', [`${PROJECT}/SRC/x.ts`]: '' } })
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/SRC/x.ts`))
    await $.tool.call(edit('src/x.ts'))
    await $.tool.call(edit('/home/dev/Ledger/src/y.ts'))
    await end($)
    const args = handoff(world)
    expect(args['what_changed']).toBe('edited SRC/x.ts\nedited src/x.ts')
    expect(String(args['what_i_did'])).toContain('Edited 2 files')
    expect(everything(world)).not.toContain('y.ts')
  })
})

describe('a Write into new folders through a link, a folder named in NFD', () => {
  test('macOS: a Write into folders not there yet, reached through /tmp, is guarded and recorded', T, async ($, on) => {
    const world = createWorld(on, macos({ answer: 'Allow' }))
    await startSession($, MAC_ROOT)
    await $.tool.call({ tool: 'Write', file_path: '/tmp/shop/src/db/migrations/2026/001.sql', content: 'create table t();' })
    expect(world.questions).toHaveLength(1)
    expect(world.questions[0]!.question).toContain('Raw SQL, no ORM')
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/migrations/2026/001.sql')
  })

  test('Linux: a project folder whose name is decomposed (NFD, copied from a Mac) is found and its files are inside', T, async ($, on) => {
    const root = '/home/dev/cafe\u0301'
    const world = createWorld(on, { platform: 'linux', cwd: root, files: { [`${root}/.hark/project`]: 'V-012\n', [`${root}/src/db/q.sql`]: '' } })
    await startSession($, root)
    expect(world.hark.callsTo('get_agent_brief')).toHaveLength(1)
    await $.tool.call(edit(`${root}/src/db/q.sql`))
    expect(world.questions).toHaveLength(1)
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/q.sql')
  })
})

describe('network shares, file streams, shared folder look-ups, names the handoff cannot carry', () => {
  test('Windows: a session in a network share is told apart from a folder without a project file; nothing is sent', T, async ($, on) => {
    const world = createWorld(on, windows({ cwd: '\\\\nas\\dev\\shop', files: { '\\\\nas\\dev\\shop\\.hark\\project': 'V-012\n' } }))
    await startSession($, '\\\\nas\\dev\\shop')
    expect(world.logs).toHaveLength(1)
    expect(world.logs[0]).toContain('network share')
    const out = await hark($, '')
    expect(out.text).toContain('drive letter')
    expect(out.text).not.toContain('No Hark project file')
    expect(world.hark.calls).toEqual([])
    expect(world.fileReads).toEqual([])
  })

  test('Windows: a stream of a guarded file (q.sql::$DATA, q.sql:notes) is the file: asked, recorded as src/db/q.sql', T, async ($, on) => {
    const world = createWorld(on, windows({ answer: 'Allow' }))
    await startSession($, WIN_CWD)
    await $.tool.call(edit(`${WIN_ROOT}\\src\\db\\q.sql::$DATA`))
    expect(world.questions).toHaveLength(1)
    await $.tool.call(edit(`${WIN_ROOT}\\src\\db\\q.sql:notes`))
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/q.sql')
  })

  test('macOS: edits running in parallel through /tmp share one look-up of their folder', T, async ($, on) => {
    const world = createWorld(on, macos())
    await startSession($, MAC_ROOT)
    const before = world.stats.length
    await Promise.all(['a', 'b', 'c'].map((n) => $.tool.call(edit(`/tmp/shop/src/${n}.ts`))))
    const asked = world.stats.slice(before).filter((s) => s.resolve && /\/src$/.test(s.path))
    expect(asked).toHaveLength(1)
  })

  test('macOS: a Write deeper into folders a first Write made is still placed (a folder that led nowhere is asked again)', T, async ($, on) => {
    const world = createWorld(on, macos({ answer: 'Allow' }))
    await startSession($, MAC_ROOT)
    await $.tool.call({ tool: 'Write', file_path: '/tmp/shop/src/db/new/index.sql', content: 'x' })
    // The world learns the file the first Write made, as a disk would.
    world.files.set('/private/tmp/shop/src/db/new/index.sql', 'x')
    await $.tool.call({ tool: 'Write', file_path: '/tmp/shop/src/db/new/a/b/c/x.sql', content: 'y' })
    await end($)
    expect(handoff(world)['what_changed']).toBe('edited src/db/new/index.sql\nedited src/db/new/a/b/c/x.sql')
  })

  test('Linux: a name the handoff cannot carry (a backslash in it) is guarded, but neither recorded nor claimed as work', T, async ($, on) => {
    const world = createWorld(on, { platform: 'linux', answer: 'Allow' })
    await startSession($)
    await $.tool.call(edit(`${PROJECT}/src/db/a\\b.sql`))
    expect(world.questions).toHaveLength(1)
    await end($)
    expect(world.hark.callsTo('end_session')).toEqual([])
    expect(world.hark.callsTo('close_session')).toHaveLength(1)
  })
})
