/**
 * The compiled edit guard (SPEC.md: The edit guard; docs/guard.md, Matching and Performance): a set of
 * records compiled once into a table of patterns, and which of them cover a project-relative path
 * (globs matched name by name, areas by folder). Each name of a pattern is compiled on its own
 * (`compileName`, glob.ts), so no glob Hark sends can make a check slow. Pure: `match` never throws,
 * whatever the records or the compiler do.
 */
import { object, replaced } from '../item'
import { compileName, fold, readScopeGlob, type GlobCompiler, type Name, type Segment } from './glob'
import { GUARD_LIMITS } from './limits'
import type { GuardRecord } from './records'

export interface CompiledGuard {
  /** The records covering `relativePath`, in the order given; `[]` when none (or on any odd input). */
  match(relativePath: string): GuardRecord[]
}

interface CompiledRecord {
  readonly record: GuardRecord
  /** Indexes into the guard's pattern table; empty when the record has no usable glob (its areas then match by folder). */
  readonly include: readonly number[]
  readonly exclude: readonly number[]
  /**
   * Each area as its folded folder names between slashes (`/billing/api/`), matched against consecutive
   * folders of the path (never its file name) as a part of `/`, the path's folders, `/`.
   */
  readonly areas: readonly string[]
}

/** A glob read into the pattern table: whether it excludes, and its patterns' indexes. */
interface ReadGlob {
  readonly exclude: boolean
  readonly indexes: readonly number[]
}

/** Pattern index standing for "every path" (a record whose globs are all exclusions). */
const EVERY_PATH = -1
/** In a compiled pattern, `**`: any number of whole names. */
const GLOBSTAR = -1

interface CompiledPattern {
  /** The pattern folder by folder: an index into the name table, or GLOBSTAR. */
  readonly names: readonly number[]
  /** Plain text the path must contain for the pattern to match (see requiredText). */
  readonly literals: readonly string[]
}

/** The pattern table's three calls (below). */
interface PatternTable {
  /** A record's glob as pattern indexes, or `undefined` when it is skipped (docs/guard.md, Limits), as a value that is no string is. */
  glob(text: unknown): ReadGlob | undefined
  /** Starts a new `match` call for `path` (normalised and folded): earlier results no longer count. */
  next(path: string): void
  /** Whether pattern `i` (or EVERY_PATH) matches the current path. */
  test(i: number): boolean
}

/**
 * Every distinct pattern of a guard, compiled once, name by name: each name of a pattern (`*.sql`,
 * `__tests__`, `[slug]`) is compiled on its own and tested against one name of the path, and
 * this table walks the names itself, `**` included. So no regex ever sees more than one name, none
 * can backtrack across folders, and a `**` costs one pass over the path's names (docs/guard.md,
 * Performance).
 *
 * Each pattern carries the plain text it needs (ASCII letters, digits, `.`, `_`, `-` and spaces outside
 * any class), checked with `includes` first: most paths fail that check. Within one `match`, a
 * pattern shared by several records is walked once, and a name pattern is tested once per name:
 * both remember `call` for yes and `-call` for no, `call` counting the `match` calls from 1.
 */
function patternTable(compile: GlobCompiler): PatternTable {
  const nameIndex = new Map<string, number>()
  /** Per name pattern: its test, or the folded text a plain name must equal. */
  const nameTests: (((name: string) => boolean) | string)[] = []
  /** Per name pattern, per name of the current path: its test's answer (`±call`). */
  const tested: number[][] = []
  const index = new Map<string, number>()
  const patterns: CompiledPattern[] = []
  /** Per pattern: its answer for the current path (`±call`). */
  const verdicts: number[] = []
  /**
   * Each glob text met so far, read once (records often share a glob, and reading one is most of what a
   * compile costs): its patterns' indexes (`undefined`: skipped), and the amounts it charged to `read`,
   * charged again each time it comes back, so the caps give what reading it again would.
   */
  const globs = new Map<unknown, { readonly charged: readonly number[]; readonly read: ReadGlob | undefined }>()
  let wildcardNames = 0
  let costlyNames = 0
  let innerNames = 0
  let textRead = 0
  let call = 0
  /** The current path and its names. */
  let path = ''
  let names: readonly string[] = []

  /** What the glob being read has been charged so far (kept in `globs`). */
  let charged: number[] = []
  /** Whether `characters` more of glob text may be read (the compile-time cap), noted in `charged`. */
  function read(characters: number): boolean {
    charged.push(characters)
    if (textRead + characters > GUARD_LIMITS.globTextPerGuard) return false
    textRead += characters
    return true
  }

  /** The pattern's index, or `undefined` when the compiler refuses one of its names or the table is full. */
  function add(shape: readonly Segment[], key: string): number | undefined {
    const known = index.get(key)
    if (known !== undefined || patterns.length >= GUARD_LIMITS.patternsPerGuard) return known
    const first = shape.indexOf('globstar')
    const last = shape.lastIndexOf('globstar')
    let inner = 0
    // Without `**`, `first` and `last` are both -1: no name between them.
    for (let k = first + 1; k < last; k++) if (shape[k] !== 'globstar') inner++
    if (innerNames + inner > GUARD_LIMITS.innerNamesPerGuard) return undefined
    const list: number[] = []
    for (let k = 0; k < shape.length; k++) {
      const segment = shape[k] as Segment
      const name = segment === 'globstar' ? GLOBSTAR : addName(segment)
      if (name === undefined) return undefined
      list.push(name)
    }
    innerNames += inner
    index.set(key, patterns.length)
    verdicts.push(0)
    return patterns.push({ names: list, literals: requiredText(key) }) - 1
  }

  function addName(segment: Name): number | undefined {
    const known = nameIndex.get(segment.source)
    if (known !== undefined) return known
    let test: unknown = segment.plain
    const costly = segment.stars > 1
    if (test === undefined) {
      if (wildcardNames >= GUARD_LIMITS.wildcardNamesPerGuard || (costly && costlyNames >= GUARD_LIMITS.costlyNamesPerGuard)) return undefined
      try {
        test = compile(segment)
      } catch {
        return undefined // a name the compiler refuses is skipped (docs/guard.md)
      }
      if (typeof test !== 'function') return undefined
      wildcardNames++
      if (costly) costlyNames++
    }
    nameIndex.set(segment.source, nameTests.length)
    tested.push([])
    return nameTests.push(test as ((name: string) => boolean) | string) - 1
  }

  /**
   * Whether the path's names, in order, match `pattern`. Between two `**` the pattern is a run of
   * name patterns (a chunk): the chunk before the first `**` must match the path's first names, the
   * chunk after the last `**` its last names, and each chunk in between the earliest names it can
   * after the previous one (taking the earliest leaves the most room for the rest, so this is exact).
   * A `**` takes any number of names; the path has no `.` or `..` (normalisePath). A pattern without
   * `**` is one chunk, read as the last: it must match the path's last names, and start at its first.
   */
  function walk(pattern: readonly number[]): boolean {
    const first = pattern.indexOf(GLOBSTAR)
    const last = pattern.lastIndexOf(GLOBSTAR)
    /** Where the names matched by the chunk after the last `**` start. */
    const end = names.length - (pattern.length - last - 1)
    if ((first < 0 ? end !== 0 : first > end) || !chunkAt(pattern, 0, first, 0) || !chunkAt(pattern, last + 1, pattern.length, end)) return false
    let at = first
    for (let from = first + 1, to = from; from < last; from = to + 1) {
      to = pattern.indexOf(GLOBSTAR, from)
      while (at + (to - from) <= end && !chunkAt(pattern, from, to, at)) at++
      if (at + (to - from) > end) return false
      at += to - from
    }
    return true
  }

  /** Whether `pattern[from..to)` (no `**`) matches the path's names from name `at` on. */
  function chunkAt(pattern: readonly number[], from: number, to: number, at: number): boolean {
    for (let i = from; i < to; i++) if (!nameMatches(pattern[i] as number, at + i - from)) return false
    return true
  }

  function nameMatches(name: number, j: number): boolean {
    const test = nameTests[name]
    if (typeof test === 'string') return test === names[j]
    const memo = tested[name] as number[]
    if (Math.abs(memo[j] as number) !== call) {
      let r = false
      try {
        r = test?.(names[j] as string) === true
      } catch {
        // a test that throws answers no
      }
      memo[j] = r ? call : -call
    }
    return memo[j] === call
  }

  return {
    glob(text) {
      const known = globs.get(text)
      if (known !== undefined) {
        // Charged again, noted in a list of its own.
        charged = []
        for (let i = 0; i < known.charged.length; i++) if (!read(known.charged[i] as number)) return undefined
        return known.read
      }
      charged = []
      const glob = readScopeGlob(text, read)
      const indexes: number[] = []
      // Every shape is added, even after one is refused, as each may fill the tables.
      for (let i = 0; glob !== undefined && i < glob.shapes.length; i++) {
        const index = add(glob.shapes[i] as Segment[], glob.patterns[i] as string)
        if (index !== undefined) indexes.push(index)
      }
      const kept = glob !== undefined && indexes.length === glob.shapes.length ? { exclude: glob.exclude, indexes } : undefined
      globs.set(text, { charged, read: kept })
      return kept
    },
    next(p) {
      call++
      path = p
      names = p.split('/')
    },
    test(i) {
      if (i === EVERY_PATH) return true
      const pattern = patterns[i] as CompiledPattern
      if (Math.abs(verdicts[i] as number) !== call) verdicts[i] = containsAll(path, pattern.literals) && walk(pattern.names) ? call : -call
      return verdicts[i] === call
    },
  }
}

/**
 * The plain text a path must contain for `pattern` to match it: runs of ASCII letters, digits, `.`,
 * `_`, `-` and spaces outside `[]` and escapes, longest first (ties in the order met). Anything else
 * ends a run, so the list only ever asks for less than the glob does. The runs are built a character at
 * a time, not matched by a regex: a match's runs are substrings of the pattern, which each check's
 * `includes` searches more slowly (scripts/bench-guard.mjs, 16 globs a record). The runs are kept
 * in order as they come (no Set to spread, no sort): each call of a builtin costs the first guarded edit
 * in the engine's interpreter.
 */
function requiredText(pattern: string): string[] {
  const runs: string[] = []
  let depth = 0
  let run = ''
  // Character codes (NaN one step past the end, which ends the last run): the engine's interpreter
  // compares numbers in place, strings by a call.
  for (let i = 0; i <= pattern.length; i++) {
    const c = pattern.charCodeAt(i)
    if (c === 92) i++ // `\`: an escaped character (`\(`), not needed, and ends the run
    else if (c === 91) depth++ // `[`
    else if (c === 93 && depth > 0) depth-- // `]`
    // a-z, 0-9, `.`, `_`, `-`, space
    if (c !== 92 && depth === 0 && ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46 || c === 95 || c === 45 || c === 32)) run += pattern[i]
    else if (run !== '') {
      // Put before the first shorter run, once.
      let at = runs.includes(run) ? -1 : runs.length
      while (at > 0 && (runs[at - 1] as string).length < run.length) at--
      if (at >= 0) runs.splice(at, 0, run)
      run = ''
    }
  }
  return runs
}

/**
 * Compile once per set of records (the guard keeps it until the records change); `compile` for the specs' oracle.
 * The first guarded edit of a session compiles and checks in the engine's hooks worker, whose frozen
 * built-ins send `for…of` and the array callbacks (`some`, `every`) through the generic iterator path: the
 * loops run for every record, compiling it and checking a path against it, are indexed.
 */
export function compileGuard(records: readonly GuardRecord[], compile: GlobCompiler = compileName): CompiledGuard {
  const compiled: CompiledRecord[] = []
  const seen = new Set<string>()
  const table = patternTable(compile)
  const list = Array.isArray(records) ? records : []
  for (let i = 0; i < list.length && compiled.length < GUARD_LIMITS.compiledRecords; i++) {
    const c = compileRecord(list[i] as GuardRecord, table, seen)
    if (c !== undefined) compiled.push(c)
  }
  return {
    match(relativePath: string): GuardRecord[] {
      const path = normalisePath(relativePath)
      if (path === undefined) return []
      const folders = `/${path.slice(0, path.lastIndexOf('/') + 1)}`
      table.next(path)
      const out: GuardRecord[] = []
      for (let i = 0; i < compiled.length; i++) {
        const c = compiled[i] as CompiledRecord
        if (c.include.length > 0 ? anyOf(c.include, table.test) && !anyOf(c.exclude, table.test) : anyOf(c.areas, (area) => folders.includes(area))) out.push(c.record)
      }
      return out
    },
  }
}

function compileRecord(record: GuardRecord, table: PatternTable, seen: Set<string>): CompiledRecord | undefined {
  const r = object(record) as GuardRecord | undefined
  if (r === undefined || typeof r.key !== 'string' || seen.has(r.key) || typeof r.title !== 'string') return undefined
  const scope = object(r.scope)
  const paths: unknown = scope?.['paths']
  const areaList: unknown = scope?.['areas']
  const include: number[] = []
  const exclude: number[] = []
  for (let i = 0; Array.isArray(paths) && i < paths.length && i < GUARD_LIMITS.globsPerRecord; i++) {
    const read = table.glob(paths[i])
    for (let k = 0; read !== undefined && k < read.indexes.length; k++) (read.exclude ? exclude : include).push(read.indexes[k] as number)
  }
  // Exclusions alone subtract from everything, as a lone `!glob` does in picomatch and .gitignore.
  if (include.length === 0 && exclude.length > 0) include.push(EVERY_PATH)
  const areas: string[] = []
  for (let i = 0; Array.isArray(areaList) && i < areaList.length && i < GUARD_LIMITS.areasPerRecord; i++) {
    const area = areaList[i]
    // Its names between slashes, blank ones dropped: `/` alone when it has none.
    const name = typeof area === 'string' ? fold(area.normalize('NFC')) : ''
    // `\` tested for first: the engine's replaceAll is a builtin written in JavaScript, compiled once it is called often.
    const folders = replaced(`/${name.includes('\\') ? name.replaceAll('\\', '/') : name}/`, /\/(?:\s*\/)+/g, '/')
    if (folders !== '/') areas.push(folders)
  }
  if (include.length === 0 && areas.length === 0) return undefined
  seen.add(r.key)
  return { record: r, include, exclude, areas }
}

function containsAll(text: string, parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) if (!text.includes(parts[i] as string)) return false
  return true
}

/** `list.some(test)` as an indexed loop (see compileGuard). */
function anyOf<T>(list: readonly T[], test: (item: T) => boolean): boolean {
  for (let i = 0; i < list.length; i++) if (test(list[i] as T)) return true
  return false
}

/**
 * A project-relative path as the matchers see it, or `undefined` when there is nothing to match:
 * folded, `/` separators, no empty, `.` or `..` names (`src/db/../db/x.sql` is `src/db/x.sql`; a path that
 * climbs above the project root is not in the project).
 */
function normalisePath(p: unknown): string | undefined {
  if (typeof p !== 'string' || p.length > GUARD_LIMITS.pathLength) return undefined
  const names: string[] = []
  for (const name of p.normalize('NFC').replaceAll('\\', '/').split('/')) {
    if (name === '' || name === '.') continue
    if (name !== '..') names.push(name)
    else if (names.pop() === undefined) return undefined
  }
  return names.length === 0 ? undefined : fold(names.join('/'))
}

