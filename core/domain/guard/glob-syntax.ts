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
const literal = (t: string): Piece => ({ kind: 'text', text: t })

/** Reads `s` (already folded) into pieces and choices. `depth` counts the braces and extglobs around it. */
export function readGlob(s: string, depth: number): GlobNode[] {
  if (depth > GUARD_LIMITS.braceDepth) throw new Refused()
  const out: GlobNode[] = []
  for (let i = 0, end = 1; i < s.length; i = end, end = i + 1) {
    const ch = s[i] as string
    // The node read at `i`, ending before `end`; none: the text from `i` to `end`, as itself.
    let node: GlobNode | undefined
    if (ch === '*') {
      while (s[end] === '*') end++
      if (s[end] === '(' && closing(s, end) > 0) throw new Refused() // `*( )`: any number of repeats, no bounded reading
      node = { kind: 'star', size: end - i }
    } else if ('@?+!'.includes(ch) && s[i + 1] === '(' && closing(s, i + 1) > 0) {
      // `+( )` repeats and `!( )` negates: refused; `@(a|b)` is `{a,b}`, `?(a|b)` is `{,a,b}`.
      if (ch === '+' || ch === '!') throw new Refused()
      end = closing(s, i + 1) + 1
      const options = splitTop(s.slice(i + 2, end - 1), '|').map((part) => readGlob(part, depth + 1))
      node = { kind: 'choice', options: ch === '?' ? [[], ...options] : options }
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
    out.push(node ?? literal(s.slice(i, end)))
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
  const node = parts.length > 1 ? { kind: 'choice' as const, options: parts.map((p) => readGlob(p, depth + 1)) } : range(body)
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
  const numeric = m[1] !== undefined
  const [a, b] = numeric ? [m[1] as string, m[2] as string] : [m[3] as string, m[4] as string]
  const step = Number(m[5] ?? '1')
  if (step === 1 && a.length === 1 && b.length === 1) return { kind: 'class', source: a < b ? `[${a}-${b}]` : `[${b}-${a}]` }
  if ((m[5]?.length ?? 0) > 15) return undefined
  const from = numeric ? Number(a) : a.charCodeAt(0)
  const to = numeric ? Number(b) : b.charCodeAt(0)
  const by = Math.max(1, step)
  const count = Math.floor(Math.abs(to - from) / by) + 1
  if (count > GUARD_LIMITS.alternativesPerGlob) throw new Refused()
  const pad = numeric && (ZERO_PADDED.test(a) || ZERO_PADDED.test(b)) ? Math.max(a.length, b.length) : 0
  const options: Piece[][] = []
  for (let k = 0, v = from; k < count; k++, v += from <= to ? by : -by) {
    options.push([literal(!numeric ? String.fromCharCode(v) : v < 0 ? `-${String(-v).padStart(pad - 1, '0')}` : String(v).padStart(pad, '0'))])
  }
  return { kind: 'choice', options }
}

const ZERO_PADDED = /^[+-]?0\d/

/** Character classes as member lists (never `/`; case is folded, so only lower-case letters), read on first use. */
const POSIX_CLASSES = '{"alnum":"a-z0-9","alpha":"a-z","digit":"0-9","lower":"a-z","upper":"a-z","word":"a-z0-9_","xdigit":"a-f0-9","blank":" ","space":" ","punct":"!-.:-@[-`{-~","graph":"!-.0-~","print":" -.0-~","ascii":"\\u0001-.0-\\u007f","cntrl":"\\u0001-\\u001f\\u007f"}'
let posixClasses: Readonly<Record<string, string>> | undefined

/**
 * A bracket expression at `open` (`[abc]`, `[a-z]`, `[!x]`, `[^x]`, `[[:alpha:]]`), rebuilt as a class
 * that reads the same as a regex and in picomatch (which passes it through unchanged), or `undefined`
 * when the `[` is a plain character (no `]` before the next `/`). Members other than letters and
 * digits are written as `\xHH` or `\uHHHH`, so a class of word characters (`[slug]`, `[...slug]`) keeps
 * picomatch's literal reading (a folder named `[slug]`), and a negated class never matches `/`.
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
        const members = (posixClasses ??= JSON.parse(POSIX_CLASSES) as Record<string, string>)[name]
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

/**
 * Every alternative of `nodes`; throws Refused as soon as they would be more than
 * GUARD_LIMITS.alternativesPerGlob, so no list built here holds more than that many.
 */
export function expand(nodes: readonly GlobNode[]): Piece[][] {
  let out: Piece[][] = [[]]
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as GlobNode
    if (node.kind !== 'choice') {
      for (let k = 0; k < out.length; k++) (out[k] as Piece[]).push(node)
      continue
    }
    const tails = node.options.flatMap((option) => expand(option))
    if (out.length * tails.length > GUARD_LIMITS.alternativesPerGlob) throw new Refused()
    out = out.flatMap((head) => tails.map((tail) => [...head, ...tail]))
  }
  return out
}
