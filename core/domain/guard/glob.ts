/**
 * One scope glob as the edit guard reads and matches it (SPEC.md: The edit guard; docs/guard.md, Glob
 * semantics and Performance): its .gitignore-like meaning, braces, ranges and the two bounded extglobs
 * expanded with caps, the other extglobs refused, brackets rebuilt, and each name of a pattern compiled
 * to a regex of its own that can't nest a quantifier (the glob's text is read into pieces and choices by
 * ./glob-syntax). Pure: a glob that can't be read safely is skipped.
 *
 * The matcher is the plugin's own, as picomatch would not fit the node budget (budget.json; docs/engine.md,
 * "Shapes the cold first edit keeps"), and the glob tree this file reads leaves only literals, `?`, `*` and
 * plain character classes to match. picomatch 4 (`dot`, `nocase`, no extglobs) stays the oracle: the specs
 * check that both give the same answer on generated and hostile globs (spec/core/guard/compiled-guard.spec.ts).
 *
 * The loops run for every glob read are indexed and call no array callback (docs/engine.md, "Shapes the cold
 * first edit keeps").
 */
import { replaced } from '../item'
import { GUARD_LIMITS } from './limits'
import { expand, readGlob, Refused, type Piece } from './glob-syntax'

/**
 * Turns one name of a pattern (`*.sql`, never a `/`) into a test of one name of a path (folded as
 * `fold` folds); may throw. `compileName` is the plugin's; the specs pass picomatch as the oracle.
 */
export type GlobCompiler = (name: Name) => (text: string) => boolean

/**
 * The plugin's name matcher: the name's regex, anchored, ignoring case as the folded text does; and, as
 * picomatch does, a name spelled exactly as the glob's own text (a folder named `[a-z]`).
 */
export const compileName: GlobCompiler = (name) => {
  const re = new RegExp(`^${name.regex}$`, 'i')
  return (text) => text === name.source || re.test(text)
}

/**
 * A record's glob as the patterns handed to the compiler, with its .gitignore-like meaning
 * (docs/guard.md, Glob semantics): a leading `!` excludes; a glob without an inner slash matches at
 * any depth; a leading `/` or `./` anchors it at the root; a glob covers what it names and everything
 * under it (`src/db` and `src/*` cover whole folders); a trailing slash means folders only.
 *
 * Braces and ranges are expanded (each alternative its own pattern), `@(a|b)` and `?(a|b)` are read
 * as braces, brackets are rebuilt, and every other special character is escaped, so a pattern holds
 * only literals, `?`, `*`, `**` and plain character classes, whose regex can't nest a quantifier
 * (docs/guard.md, Performance). The patterns are written in picomatch's syntax. `undefined` for a glob
 * skipped as empty, as naming `..`, as an unbounded extglob (`*( )`, `+( )`, `!( )`), or as too
 * costly to match (GUARD_LIMITS).
 */
export function prepareGlob(glob: string): { exclude: boolean; patterns: string[] } | undefined {
  const read = readScopeGlob(glob)
  return read === undefined ? undefined : { exclude: read.exclude, patterns: read.patterns.map((p) => p.text) }
}

/** One pattern of a glob: its text in picomatch's syntax, and its names (what compileGuard compiles). */
export interface Pattern {
  readonly text: string
  readonly segments: readonly Segment[]
}

/**
 * prepareGlob, each pattern with its names. `budget` is charged the glob's length before it is read and
 * that length again for each further alternative, and may refuse.
 */
export function readScopeGlob(glob: unknown, budget: (characters: number) => boolean = () => true): { exclude: boolean; patterns: Pattern[] } | undefined {
  if (typeof glob !== 'string') return undefined
  let s = glob.normalize('NFC').trim()
  if (s.includes('\\')) s = s.replaceAll('\\', '/')
  if (s === '' || s.length > GUARD_LIMITS.globLength || CONTROL.test(s) || !budget(s.length)) return undefined
  if (s.startsWith('!(')) return undefined // picomatch's negated extglob, not an exclusion: refused
  const exclude = s.startsWith('!')
  if (exclude) s = s.slice(1)
  try {
    const expanded = expand(readGlob(fold(s), 0))
    if (!budget(s.length * (expanded.length - 1))) return undefined
    const patterns: Pattern[] = []
    const texts: string[] = []
    for (let i = 0; i < expanded.length; i++) {
      const shapes = shapesOf(expanded[i]!)
      for (let k = 0; k < shapes.length; k++) {
        const segments = shapes[k]!
        const text = textOf(segments)
        if (texts.includes(text)) continue
        texts.push(text)
        patterns.push({ text, segments })
      }
    }
    return patterns.length > 0 && cheap(patterns) ? { exclude, patterns } : undefined
  } catch (e) {
    if (e instanceof Refused) return undefined
    throw e
  }
}

/** A pattern in picomatch's syntax: its names joined by `/`. */
function textOf(segments: readonly Segment[]): string {
  let text = ''
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    text += `${i === 0 ? '' : '/'}${segment === 'globstar' ? '**' : segment.source}`
  }
  return text
}

/** C0 and C1 controls (`\p{Cc}`): a glob or path holding one is skipped. */
export const CONTROL = /[\x00-\x1f\x7f-\x9f]/

/** A pattern folder by folder: `**`, or one name, with what the limits look at. */
export type Segment = 'globstar' | Name
export interface Name {
  /** The name in picomatch's syntax (`*.sql`, `\(auth\)`, `[\x2e\x2e\x2eslug]`): its key, and the oracle's input. */
  readonly source: string
  /** The name as regex source, unanchored (`[^/]*?\.sql`, `\(auth\)`); a `*` is lazy, which fails sooner on a long name. */
  readonly regex: string
  /** The folded text a path's name must equal, when the name has no wildcard. */
  readonly plain: string | undefined
  /**
   * `*` runs, bracket expressions, and pieces (characters, a bracket expression counting one). A name
   * with two `*` runs is costly: its test may try every split of the path's name.
   */
  readonly stars: number
  readonly classes: number
  readonly length: number
}

/**
 * One alternative of a glob as the patterns it stands for (none for an empty alternative), with the
 * .gitignore reading: anchored when it has a slash before its end, else at any depth (`**` first); a
 * trailing slash means a folder (`/**` + `/*` after it); otherwise the name and everything under it.
 */
function shapesOf(pieces: readonly Piece[]): Segment[][] {
  if (pieces.length === 0) return []
  // Anchored: a slash before some piece of a name (slashes at the end only say "a folder").
  let anchored = false
  let slash = false
  const segments: Segment[] = []
  // The pieces of the name being read; each slash, and the end, closes it.
  let name: Piece[] = []
  for (let i = 0; i <= pieces.length; i++) {
    const p = pieces[i]
    if (p !== undefined && p.kind !== 'slash') {
      anchored ||= slash
      name.push(p)
      continue
    }
    slash = true
    const named = nameOf(name)
    if (named.plain === '..') throw new Refused() // can't match a path inside the project
    // Star runs alone, two `*` or more in all (`**`, or `{*,a}*` expanded): a globstar.
    const first = name[0]
    const globstar = named.source === '*' && (name.length > 1 || (first?.kind === 'star' && first.size > 1))
    // Skipped: `//`, `./`, and a `**` after a `**` (`**/**` is `**`).
    if (name.length > 0 && named.plain !== '.' && !(globstar && segments[segments.length - 1] === 'globstar')) segments.push(globstar ? 'globstar' : named)
    name = []
  }
  if (segments.length === 0) return [['globstar']] // `.`, `./`, `/`: every file
  if (!anchored && segments[0] !== 'globstar') segments.unshift('globstar')
  if (segments[segments.length - 1] === 'globstar') return [segments]
  // `x/**` also matches a file named `x`; `x/**` + `/*` (a trailing slash) needs something under the folder.
  if (pieces[pieces.length - 1]?.kind === 'slash') return [[...segments, 'globstar', nameOf([{ kind: 'star', size: 1 }])]]
  return [segments, [...segments, 'globstar']]
}

/** Characters picomatch reads as syntax (or as regex), escaped so it reads them as themselves. */
const SYNTAX = /[\\()[\]{}|+!@"$^,*?]/g
/** Characters a regex reads as syntax. */
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g

function nameOf(pieces: readonly Piece[]): Name {
  let source = ''
  let regex = ''
  let plain: string | undefined = ''
  let stars = 0
  let classes = 0
  let length = 0
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!
    if (p.kind === 'star' && pieces[i - 1]?.kind === 'star') continue // adjacent star runs are one run (`{*,a}*` expands to `**`)
    if (p.kind === 'text') {
      source += replaced(p.text, SYNTAX, '\\$&')
      regex += replaced(p.text, REGEX_SYNTAX, '\\$&')
      plain = plain === undefined ? undefined : plain + p.text
      length += p.text.length
      continue
    }
    plain = undefined
    length++
    if (p.kind === 'one') (source += '?'), (regex += '[^/]')
    else if (p.kind === 'star') (source += '*'), (regex += '[^/]*?'), stars++
    else if (p.kind === 'class') (source += p.source), (regex += classRegex(p.source)), classes++
  }
  return { source, regex, plain, stars, classes, length }
}

/**
 * A bracket expression as a regex. One that holds no range, negation or other regex syntax (`[slug]`,
 * `[\x2e\x2e\x2eslug]`) also matches its own text, as picomatch reads it: a folder named `[slug]` (a
 * Next.js route) is covered by the glob that names it.
 */
function classRegex(source: string): string {
  const members = source.slice(1, -1)
  return /[-*+?.^${}(|)[\]]/.test(members) ? source : `(?:\\[${members}\\]|${source})`
}

/**
 * Whether a glob's patterns stay fast to match on any path (the limits in GUARD_LIMITS, measured by
 * scripts/bench-guard.mjs and spec/core/guard/hostile-globs.spec.ts): each name and each pattern within
 * its caps, and the patterns together within the glob's. Names are matched one by one, so only a
 * name's own `*` runs can make its test backtrack, over that name alone.
 */
function cheap(patterns: readonly Pattern[]): boolean {
  const wildcard = new Set<string>()
  const costly = new Set<string>()
  for (let i = 0; i < patterns.length; i++) {
    const segments = patterns[i]!.segments
    let names = 0
    for (let k = 0; k < segments.length; k++) {
      const s = segments[k]!
      if (s === 'globstar') continue
      if (++names > GUARD_LIMITS.namesPerPattern || s.stars > GUARD_LIMITS.starRunsPerName || s.classes > GUARD_LIMITS.classesPerName) return false
      if (s.plain !== undefined) continue
      if (s.length > GUARD_LIMITS.wildcardNameLength) return false
      wildcard.add(s.source)
      if (s.stars > 1) costly.add(s.source)
    }
  }
  return wildcard.size <= GUARD_LIMITS.wildcardNamesPerGlob && costly.size <= GUARD_LIMITS.costlyNamesPerGlob
}

/** Case folding close to Unicode's full folding (`ß`, `ẞ` and `SS` fold alike); ASCII takes the short way. */
export function fold(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase()
  return s.toLowerCase().toUpperCase().toLowerCase().normalize('NFC')
}

