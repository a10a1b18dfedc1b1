/**
 * A scope glob's text read into pieces and choices (./glob reads the patterns from them): literals, `?`,
 * `*` runs, bracket expressions rebuilt (POSIX classes as member lists), braces (lists, bash ranges) and
 * the two bounded extglobs `@( )` and `?( )` as choices, each within GUARD_LIMITS (nesting, alternatives),
 * and the choices expanded. A glob that can't be read safely throws `Refused`, which ./glob turns into
 * skipping it (SPEC.md: The edit guard; docs/guard.md, Glob semantics). Pure.
 */
import { GUARD_LIMITS } from './limits'

/** One piece of a glob once its braces are expanded. */
export type Piece =
  | { readonly kind: 'text'; readonly text: string } // literal characters
  | { readonly kind: 'one' } // `?`
  | { readonly kind: 'star'; readonly size: number } // a run of `*`
  | { readonly kind: 'class'; readonly source: string } // a bracket expression, rebuilt: the same source in picomatch and in a regex
  | { readonly kind: 'slash' }
/** A glob as written: pieces, and choices (braces, `@( )`, `?( )`) between alternatives. */
export type GlobNode = Piece | { readonly kind: 'choice'; readonly options: readonly (readonly GlobNode[])[] }
/** Thrown while reading a glob that must be skipped; never leaves prepareGlob. */
export class Refused extends Error {}

const SLASH: Piece = { kind: 'slash' }
const ONE: Piece = { kind: 'one' }

/** Reads `s` (already folded) into pieces and choices. `depth` counts the braces and extglobs around it. */
export function readGlob(s: string, depth: number): GlobNode[] {
  if (depth > GUARD_LIMITS.braceDepth) throw new Refused()
  const out: GlobNode[] = []
  for (let i = 0, end = 1; i < s.length; i = end, end = i + 1) {
    const ch = s.charAt(i)
    // The node read at `i`, ending before `end`; none: the text from `i` to `end`, as itself.
    let node: GlobNode | undefined
    if (ch === '*') {
      while (s[end] === '*') end++
      if (s[end] === '(' && closing(s, end) > 0) throw new Refused() // `*( )`: any number of repeats, no bounded reading
      node = { kind: 'star', size: end - i }
    } else if ('@?+!'.includes(ch) && s[i + 1] === '(' && closing(s, i + 1) > 0) {
      // `+( )` repeats and `!( )` negates: refused; `@(a|b)` is `{a,b}`, `?(a|b)` is `{,a,b}` (an empty part first).
      if ('+!'.includes(ch)) throw new Refused()
      end = closing(s, i + 1) + 1
      node = choice(splitTop(`${ch === '?' ? '|' : ''}${s.slice(i + 2, end - 1)}`, '|'), depth)
    } else if (ch === '[' || ch === '{') {
      const group = ch === '[' ? readClass(s, i) : readBrace(s, i, depth)
      node = group?.node
      end = group?.end ?? end
    } else if (ch === '?') node = ONE
    else if (ch === '/') node = SLASH
    else {
      PLAIN_RUN.lastIndex = end
      PLAIN_RUN.test(s) // always matches, so it leaves lastIndex at the run's end
      end = PLAIN_RUN.lastIndex
    }
    out.push(node ?? { kind: 'text', text: s.slice(i, end) })
  }
  return out
}

/** The choice between `parts`, each read as a glob one level deeper. */
function choice(parts: readonly string[], depth: number): GlobNode {
  return { kind: 'choice', options: parts.map((part) => readGlob(part, depth + 1)) }
}

/** Characters with no meaning to the reader (after the first of a run: `@`, `+` or `!` count only before `(`). */
const PLAIN_RUN = /[^*?[{/@+!]*/y

/** The index of the `)` or `}` closing the group opened at `open`, or -1; brackets are skipped. */
function closing(s: string, open: number): number {
  const o = s.charAt(open)
  const c = o === '(' ? ')' : '}'
  let depth = 0
  for (let i = open; i < s.length; i++) {
    const ch = s[i]
    if (ch === '[') i = (readClass(s, i)?.end ?? i + 1) - 1
    else if (ch === o) depth++
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
    const ch = s.charAt(i)
    if (ch === '[') i = (readClass(s, i)?.end ?? i + 1) - 1
    else if (ch === '{' || ch === '(') depth++
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
  const node = parts.length > 1 ? choice(parts, depth) : range(body)
  return node === undefined ? undefined : { node, end: end + 1 }
}

/**
 * A bash range (`1..5`, `05..10`, `a..e`, with an optional step of at most 15 digits) as the choice of
 * its values, or `undefined` if `body` isn't one. A range of single characters, step 1 (`{a..z}`,
 * `{0..9}`, any number of zeros before the 1), is the class `[a-z]`: one piece, not 26.
 */
function range(body: string): GlobNode | undefined {
  const m = /^(?:([+-]?\d{1,15})\.\.([+-]?\d{1,15})|([a-z])\.\.([a-z]))(?:\.\.[+-]?(\d+))?$/.exec(body)
  if (m === null) return undefined
  const [, fromNumber, toNumber, fromLetter, toLetter, stepText = '1'] = m
  const numeric = fromNumber !== undefined
  // One of the two alternatives matched.
  const a = fromNumber ?? fromLetter ?? ''
  const b = toNumber ?? toLetter ?? ''
  const step = Number(stepText)
  if (step === 1 && a.length === 1 && b.length === 1) return { kind: 'class', source: a < b ? `[${a}-${b}]` : `[${b}-${a}]` }
  if (stepText.length > 15) return undefined
  const from = numeric ? Number(a) : a.charCodeAt(0)
  const to = numeric ? Number(b) : b.charCodeAt(0)
  // The step, signed towards `to`.
  const by = Math.max(1, step) * (from <= to ? 1 : -1)
  const count = Math.floor((to - from) / by) + 1
  if (count > GUARD_LIMITS.alternativesPerGlob) throw new Refused()
  const pad = numeric && (ZERO_PADDED.test(a) || ZERO_PADDED.test(b)) ? Math.max(a.length, b.length) : 0
  const options: Piece[][] = []
  for (let v = from; options.length < count; v += by) {
    const text = !numeric ? String.fromCharCode(v) : v < 0 ? `-${String(-v).padStart(pad - 1, '0')}` : String(v).padStart(pad, '0')
    options.push([{ kind: 'text', text }])
  }
  return { kind: 'choice', options }
}

const ZERO_PADDED = /^[+-]?0\d/

/**
 * Character classes as member lists, written as the rebuilt class writes them (letters and digits as
 * themselves, any other member as `\xHH`; never `/`; case is folded, so only lower-case letters).
 */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: 'a-z0-9',
  alpha: 'a-z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'a-z',
  word: 'a-z0-9\\x5f',
  xdigit: 'a-f0-9',
  blank: '\\x20',
  space: '\\x20',
  punct: '\\x21-\\x2e\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7e',
  graph: '\\x21-\\x2e0-\\x7e',
  print: '\\x20-\\x2e0-\\x7e',
  ascii: '\\x01-\\x2e0-\\x7f',
  cntrl: '\\x01-\\x1f\\x7f',
}

/**
 * A bracket expression at `open` (`[abc]`, `[a-z]`, `[!x]`, `[^x]`, `[[:alpha:]]`), rebuilt as a class
 * that reads the same as a regex and in picomatch (which passes it through unchanged), or `undefined`
 * when the `[` is a plain character (no `]` before the next `/`). Members other than letters and
 * digits are written as `\xHH` or `\uHHHH`, so a class of word characters (`[slug]`, `[...slug]`) keeps
 * picomatch's literal reading (a folder named `[slug]`), and a negated class never matches `/`.
 */
function readClass(s: string, open: number): { node: Piece; end: number } | undefined {
  let j = open + 1
  const negate = s.charAt(j) === '!' || s.charAt(j) === '^'
  if (negate) j++
  // No `]` after the first member, before the next `/`: a plain `[` (checked first, so a glob of many
  // `[` costs one search each, not one scan of the rest of the glob each).
  const close = s.indexOf(']', j + 1)
  if (close < 0 || s.slice(j, close).includes('/')) return undefined
  let source = negate ? '^' : ''
  for (let first = true; ; first = false) {
    const c = s[j]
    if (c === undefined || c === '/') return undefined
    if (c === ']' && !first) return { node: { kind: 'class', source: `[${source}]` }, end: j + 1 }
    const end = c === '[' && s[j + 1] === ':' ? s.indexOf(':]', j + 2) : -1
    const name = s.slice(j + 2, end)
    if (end >= 0 && !name.includes('/')) {
      // `[[:foo:]]`, and names every object has (`constructor`): not a class anyone can mean.
      const members = Object.hasOwn(POSIX_CLASSES, name) ? POSIX_CLASSES[name] : undefined
      if (members === undefined) throw new Refused()
      source += members
      j = end + 2
      continue
    }
    const cp = s.codePointAt(j) ?? 0
    // `a-z`: a range, unless the `-` is the last member.
    const range = s[j + 1] === '-' && j + 2 < s.length && s[j + 2] !== ']' && s[j + 2] !== '/'
    const to = range ? (s.codePointAt(j + 2) ?? 0) : cp
    // A class matches one UTF-16 unit: an astral member can't match; nor can `[z-a]`.
    if (to > 0xffff || to < cp) throw new Refused()
    source += range ? `${classMember(c)}-${classMember(s.charAt(j + 2))}` : classMember(c)
    j += range ? 3 : 1
  }
}

function classMember(c: string): string {
  if (/^[\p{L}\p{N}]$/u.test(c)) return c
  const hex = c.charCodeAt(0).toString(16)
  return hex.length > 2 ? `\\u${hex.padStart(4, '0')}` : `\\x${hex.padStart(2, '0')}`
}

/**
 * Every alternative of `nodes`; throws Refused as soon as they would be more than
 * GUARD_LIMITS.alternativesPerGlob, so no list built here holds more than that many.
 */
export function expand(nodes: readonly GlobNode[]): Piece[][] {
  let out: Piece[][] = [[]]
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!
    if (node.kind !== 'choice') {
      for (let k = 0; k < out.length; k++) out[k]!.push(node)
      continue
    }
    const tails = node.options.flatMap((option) => expand(option))
    if (out.length * tails.length > GUARD_LIMITS.alternativesPerGlob) throw new Refused()
    out = out.flatMap((head) => tails.map((tail) => [...head, ...tail]))
  }
  return out
}
