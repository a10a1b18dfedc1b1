/**
 * The edit guard's records (SPEC.md: The edit guard; HARK-API.md: list_journal_entries, get_agent_brief):
 * which Hark records are settled, what their scope is (the structured fields, else `(scope: …)` in the
 * title and `scope:` lines in the body), and the GuardRecord each settled, scoped one becomes.
 * Pure: no function here throws, whatever Hark sends. docs/guard.md has the rules.
 *
 * The loops run for every record are indexed and call no array callback: the cold first guarded edit reads
 * 200 records (docs/engine.md, "Shapes the cold first edit keeps").
 */
import { object, replaced, text } from '../item'
import { CONTROL } from './glob'
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

/** One of the unsettled words, whole (between characters other than a-z), in lower-cased text. */
const UNSETTLED = /(?:^|[^a-z])(?:proposed|candidate|draft|pending|rejected|superseded|retired|expired|obsolete)(?![a-z])/

/**
 * Whether a record is settled: it is, unless `status`, `acceptance` or `applicability` holds one of the
 * unsettled words (as a whole word, any case: `Superseded by D-12`, `pending_review`), `superseded_by`
 * is set, or `accepted` is `false`. Values of another type are ignored; a value that is no object is no
 * settled record.
 */
export function isSettled(record: unknown): record is Record<string, unknown> {
  const o = object(record)
  if (o === undefined || isSet(o['superseded_by']) || o['accepted'] === false) return false
  return !(holdsUnsettled(o['status']) || holdsUnsettled(o['acceptance']) || holdsUnsettled(o['applicability']))
}

/** Whether `v` is a string holding one of the unsettled words. */
function holdsUnsettled(v: unknown): boolean {
  return typeof v === 'string' && UNSETTLED.test(v.toLowerCase())
}

function isSet(v: unknown): boolean {
  if (typeof v === 'string') return v.trim() !== ''
  if (typeof v === 'number') return Number.isFinite(v)
  if (Array.isArray(v)) return v.length > 0
  return typeof v === 'object' && v !== null ? Object.keys(v).length > 0 : v === true
}

// ---------------------------------------------------------------------------------------------
// Scope

const TITLE_KEYS = ['title', 'text', 'summary', 'name'] as const
/** Glob or path characters (`\\` too, read as `/`): a loose value holding one is a path, otherwise an area word. */
const PATH_CHAR = /[/\\*?.[\]{}]/

/**
 * The pattern of an area: folder names between single slashes, each of `letters` (a class's contents),
 * `_ - . @ +` and inner spaces, not dots alone.
 */
function areaPattern(letters: string, flags: string): RegExp {
  const name = `(?!\\.+(?:/|$))[${letters}_\\-.@+](?:[${letters}_\\-.@+ ]*[${letters}_\\-.@+])?`
  return new RegExp(`^${name}(?:/${name})*$`, flags)
}
/** The pattern for ASCII text, whose letters, marks and digits are `\w` (docs/engine.md, "Shapes the cold first edit keeps"). */
const ASCII_AREA = areaPattern('\\w', '')
/** The pattern for any text, built on first use. */
let unicodeArea: RegExp | undefined

/** Whether `a` is an area's folder names (areaPattern). */
export function isArea(a: string): boolean {
  const pattern = /^[\x00-\x7f]*$/.test(a) ? ASCII_AREA : (unicodeArea ??= areaPattern('\\p{L}\\p{M}\\p{N}', 'u'))
  return pattern.test(a)
}
/** C0/C1 controls, and format characters (bidi overrides, zero-width marks). */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu
/** Printable ASCII, which holds none of them (most ids, titles and whys). */
const PRINTABLE = /^[ -~]*$/
/** Words joining a written list that are never scopes themselves (`scope: billing and payments`). */
const JOINERS = new Set(['and', 'or', '&', '+'])

/**
 * How a scope value is read: `paths`; `areas`, nested ones too (`billing/api`); `loose`, each a path when it
 * holds a path character, else one area (the text's `(scope: …)` markers and `scope:` lines); `scope`, a
 * scope object (`{ paths, areas }`), a list that may hold some, or loose values.
 */
type ValueKind = 'paths' | 'areas' | 'loose' | 'scope'

interface ScopeField {
  readonly field: string
  readonly kind: ValueKind
}

/** A record's structured scope fields, in the order read. */
const RECORD_FIELDS: readonly ScopeField[] = [
  { field: 'scope', kind: 'scope' },
  { field: 'scope_paths', kind: 'paths' },
  { field: 'paths', kind: 'paths' },
  { field: 'files', kind: 'paths' },
  { field: 'scope_area', kind: 'areas' },
  { field: 'scope_areas', kind: 'areas' },
  { field: 'areas', kind: 'areas' },
  { field: 'area', kind: 'areas' },
  { field: 'scopes', kind: 'scope' },
  { field: 'applies_to', kind: 'scope' },
]
/** A scope object's fields (`scope: { paths, areas }`). */
const SCOPE_OBJECT_FIELDS: readonly ScopeField[] = [
  { field: 'paths', kind: 'paths' },
  { field: 'areas', kind: 'areas' },
  { field: 'area', kind: 'areas' },
]
/** The word every `(scope: …)` marker and `scope:` line holds, in any case. */
const SCOPE_WORD = /scope/i

/**
 * The scope of one record. Structured fields win: paths from `scope.paths`, `scope_paths`, `paths`,
 * `files`; areas from `scope_area`, `scope_areas`, `scope.areas`, `scope.area`, `areas`, `area`; loose
 * values from `scope` as a string or list, `scopes`, `applies_to`. Only when those give nothing usable
 * does the text count: `(scope: …)` markers in the title and `scope:` lines in the body.
 * `scope_version` and `scope_audience` are never read. Each path and area is kept once, at most 16 of each.
 */
export function scopeOf(record: Record<string, unknown>): Scope {
  const o = object(record) ?? {}
  const paths: string[] = []
  const areas: string[] = []

  function read(from: Record<string, unknown>, fields: readonly ScopeField[]): void {
    for (let i = 0; i < fields.length; i++) {
      const { field, kind } = fields[i]!
      const v = from[field]
      if (v !== undefined) add(v, kind)
    }
  }

  /**
   * The values of `v`, read as `kind` says. A string is a list separated by commas, semicolons or white
   * space (splitList); each string element of a list, of its first 64, is one value, taken whole (so a
   * path with a space fits in a list). Other types give nothing.
   */
  function add(v: unknown, kind: ValueKind): void {
    const scopeObject = kind === 'scope' ? object(v) : undefined
    if (scopeObject !== undefined) return read(scopeObject, SCOPE_OBJECT_FIELDS)
    const list: unknown[] = typeof v === 'string' ? splitList(v) : Array.isArray(v) ? v.slice(0, 64) : []
    // A list's scope objects are read first, then its strings.
    for (let i = 0; kind === 'scope' && i < list.length; i++) add(object(list[i]), kind)
    for (let i = 0; i < list.length; i++) {
      const item = list[i]
      if (typeof item !== 'string') continue
      if (kind === 'paths' || (kind !== 'areas' && PATH_CHAR.test(item))) addPath(item)
      else addArea(item, kind === 'areas')
    }
  }

  /** A path: not blank, not too long, no control character; kept once. */
  function addPath(raw: string): void {
    if (paths.length >= GUARD_LIMITS.globsPerRecord) return
    const p = cleanValue(raw)
    if (p !== '' && p.length <= GUARD_LIMITS.globLength && !CONTROL.test(p) && !paths.includes(p)) paths.push(p)
  }

  /** An area: one folder name, or nested ones when `nested`; not a joining word; kept once. */
  function addArea(raw: string, nested: boolean): void {
    if (areas.length >= GUARD_LIMITS.areasPerRecord) return
    const a = replaced(cleanValue(raw), /^\/+|\/+$/g, '')
    const fits = a.length <= GUARD_LIMITS.areaLength && (nested || !a.includes('/')) && isArea(a)
    if (fits && !JOINERS.has(a.toLowerCase()) && !areas.includes(a)) areas.push(a)
  }

  /** `scope: …` lines (also `- Scope: …`, `**Scope:** …`) of the first 500; `scope_version:` and the like are not. */
  function scopeLines(list: readonly string[]): void {
    for (const line of list.slice(0, 500)) {
      const m = /^[ \t]*(?:[-*•>+][ \t]+)?(?:\*\*|__|\*|_)?scopes?(?:\*\*|__|\*|_)?[ \t]*:(?:\*\*|__|\*|_)?(.*)$/i.exec(line)
      if (m !== null) add(m[1], 'loose')
    }
  }

  read(o, RECORD_FIELDS)
  if (paths.length > 0 || areas.length > 0) return { paths, areas }
  // A title or body without the word `scope` holds no marker and no scope line.
  const title = rawTitle(o)
  if (title !== undefined && SCOPE_WORD.test(title)) {
    for (const marker of markers(title).contents) add(marker, 'loose')
    scopeLines(lines(title).slice(1))
  }
  const body = o['body']
  if (typeof body === 'string' && SCOPE_WORD.test(body)) scopeLines(lines(body))
  return { paths, areas }
}

/**
 * A list separated by commas, semicolons or white space, not inside `{}`, `[]` or `()` (so
 * `src/{db,billing}/**` stays whole), each value cleaned and without the sentence punctuation around it
 * (`billing.` at the end of a line); joining words are dropped.
 */
function splitList(s: string): string[] {
  const out: string[] = []
  const text = s.slice(0, 4_000)
  let depth = 0
  let start = 0
  // One step past the end, where the last value ends.
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i]
    if (ch === '{' || ch === '[' || ch === '(') depth++
    else if ((ch === '}' || ch === ']' || ch === ')') && depth > 0) depth--
    // `trim` removes what `\s` matches (white space and line ends).
    else if (ch === undefined || (depth === 0 && (ch === ',' || ch === ';' || ch.trim() === ''))) {
      const v = cleanValue(replaced(cleanValue(text.slice(start, i)), /[.,;:]+$/, ''))
      if (v !== '' && !JOINERS.has(v.toLowerCase())) out.push(v)
      start = i + 1
    }
  }
  return out
}

/** Trimmed, NFC, each `\` as `/`, without surrounding quotes or backticks (`` `src/db/**` `` in a markdown body). */
function cleanValue(v: string): string {
  let s = v.normalize('NFC').trim()
  if (s.includes('\\')) s = s.replaceAll('\\', '/')
  if (!QUOTED.test(s)) return s
  // A value in matching quotes, as often as it is (`"'x'"`), then any quote left at either end.
  while (s.length >= 2 && QUOTES.includes(s.charAt(0)) && s.endsWith(s.charAt(0))) s = s.slice(1, -1).trim()
  return replaced(s, /^[`'"]+|[`'"]+$/g, '').trim()
}

const QUOTES = '`\'"'
const QUOTED = /^[`'"]|[`'"]$/

/** `s` split into lines at `\r\n`, `\r` or `\n`. */
function lines(s: string): string[] {
  return (s.includes('\r') ? s.replace(/\r\n?/g, '\n') : s).split('\n')
}

/** The first title field holding a non-blank string, as written. */
function rawTitle(o: Record<string, unknown>): string | undefined {
  for (let i = 0; i < TITLE_KEYS.length; i++) {
    const v = o[TITLE_KEYS[i]!]
    if (typeof v === 'string' && v.trim() !== '') return v.slice(0, 10_000)
  }
  return undefined
}

/**
 * The `(scope: …)` markers of `s`, parentheses balanced (`(scope: app/(auth)/**)`), at most 8: their
 * contents, and `s` without them (and without the space a marker leaves before punctuation).
 */
function markers(s: string): { contents: string[]; rest: string } {
  const contents: string[] = []
  let rest = ''
  let at = 0
  const re = /\(\s*scopes?\s*:/gi
  let m: RegExpExecArray | null
  // Most titles: no marker to look for.
  while (s.includes('(') && (m = re.exec(s)) !== null && contents.length < 8) {
    // Just past the `)` closing the marker's `(`, or the end of `s`.
    let end = m.index
    for (let depth = 0; end < s.length; ) {
      const ch = s[end++]
      if (ch === '(') depth++
      else if (ch === ')' && --depth === 0) break
    }
    contents.push(s.slice(re.lastIndex, s[end - 1] === ')' ? end - 1 : end))
    rest += s.slice(at, m.index)
    at = re.lastIndex = end
    if (/^[ \t]*(?:[,.;:!?)]|$)/.test(s.slice(at, at + 80))) {
      let cut = rest.length
      while (rest[cut - 1] === ' ' || rest[cut - 1] === '\t') cut--
      rest = rest.slice(0, cut)
    }
  }
  return { contents, rest: rest + s.slice(at) }
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
  return parseRecords(Array.isArray(p) ? p : object(p)?.['entries'], 'decision')
}

/** The brief's build_state.non_goals items (strings or objects, HARK-API) → the scoped non-goals. */
export function parseNonGoals(items: readonly unknown[]): GuardRecord[] {
  return parseRecords(items, 'non-goal')
}

/** The settled, scoped records of `list` (none when it is not an array), each key once. */
function parseRecords(list: unknown, kind: GuardRecord['kind']): GuardRecord[] {
  const out: GuardRecord[] = []
  const seen = new Set<string>()
  const entries = Array.isArray(list) ? list : []
  for (let i = 0; i < entries.length && i < GUARD_LIMITS.scannedEntries && out.length < GUARD_LIMITS.records; i++) {
    const raw: unknown = entries[i]
    const o = typeof raw === 'string' ? { title: raw } : raw
    const record = isSettled(o) ? guardRecordOf(o, kind) : undefined
    if (record !== undefined && !seen.has(record.key)) {
      seen.add(record.key)
      out.push(record)
    }
  }
  return out
}

function guardRecordOf(o: Record<string, unknown>, kind: GuardRecord['kind']): GuardRecord | undefined {
  const scope = scopeOf(o)
  if (scope.paths.length === 0 && scope.areas.length === 0) return undefined
  const raw = rawTitle(o)
  // A title with no marker and one line is its own headline; none displays as ''.
  const headline = raw !== undefined && /[(\r\n]/.test(raw) ? firstLine(lines(markers(raw).rest)) : raw
  const title = display(headline, GUARD_LIMITS.titleLength) || `Untitled ${kind}`
  const why = display(o['why'], GUARD_LIMITS.whyLength) || display(o['rationale'], GUARD_LIMITS.whyLength)
  const id = idOf(o['id'])
  const key = `${kind === 'decision' ? '' : 'non-goal:'}${id !== undefined ? `id:${id}` : `title:${title}`}`
  return why === '' ? { key, kind, title, scope } : { key, kind, title, why, scope }
}

/** The first line that is not blank, or `''`. */
function firstLine(list: readonly string[]): string {
  return list.find((line) => line.trim() !== '') ?? ''
}

function idOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v !== 'string') return undefined
  const id = (PRINTABLE.test(v) ? v : replaced(v, UNPRINTABLE, '')).trim()
  return id === '' || id.length > GUARD_LIMITS.idLength ? undefined : id
}

// ---------------------------------------------------------------------------------------------
// Text safe to show (the titles and whys kept here, and the question and deny text)

/** Untrusted text made safe to show: no control or bidi characters, one line, at most `max` characters. */
export function display(v: unknown, max: number): string {
  if (typeof v !== 'string') return ''
  // Printable ASCII with no two spaces in a row is what `text` leaves it, trimmed (most titles and whys).
  const plain = PRINTABLE.test(v)
  const t = plain && !v.includes('  ') ? v.trim() : (text(plain ? v : replaced(v, UNPRINTABLE, ' '), Number.MAX_SAFE_INTEGER) ?? '')
  // Counted in code points only when it may be too long: a text has no more of them than UTF-16 units.
  if (t.length <= max) return t
  const chars = Array.from(t)
  return chars.length <= max ? t : `${chars.slice(0, max - 1).join('').trimEnd()}…`
}
