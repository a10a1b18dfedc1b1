/**
 * The edit guard's domain (SPEC.md: The edit guard; HARK-API.md: list_journal_entries, get_agent_brief):
 * which Hark records are settled and scoped, what their scope is, and which of them cover a file.
 *
 * Pure: no I/O, and no function here throws, whatever Hark sends. Glob matching reaches the domain as
 * a `GlobCompiler` (the adapter passes picomatch with `GLOB_OPTIONS`). The domain reads each scope glob
 * itself (its .gitignore-like meaning, braces, what is refused) and has picomatch match one name at a
 * time, so no glob Hark sends can make a check slow. docs/guard.md has the rules.
 */
import { object, text } from './item'

// ---------------------------------------------------------------------------------------------
// Types

export interface Scope {
  /** Globs, relative to the project root, with `/` separators (a `\` in a record becomes `/`). */
  readonly paths: readonly string[]
  /** Area words (`billing`); a structured area may name nested folders (`billing/api`). */
  readonly areas: readonly string[]
}

export interface GuardRecord {
  /**
   * Stable identity for "Allow is remembered": `id:<id>` or `title:<title>` for a decision,
   * `non-goal:id:<id>` or `non-goal:title:<title>` for a non-goal.
   */
  readonly key: string
  readonly kind: 'decision' | 'non-goal'
  /** The record's words, with any `(scope: …)` marker taken out. */
  readonly title: string
  readonly why?: string
  /** Never empty: records without a scope are dropped. */
  readonly scope: Scope
}

/**
 * Turns one glob into a test of a string; may throw on a glob it can't compile. The guard calls it
 * with one name of a pattern (`*.sql`, never a `/`) and tests one name of the path with the result.
 */
export type GlobCompiler = (glob: string) => (path: string) => boolean

export interface CompiledGuard {
  /** The records covering `relativePath`, in the order given; `[]` when none (or on any odd input). */
  match(relativePath: string): GuardRecord[]
}

/** Size limits: values beyond them are dropped, never an error. */
export const GUARD_LIMITS = Object.freeze({
  /** Records kept from one list_journal_entries payload, and from one brief's non-goals. */
  records: 200,
  /** Records one compiled guard holds (200 decisions and 200 non-goals). */
  compiledRecords: 400,
  /** Raw entries looked at in one payload (skipped, unsettled ones included). */
  scannedEntries: 2_000,
  globsPerRecord: 16,
  areasPerRecord: 16,
  globLength: 256,
  areaLength: 64,
  /**
   * Glob shapes that could cost too much to match are skipped (docs/guard.md, Limits and Performance).
   * Per name (the text between two slashes): at most 2 `*` runs (`*a*b` has 2; a name with two runs
   * is "costly": its test may try every split of the name) and 16 bracket expressions; a name with a
   * wildcard (`*`, `?`, a bracket expression) at most 64 characters, a bracket expression counting one.
   * Per pattern: 16 names. Per glob: 16 alternatives (braces, ranges, `@( )`, `?( )`), nested at most 4
   * deep, holding at most 32 distinct names with a wildcard, 4 of them costly.
   */
  starRunsPerName: 2,
  classesPerName: 16,
  wildcardNameLength: 64,
  namesPerPattern: 16,
  alternativesPerGlob: 16,
  braceDepth: 4,
  wildcardNamesPerGlob: 32,
  costlyNamesPerGlob: 4,
  /**
   * What one compiled guard holds, each cap bounding one cost of a check or of compiling
   * (docs/guard.md, Performance): characters of glob text read (a glob's length times its
   * alternatives); distinct patterns; names standing between two `**` (each may be tried at every
   * name of the path), summed over the patterns; distinct names with a wildcard (plain names are
   * compared as text), and costly ones. A glob that would pass a cap is skipped, in record order.
   */
  globTextPerGuard: 262_144,
  patternsPerGuard: 8_192,
  innerNamesPerGuard: 8_192,
  wildcardNamesPerGuard: 512,
  costlyNamesPerGuard: 64,
  /** Longer project-relative paths are not matched (macOS's PATH_MAX; no real project gets near). */
  pathLength: 1_024,
  idLength: 200,
  titleLength: 300,
  whyLength: 1_000,
})

// ---------------------------------------------------------------------------------------------
// Settledness (HARK-API.md: list_journal_entries)

const UNSETTLED_WORDS = new Set([
  'proposed', 'candidate', 'draft', 'pending', 'rejected', 'superseded', 'retired', 'expired', 'obsolete',
])
const SETTLEDNESS_FIELDS = ['status', 'acceptance', 'applicability'] as const

/**
 * Whether a record is settled: it is, unless `status`, `acceptance` or `applicability` holds one of the
 * unsettled words (as a whole word, any case: `Superseded by D-12`, `pending_review`), `superseded_by`
 * is set, or `accepted` is `false`. Values of another type are ignored.
 */
export function isSettled(record: Record<string, unknown>): boolean {
  const o = object(record)
  if (o === undefined) return false
  for (const field of SETTLEDNESS_FIELDS) {
    const v = o[field]
    if (typeof v !== 'string') continue
    for (const word of v.toLowerCase().split(/[^a-z]+/)) if (UNSETTLED_WORDS.has(word)) return false
  }
  if (isSet(o['superseded_by'])) return false
  return o['accepted'] !== false
}

function isSet(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return false
  if (typeof v === 'string') return v.trim() !== ''
  if (typeof v === 'number') return Number.isFinite(v)
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === 'object') return Object.keys(v).length > 0
  return v === true
}

// ---------------------------------------------------------------------------------------------
// Scope

const TITLE_KEYS = ['title', 'text', 'summary', 'name'] as const
/** Glob or path characters: a loose value holding one is a path, otherwise an area word. */
const PATH_CHAR = /[/*?.[\]{}]/
/** One folder name an area may stand for: letters, marks, digits, `_ - . @ +` and inner spaces. */
const AREA_SEGMENT = /^[\p{L}\p{M}\p{N}_\-.@+](?:[\p{L}\p{M}\p{N}_\-.@+ ]*[\p{L}\p{M}\p{N}_\-.@+])?$/u
/** C0/C1 controls, and format characters (bidi overrides, zero-width marks). */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu
/** Words joining a written list that are never scopes themselves (`scope: billing and payments`). */
const JOINERS = new Set(['and', 'or', '&', '+'])

/**
 * The scope of one record. Structured fields win: paths from `scope.paths`, `scope_paths`, `paths`,
 * `files`; areas from `scope_area`, `scope_areas`, `scope.areas`, `scope.area`, `areas`, `area`; loose
 * values from `scope` as a string or list, `scopes`, `applies_to`. Only when those give nothing usable
 * does the text count: `(scope: …)` markers in the title and `scope:` lines in the body.
 * `scope_version` and `scope_audience` are never read.
 */
export function scopeOf(record: Record<string, unknown>): Scope {
  const o = object(record)
  if (o === undefined) return { paths: [], areas: [] }
  const acc = new ScopeBuilder()

  const scope = o['scope']
  const scopeObject = object(scope)
  if (scopeObject !== undefined) acc.fromScopeObject(scopeObject)
  else acc.loose(scope, true)
  for (const key of ['scope_paths', 'paths', 'files']) acc.paths(o[key])
  for (const key of ['scope_area', 'scope_areas', 'areas', 'area']) acc.areas(o[key])
  for (const key of ['scopes', 'applies_to']) acc.loose(o[key], true)
  if (!acc.isEmpty()) return acc.build()

  const titleRaw = rawTitle(o)
  if (titleRaw !== undefined) {
    for (const value of scopeMarkers(titleRaw)) acc.loose(value, false)
    acc.scopeLines(titleRaw.split(/\r\n|\r|\n/).slice(1))
  }
  const body = o['body']
  if (typeof body === 'string') acc.scopeLines(body.split(/\r\n|\r|\n/))
  return acc.build()
}

class ScopeBuilder {
  private readonly pathSet = new Set<string>()
  private readonly areaSet = new Set<string>()

  isEmpty(): boolean {
    return this.pathSet.size === 0 && this.areaSet.size === 0
  }

  build(): Scope {
    return { paths: [...this.pathSet], areas: [...this.areaSet] }
  }

  fromScopeObject(s: Record<string, unknown>): void {
    this.paths(s['paths'])
    this.areas(s['areas'])
    this.areas(s['area'])
  }

  paths(v: unknown): void {
    for (const raw of values(v)) this.addPath(raw)
  }

  areas(v: unknown): void {
    for (const raw of values(v)) this.addArea(raw, true)
  }

  /** Values that say nothing of their kind: each is a path when it has a path character, else an area. */
  loose(v: unknown, objects: boolean): void {
    if (objects && Array.isArray(v)) {
      for (const item of v.slice(0, 64)) {
        const o = object(item)
        if (o !== undefined) this.fromScopeObject(o)
      }
    }
    if (objects) {
      const o = object(v)
      if (o !== undefined) return this.fromScopeObject(o)
    }
    for (const raw of values(v)) {
      if (PATH_CHAR.test(raw.replace(/\\/g, '/'))) this.addPath(raw)
      else this.addArea(raw, false)
    }
  }

  /** `scope: …` lines (also `- Scope: …`, `**Scope:** …`); `scope_version:` and the like are not. */
  scopeLines(lines: readonly string[]): void {
    for (const line of lines.slice(0, 500)) {
      const m = /^[ \t]*(?:[-*•>+][ \t]+)?(?:\*\*|__|\*|_)?scopes?(?:\*\*|__|\*|_)?[ \t]*:(?:\*\*|__|\*|_)?(.*)$/i.exec(line)
      if (m !== null) this.loose(m[1], false)
    }
  }

  private addPath(raw: string): void {
    if (this.pathSet.size >= GUARD_LIMITS.globsPerRecord) return
    const p = cleanValue(raw).replace(/\\/g, '/')
    if (p === '' || p.length > GUARD_LIMITS.globLength || /[\p{Cc}]/u.test(p)) return
    this.pathSet.add(p)
  }

  private addArea(raw: string, nested: boolean): void {
    if (this.areaSet.size >= GUARD_LIMITS.areasPerRecord) return
    const a = cleanValue(raw).replace(/\\/g, '/').replace(/^\/+|\/+$/g, '')
    if (a === '' || a.length > GUARD_LIMITS.areaLength) return
    const segments = a.split('/')
    if (!nested && segments.length > 1) return
    if (!segments.every((s) => AREA_SEGMENT.test(s) && !/^\.+$/.test(s))) return
    if (JOINERS.has(a.toLowerCase())) return
    this.areaSet.add(a)
  }
}

/**
 * The strings a value holds: a string is a list separated by commas, semicolons or white space
 * (not inside `{}`, `[]` or `()`, so `src/{db,billing}/**` stays whole); each string element of a list
 * is one value, taken whole (so a path with a space fits in a list). Other types give nothing.
 */
function values(v: unknown): string[] {
  if (typeof v === 'string') return splitList(v)
  if (!Array.isArray(v)) return []
  const out: string[] = []
  for (const item of v.slice(0, 64)) if (typeof item === 'string') out.push(item)
  return out
}

function splitList(s: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of s.slice(0, 4_000)) {
    if (ch === '{' || ch === '[' || ch === '(') depth++
    else if ((ch === '}' || ch === ']' || ch === ')') && depth > 0) depth--
    if (depth === 0 && (ch === ',' || ch === ';' || /\s/.test(ch))) {
      out.push(current)
      current = ''
    } else {
      current += ch
    }
  }
  out.push(current)
  return out.map(trimListValue).filter((v) => v !== '' && !JOINERS.has(v.toLowerCase()))
}

/** A list value without the sentence punctuation around it (`billing.` at the end of a line). */
function trimListValue(v: string): string {
  return cleanValue(cleanValue(v).replace(/[.,;:]+$/, ''))
}

/** Trimmed, NFC, without surrounding quotes or backticks (`` `src/db/**` `` in a markdown body). */
function cleanValue(v: string): string {
  let s = v.normalize('NFC').trim()
  while (s.length >= 2 && /^[`'"]/.test(s) && s[s.length - 1] === s[0]) s = s.slice(1, -1).trim()
  return s.replace(/^[`'"]+|[`'"]+$/g, '').trim()
}

/** The first title field holding a non-blank string, as written. */
function rawTitle(o: Record<string, unknown>): string | undefined {
  for (const key of TITLE_KEYS) {
    const v = o[key]
    if (typeof v === 'string' && v.trim() !== '') return v.slice(0, 10_000)
  }
  return undefined
}

/** The contents of each `(scope: …)` marker, parentheses balanced (`(scope: app/(auth)/**)`). */
function scopeMarkers(s: string): string[] {
  return markerSpans(s).map(([start, end]) => s.slice(start, end).replace(/^\(\s*scopes?\s*:/i, '').replace(/\)$/, ''))
}

function markerSpans(s: string): [number, number][] {
  const spans: [number, number][] = []
  const re = /\(\s*scopes?\s*:/gi
  let m: RegExpExecArray | null
  while ((m = re.exec(s)) !== null && spans.length < 8) {
    let depth = 0
    let end = s.length
    for (let i = m.index; i < s.length; i++) {
      if (s[i] === '(') depth++
      else if (s[i] === ')' && --depth === 0) {
        end = i + 1
        break
      }
    }
    spans.push([m.index, end])
    re.lastIndex = end
  }
  return spans
}

/** `s` without its `(scope: …)` markers, and without the space a marker leaves before punctuation. */
function withoutMarkers(s: string): string {
  let out = ''
  let at = 0
  for (const [start, end] of markerSpans(s)) {
    out += s.slice(at, start)
    at = end
    if (/^[ \t]*(?:[,.;:!?)]|$)/.test(s.slice(at, at + 80))) out = out.replace(/[ \t]+$/, '')
  }
  return out + s.slice(at)
}

// ---------------------------------------------------------------------------------------------
// Records

/** list_journal_entries payload (`{ entries: Record[] }`, or the array itself) → the settled, scoped decisions. */
export function parseDecisionEntries(payload: unknown): GuardRecord[] {
  let p = payload
  if (typeof p === 'string') {
    try {
      p = JSON.parse(p)
    } catch {
      return []
    }
  }
  const entries = Array.isArray(p) ? p : object(p)?.['entries']
  return Array.isArray(entries) ? parseRecords(entries, 'decision') : []
}

/** The brief's build_state.non_goals items (strings or objects, HARK-API) → the scoped non-goals. */
export function parseNonGoals(items: readonly unknown[]): GuardRecord[] {
  return Array.isArray(items) ? parseRecords(items, 'non-goal') : []
}

function parseRecords(list: readonly unknown[], kind: GuardRecord['kind']): GuardRecord[] {
  const out: GuardRecord[] = []
  const seen = new Set<string>()
  for (const raw of list.slice(0, GUARD_LIMITS.scannedEntries)) {
    const o = typeof raw === 'string' ? { title: raw } : object(raw)
    if (o === undefined || !isSettled(o)) continue
    const record = guardRecordOf(o, kind)
    if (record === undefined || seen.has(record.key)) continue
    seen.add(record.key)
    out.push(record)
    if (out.length >= GUARD_LIMITS.records) break
  }
  return out
}

function guardRecordOf(o: Record<string, unknown>, kind: GuardRecord['kind']): GuardRecord | undefined {
  const scope = scopeOf(o)
  if (scope.paths.length === 0 && scope.areas.length === 0) return undefined
  const raw = rawTitle(o)
  const headline = raw === undefined ? '' : withoutMarkers(raw).split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? ''
  const words = display(headline, GUARD_LIMITS.titleLength)
  const title = words !== '' ? words : kind === 'decision' ? 'Untitled decision' : 'Untitled non-goal'
  const why = ['why', 'rationale'].map((k) => display(o[k], GUARD_LIMITS.whyLength)).find((w) => w !== '')
  const id = idOf(o['id'])
  const identity = id !== undefined ? `id:${id}` : `title:${words !== '' ? words : title}`
  return {
    key: kind === 'decision' ? identity : `non-goal:${identity}`,
    kind,
    title,
    ...(why === undefined ? {} : { why }),
    scope,
  }
}

function idOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v !== 'string') return undefined
  const id = v.replace(UNPRINTABLE, '').trim()
  return id === '' || id.length > GUARD_LIMITS.idLength ? undefined : id
}

// ---------------------------------------------------------------------------------------------
// Matching

interface CompiledRecord {
  readonly record: GuardRecord
  /** Indexes into the guard's pattern table; empty when the record has no usable glob (its areas then match by folder). */
  readonly include: readonly number[]
  readonly exclude: readonly number[]
  /** Each area as folded folder names, matched against consecutive folders of the path. */
  readonly areas: readonly (readonly string[])[]
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

/**
 * Every distinct pattern of a guard, compiled once, name by name: picomatch compiles each name of a
 * pattern (`*.sql`, `__tests__`, `[slug]`) on its own and tests it against one name of the path, and
 * this table walks the names itself, `**` included. So no regex ever sees more than one name, none
 * can backtrack across folders, and a `**` costs one pass over the path's names (docs/guard.md,
 * Performance).
 *
 * Each pattern carries the plain text it needs (ASCII letters, digits, `.`, `_`, `-` and spaces outside
 * any class), checked with `includes` first: most paths fail that check. Within one `match`, a
 * pattern shared by several records is walked once, and a name pattern is tested once per name.
 */
class PatternTable {
  private readonly nameIndex = new Map<string, number>()
  /** Per name pattern: its test, or the folded text a plain name must equal. */
  private readonly nameTests: (((name: string) => boolean) | string)[] = []
  private wildcardNames = 0
  private costlyNames = 0
  private innerNames = 0
  private textRead = 0
  private readonly index = new Map<string, number>()
  private readonly patterns: CompiledPattern[] = []
  private readonly stamp: number[] = []
  private readonly result: boolean[] = []
  private call = 0
  /** The current path, its names, and the wildcard name tests done on them so far (0 untested, 1 no, 2 yes). */
  private path = ''
  private names: readonly string[] = []
  private readonly tested: (Uint8Array | undefined)[] = []
  private readonly testedCall: number[] = []

  constructor(private readonly compile: GlobCompiler) {}

  /** Whether `characters` more of glob text may be read (the compile-time cap). */
  read(characters: number): boolean {
    if (this.textRead + characters > GUARD_LIMITS.globTextPerGuard) return false
    this.textRead += characters
    return true
  }

  /** The pattern's index, or `undefined` when the compiler refuses one of its names or the table is full. */
  add(shape: readonly Segment[]): number | undefined {
    const key = shape.map(emitSegment).join('/')
    const known = this.index.get(key)
    if (known !== undefined) return known
    if (this.patterns.length >= GUARD_LIMITS.patternsPerGuard) return undefined
    const first = shape.indexOf('globstar')
    const inner = first < 0 ? 0 : shape.slice(first, shape.lastIndexOf('globstar')).filter((seg) => seg !== 'globstar').length
    if (this.innerNames + inner > GUARD_LIMITS.innerNamesPerGuard) return undefined
    const names: number[] = []
    for (const segment of shape) {
      const name = segment === 'globstar' ? GLOBSTAR : this.addName(segment)
      if (name === undefined) return undefined
      names.push(name)
    }
    this.innerNames += inner
    const i = this.patterns.length
    this.patterns.push({ names, literals: requiredText(key) })
    this.stamp.push(0)
    this.result.push(false)
    this.index.set(key, i)
    return i
  }

  private addName(segment: Name): number | undefined {
    const source = segment.source
    const known = this.nameIndex.get(source)
    if (known !== undefined) return known
    let test: unknown = segment.plain
    const costly = isCostly(segment)
    if (test === undefined) {
      if (this.wildcardNames >= GUARD_LIMITS.wildcardNamesPerGuard) return undefined
      if (costly && this.costlyNames >= GUARD_LIMITS.costlyNamesPerGuard) return undefined
      try {
        test = this.compile(source)
      } catch {
        return undefined // a glob the library refuses is skipped (docs/guard.md)
      }
      if (typeof test !== 'function') return undefined
      this.wildcardNames++
      if (costly) this.costlyNames++
    }
    this.nameTests.push(test as ((name: string) => boolean) | string)
    this.nameIndex.set(source, this.nameTests.length - 1)
    return this.nameTests.length - 1
  }

  /** Starts a new `match` call for `path` (normalised and folded): earlier results no longer count. */
  next(path: string): void {
    this.call++
    this.path = path
    this.names = path.split('/')
  }

  test(i: number): boolean {
    if (i === EVERY_PATH) return true
    if (this.stamp[i] === this.call) return this.result[i] === true
    const pattern = this.patterns[i]
    const r = pattern !== undefined && pattern.literals.every((t) => this.path.includes(t)) && this.walk(pattern.names)
    this.stamp[i] = this.call
    this.result[i] = r
    return r
  }

  /**
   * Whether the path's names, in order, match `pattern`. Between two `**` the pattern is a run of
   * name patterns (a chunk): the chunk before the first `**` must match the path's first names, the
   * chunk after the last `**` its last names, and each chunk in between the earliest names it can
   * after the previous one (taking the earliest leaves the most room for the rest, so this is exact).
   * A `**` takes any number of names; the path has no `.` or `..` (normalisePath).
   */
  private walk(pattern: readonly number[]): boolean {
    const count = this.names.length
    const first = pattern.indexOf(GLOBSTAR)
    if (first < 0) return pattern.length === count && this.chunkAt(pattern, 0, pattern.length, 0)
    const last = pattern.lastIndexOf(GLOBSTAR)
    const tail = pattern.length - last - 1
    if (first + tail > count || !this.chunkAt(pattern, 0, first, 0) || !this.chunkAt(pattern, last + 1, pattern.length, count - tail)) return false
    let at = first
    const end = count - tail
    for (let from = first + 1; from < last; ) {
      let to = from
      while (pattern[to] !== GLOBSTAR) to++
      let k = at
      while (k + (to - from) <= end && !this.chunkAt(pattern, from, to, k)) k++
      if (k + (to - from) > end) return false
      at = k + (to - from)
      from = to + 1
    }
    return true
  }

  /** Whether `pattern[from..to)` (no `**`) matches the path's names from name `at` on. */
  private chunkAt(pattern: readonly number[], from: number, to: number, at: number): boolean {
    for (let i = from; i < to; i++) if (!this.nameMatches(pattern[i] as number, at + i - from)) return false
    return true
  }

  private nameMatches(name: number, j: number): boolean {
    const test = this.nameTests[name]
    if (typeof test === 'string') return test === this.names[j]
    let memo = this.tested[name]
    if (this.testedCall[name] !== this.call || memo === undefined) {
      if (memo === undefined || memo.length < this.names.length) memo = new Uint8Array(Math.max(this.names.length, 16))
      else memo.fill(0)
      this.tested[name] = memo
      this.testedCall[name] = this.call
    }
    if (memo[j] === 0) {
      let r = false
      try {
        r = test?.(this.names[j] as string) === true
      } catch {
        r = false
      }
      memo[j] = r ? 2 : 1
    }
    return memo[j] === 2
  }
}

/**
 * The plain text a path must contain for `pattern` to match it: runs of ASCII letters, digits, `.`,
 * `_`, `-` and spaces outside `[]` and escapes, longest first. Anything else ends a run, so the list
 * only ever asks for less than the glob does.
 */
function requiredText(pattern: string): string[] {
  const runs = new Set<string>()
  let depth = 0
  let run = ''
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string
    if (ch === '\\') {
      i++ // an escaped character (`\(`): not needed, and ends the run
      if (depth === 0 && run !== '') runs.add(run)
      run = ''
      continue
    }
    if (ch === '[') depth++
    else if (ch === ']' && depth > 0) depth--
    if (depth === 0 && /[a-z0-9._\- ]/.test(ch)) run += ch
    else {
      if (run !== '') runs.add(run)
      run = ''
    }
  }
  if (run !== '') runs.add(run)
  return [...runs].sort((a, b) => b.length - a.length)
}

/** Compile once per set of records (the guard keeps it until the records change). */
export function compileGuard(records: readonly GuardRecord[], compile: GlobCompiler): CompiledGuard {
  const compiled: CompiledRecord[] = []
  const seen = new Set<string>()
  const table = new PatternTable(compile)
  const list = Array.isArray(records) ? records : []
  for (const record of list) {
    if (compiled.length >= GUARD_LIMITS.compiledRecords) break
    const c = compileRecord(record, table, seen)
    if (c !== undefined) compiled.push(c)
  }
  return {
    match(relativePath: string): GuardRecord[] {
      const path = normalisePath(relativePath)
      if (path === undefined) return []
      const folded = fold(path)
      const folders = folded.split('/').slice(0, -1)
      table.next(folded)
      const out: GuardRecord[] = []
      for (const c of compiled) if (covers(c, table, folders)) out.push(c.record)
      return out
    },
  }
}

function compileRecord(record: GuardRecord, table: PatternTable, seen: Set<string>): CompiledRecord | undefined {
  const r = object(record) as GuardRecord | undefined
  if (r === undefined || typeof r.key !== 'string' || seen.has(r.key) || typeof r.title !== 'string') return undefined
  const scope = object(r.scope)
  const paths = Array.isArray(scope?.['paths']) ? (scope['paths'] as unknown[]) : []
  const areaList = Array.isArray(scope?.['areas']) ? (scope['areas'] as unknown[]) : []
  const include: number[] = []
  const exclude: number[] = []
  for (const glob of paths.slice(0, GUARD_LIMITS.globsPerRecord)) {
    if (typeof glob !== 'string') continue
    const read = readScopeGlob(glob, (count) => table.read(count))
    if (read === undefined) continue
    const indexes = read.shapes.map((shape) => table.add(shape))
    if (indexes.every((i): i is number => i !== undefined)) (read.exclude ? exclude : include).push(...indexes)
  }
  // Exclusions alone subtract from everything, as a lone `!glob` does in picomatch.
  if (include.length === 0 && exclude.length > 0) include.push(EVERY_PATH)
  const areas: string[][] = []
  for (const area of areaList.slice(0, GUARD_LIMITS.areasPerRecord)) {
    if (typeof area !== 'string') continue
    const segments = fold(area.normalize('NFC')).replace(/\\/g, '/').split('/').filter((s) => s.trim() !== '')
    if (segments.length > 0) areas.push(segments)
  }
  if (include.length === 0 && areas.length === 0) return undefined
  seen.add(r.key)
  return { record: r, include, exclude, areas }
}

function covers(c: CompiledRecord, table: PatternTable, folders: readonly string[]): boolean {
  if (c.include.length > 0) return c.include.some((i) => table.test(i)) && !c.exclude.some((i) => table.test(i))
  return c.areas.some((area) => underFolders(folders, area))
}

/** Whether `area`'s folder names appear, in a row, among the path's folders (never its file name). */
function underFolders(folders: readonly string[], area: readonly string[]): boolean {
  for (let i = 0; i + area.length <= folders.length; i++) {
    let all = true
    for (let j = 0; j < area.length && all; j++) all = folders[i + j] === area[j]
    if (all) return true
  }
  return false
}

/**
 * A record's glob as the patterns handed to the compiler, with its .gitignore-like meaning
 * (docs/guard.md, Glob semantics): a leading `!` excludes; a glob without an inner slash matches at
 * any depth; a leading `/` or `./` anchors it at the root; a glob covers what it names and everything
 * under it (`src/db` and `src/*` cover whole folders); a trailing slash means folders only.
 *
 * The glob is read here, not by picomatch: braces and ranges are expanded (each alternative its own
 * pattern), `@(a|b)` and `?(a|b)` are read as braces, brackets are rebuilt, and every other special
 * character is escaped, so picomatch only ever sees literals, `?`, `*`, `**` and plain character
 * classes, whose regex can't nest a quantifier (docs/guard.md, Performance). `undefined` for a glob
 * skipped as empty, as naming `..`, as an unbounded extglob (`*( )`, `+( )`, `!( )`), or as too
 * costly to match (GUARD_LIMITS).
 */
export function prepareGlob(glob: string): { exclude: boolean; patterns: string[] } | undefined {
  const read = readScopeGlob(glob)
  return read === undefined ? undefined : { exclude: read.exclude, patterns: read.shapes.map((shape) => shape.map(emitSegment).join('/')) }
}

/**
 * prepareGlob, as the patterns' names (what compileGuard compiles). `budget` is charged the glob's
 * length before it is read and that length again for each further alternative, and may refuse.
 */
function readScopeGlob(glob: string, budget: (characters: number) => boolean = () => true): { exclude: boolean; shapes: Segment[][] } | undefined {
  if (typeof glob !== 'string') return undefined
  let s = glob.normalize('NFC').trim().replace(/\\/g, '/')
  if (s === '' || s.length > GUARD_LIMITS.globLength || /[\p{Cc}]/u.test(s) || !budget(s.length)) return undefined
  if (s.startsWith('!(')) return undefined // picomatch's negated extglob, not an exclusion: refused
  const exclude = s.startsWith('!')
  if (exclude) s = s.slice(1)
  try {
    const nodes = readGlob(fold(s), 0)
    const count = alternatives(nodes)
    if (count > GUARD_LIMITS.alternativesPerGlob || !budget(s.length * (count - 1))) return undefined
    const shapes: Segment[][] = []
    const seen = new Set<string>()
    for (const pieces of expand(nodes)) {
      for (const shape of shapesOf(pieces)) {
        if (!cheapToMatch(shape)) return undefined
        const key = shape.map(emitSegment).join('/')
        if (!seen.has(key)) shapes.push(shape)
        seen.add(key)
      }
    }
    if (shapes.length === 0 || !cheapGlob(shapes)) return undefined
    return { exclude, shapes }
  } catch (e) {
    if (e instanceof Refused) return undefined
    throw e
  }
}

/** One piece of a glob once its braces are expanded. */
type Piece =
  | { readonly kind: 'text'; readonly text: string } // literal characters
  | { readonly kind: 'one' } // `?`
  | { readonly kind: 'star'; readonly size: number } // a run of `*`
  | { readonly kind: 'class'; readonly source: string } // a bracket expression, rebuilt as picomatch source
  | { readonly kind: 'slash' }
/** A glob as written: pieces, and choices (braces, `@( )`, `?( )`) between alternatives. */
type GlobNode = Piece | { readonly kind: 'choice'; readonly options: readonly (readonly GlobNode[])[] }
/** A pattern folder by folder: `**`, or one name as picomatch source, with what the limits look at. */
type Segment = 'globstar' | Name
interface Name {
  /** The name as picomatch reads it (`*.sql`, `\(auth\)`, `[\x2e\x2e\x2eslug]`). */
  readonly source: string
  /** The folded text a path's name must equal, when the name has no wildcard. */
  readonly plain: string | undefined
  /** `*` runs, bracket expressions, and pieces (characters, a bracket expression counting one). */
  readonly stars: number
  readonly classes: number
  readonly length: number
}

/** Thrown while reading a glob that must be skipped; never leaves prepareGlob. */
class Refused extends Error {}

const SLASH: Piece = { kind: 'slash' }
const ONE: Piece = { kind: 'one' }
const literal = (t: string): Piece => ({ kind: 'text', text: t })

/** Reads `s` (already folded) into pieces and choices. `depth` counts the braces and extglobs around it. */
function readGlob(s: string, depth: number): GlobNode[] {
  if (depth > GUARD_LIMITS.braceDepth) throw new Refused()
  const out: GlobNode[] = []
  let i = 0
  while (i < s.length) {
    const ch = s[i] as string
    if (ch === '*') {
      let j = i
      while (s[j] === '*') j++
      if (s[j] === '(' && closing(s, j) > 0) throw new Refused() // `*( )`: any number of repeats, no bounded reading
      out.push({ kind: 'star', size: j - i })
      i = j
    } else if ((ch === '@' || ch === '?' || ch === '+' || ch === '!') && s[i + 1] === '(' && closing(s, i + 1) > 0) {
      // `+( )` repeats and `!( )` negates: refused; `@(a|b)` is `{a,b}`, `?(a|b)` is `{,a,b}`.
      if (ch === '+' || ch === '!') throw new Refused()
      const end = closing(s, i + 1)
      const options = splitTop(s.slice(i + 2, end), '|').map((part) => readGlob(part, depth + 1))
      out.push({ kind: 'choice', options: ch === '?' ? [[], ...options] : options })
      i = end + 1
    } else if (ch === '?') {
      out.push(ONE)
      i++
    } else if (ch === '[' || ch === '{') {
      const group = ch === '[' ? readClass(s, i) : readBrace(s, i, depth)
      out.push(group?.node ?? literal(ch))
      i = group?.end ?? i + 1
    } else if (ch === '/') {
      out.push(SLASH)
      i++
    } else {
      PLAIN_RUN.lastIndex = i + 1
      PLAIN_RUN.test(s)
      const end = PLAIN_RUN.lastIndex > i + 1 ? PLAIN_RUN.lastIndex : i + 1
      out.push(literal(s.slice(i, end)))
      i = end
    }
  }
  return out
}

/** Characters with no meaning to the reader (after the first of a run: `@`, `+` or `!` count only before `(`). */
const PLAIN_RUN = /[^*?[{/@+!]*/y

/** The index of the `)` or `}` closing the group opened at `open`, or -1; brackets are skipped. */
function closing(s: string, open: number): number {
  const o = s[open] as string
  const c = o === '(' ? ')' : '}'
  let depth = 0
  for (let i = open; i < s.length; i++) {
    const ch = s[i]
    if (ch === '[') {
      const cls = readClass(s, i)
      if (cls !== undefined) i = cls.end - 1
    } else if (ch === o) depth++
    else if (ch === c && --depth === 0) return i
  }
  return -1
}

/** `s` split at `sep` outside braces, parentheses and brackets. */
function splitTop(s: string, sep: ',' | '|'): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]
    if (ch === '[') {
      const cls = readClass(s, i)
      if (cls !== undefined) i = cls.end - 1
    } else if (ch === '{' || ch === '(') depth++
    else if ((ch === '}' || ch === ')') && depth > 0) depth--
    else if (ch === sep && depth === 0) {
      parts.push(s.slice(start, i))
      start = i + 1
    }
  }
  parts.push(s.slice(start))
  return parts
}

/** A brace group at `open` (`{a,b}`, `{1..5}`, `{a..e}`, `{01..10..3}`), or `undefined` when the `{` is a plain character. */
function readBrace(s: string, open: number, depth: number): { node: GlobNode; end: number } | undefined {
  const end = closing(s, open)
  if (end < 0) return undefined
  const body = s.slice(open + 1, end)
  const parts = splitTop(body, ',')
  if (parts.length > 1) return { node: { kind: 'choice', options: parts.map((p) => readGlob(p, depth + 1)) }, end: end + 1 }
  // A range of single characters, step 1 (`{a..z}`, `{0..9}`) is the class `[a-z]`: one piece, not 26.
  const single = /^(?:([a-z])\.\.([a-z])|(\d)\.\.(\d))(?:\.\.[+-]?0*1)?$/.exec(body)
  if (single !== null) {
    const [from, to] = [single[1] ?? single[3], single[2] ?? single[4]].sort() as [string, string]
    return { node: { kind: 'class', source: `[${from}-${to}]` }, end: end + 1 }
  }
  const values = rangeValues(body)
  if (values === undefined) return undefined
  return { node: { kind: 'choice', options: values.map((v) => [literal(v)]) }, end: end + 1 }
}

/** The values of a bash range (`1..5`, `05..10`, `a..e`, with an optional step), or `undefined` if `body` isn't one. */
function rangeValues(body: string): string[] | undefined {
  const m = /^(?:([+-]?\d{1,15})\.\.([+-]?\d{1,15})|([a-z])\.\.([a-z]))(?:\.\.([+-]?\d{1,15}))?$/.exec(body)
  if (m === null) return undefined
  const step = Math.max(1, Math.abs(Number(m[5] ?? '1')))
  const numeric = m[1] !== undefined
  const from = numeric ? Number(m[1]) : (m[3] as string).charCodeAt(0)
  const to = numeric ? Number(m[2]) : (m[4] as string).charCodeAt(0)
  const count = Math.floor(Math.abs(to - from) / step) + 1
  if (count > GUARD_LIMITS.alternativesPerGlob) throw new Refused()
  const pad = numeric && [m[1], m[2]].some((v) => /^[+-]?0\d/.test(v as string)) ? Math.max((m[1] as string).length, (m[2] as string).length) : 0
  const values: string[] = []
  for (let k = 0, v = from; k < count; k++, v += from <= to ? step : -step) {
    if (!numeric) values.push(String.fromCharCode(v))
    else values.push(v < 0 ? `-${String(-v).padStart(pad - 1, '0')}` : String(v).padStart(pad, '0'))
  }
  return values
}

/** Character classes as member lists (never `/`; case is folded, so only lower-case letters). */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: 'a-z0-9',
  alpha: 'a-z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'a-z',
  word: 'a-z0-9_',
  xdigit: 'a-f0-9',
  blank: ' ',
  space: ' ',
  punct: '!-.:-@[-`{-~',
  graph: '!-.0-~',
  print: ' -.0-~',
  ascii: '\u0001-.0-\u007f',
  cntrl: '\u0001-\u001f\u007f',
}

/**
 * A bracket expression at `open` (`[abc]`, `[a-z]`, `[!x]`, `[^x]`, `[[:alpha:]]`), rebuilt as a class
 * picomatch passes through unchanged, or `undefined` when the `[` is a plain character (no `]` before
 * the next `/`). Members other than letters and digits are written as `\xHH` or `\uHHHH`, so a class
 * of word characters (`[slug]`, `[...slug]`) keeps picomatch's literal reading (a folder named
 * `[slug]`), and a negated class never matches `/`.
 */
function readClass(s: string, open: number): { node: Piece; end: number } | undefined {
  let j = open + 1
  const negate = s[j] === '!' || s[j] === '^'
  if (negate) j++
  // No `]` after the first member, before the next `/`: a plain `[` (checked first, so a glob of many
  // `[` costs one search each, not one scan of the rest of the glob each).
  const close = s.indexOf(']', j + 1)
  const slash = s.indexOf('/', j)
  if (close < 0 || (slash >= 0 && slash < close)) return undefined
  let source = ''
  for (let first = true; ; first = false) {
    if (j >= s.length || s[j] === '/') return undefined
    const c = s[j] as string
    if (c === ']' && !first) break
    if (c === '[' && s[j + 1] === ':') {
      const close = s.indexOf(':]', j + 2)
      const name = close < 0 ? undefined : s.slice(j + 2, close)
      if (name !== undefined && !name.includes('/')) {
        const members = POSIX_CLASSES[name]
        if (members === undefined) throw new Refused() // `[[:foo:]]`: not a class anyone can mean
        source += Array.from(members, (m, k) => (m === '-' && k > 0 ? '-' : classMember(m))).join('')
        j = close + 2
        continue
      }
    }
    const cp = s.codePointAt(j) ?? 0
    if (cp > 0xffff) throw new Refused() // a class matches one UTF-16 unit: an astral member can't match
    const to = s[j + 1] === '-' && s[j + 2] !== undefined && s[j + 2] !== ']' && s[j + 2] !== '/' ? (s.codePointAt(j + 2) ?? 0) : undefined
    if (to !== undefined) {
      if (to > 0xffff || to < cp) throw new Refused() // `[z-a]`
      source += `${classMember(c)}-${classMember(String.fromCharCode(to))}`
      j += 3
    } else {
      source += classMember(c)
      j += 1
    }
  }
  return { node: { kind: 'class', source: `[${negate ? '^' : ''}${source}]` }, end: j + 1 }
}

function classMember(c: string): string {
  if (/^[\p{L}\p{N}]$/u.test(c)) return c
  const code = c.charCodeAt(0)
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** How many patterns `nodes` expand to (stops counting past the cap). */
function alternatives(nodes: readonly GlobNode[]): number {
  let n = 1
  for (const node of nodes) {
    if (node.kind !== 'choice') continue
    let sum = 0
    for (const option of node.options) sum = Math.min(sum + alternatives(option), GUARD_LIMITS.alternativesPerGlob + 1)
    n = Math.min(n * sum, GUARD_LIMITS.alternativesPerGlob + 1)
  }
  return n
}

/** Every alternative of `nodes` (count them with `alternatives` first). */
function expand(nodes: readonly GlobNode[]): Piece[][] {
  let out: Piece[][] = [[]]
  for (const node of nodes) {
    if (node.kind !== 'choice') {
      for (const pieces of out) pieces.push(node)
      continue
    }
    const tails = node.options.flatMap((option) => expand(option))
    out = out.flatMap((head) => tails.map((tail) => [...head, ...tail]))
  }
  return out
}

/**
 * One alternative of a glob as the patterns it stands for (none for an empty alternative), with the
 * .gitignore reading: anchored when it has a slash before its end, else at any depth (`**` first); a
 * trailing slash means a folder (`/**` + `/*` after it); otherwise the name and everything under it.
 */
function shapesOf(pieces: readonly Piece[]): Segment[][] {
  if (pieces.length === 0) return []
  let last = pieces.length
  while (last > 0 && pieces[last - 1]?.kind === 'slash') last--
  const folderOnly = last < pieces.length
  const anchored = pieces.slice(0, last).some((p) => p.kind === 'slash')
  const names: Piece[][] = [[]]
  for (const p of pieces) {
    if (p.kind === 'slash') names.push([])
    else (names[names.length - 1] as Piece[]).push(p)
  }
  const segments: Segment[] = []
  for (const name of names) {
    const word = name.every((p) => p.kind === 'text') ? name.map((p) => (p as { text: string }).text).join('') : undefined
    if (name.length === 0 || word === '.') continue // `//` and `./`
    if (word === '..') throw new Refused() // can't match a path inside the project
    const merged = mergeStars(name)
    const only = merged.length === 1 ? merged[0] : undefined
    const segment: Segment = only?.kind === 'star' && only.size >= 2 ? 'globstar' : nameOf(merged)
    if (segment === 'globstar' && segments[segments.length - 1] === 'globstar') continue // `**/**` is `**`
    segments.push(segment)
  }
  if (segments.length === 0) return [['globstar']] // `.`, `./`, `/`: every file
  if (!anchored && segments[0] !== 'globstar') segments.unshift('globstar')
  if (segments[segments.length - 1] === 'globstar') return [segments]
  // `x/**` also matches a file named `x`; `x/**` + `/*` needs something under the folder.
  if (folderOnly) return [[...segments, 'globstar', nameOf([{ kind: 'star', size: 1 }])]]
  return [segments, [...segments, 'globstar']]
}

/** Adjacent star runs are one run (`{*,a}*` expands to `**`). */
function mergeStars(name: readonly Piece[]): Piece[] {
  const out: Piece[] = []
  for (const p of name) {
    const prev = out[out.length - 1]
    if (p.kind === 'star' && prev?.kind === 'star') out[out.length - 1] = { kind: 'star', size: prev.size + p.size }
    else out.push(p)
  }
  return out
}

/** Characters picomatch reads as syntax (or as regex), escaped so it reads them as themselves. */
const SYNTAX = /[\\()[\]{}|+!@"$^,*?]/g

function nameOf(pieces: readonly Piece[]): Name {
  let source = ''
  let plain: string | undefined = ''
  let stars = 0
  let classes = 0
  let length = 0
  for (const p of pieces) {
    if (p.kind === 'text') {
      source += p.text.replace(SYNTAX, '\\$&')
      plain = plain === undefined ? undefined : plain + p.text
      length += p.text.length
      continue
    }
    plain = undefined
    length++
    if (p.kind === 'one') source += '?'
    else if (p.kind === 'star') (source += '*'), stars++
    else if (p.kind === 'class') (source += p.source), classes++
  }
  return { source, plain, stars, classes, length }
}

function emitSegment(segment: Segment): string {
  return segment === 'globstar' ? '**' : segment.source
}

/** A name with two `*` runs: its test may try every split of the path's name. */
function isCostly(name: Name): boolean {
  return name.stars > 1
}

/** Whether a glob's patterns, together, stay within the per-glob caps of GUARD_LIMITS. */
function cheapGlob(shapes: readonly (readonly Segment[])[]): boolean {
  const wildcard = new Set<string>()
  const costly = new Set<string>()
  for (const shape of shapes) {
    for (const segment of shape) {
      if (segment === 'globstar' || segment.plain !== undefined) continue
      wildcard.add(segment.source)
      if (isCostly(segment)) costly.add(segment.source)
    }
  }
  return wildcard.size <= GUARD_LIMITS.wildcardNamesPerGlob && costly.size <= GUARD_LIMITS.costlyNamesPerGlob
}

/**
 * Whether a pattern stays fast to match on any path (the limits in GUARD_LIMITS, measured by
 * scripts/bench-guard.mjs and spec/core/decision.spec.ts). Names are matched one by one, so only a
 * name's own `*` runs can make its test backtrack, over that name alone.
 */
function cheapToMatch(shape: readonly Segment[]): boolean {
  if (shape.filter((s) => s !== 'globstar').length > GUARD_LIMITS.namesPerPattern) return false
  return shape.every(
    (s) =>
      s === 'globstar' ||
      (s.stars <= GUARD_LIMITS.starRunsPerName &&
        s.classes <= GUARD_LIMITS.classesPerName &&
        (s.plain !== undefined || s.length <= GUARD_LIMITS.wildcardNameLength)),
  )
}

/**
 * A project-relative path as the matchers see it, or `undefined` when there is nothing to match:
 * `/` separators, no empty, `.` or `..` names (`src/db/../db/x.sql` is `src/db/x.sql`; a path that
 * climbs above the project root is not in the project).
 */
function normalisePath(p: unknown): string | undefined {
  if (typeof p !== 'string' || p.length > GUARD_LIMITS.pathLength) return undefined
  const names: string[] = []
  for (const name of p.normalize('NFC').replace(/\\/g, '/').split('/')) {
    if (name === '' || name === '.') continue
    if (name !== '..') names.push(name)
    else if (names.pop() === undefined) return undefined
  }
  return names.length === 0 ? undefined : names.join('/')
}

/** Case folding close to Unicode's full folding (`ß`, `ẞ` and `SS` fold alike); ASCII takes the short way. */
function fold(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase()
  return s.toLowerCase().toUpperCase().toLowerCase().normalize('NFC')
}

// ---------------------------------------------------------------------------------------------
// What the user and Claude read

/** Records listed in the question and the deny text; the rest are counted. */
export const LISTED_RECORDS = 10
const SHOWN_TITLE = 120
const SHOWN_WHY = 200
const SHOWN_PATH = 160

/** The question shown in Claude Code's dialog (`$.ui.ask(question, ['Allow', 'Stop'])`); ends in `?`. */
export function guardQuestion(relativePath: string, matches: readonly GuardRecord[]): string {
  const list = recordsOf(matches)
  const path = shownPath(relativePath)
  const lines = [`${path} is covered by ${count(list)}:`, '']
  for (const r of list.slice(0, LISTED_RECORDS)) {
    lines.push(`• ${label(r)}: ${display(r.title, SHOWN_TITLE)}`)
    const why = display(r.why, SHOWN_WHY)
    if (why !== '') lines.push(`  Why: ${why}`)
  }
  if (list.length > LISTED_RECORDS) lines.push(`• …and ${list.length - LISTED_RECORDS} more`)
  lines.push('', `Allow is remembered for ${list.length === 1 ? 'this record' : 'these records'} for the rest of this conversation; Stop refuses this edit.`)
  lines.push(`Allow this edit of ${path}?`)
  return lines.join('\n')
}

/** The deny text Claude reads on Stop: which records, why, and to ask the user rather than retry. */
export function stopReason(relativePath: string, matches: readonly GuardRecord[]): string {
  const list = recordsOf(matches)
  const lines = [`The user chose Stop in Hark's edit guard: this edit of ${shownPath(relativePath)} is covered by ${count(list)}:`]
  for (const r of list.slice(0, LISTED_RECORDS)) {
    const why = display(r.why, SHOWN_WHY)
    lines.push(`- ${label(r)} "${display(r.title, SHOWN_TITLE)}"${why === '' ? '' : ` (why: ${why})`}`)
  }
  if (list.length > LISTED_RECORDS) lines.push(`- …and ${list.length - LISTED_RECORDS} more`)
  lines.push(
    'Do not retry this edit, and do not make the same change another way (another tool, a shell command or another file).',
    'Ask the user how they want to proceed.',
  )
  return lines.join('\n')
}

function recordsOf(matches: readonly GuardRecord[]): GuardRecord[] {
  if (!Array.isArray(matches)) return []
  return matches.filter((r): r is GuardRecord => object(r) !== undefined && typeof (r as GuardRecord).title === 'string')
}

function count(list: readonly GuardRecord[]): string {
  const decisions = list.filter((r) => r.kind !== 'non-goal').length
  const nonGoals = list.length - decisions
  const parts: string[] = []
  if (decisions > 0) parts.push(decisions === 1 ? 'a Hark decision' : `${decisions} Hark decisions`)
  if (nonGoals > 0) parts.push(nonGoals === 1 ? `a ${decisions > 0 ? '' : 'Hark '}non-goal` : `${nonGoals} ${decisions > 0 ? '' : 'Hark '}non-goals`)
  return parts.length === 0 ? 'no Hark record' : parts.join(' and ')
}

function label(r: GuardRecord): string {
  const kind = r.kind === 'non-goal' ? 'Non-goal' : 'Decision'
  const areas = Array.isArray(r.scope?.areas) ? r.scope.areas.filter((a) => typeof a === 'string').slice(0, 3) : []
  const shown = areas.map((a) => display(a, 40)).filter((a) => a !== '')
  return shown.length === 0 ? kind : `${kind} (${shown.join(', ')})`
}

function shownPath(p: unknown): string {
  const s = display(p, Number.MAX_SAFE_INTEGER)
  if (s === '') return 'this file'
  const chars = Array.from(s)
  if (chars.length <= SHOWN_PATH) return s
  // Keep the end, where the file name is, and start at a folder boundary when there is one.
  const tail = chars.slice(-(SHOWN_PATH - 1)).join('')
  const cut = tail.indexOf('/')
  return `…${cut >= 0 && cut < tail.length - 1 ? tail.slice(cut) : tail}`
}

/** Untrusted text made safe to show: no control or bidi characters, one line, at most `max` characters. */
function display(v: unknown, max: number): string {
  if (typeof v !== 'string') return ''
  const t = text(v.replace(UNPRINTABLE, ' '), Number.MAX_SAFE_INTEGER) ?? ''
  const chars = Array.from(t)
  return chars.length <= max ? t : `${chars.slice(0, max - 1).join('').trimEnd()}…`
}
