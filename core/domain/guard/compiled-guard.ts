/**
 * The compiled edit guard (SPEC.md: The edit guard; docs/guard.md, Matching and Performance): a set of
 * records compiled once into a table of patterns, and which of them cover a project-relative path
 * (globs matched name by name, areas by folder). Each name of a pattern is compiled on its own
 * (`compileName`, glob.ts), so no glob Hark sends can make a check slow. Pure: `match` never throws,
 * whatever the records or the compiler do.
 */
import { object, replaced } from '../item'
import { compileName, fold, readScopeGlob, type GlobCompiler, type Name, type Pattern } from './glob'
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
 * pattern shared by several records is walked once, and a name pattern is tested once per name.
 *
 * The loops here and in compileGuard are indexed and call no array callback: each runs for every record,
 * glob or check of the first guarded edit (docs/engine.md, "Shapes the cold first edit keeps").
 */
function patternTable(compile: GlobCompiler): PatternTable {
  const nameIndex = new Map<string, number>()
  /** Per name pattern: its test, or the folded text a plain name must equal. */
  const nameTests: (((name: string) => boolean) | string)[] = []
  const index = new Map<string, number>()
  const patterns: CompiledPattern[] = []
  /** The current path's answers so far: per pattern, and per name pattern and name of the path. */
  let verdicts = new Map<number, boolean>()
  let answers = new Map<number, boolean[]>()
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
  function add({ text, segments }: Pattern): number | undefined {
    const known = index.get(text)
    if (known !== undefined || patterns.length >= GUARD_LIMITS.patternsPerGuard) return known
    // The names between the first `**` and the last (none without two).
    const last = segments.lastIndexOf('globstar')
    let inner = 0
    for (let k = segments.indexOf('globstar') + 1; k < last; k++) if (segments[k] !== 'globstar') inner++
    if (innerNames + inner > GUARD_LIMITS.innerNamesPerGuard) return undefined
    const names: number[] = []
    for (let k = 0; k < segments.length; k++) {
      const segment = segments[k]!
      const name = segment === 'globstar' ? GLOBSTAR : addName(segment)
      if (name === undefined) return undefined
      names.push(name)
    }
    innerNames += inner
    index.set(text, patterns.length)
    return patterns.push({ names, literals: requiredText(text) }) - 1
  }

  /** The name's index, or `undefined` when the compiler refuses it or a cap is reached. */
  function addName(segment: Name): number | undefined {
    const known = nameIndex.get(segment.source)
    if (known !== undefined) return known
    const test = segment.plain ?? wildcardTest(segment)
    if (test === undefined) return undefined
    nameIndex.set(segment.source, nameTests.length)
    return nameTests.push(test) - 1
  }

  /** A wildcard name's test, within the caps; `undefined` when the compiler refuses it (docs/guard.md: it is skipped). */
  function wildcardTest(segment: Name): ((name: string) => boolean) | undefined {
    const costly = segment.stars > 1
    if (wildcardNames >= GUARD_LIMITS.wildcardNamesPerGuard || (costly && costlyNames >= GUARD_LIMITS.costlyNamesPerGuard)) return undefined
    let test: ((name: string) => boolean) | undefined
    try {
      test = compile(segment)
    } catch {
      return undefined
    }
    if (typeof test !== 'function') return undefined
    wildcardNames++
    if (costly) costlyNames++
    return test
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
    for (let i = from; i < to; i++) if (!nameMatches(pattern[i]!, at + i - from)) return false
    return true
  }

  /** Whether name pattern `name` matches the path's name `j`, asked once per path. */
  function nameMatches(name: number, j: number): boolean {
    const test = nameTests[name]
    const text = names[j]
    if (test === undefined || text === undefined) return false
    if (typeof test === 'string') return test === text
    let row = answers.get(name)
    if (row === undefined) answers.set(name, (row = []))
    return (row[j] ??= passes(test, text))
  }

  return {
    glob(text) {
      const known = globs.get(text)
      // Charged again, noted in a list of its own.
      charged = []
      if (known !== undefined) {
        for (let i = 0; i < known.charged.length; i++) if (!read(known.charged[i]!)) return undefined
        return known.read
      }
      const glob = readScopeGlob(text, read)
      const indexes: number[] = []
      // Every pattern is added, even after one is refused, as each may fill the tables.
      for (let i = 0; glob !== undefined && i < glob.patterns.length; i++) {
        const index = add(glob.patterns[i]!)
        if (index !== undefined) indexes.push(index)
      }
      const kept = glob !== undefined && indexes.length === glob.patterns.length ? { exclude: glob.exclude, indexes } : undefined
      globs.set(text, { charged, read: kept })
      return kept
    },
    next(p) {
      path = p
      names = p.split('/')
      verdicts = new Map()
      answers = new Map()
    },
    test(i) {
      if (i === EVERY_PATH) return true
      const pattern = patterns[i]
      if (pattern === undefined) return false
      let verdict = verdicts.get(i)
      if (verdict === undefined) verdicts.set(i, (verdict = containsAll(path, pattern.literals) && walk(pattern.names)))
      return verdict
    },
  }
}

function containsAll(text: string, parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) if (!text.includes(parts[i]!)) return false
  return true
}

/** `list.some(test)`, indexed (see patternTable). */
function anyOf<T>(list: readonly T[], test: (item: T) => boolean): boolean {
  for (let i = 0; i < list.length; i++) if (test(list[i]!)) return true
  return false
}

/** `test(name)`, false when it throws. */
function passes(test: (name: string) => boolean, name: string): boolean {
  try {
    return test(name) === true
  } catch {
    return false
  }
}

/**
 * The plain text a path must contain for `pattern` to match it: runs of ASCII letters, digits, `.`,
 * `_`, `-` and spaces outside `[]` and escapes, longest first (ties in the order met), each once. Anything
 * else ends a run, so the list only ever asks for less than the glob does.
 */
function requiredText(pattern: string): string[] {
  const runs: string[] = []
  let run = ''
  let depth = 0
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!
    if (ch === '\\') i++ // an escaped character (`\(`): not needed
    else if (ch === '[') depth++
    else if (ch === ']' && depth > 0) depth--
    else if (depth === 0 && ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '.' || ch === '_' || ch === '-' || ch === ' ')) {
      run += ch
      continue
    }
    // Anything else ends the run.
    keepRun(runs, run)
    run = ''
  }
  keepRun(runs, run)
  return runs
}

/** `run` put into `runs` before the first shorter one, unless it is empty or there already. */
function keepRun(runs: string[], run: string): void {
  if (run === '' || runs.includes(run)) return
  let at = runs.length
  while (at > 0 && runs[at - 1]!.length < run.length) at--
  runs.splice(at, 0, run)
}

/** Compile once per set of records (the guard keeps it until the records change); `compile` for the specs' oracle. */
export function compileGuard(records: readonly GuardRecord[], compile: GlobCompiler = compileName): CompiledGuard {
  const compiled: CompiledRecord[] = []
  const seen = new Set<string>()
  const table = patternTable(compile)
  const list = Array.isArray(records) ? records : []
  for (let i = 0; i < list.length && compiled.length < GUARD_LIMITS.compiledRecords; i++) {
    const c = compileRecord(list[i]!, table, seen)
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
        const c = compiled[i]!
        const covers = c.include.length > 0 ? anyOf(c.include, table.test) && !anyOf(c.exclude, table.test) : anyOf(c.areas, (area) => folders.includes(area))
        if (covers) out.push(c.record)
      }
      return out
    },
  }
}

function compileRecord(record: GuardRecord, table: PatternTable, seen: Set<string>): CompiledRecord | undefined {
  if (object(record) === undefined || typeof record.key !== 'string' || seen.has(record.key) || typeof record.title !== 'string') return undefined
  const scope = object(record.scope)
  const paths: unknown = scope?.['paths']
  const areaList: unknown = scope?.['areas']
  const include: number[] = []
  const exclude: number[] = []
  for (let i = 0; Array.isArray(paths) && i < paths.length && i < GUARD_LIMITS.globsPerRecord; i++) {
    const read = table.glob(paths[i])
    for (let k = 0; read !== undefined && k < read.indexes.length; k++) (read.exclude ? exclude : include).push(read.indexes[k]!)
  }
  // Exclusions alone subtract from everything, as a lone `!glob` does in picomatch and .gitignore.
  if (include.length === 0 && exclude.length > 0) include.push(EVERY_PATH)
  const areas: string[] = []
  for (let i = 0; Array.isArray(areaList) && i < areaList.length && i < GUARD_LIMITS.areasPerRecord; i++) {
    const area: unknown = areaList[i]
    // Its names between slashes, blank ones dropped: `/` alone when it has none.
    const name = typeof area === 'string' ? fold(area.normalize('NFC')) : ''
    const folders = replaced(`/${name.includes('\\') ? name.replaceAll('\\', '/') : name}/`, /\/(?:\s*\/)+/g, '/')
    if (folders !== '/') areas.push(folders)
  }
  if (include.length === 0 && areas.length === 0) return undefined
  seen.add(record.key)
  return { record, include, exclude, areas }
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

