/**
 * The edit guard's domain (SPEC.md: The edit guard; HARK-API.md: list_journal_entries, get_agent_brief):
 * which Hark records are settled and scoped, what their scope is, and which of them cover a file.
 *
 * Pure: no I/O, and no function here throws, whatever Hark sends. Glob matching reaches the domain as
 * a `GlobCompiler` (the adapter passes picomatch with `GLOB_OPTIONS`); the .gitignore-like meaning of a
 * scope glob is decided here, by rewriting it before it is compiled. docs/guard.md has the rules.
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

/** Turns one glob into a test of a project-relative path; may throw on a glob it can't compile. */
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
   * Globs whose regex could backtrack for long are skipped (docs/guard.md, Performance): a segment
   * with more than 2 `*` runs (`*a*b` has 2), a compiled pattern with more than 2 `**`, or with more
   * than 4 wildcards in all (each `*` run and each `**` counts 1; a trailing `/**` is free).
   */
  starRunsPerSegment: 2,
  globstarsPerGlob: 2,
  wildcardsPerGlob: 4,
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

/**
 * Every distinct pattern of a guard, compiled once. Each carries the plain text it needs (ASCII
 * letters, digits, `.`, `_`, `-` and spaces outside any group), checked with `includes` before the
 * regex runs: most paths fail that check, and a path that can't match never reaches a regex that
 * might backtrack on it. Within one `match`, a pattern shared by several records is tested once.
 */
class PatternTable {
  private readonly index = new Map<string, number>()
  private readonly tests: ((path: string) => boolean)[] = []
  private readonly literals: (readonly string[])[] = []
  private readonly stamp: number[] = []
  private readonly result: boolean[] = []
  private call = 0

  constructor(private readonly compile: GlobCompiler) {}

  /** The pattern's index, or `undefined` when the compiler refuses it. */
  add(pattern: string): number | undefined {
    const known = this.index.get(pattern)
    if (known !== undefined) return known
    let test: unknown
    try {
      test = this.compile(pattern)
    } catch {
      return undefined // a glob the library refuses is skipped (docs/guard.md)
    }
    if (typeof test !== 'function') return undefined
    const i = this.tests.length
    this.tests.push(test as (path: string) => boolean)
    this.literals.push(requiredText(pattern))
    this.stamp.push(0)
    this.result.push(false)
    this.index.set(pattern, i)
    return i
  }

  /** Starts a new `match` call: earlier results no longer count. */
  next(): void {
    this.call++
  }

  test(i: number, path: string): boolean {
    if (i === EVERY_PATH) return true
    if (this.stamp[i] === this.call) return this.result[i] === true
    let r = false
    const needs = this.literals[i] ?? []
    if (needs.every((t) => path.includes(t))) {
      try {
        r = this.tests[i]?.(path) === true
      } catch {
        r = false
      }
    }
    this.stamp[i] = this.call
    this.result[i] = r
    return r
  }
}

/**
 * The plain text a path must contain for `pattern` to match it: runs of ASCII letters, digits, `.`,
 * `_`, `-` and spaces outside `{}`, `[]`, `()` (extglobs) and escapes, longest first. Anything else
 * ends a run, so the list only ever asks for less than the glob does.
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
    if (ch === '{' || ch === '[' || ch === '(') depth++
    else if ((ch === '}' || ch === ']' || ch === ')') && depth > 0) depth--
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
      table.next()
      const out: GuardRecord[] = []
      for (const c of compiled) if (covers(c, table, folded, folders)) out.push(c.record)
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
    const prepared = prepareGlob(glob)
    if (prepared === undefined) continue
    const indexes = prepared.patterns.map((p) => table.add(p))
    if (indexes.every((i): i is number => i !== undefined)) (prepared.exclude ? exclude : include).push(...indexes)
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

function covers(c: CompiledRecord, table: PatternTable, path: string, folders: readonly string[]): boolean {
  if (c.include.length > 0) return c.include.some((i) => table.test(i, path)) && !c.exclude.some((i) => table.test(i, path))
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
 * under it (`src/db` and `src/*` cover whole folders); a trailing slash means folders only. Parentheses
 * and `|` outside an extglob are literal (`app/(auth)/**`). `undefined` for a glob skipped as empty or
 * too complex.
 */
export function prepareGlob(glob: string): { exclude: boolean; patterns: string[] } | undefined {
  if (typeof glob !== 'string') return undefined
  let s = glob.normalize('NFC').trim().replace(/\\/g, '/')
  if (s === '' || s.length > GUARD_LIMITS.globLength || /[\p{Cc}]/u.test(s)) return undefined
  const exclude = s.startsWith('!') && !s.startsWith('!(')
  if (exclude) s = s.slice(1)
  const folderOnly = s.endsWith('/')
  const anchored = s.replace(/\/+$/, '').includes('/')
  s = s.replace(/\/{2,}/g, '/').replace(/(^|\/)(?:\.\/)+/g, '$1').replace(/^\/+|\/+$/g, '')
  if (s === '' || s === '.') s = '**'
  if (s.split('/').some((seg) => seg === '..')) return undefined
  s = fold(literalGroups(s))
  const base = anchored || s === '**' || s.startsWith('**/') ? s : `**/${s}`
  let patterns: string[]
  if (base === '**' || base.endsWith('/**')) patterns = [base]
  // `x/**` also matches a file named `x`; `x/**` + `/*` needs something under the folder.
  else if (folderOnly) patterns = [`${base}/**/*`]
  else patterns = [base, `${base}/**`]
  return patterns.every(cheapToMatch) ? { exclude, patterns } : undefined
}

/** Whether a pattern's regex stays fast on any path (the limits in GUARD_LIMITS, measured by scripts/bench-guard.mjs). */
function cheapToMatch(pattern: string): boolean {
  let wildcards = 0
  let globstars = 0
  for (const seg of pattern.replace(/\/\*\*$/, '').split('/')) {
    if (seg === '**') globstars++
    const runs = seg === '**' ? 1 : (seg.match(/\*+/g)?.length ?? 0)
    if (runs > GUARD_LIMITS.starRunsPerSegment) return false
    wildcards += runs
  }
  return globstars <= GUARD_LIMITS.globstarsPerGlob && wildcards <= GUARD_LIMITS.wildcardsPerGlob
}

/** Escapes `(`, `)` and `|` that are not part of an extglob (`@(`, `!(`, `?(`, `*(`, `+(`). */
function literalGroups(s: string): string {
  let out = ''
  const stack: boolean[] = []
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string
    if (ch === '(') {
      const extglob = i > 0 && '@!?*+'.includes(s[i - 1] as string)
      stack.push(extglob)
      out += extglob ? '(' : '\\('
    } else if (ch === ')') {
      const extglob = stack.pop()
      out += extglob === true ? ')' : '\\)'
    } else if (ch === '|') {
      out += stack[stack.length - 1] === true ? '|' : '\\|'
    } else {
      out += ch
    }
  }
  return out
}

/** A project-relative path as the matchers see it, or `undefined` when there is nothing to match. */
function normalisePath(p: unknown): string | undefined {
  if (typeof p !== 'string' || p.length > GUARD_LIMITS.pathLength) return undefined
  const s = p.normalize('NFC').replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^(?:\.\/|\/)+/, '').replace(/\/+$/, '')
  return s === '' || s === '.' ? undefined : s
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
