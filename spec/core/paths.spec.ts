import { describe, expect, test } from 'vitest'
import {
  ancestors,
  childOf,
  formatPath,
  MAX_PATH_LENGTH,
  pathKey,
  pathRules,
  placePath,
  relativePath,
  type AbsolutePath,
  type PathRules,
} from '../../core/domain/paths'

// The rules are spelled out here (not taken from pathRules) so that a fault in pathRules shows in its own table only.
const RULES = {
  windows: { windows: true, ignoreCase: true },
  macos: { windows: false, ignoreCase: true },
  linux: { windows: false, ignoreCase: false },
} as const satisfies Record<string, PathRules>
type On = keyof typeof RULES

/** The session folder on each platform in these tables. */
const CWD: Record<On, string> = {
  windows: 'C:\\Work\\Shop\\packages\\api',
  macos: '/Users/dev/shop',
  linux: '/home/dev/shop',
}

const NFD_CAFE = 'cafe\u0301.ts'
const NFC_CAFE = 'caf\u00e9.ts'

/** Where `path` lands on `on`, formatted; undefined when it cannot be placed. */
function place(on: On, path: string, cwd: string = CWD[on]): string | undefined {
  const placed = placePath(path, cwd, RULES[on])
  return placed === undefined ? undefined : formatPath(placed)
}

function placed(on: On, path: string, cwd: string = CWD[on]): AbsolutePath {
  const p = placePath(path, cwd, RULES[on])
  if (p === undefined) throw new Error(`expected ${JSON.stringify(path)} to be placed on ${on}`)
  return p
}

describe('placing a path as the engine gives it on each platform', () => {
  test.each([
    // Windows: drive paths with `\`, `/`, mixed, any case of drive letter; the root comes out `C:/`.
    ['windows', 'C:\\Work\\Shop\\src\\a.ts', 'C:/Work/Shop/src/a.ts'],
    ['windows', 'C:/Work/Shop/src/a.ts', 'C:/Work/Shop/src/a.ts'],
    ['windows', 'C:\\Work/Shop\\src/a.ts', 'C:/Work/Shop/src/a.ts'],
    ['windows', 'c:\\Work\\Shop\\src\\a.ts', 'C:/Work/Shop/src/a.ts'],
    ['windows', 'c:/Work/Shop/src/a.ts', 'C:/Work/Shop/src/a.ts'],
    ['windows', 'd:\\Data\\x.txt', 'D:/Data/x.txt'],
    ['windows', 'Z:/x', 'Z:/x'],
    ['windows', 'C:\\', 'C:/'],
    ['windows', 'c:/', 'C:/'],
    ['windows', 'C:\\Work\\\\Shop\\', 'C:/Work/Shop'],
    // Names keep their case: only the drive letter is upper-cased.
    ['windows', 'c:\\WORK\\shop\\src\\db\\Q.SQL', 'C:/WORK/shop/src/db/Q.SQL'],
    // `.` and `..`, never above the drive's root.
    ['windows', 'C:\\Work\\.\\Shop\\src\\..\\lib\\b.ts', 'C:/Work/Shop/lib/b.ts'],
    ['windows', 'C:\\..\\x', 'C:/x'],
    ['windows', 'C:/../../x', 'C:/x'],
    ['windows', 'C:\\Work\\..\\..\\..\\x', 'C:/x'],
    ['windows', 'C:\\Work\\..', 'C:/'],
    // Relative to the session folder.
    ['windows', 'src\\a.ts', 'C:/Work/Shop/packages/api/src/a.ts'],
    ['windows', 'src/a.ts', 'C:/Work/Shop/packages/api/src/a.ts'],
    ['windows', '.\\a.ts', 'C:/Work/Shop/packages/api/a.ts'],
    ['windows', '.', 'C:/Work/Shop/packages/api'],
    ['windows', '..\\..\\src\\db\\q.sql', 'C:/Work/Shop/src/db/q.sql'],
    ['windows', '../../src/db/q.sql', 'C:/Work/Shop/src/db/q.sql'],
    ['windows', '..\\..\\..\\..\\..\\..\\x', 'C:/x'],
    // From the root of the session's drive.
    ['windows', '\\x\\y.ts', 'C:/x/y.ts'],
    ['windows', '/x/y.ts', 'C:/x/y.ts'],
    ['windows', '\\..\\x', 'C:/x'],
    ['windows', '\\', 'C:/'],
    // macOS: POSIX paths; case is kept in the place (it is ignored only when comparing).
    ['macos', '/private/tmp/shop/src/db/q.sql', '/private/tmp/shop/src/db/q.sql'],
    ['macos', '/Users/Dev/Shop/A.ts', '/Users/Dev/Shop/A.ts'],
    ['macos', '/private/tmp/shop/./src/../x.ts', '/private/tmp/shop/x.ts'],
    ['macos', '/../x', '/x'],
    ['macos', '/..', '/'],
    ['macos', '/', '/'],
    ['macos', '/a//b/', '/a/b'],
    ['macos', 'src/a.ts', '/Users/dev/shop/src/a.ts'],
    ['macos', './src/a.ts', '/Users/dev/shop/src/a.ts'],
    ['macos', '../other/a.ts', '/Users/dev/other/a.ts'],
    ['macos', '../../../../../x', '/x'],
    ['macos', 'a\\b.ts', '/Users/dev/shop/a\\b.ts'],
    // Linux: POSIX paths; a backslash is an ordinary character of a name.
    ['linux', '/home/dev/shop/src/a.ts', '/home/dev/shop/src/a.ts'],
    ['linux', '/../x', '/x'],
    ['linux', '/home/dev/./shop/../x', '/home/dev/x'],
    ['linux', 'src/a.ts', '/home/dev/shop/src/a.ts'],
    ['linux', '../x', '/home/dev/x'],
    ['linux', '.', '/home/dev/shop'],
    ['linux', 'src\\a.ts', '/home/dev/shop/src\\a.ts'],
    ['linux', '..\\x', '/home/dev/shop/..\\x'],
    ['linux', 'C:\\x', '/home/dev/shop/C:\\x'],
    ['linux', '\\x', '/home/dev/shop/\\x'],
  ] as const)('%s: %j lands at %j', (on, path, expected) => {
    expect(place(on, path)).toBe(expected)
  })

  test.each([
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shop', { root: 'C:/', names: ['Work', 'Shop'] }],
    ['windows', 'c:/', 'C:\\Work', { root: 'C:/', names: [] }],
    ['windows', '\\x', 'D:\\Data\\proj', { root: 'D:/', names: ['x'] }],
    ['windows', 'src\\a.ts', 'd:\\Data', { root: 'D:/', names: ['Data', 'src', 'a.ts'] }],
    ['macos', '/private/tmp/shop', '/Users/dev', { root: '/', names: ['private', 'tmp', 'shop'] }],
    ['linux', 'src\\a.ts', '/p', { root: '/', names: ['p', 'src\\a.ts'] }],
    ['linux', '/', '/p', { root: '/', names: [] }],
  ] as const)('%s: %j against %j is taken apart as %j', (on, path, cwd, expected) => {
    expect(placePath(path, cwd, RULES[on])).toEqual(expected)
  })

  test.each([
    // Network shares and device paths: places the plugin does not try to place (core/domain/paths.ts).
    ['windows', '\\\\server\\share\\x'],
    ['windows', '//server/share/x'],
    ['windows', '\\\\server/share\\x'],
    ['windows', '\\\\server'],
    ['windows', '\\\\?\\C:\\x'],
    ['windows', '//?/C:/x'],
    ['windows', '\\\\?\\UNC\\server\\share\\x'],
    ['windows', '\\\\.\\pipe\\x'],
    ['windows', '\\\\.\\C:\\x'],
    // Drive-relative.
    ['windows', 'D:x'],
    ['windows', 'd:x\\y.ts'],
    ['windows', 'C:x'],
    ['windows', 'C:'],
    ['windows', 'D:..\\x'],
    // Empty.
    ['windows', ''],
    ['macos', ''],
    ['linux', ''],
  ] as const)('%s: %j cannot be placed', (on, path) => {
    expect(placePath(path, CWD[on], RULES[on])).toBeUndefined()
  })

  test.each([
    ['windows', 'a NUL in an absolute path', 'C:\\Work\\a\0b.ts'],
    ['windows', 'a NUL in a relative path', 'src\\a\0.ts'],
    ['windows', 'a NUL alone', '\0'],
    ['macos', 'a NUL in an absolute path', '/Users/dev/shop/a\0b.ts'],
    ['linux', 'a NUL in an absolute path', '/home/dev/shop/a\0b.ts'],
    ['linux', 'a NUL in a relative path', 'a\0b.ts'],
    ['windows', `an absolute path of ${MAX_PATH_LENGTH + 1} characters`, `C:\\${'a'.repeat(MAX_PATH_LENGTH - 2)}`],
    ['windows', `a relative path of ${MAX_PATH_LENGTH + 1} characters`, 'a'.repeat(MAX_PATH_LENGTH + 1)],
    ['macos', `an absolute path of ${MAX_PATH_LENGTH + 1} characters`, `/${'a'.repeat(MAX_PATH_LENGTH)}`],
    ['linux', `an absolute path of ${MAX_PATH_LENGTH + 1} characters`, `/${'a/'.repeat(MAX_PATH_LENGTH / 2)}`],
    ['linux', 'a path of 100,000 characters', `/${'x'.repeat(100_000)}`],
  ] as const)('%s: %s cannot be placed', (on, _what, path) => {
    expect(placePath(path, CWD[on], RULES[on])).toBeUndefined()
  })

  test('the longest path is 4,096 characters: at the limit it is placed', () => {
    expect(MAX_PATH_LENGTH).toBe(4_096)
    const windows = `C:\\${'a'.repeat(MAX_PATH_LENGTH - 3)}`
    const posix = `/${'a'.repeat(MAX_PATH_LENGTH - 1)}`
    expect(windows).toHaveLength(MAX_PATH_LENGTH)
    expect(posix).toHaveLength(MAX_PATH_LENGTH)
    expect(placePath(windows, CWD.windows, RULES.windows)).toEqual({ root: 'C:/', names: ['a'.repeat(MAX_PATH_LENGTH - 3)] })
    expect(placePath(posix, CWD.linux, RULES.linux)).toEqual({ root: '/', names: ['a'.repeat(MAX_PATH_LENGTH - 1)] })
  })

  test.each([
    // A relative or root-relative path needs a session folder that can be placed itself.
    ['windows', 'src\\a.ts', '\\\\server\\share\\proj'],
    ['windows', '\\x', '\\\\server\\share\\proj'],
    ['windows', 'src\\a.ts', '\\\\?\\C:\\Work'],
    ['windows', 'src\\a.ts', 'D:proj'],
    ['windows', 'src\\a.ts', ''],
    ['windows', 'src\\a.ts', 'C:\\Work\\a\0b'],
    ['linux', 'src/a.ts', 'relative/cwd'],
    ['linux', 'src/a.ts', ''],
  ] as const)('%s: %j against the session folder %j cannot be placed', (on, path, cwd) => {
    expect(placePath(path, cwd, RULES[on])).toBeUndefined()
  })

  test.each([
    ['windows', 'C:\\Work\\Shop\\src\\a.ts', 'C:\\Other'],
    ['windows', 'd:/Data/x', '\\\\server\\share'],
    ['macos', '/private/tmp/shop', 'not/absolute'],
    ['linux', '/home/dev/x', ''],
  ] as const)('%s: an absolute %j does not need the session folder (%j)', (on, path, cwd) => {
    expect(placePath(path, cwd, RULES[on])).toBeDefined()
  })
})

describe('names in one Unicode form (NFC)', () => {
  // Placing keeps a name as spelled, so the file system can still be asked for it (Linux and Windows keep
  // NFC and NFD names apart); what is compared, stored and sent is NFC (relativePath, pathKey below).
  test.each([
    ['windows', `C:\\Work\\Shop\\src\\${NFD_CAFE}`, `C:/Work/Shop/src/${NFD_CAFE}`],
    ['windows', `src\\${NFD_CAFE}`, `C:/Work/Shop/packages/api/src/${NFD_CAFE}`],
    ['macos', `/private/tmp/shop/${NFD_CAFE}`, `/private/tmp/shop/${NFD_CAFE}`],
    ['macos', `${NFD_CAFE}`, `/Users/dev/shop/${NFD_CAFE}`],
    ['linux', `/home/dev/shop/${NFD_CAFE}`, `/home/dev/shop/${NFD_CAFE}`],
  ] as const)('%s: %j is placed as spelled: %j', (on, path, expected) => {
    expect(place(on, path)).toBe(expected)
  })

  test('the session folder given decomposed keeps its spelling, so its project file can be read', () => {
    expect(place('linux', 'a.ts', `/home/dev/${NFD_CAFE}`)).toBe(`/home/dev/${NFD_CAFE}/a.ts`)
  })

  test.each([
    ['windows', 'C:\\Work\\Shop', `C:\\Work\\Shop\\src\\${NFD_CAFE}`, `C:\\Work\\Shop\\src\\${NFC_CAFE}`],
    ['macos', '/private/tmp/shop', `/private/tmp/shop/src/${NFD_CAFE}`, `/private/tmp/shop/src/${NFC_CAFE}`],
    ['linux', '/home/dev/shop', `/home/dev/shop/src/${NFD_CAFE}`, `/home/dev/shop/src/${NFC_CAFE}`],
  ] as const)('%s: relativePath is one path for the NFD and NFC spellings', (on, root, nfd, nfc) => {
    const r = placed(on, root)
    const fromNfd = relativePath(r, placed(on, nfd), RULES[on])
    const fromNfc = relativePath(r, placed(on, nfc), RULES[on])
    expect(fromNfd).toBe(`src/${NFC_CAFE}`)
    expect(fromNfc).toBe(fromNfd)
  })

  test.each([
    ['windows', `C:\\Work\\${NFD_CAFE}`, `C:\\Work\\${NFC_CAFE}\\a.ts`, 'a.ts'],
    ['macos', `/Users/dev/${NFD_CAFE}`, `/Users/dev/${NFC_CAFE}/a.ts`, 'a.ts'],
    ['linux', `/home/${NFC_CAFE}`, `/home/${NFD_CAFE}/a.ts`, 'a.ts'],
  ] as const)('%s: a root spelled in one form holds a file spelled in the other', (on, root, target, expected) => {
    expect(relativePath(placed(on, root), placed(on, target), RULES[on])).toBe(expected)
  })

  test.each([
    ['windows', `src/${NFD_CAFE}`, `src/${NFC_CAFE}`],
    ['macos', `src/${NFD_CAFE}`, `src/${NFC_CAFE}`],
    ['linux', `src/${NFD_CAFE}`, `src/${NFC_CAFE}`],
    ['linux', `/home/dev/${NFD_CAFE}`, `/home/dev/${NFC_CAFE}`],
  ] as const)('%s: pathKey of the NFD and NFC spellings is one key', (on, nfd, nfc) => {
    expect(nfd).not.toBe(nfc)
    expect(pathKey(nfd, RULES[on])).toBe(pathKey(nfc, RULES[on]))
  })

  test('childOf keeps the name it adds as spelled; relativePath gives it in NFC', () => {
    const child = childOf({ root: '/', names: ['p'] }, NFD_CAFE)
    expect(child).toEqual({ root: '/', names: ['p', NFD_CAFE] })
    expect(relativePath({ root: '/', names: ['p'] }, child, RULES.linux)).toBe(NFC_CAFE)
  })

  test('a root spelled in NFD contains a file spelled in NFC, and the other way round', () => {
    const nfdRoot = { root: '/', names: ['home', NFD_CAFE] }
    const nfcRoot = { root: '/', names: ['home', NFC_CAFE] }
    expect(relativePath(nfdRoot, { root: '/', names: ['home', NFC_CAFE, 'a.ts'] }, RULES.linux)).toBe('a.ts')
    expect(relativePath(nfcRoot, { root: '/', names: ['home', NFD_CAFE, 'a.ts'] }, RULES.linux)).toBe('a.ts')
  })
})

describe('relativePath: the project-relative path that is stored and sent', () => {
  test.each([
    // Inside: names joined with `/`, in the target's own spelling.
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shop\\src\\db\\q.sql', 'src/db/q.sql'],
    ['windows', 'C:\\Work\\Shop', 'C:/Work/Shop/src/db/q.sql', 'src/db/q.sql'],
    ['windows', 'C:\\Work\\Shop', 'c:\\WORK\\shop\\src\\db\\Q.SQL', 'src/db/Q.SQL'],
    ['windows', 'c:/work/shop/', 'C:\\Work\\Shop\\src\\Billing\\Deposit.ts', 'src/Billing/Deposit.ts'],
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shop\\src\\..\\lib\\a.ts', 'lib/a.ts'],
    ['windows', 'C:\\Work\\Shop', 'src\\a.ts', 'packages/api/src/a.ts'],
    ['windows', 'C:\\Work\\Shop', '..\\..\\src\\db\\q.sql', 'src/db/q.sql'],
    ['windows', 'C:\\Work\\Shop', '\\Work\\Shop\\x.ts', 'x.ts'],
    ['windows', 'C:\\', 'c:\\x\\y.ts', 'x/y.ts'],
    ['macos', '/private/tmp/shop', '/private/tmp/shop/src/db/q.sql', 'src/db/q.sql'],
    ['macos', '/private/tmp/shop', '/Private/TMP/Shop/src/Q.sql', 'src/Q.sql'],
    ['macos', '/Users/dev/shop', 'src/a.ts', 'src/a.ts'],
    ['macos', '/Users/dev', '../shop/./a.ts', 'shop/a.ts'],
    ['macos', '/', '/x/y.ts', 'x/y.ts'],
    ['linux', '/home/dev', '/home/dev/x', 'x'],
    ['linux', '/home/dev', '/home/dev/Src/A.ts', 'Src/A.ts'],
    ['linux', '/home/dev/shop', 'src\\a.ts', 'src\\a.ts'],
    ['linux', '/p/a', '/p/a/b/c', 'b/c'],
    // The root itself.
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shop', undefined],
    ['windows', 'C:\\Work\\Shop', 'c:\\work\\shop\\', undefined],
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shop\\src\\..', undefined],
    ['windows', 'C:\\', 'C:\\..', undefined],
    ['macos', '/private/tmp/shop', '/private/tmp/shop', undefined],
    ['macos', '/private/tmp/shop', '/PRIVATE/tmp/shop/', undefined],
    ['linux', '/home/dev', '/home/dev', undefined],
    ['linux', '/', '/..', undefined],
    // Outside: a sibling with a common prefix, a parent, another folder, another drive.
    ['windows', 'C:\\p\\a', 'C:\\p\\ab', undefined],
    ['windows', 'C:\\p\\a', 'C:\\p\\ab\\x.ts', undefined],
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shopping\\a.ts', undefined],
    ['windows', 'C:\\Work\\Shop', 'C:\\Work', undefined],
    ['windows', 'C:\\Work\\Shop', 'C:\\', undefined],
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shop\\..\\Other\\a.ts', undefined],
    ['windows', 'C:\\Work', 'D:\\x', undefined],
    ['windows', 'C:\\Work\\Shop', 'D:\\Work\\Shop\\a.ts', undefined],
    ['windows', 'C:\\Work\\Shop', 'd:/Work/Shop/a.ts', undefined],
    ['windows', 'C:\\Work\\Shop', '\\Other\\a.ts', undefined],
    ['macos', '/p/a', '/p/ab', undefined],
    ['macos', '/p/a', '/p/ab/x.ts', undefined],
    ['macos', '/private/tmp/shop', '/private/tmp', undefined],
    ['macos', '/private/tmp/shop', '/private/tmp/shop/../other/a.ts', undefined],
    ['macos', '/Users/dev/shop', '../other/a.ts', undefined],
    ['linux', '/p/a', '/p/ab', undefined],
    ['linux', '/p/a', '/p/ab/x.ts', undefined],
    ['linux', '/home/dev', '/home', undefined],
    ['linux', '/home/dev', '/', undefined],
    ['linux', '/home/dev', '/home/dev/../etc/passwd', undefined],
    // Case: ignored on Windows and macOS, kept on Linux.
    ['linux', '/home/dev', '/home/Dev/x', undefined],
    ['linux', '/home/dev', '/HOME/dev/x', undefined],
  ] as const)('%s: under the root %j, %j is %j', (on, root, target, expected) => {
    expect(relativePath(placed(on, root), placed(on, target), RULES[on])).toBe(expected)
  })

  test('the path is in the target\'s spelling, not the root\'s', () => {
    const root = placed('windows', 'c:\\work\\shop')
    expect(relativePath(root, placed('windows', 'C:\\WORK\\SHOP\\Src\\Db\\Q.sql'), RULES.windows)).toBe('Src/Db/Q.sql')
  })

  test.each([
    ['windows', RULES.windows, 'src/db/Q.SQL'],
    ['macos rules', RULES.macos, 'src/db/Q.SQL'],
    ['linux rules', RULES.linux, undefined],
  ] as const)('the same spelling of a Windows root in another case is inside under %s', (_on, rules, expected) => {
    const root = { root: 'C:/', names: ['Work', 'Shop'] }
    const target = { root: 'C:/', names: ['WORK', 'shop', 'src', 'db', 'Q.SQL'] }
    expect(relativePath(root, target, rules)).toBe(expected)
  })
})

describe('pathKey: what two spellings of one file have in common', () => {
  test.each([
    // Case: one key on Windows and macOS, two on Linux.
    ['windows', 'C:/Work/Shop/src/db/q.sql', 'C:/work/shop/SRC/DB/Q.SQL', true],
    ['windows', 'src/Billing/Deposit.ts', 'src/billing/deposit.ts', true],
    ['macos', '/private/tmp/Shop/A.ts', '/private/tmp/shop/a.ts', true],
    ['macos', 'src/Billing/Deposit.ts', 'SRC/BILLING/DEPOSIT.TS', true],
    ['linux', '/home/dev/A.ts', '/home/dev/a.ts', false],
    ['linux', 'src/Billing/Deposit.ts', 'src/billing/deposit.ts', false],
    // Case and form together.
    ['windows', `src/C${NFD_CAFE.slice(1)}`, `src/${NFC_CAFE.toUpperCase()}`, true],
    ['macos', `src/C${NFD_CAFE.slice(1)}`, `src/${NFC_CAFE}`, true],
    ['linux', `src/C${NFD_CAFE.slice(1)}`, `src/${NFC_CAFE}`, false],
    // Different files stay different everywhere.
    ['windows', 'src/a.ts', 'src/b.ts', false],
    ['macos', 'src/a.ts', 'src/a.tsx', false],
    ['linux', '/home/dev/a', '/home/dev/b', false],
  ] as const)('%s: %j and %j are one key: %s', (on, a, b, same) => {
    const [ka, kb] = [pathKey(a, RULES[on]), pathKey(b, RULES[on])]
    if (same) expect(ka).toBe(kb)
    else expect(ka).not.toBe(kb)
  })

  test.each([
    ['windows', 'C:/Work/Shop', 'c:/work/shop'],
    ['windows', `C:/Work/${NFD_CAFE}`, `c:/work/${NFC_CAFE}`],
    ['macos', '/private/tmp/Shop', '/private/tmp/shop'],
    ['linux', '/home/Dev/Shop', '/home/Dev/Shop'],
    ['linux', `/home/${NFD_CAFE}`, `/home/${NFC_CAFE}`],
  ] as const)('%s: the key of %j is %j', (on, path, key) => {
    expect(pathKey(path, RULES[on])).toBe(key)
  })

  // The conversation key (SPEC.md: One conversation, several processes, Finding the conversation) is made from the root's key: every spelling of one root gives one.
  test.each([
    ['windows', ['C:\\Work\\Shop', 'c:\\work\\shop', 'C:/Work/Shop/', 'c:/WORK/Shop/.', 'C:\\Work\\Shop\\packages\\..', 'C:\\Work/shop\\\\']],
    ['macos', ['/private/tmp/shop', '/private/tmp/Shop/', '/PRIVATE/tmp/shop/./x/..']],
    ['macos', [`/Users/dev/${NFD_CAFE}`, `/Users/dev/${NFC_CAFE}`, `/users/DEV/${NFC_CAFE.toUpperCase()}/`]],
    ['linux', ['/home/dev/shop', '/home/dev/shop/', '/home/dev/./shop', '/home/dev/x/../shop', `/home/dev/shop/${NFD_CAFE}/..`]],
    ['linux', [`/home/dev/${NFD_CAFE}`, `/home/dev/${NFC_CAFE}`]],
  ] as const)('%s: every spelling of one root gives one key (%j)', (on, spellings) => {
    const keys = new Set(spellings.map((s) => pathKey(formatPath(placed(on, s)), RULES[on])))
    expect(keys.size).toBe(1)
  })

  test.each([
    ['linux', '/home/dev/shop', '/home/Dev/shop'],
    ['linux', '/home/dev/shop', '/home/dev/SHOP'],
    ['windows', 'C:\\Work\\Shop', 'D:\\Work\\Shop'],
    ['windows', 'C:\\Work\\Shop', 'C:\\Work\\Shop\\packages'],
    ['macos', '/private/tmp/shop', '/tmp/shop'],
  ] as const)('%s: %j and %j are two roots', (on, a, b) => {
    const [ka, kb] = [a, b].map((s) => pathKey(formatPath(placed(on, s)), RULES[on]))
    expect(ka).not.toBe(kb)
  })

  test('a file edited as C:/Work/Shop/src/db/q.sql and as c:\\WORK\\shop\\src\\db\\Q.SQL is one file', () => {
    const root = placed('windows', 'C:\\Work\\Shop')
    const a = relativePath(root, placed('windows', 'C:/Work/Shop/src/db/q.sql'), RULES.windows)
    const b = relativePath(root, placed('windows', 'c:\\WORK\\shop\\src\\db\\Q.SQL'), RULES.windows)
    expect([a, b]).toEqual(['src/db/q.sql', 'src/db/Q.SQL'])
    expect(pathKey(a!, RULES.windows)).toBe(pathKey(b!, RULES.windows))
  })
})

describe('pathRules: how paths read where the engine runs', () => {
  test.each([
    ['windows', 'C:\\Work', { windows: true, ignoreCase: true }],
    ['windows', '/x', { windows: true, ignoreCase: true }],
    ['windows', '', { windows: true, ignoreCase: true }],
    [undefined, 'C:\\x', { windows: true, ignoreCase: true }],
    [undefined, 'c:/x', { windows: true, ignoreCase: true }],
    ['unknown', 'D:\\Work', { windows: true, ignoreCase: true }],
    ['macos', '/Users/x', { windows: false, ignoreCase: true }],
    ['macos', '/private/tmp/shop', { windows: false, ignoreCase: true }],
    ['linux', '/x', { windows: false, ignoreCase: false }],
    ['wsl', '/mnt/c/x', { windows: false, ignoreCase: false }],
    [undefined, '/x', { windows: false, ignoreCase: false }],
    ['unknown', '/x', { windows: false, ignoreCase: false }],
  ] as const)('platform %j, session folder %j: %j', (platform, cwd, expected) => {
    expect(pathRules(platform, cwd)).toEqual(expected)
  })
})

describe('ancestors: project-file discovery walks up to the root', () => {
  test.each([
    ['windows', 'C:\\Work\\Shop\\packages\\api', ['C:/Work/Shop/packages/api', 'C:/Work/Shop/packages', 'C:/Work/Shop', 'C:/Work', 'C:/']],
    ['windows', 'd:/data', ['D:/data', 'D:/']],
    ['windows', 'C:\\', ['C:/']],
    ['macos', '/private/tmp/shop', ['/private/tmp/shop', '/private/tmp', '/private', '/']],
    ['linux', '/home/dev', ['/home/dev', '/home', '/']],
    ['linux', '/', ['/']],
  ] as const)('%s: %j, then each folder above it: %j', (on, path, expected) => {
    const list = ancestors(placed(on, path))
    expect(list.map(formatPath)).toEqual(expected)
    for (const a of list) expect(a.root).toBe(expected[expected.length - 1])
  })
})

describe('childOf and formatPath', () => {
  test.each([
    [{ root: 'C:/', names: ['Work', 'Shop'] }, '.hark/project', 'C:/Work/Shop/.hark/project'],
    [{ root: 'C:/', names: [] }, '.hark', 'C:/.hark'],
    [{ root: '/', names: [] }, '.hark/project', '/.hark/project'],
    [{ root: '/', names: ['p', 'q'] }, '../r', '/p/r'],
    [{ root: '/', names: ['p'] }, 'a//b/./c', '/p/a/b/c'],
  ] as const)('%j with %j is %j', (folder, name, expected) => {
    expect(formatPath(childOf(folder, name))).toBe(expected)
  })

  test.each([
    [{ root: 'C:/', names: [] }, 'C:/'],
    [{ root: 'C:/', names: ['Work', 'Shop'] }, 'C:/Work/Shop'],
    [{ root: '/', names: [] }, '/'],
    [{ root: '/', names: ['private', 'tmp'] }, '/private/tmp'],
  ] as const)('%j is written %j', (path, expected) => {
    expect(formatPath(path)).toBe(expected)
  })
})

describe('spellings Windows itself refuses or rewrites', () => {
  test.each([
    ['C:\\W\\D:\\x', 'a drive inside a path'],
    ['/C:/x', 'a file: URL path'],
    ['\\??\\C:\\x', 'an NT object path'],
    ['C:\\W\\:b.txt', 'a stream of no file'],
  ])('%s (%s) is not placed', (path) => {
    expect(placePath(path, CWD.windows, RULES.windows)).toBeUndefined()
  })

  test.each([
    ['C:\\Work\\Shop\\src\\db\\q.sql::$DATA'],
    ['C:\\Work\\Shop\\src\\db\\q.sql:notes'],
    ['C:\\Work\\Shop\\src\\db\\q.sql:notes:$DATA'],
  ])('%s is a stream of q.sql: writing it writes the file', (path) => {
    expect(placePath(path, CWD.windows, RULES.windows)).toEqual({ root: 'C:/', names: ['Work', 'Shop', 'src', 'db', 'q.sql'] })
  })

  test('a colon is an ordinary character of a name elsewhere', () => {
    expect(placePath('/p/a:b.txt', CWD.linux, RULES.linux)).toEqual({ root: '/', names: ['p', 'a:b.txt'] })
  })

  test('trailing dots and spaces of a name are dropped on Windows, as Windows does, and kept elsewhere', () => {
    expect(placePath('C:\\Work\\Shop\\src\\q.sql. ', CWD.windows, RULES.windows)).toEqual({ root: 'C:/', names: ['Work', 'Shop', 'src', 'q.sql'] })
    expect(placePath('/p/q.sql.', CWD.linux, RULES.linux)).toEqual({ root: '/', names: ['p', 'q.sql.'] })
  })

  test('the length limit holds for the joined path, not only what was given', () => {
    expect(placePath('a'.repeat(4_000), `C:\\${'b'.repeat(4_000)}`, RULES.windows)).toBeUndefined()
    expect(placePath('a'.repeat(40), `C:\\${'b'.repeat(40)}`, RULES.windows)).toEqual({ root: 'C:/', names: ['b'.repeat(40), 'a'.repeat(40)] })
  })
})
