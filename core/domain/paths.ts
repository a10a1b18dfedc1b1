/**
 * Paths as the engine gives them on each platform (SPEC.md: Setup 1, the project file; The edit guard
 * and The handoff, "files inside the project"): POSIX paths, and on Windows drive paths with `\` or `/`
 * in any mix and a drive letter in either case. Pure: what the file system says (where a symbolic link
 * lands) is asked by the application through the Files port, and given here as another path.
 *
 * - A path is placed against the session folder: `.` and `..` folded (never above its root). Names keep
 *   their spelling for the file system, and are compared and stored in Unicode NFC (macOS may give a name
 *   decomposed).
 * - Some spellings name places the plugin does not try to place: a network share (`\\server\share\x`,
 *   `//server/share/x`), a device path (`\\?\C:\x`, `\\.\x`), a drive-relative path (`D:x`), an empty
 *   path. They are outside the project: never guarded as if inside, never recorded.
 * - Windows and macOS's default volumes ignore case: there two spellings that differ only in case are
 *   one file (`pathKey`), and the project root matches in any case.
 * What is stored and sent is always the project-relative path with `/` (`relativePath`).
 */

/** How paths read where the engine runs. */
export interface PathRules {
  /** Drive letters and `\` separators (Windows). */
  readonly windows: boolean
  /** Names that differ only in case are one file (Windows; macOS's default volumes). */
  readonly ignoreCase: boolean
}

/** The platform as the engine names it (`$.session.info().platform`). */
export type Platform = 'macos' | 'windows' | 'wsl' | 'linux' | 'unknown'

/**
 * The rules for a session: Windows when the engine says so or the session folder is a drive path
 * (a test host may not say); case ignored on Windows and macOS.
 */
export function pathRules(platform: Platform | undefined, cwd: string): PathRules {
  const windows = platform === 'windows' || DRIVE_ABSOLUTE.test(cwd)
  return { windows, ignoreCase: windows || platform === 'macos' }
}

/**
 * An absolute path taken apart: its root (`/`, or `C:/` with the drive upper-case) and its names as
 * spelled (so the file system can still be asked for it: Linux and Windows keep NFC and NFD names apart).
 */
export interface AbsolutePath {
  readonly root: string
  readonly names: readonly string[]
}

const DRIVE_ABSOLUTE = /^[A-Za-z]:[\\/]/
/** Longest path the plugin places (longer ones are outside: no file system call, no log line). */
export const MAX_PATH_LENGTH = 4_096

/**
 * Where `path` lands, taken against `cwd` (an absolute path) when relative; undefined when it cannot
 * be placed (see the file's comment) or `cwd` cannot.
 */
export function placePath(path: string, cwd: string, rules: PathRules): AbsolutePath | undefined {
  const placed = placeAny(path, cwd, rules)
  // Bounded after joining too, and on Windows no name may hold a colon (`C:\W\D:\x`, `\??\C:\x`) but
  // the file's own: `q.sql:notes` and `q.sql::$DATA` are streams of `q.sql`, and writing one writes to it.
  if (!placed || formatPath(placed).length > MAX_PATH_LENGTH) return undefined
  if (!(rules.windows && placed.names.length)) return placed
  const names = [...placed.names]
  const file = names.pop()!.split(':')[0]!
  return file === '' || names.some((name) => name.includes(':')) ? undefined : { root: placed.root, names: [...names, file] }
}

/**
 * `path` taken apart, `.` and `..` folded: from its root when absolute (`C:/…` or `C:\…` on Windows, `/…`
 * elsewhere); else against `cwd`, which must be absolute: relative to it, or on Windows from the root of its
 * drive (`\x`). Undefined for a path that is not a string, empty, too long or holds NUL, a network share
 * or device path (`//server/share`, `\\?\C:\x`), a drive-relative path (`D:x`), and a relative one when
 * `cwd` is not absolute.
 */
function placeAny(path: string, cwd: string, rules: PathRules): AbsolutePath | undefined {
  if (typeof path !== 'string' || path === '' || path.length > MAX_PATH_LENGTH || path.includes('\0')) return undefined
  const { windows } = rules
  const spelled = windows ? path.replace(/\\/g, '/') : path
  if (spelled.startsWith('//') || (windows && /^[A-Za-z]:(?!\/)/.test(spelled))) return undefined
  const root = (windows ? /^[A-Za-z]:\// : /^\//).exec(spelled)?.[0]
  if (root) return fold(root.toUpperCase(), spelled.slice(root.length), windows)
  const base = placeAny(cwd, '', rules)
  return base && fold(base.root, spelled.startsWith('/') ? spelled.slice(1) : [...base.names, spelled].join('/'), windows)
}

/** `C:/Work/Shop`, `/private/tmp/shop`: the root and the names, joined by `/`. */
export function formatPath(path: AbsolutePath): string {
  return `${path.root}${path.names.join('/')}`
}

/**
 * `target` relative to `root`, names joined by `/` in `target`'s own spelling; undefined when `target`
 * is `root` itself or not under it. Names are compared by `pathKey`: in NFC, and without case where the
 * rules say.
 */
export function relativePath(root: AbsolutePath, target: AbsolutePath, rules: PathRules): string | undefined {
  const same = (a: string, b: string) => a === b || pathKey(a, rules) === pathKey(b, rules)
  return same(root.root, target.root) && target.names.length > root.names.length && root.names.every((name, i) => same(name, target.names[i]!))
    ? target.names.slice(root.names.length).join('/').normalize('NFC')
    : undefined
}

/** What two spellings of one file have in common: the path in NFC, case-folded where case is ignored. */
export function pathKey(path: string, rules: PathRules): string {
  const nfc = path.normalize('NFC')
  return rules.ignoreCase ? nfc.toLowerCase() : nfc
}

/** `path`, then each folder above it, up to its root (a drive's or the file system's). */
export function ancestors(path: AbsolutePath): AbsolutePath[] {
  const out: AbsolutePath[] = []
  for (let n = path.names.length; n >= 0; n--) out.push({ root: path.root, names: path.names.slice(0, n) })
  return out
}

/** `folder` with `name` added (names as given; a name holding `/` adds several). */
export function childOf(folder: AbsolutePath, name: string): AbsolutePath {
  return fold(folder.root, [...folder.names, name].join('/'), folder.root !== '/')
}

/** `.` and `..` folded; on Windows a name's trailing dots and spaces dropped, as Windows does. */
function fold(root: string, rest: string, windows: boolean): AbsolutePath {
  const names: string[] = []
  for (const name of rest.split('/')) {
    const kept = windows ? name.replace(/[. ]+$/, '') : name
    if (name === '..') names.pop()
    else if (kept !== '' && kept !== '.') names.push(kept)
  }
  return { root, names }
}
