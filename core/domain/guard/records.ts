/**
 * The edit guard's records (SPEC.md: The edit guard; HARK-API.md: list_journal_entries, get_agent_brief):
 * which Hark records are settled, what their scope is (the structured fields, else `(scope: …)` in the
 * title and `scope:` lines in the body), and the GuardRecord each settled, scoped one becomes.
 * Pure: no function here throws, whatever Hark sends. docs/guard.md has the rules.
 */
import { object, text } from '../item'
import { GUARD_LIMITS } from './limits'

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
// Text safe to show (the titles and whys kept here, and the question and deny text)

/** Untrusted text made safe to show: no control or bidi characters, one line, at most `max` characters. */
export function display(v: unknown, max: number): string {
  if (typeof v !== 'string') return ''
  const t = text(v.replace(UNPRINTABLE, ' '), Number.MAX_SAFE_INTEGER) ?? ''
  const chars = Array.from(t)
  return chars.length <= max ? t : `${chars.slice(0, max - 1).join('').trimEnd()}…`
}
