/**
 * The edit guard's records (SPEC.md: The edit guard; HARK-API.md: list_journal_entries, get_agent_brief):
 * which Hark records are settled, what their scope is (the structured fields, else `(scope: …)` in the
 * title and `scope:` lines in the body), and the GuardRecord each settled, scoped one becomes.
 * Pure: no function here throws, whatever Hark sends. docs/guard.md has the rules.
 *
 * The first guarded edit of a session waits for this file to read up to 200 records, in the engine's
 * hooks worker, whose JavaScriptCore runs with frozen built-ins: there a regex `split` is tried at every
 * position (about 0.4 µs each), a regex `replace` costs a microsecond or more, and `for…of` takes the
 * generic iterator path (about 0.2 µs an element, three times an indexed loop), so strings are split at a
 * fixed character, a regex is tested before a replace that usually finds nothing, and the loops run once
 * or more per record are indexed (docs/guard.md, Performance).
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
const SETTLEDNESS_FIELDS = ['status', 'acceptance', 'applicability'] as const

/**
 * Whether a record is settled: it is, unless `status`, `acceptance` or `applicability` holds one of the
 * unsettled words (as a whole word, any case: `Superseded by D-12`, `pending_review`), `superseded_by`
 * is set, or `accepted` is `false`. Values of another type are ignored; a value that is no object is no
 * settled record.
 */
export function isSettled(record: unknown): record is Record<string, unknown> {
  const o = object(record)
  // `superseded_by` is mostly absent: not read further (isSet stays cold, never compiled by the engine).
  if (o === undefined || (o['superseded_by'] !== undefined && isSet(o['superseded_by'])) || o['accepted'] === false) return false
  for (let i = 0; i < SETTLEDNESS_FIELDS.length; i++) {
    const v = o[SETTLEDNESS_FIELDS[i] as string]
    if (typeof v === 'string' && UNSETTLED.test(v.toLowerCase())) return false
  }
  return true
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
 * The folder names an area may stand for, between single slashes: each of letters, marks, digits,
 * `_ - . @ +` and inner spaces, not dots alone.
 */
const AREA_NAME = '(?!\\.+(?:/|$))[\\p{L}\\p{M}\\p{N}_\\-.@+](?:[\\p{L}\\p{M}\\p{N}_\\-.@+ ]*[\\p{L}\\p{M}\\p{N}_\\-.@+])?'
const AREA = `^${AREA_NAME}(?:/${AREA_NAME})*$`
/**
 * The same pattern for text of ASCII characters alone, where letters, marks and digits are `\w`:
 * JavaScriptCore builds `\p{…}` classes on a pattern's first test, about 3 ms of the first guarded
 * edit, for names that are almost always ASCII.
 */
const ASCII_AREA = new RegExp(AREA.replaceAll('\\p{L}\\p{M}\\p{N}', '\\w'))
let unicodeArea: RegExp | undefined

/** Whether `a` is an area's folder names (AREA_NAME between single slashes). */
export function isArea(a: string): boolean {
  return (/^[\x00-\x7f]*$/.test(a) ? ASCII_AREA : (unicodeArea ??= new RegExp(AREA, 'u'))).test(a)
}
/** C0/C1 controls, and format characters (bidi overrides, zero-width marks). */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu
/**
 * Printable ASCII, which holds none of them: tested first, as most ids, titles and whys are, so the
 * `\p{…}` classes (about 50 µs to build in JavaScriptCore) are never built for them.
 */
const PRINTABLE = /^[ -~]*$/
/** Words joining a written list that are never scopes themselves (`scope: billing and payments`). */
const JOINERS = new Set(['and', 'or', '&', '+'])

/**
 * The structured fields, in the order read, and, at the same index, the letter of how each one's values
 * are read: `p` as paths, `a` as areas (nested ones too), `o` loose or as scope objects (loose values
 * from the text: `t`).
 */
const RECORD_FIELDS = 'scope scope_paths paths files scope_area scope_areas areas area scopes applies_to'.split(' ')
const RECORD_KINDS = 'opppaaaaoo'
/** The fields of a scope object (`scope: { paths, areas }`), and how each is read. */
const SCOPE_FIELDS = 'paths areas area'.split(' ')
const SCOPE_KINDS = 'paa'
/** The word every `(scope: …)` marker and `scope:` line holds, in any case. */
const SCOPE_WORD = /scope/i

/**
 * The scope of one record. Structured fields win: paths from `scope.paths`, `scope_paths`, `paths`,
 * `files`; areas from `scope_area`, `scope_areas`, `scope.areas`, `scope.area`, `areas`, `area`; loose
 * values from `scope` as a string or list, `scopes`, `applies_to`. Only when those give nothing usable
 * does the text count: `(scope: …)` markers in the title and `scope:` lines in the body.
 * `scope_version` and `scope_audience` are never read. Each path and area is kept once, in lists of at
 * most 16 (no Set to spread at the end).
 */
export function scopeOf(record: Record<string, unknown>): Scope {
  const o = object(record) ?? {}
  const paths: string[] = []
  const areas: string[] = []
  const scope: Scope = { paths, areas }

  function fields(from: Record<string, unknown>, list: readonly string[], kinds: string): void {
    for (let i = 0; i < list.length; i++) {
      // Most fields are absent: passed over without a call.
      const v = from[list[i] as string]
      if (v !== undefined) add(v, kinds[i] as string)
    }
  }

  /**
   * The values of `v`, read as `kind` says (RECORD_FIELDS); loose ones are paths when they hold a path
   * character, else areas. A string is a list separated by commas, semicolons or white space (splitList);
   * each string element of a list, of its first 64, is one value, taken whole (so a path with a space fits
   * in a list). Other types give nothing.
   */
  function add(v: unknown, kind: string): void {
    if (v === undefined) return
    const scopeObject = kind === 'o' ? object(v) : undefined
    if (scopeObject !== undefined) return fields(scopeObject, SCOPE_FIELDS, SCOPE_KINDS)
    const list: unknown[] = typeof v === 'string' ? splitList(v) : Array.isArray(v) ? v.slice(0, 64) : []
    // A list's objects are read like a `scope` object first (`kind` `o` only), then its strings.
    for (let i = 0; kind === 'o' && i < list.length; i++) add(object(list[i]), kind)
    // Kept here, not in a function of their own: each function a cold edit calls often is one more the
    // engine compiles.
    for (let i = 0; i < list.length; i++) {
      const raw = list[i]
      if (typeof raw !== 'string') continue
      const path = kind === 'p' || (kind !== 'a' && PATH_CHAR.test(raw))
      if (path && paths.length < GUARD_LIMITS.globsPerRecord) {
        // A path: not blank, not too long, no control character.
        const p = cleanValue(raw)
        if (p !== '' && p.length <= GUARD_LIMITS.globLength && !CONTROL.test(p) && !paths.includes(p)) paths.push(p)
      } else if (!path && areas.length < GUARD_LIMITS.areasPerRecord) {
        // An area: one folder name, or nested ones for `kind` `a`; not a joining word.
        const a = replaced(cleanValue(raw), /^\/+|\/+$/g, '')
        const fits = a.length <= GUARD_LIMITS.areaLength && (kind === 'a' || !a.includes('/')) && isArea(a)
        if (fits && !JOINERS.has(a.toLowerCase()) && !areas.includes(a)) areas.push(a)
      }
    }
  }

  /** `scope: …` lines (also `- Scope: …`, `**Scope:** …`); `scope_version:` and the like are not. */
  function scopeLines(list: readonly string[]): void {
    for (let i = 0; i < list.length && i < 500; i++) {
      const m = /^[ \t]*(?:[-*•>+][ \t]+)?(?:\*\*|__|\*|_)?scopes?(?:\*\*|__|\*|_)?[ \t]*:(?:\*\*|__|\*|_)?(.*)$/i.exec(list[i] as string)
      if (m !== null) add(m[1], 't')
    }
  }

  fields(o, RECORD_FIELDS, RECORD_KINDS)
  if (paths.length > 0 || areas.length > 0) return scope
  // Most titles and bodies name no scope: one test instead of the markers and lines read.
  const title = rawTitle(o)
  if (title !== undefined && SCOPE_WORD.test(title)) {
    const found = markers(title).contents
    for (let i = 0; i < found.length; i++) add(found[i], 't')
    scopeLines(lines(title).slice(1))
  }
  const body = o['body']
  if (typeof body === 'string' && SCOPE_WORD.test(body)) scopeLines(lines(body))
  return scope
}

/** A run of characters splitList passes over: none opens or closes a group, none separates. */
const ORDINARY = /[^,;{}[\]()\s]*/y

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
  for (let i = 0; i <= text.length; i++) {
    // A run of ordinary characters passed over by one test: a step per character is most of a cold read.
    ORDINARY.lastIndex = i
    ORDINARY.test(text)
    i = ORDINARY.lastIndex
    const ch = text[i] ?? ','
    if (ch === '{' || ch === '[' || ch === '(') depth++
    else if ((ch === '}' || ch === ']' || ch === ')') && depth > 0) depth--
    // `trim` removes what `\s` matches (white space and line ends).
    else if ((depth === 0 && (ch === ',' || ch === ';' || ch.trim() === '')) || i === text.length) {
      const v = cleanValue(replaced(cleanValue(text.slice(start, i)), /[.,;:]+$/, ''))
      if (v !== '' && !JOINERS.has(v.toLowerCase())) out.push(v)
      start = i + 1
    }
  }
  return out
}

/**
 * Trimmed, NFC, each `\` as `/`, without surrounding quotes or backticks (`` `src/db/**` `` in a markdown
 * body). The `\` is tested for first: the engine's `replaceAll` is a builtin written in JavaScript, and
 * each one called often on a cold edit is compiled.
 */
function cleanValue(v: string): string {
  let s = v.normalize('NFC').trim()
  if (s.includes('\\')) s = s.replaceAll('\\', '/')
  if (!QUOTED.test(s)) return s
  while (s.length >= 2 && /^[`'"]/.test(s) && s[s.length - 1] === s[0]) s = s.slice(1, -1).trim()
  return s.replace(/^[`'"]+|[`'"]+$/g, '').trim()
}

const QUOTED = /^[`'"]|[`'"]$/

/** `s` split into lines at `\r\n`, `\r` or `\n`. */
function lines(s: string): string[] {
  return (s.includes('\r') ? s.replace(/\r\n?/g, '\n') : s).split('\n')
}

/** The first title field holding a non-blank string, as written. */
function rawTitle(o: Record<string, unknown>): string | undefined {
  for (let i = 0; i < TITLE_KEYS.length; i++) {
    const v = o[TITLE_KEYS[i] as string]
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
    // Sliced and cut, not replaced: a String replace is a builtin the engine compiles once it is called often.
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
    const raw = entries[i]
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
  // A title with no marker and one line is its own headline (most are: one test instead of three passes);
  // none displays as ''.
  const headline = raw !== undefined && /[(\r\n]/.test(raw) ? firstLine(lines(markers(raw).rest)) : raw
  const title = display(headline, GUARD_LIMITS.titleLength) || `Untitled ${kind}`
  const why = display(o['why'], GUARD_LIMITS.whyLength) || display(o['rationale'], GUARD_LIMITS.whyLength)
  const id = idOf(o['id'])
  const key = `${kind === 'decision' ? '' : 'non-goal:'}${id !== undefined ? `id:${id}` : `title:${title}`}`
  return why === '' ? { key, kind, title, scope } : { key, kind, title, why, scope }
}

/** The first line that is not blank, or `''`. */
function firstLine(list: readonly string[]): string {
  for (let i = 0; i < list.length; i++) if ((list[i] as string).trim() !== '') return list[i] as string
  return ''
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
  // Printable ASCII with no two spaces in a row is what `text` leaves it, trimmed: most titles and whys,
  // read without its three tests.
  const plain = PRINTABLE.test(v)
  const t = plain && !v.includes('  ') ? v.trim() : (text(plain ? v : replaced(v, UNPRINTABLE, ' '), Number.MAX_SAFE_INTEGER) ?? '')
  // Counted in code points only when it may be too long: a text has no more of them than UTF-16 units,
  // and Array.from of every title and why cost the first guarded edit about 5 ms (JavaScriptCore, cold).
  if (t.length <= max) return t
  const chars = Array.from(t)
  return chars.length <= max ? t : `${chars.slice(0, max - 1).join('').trimEnd()}…`
}
