/**
 * Provider tokens in text (SPEC.md: The handoff, "provider token formats"; docs/handoff.md, Token formats): the
 * formats of ./token-table, facts from gitleaks' and secretlint's rule sets; the code that matches them is ours.
 *
 * Two kinds of row:
 * - a **prefixed token** (`ghp_…`, `glffct-…`, `dp.pt.…`, a Telegram bot's `<id>:A…`): its shape is enough, a fixed
 *   prefix at a word start (or after a lead of its own), then a run of the format's alphabet whose length, shape and
 *   entropy must fit;
 * - a **keyword token** (Datadog, Adafruit, …: formats with no shape of their own): a value of the format's alphabet
 *   and length that reads as a key, on the line of the provider's name, after it or before it and starting at most
 *   KEYWORD_WINDOW characters from it (`DATADOG_API_KEY=…`, `Datadog … I tested it with 0a1b…`, `0a1b… (Datadog)`),
 *   and not said to be a hash or an id (`commit 3f2a…`).
 *
 * `tokenMatcher(text)` answers, for a position, the token whose row's keyword is found there, and where the next
 * keyword is (./redact's one scan goes from one such place to the next). Linear in the text whatever it holds:
 * the only expression run over the text is the keyword prefilter, as gitleaks does (one alternation of every
 * row's keyword over the text in lower case, each look remembered: `finder`); at a place it finds, the rows are
 * looked up by their keyword's first two characters; a keyword inside
 * a word is turned away; a run of an alphabet is measured once and remembered (`runs`), so `eyJ-eyJ-…` is not
 * rescanned from each `eyJ`; a keyword rule looks at each character around its names at most once
 * (`twitter-twitter-…`); entropy reads at most ENTROPY_LIMIT characters of a candidate, shapes CHECK_LIMIT. Pure and
 * total.
 */
import { CHECK_LIMIT, DIGITS, KEYWORD_WINDOW, VALUE_MIN, tokenFormats, type KeywordFormat, type PrefixedFormat } from './token-table'

export { CHECK_LIMIT, KEYWORD_WINDOW, tokenFormats, type KeywordFormat, type PrefixedFormat, type TokenFormat } from './token-table'

/** A span of the text a rule found: [start, end); `named` for a keyword token (its span is apart from its name). */
export interface TokenSpan {
  readonly start: number
  readonly end: number
  readonly provider: string
  readonly named?: true
}

/** A set of characters: the ASCII ones by code, and (`has[128]`) whether any other one but white space belongs. */
export interface Chars {
  readonly id: number
  readonly has: Uint8Array
}
let sets = 0
/**
 * The characters of a regular expression class (`A-Za-z0-9_-`, `^\s;&`); past ASCII, those `é` stands for (a class
 * names no character past ASCII but white space: a token's alphabet holds none, a value's stop characters all).
 */
export const chars = (cls: string): Chars => {
  const re = new RegExp(`[${cls}]`)
  return { id: sets++, has: new Uint8Array(129).map((_, c) => Number(re.test(c < 128 ? String.fromCharCode(c) : 'é'))) }
}

/**
 * The end of the run of a set's characters from `p`, for one text. The last run measured is remembered per set:
 * a run asked for from inside it, or reaching it, is answered without reading it again (`x=y=z=…`, `eyJ-eyJ-…`).
 */
export function runs(text: string): (set: Chars, p: number) => number {
  const seen = new Int32Array(512).fill(-1) // [from, to) per set: far more sets than the table and settings make
  return ({ id, has }, p) => {
    const i = id * 2
    const from = seen[i] as number
    const to = seen[i + 1] as number
    let e = p
    if (p >= from && p < to) return to
    for (let c = 0; e < text.length && ((c = text.charCodeAt(e)) < 128 ? has[c] === 1 : has[128] === 1 && !/\s/.test(text[e] as string)); e++) {
      if (e === from) {
        e = to
        break
      }
    }
    seen[i] = p
    seen[i + 1] = e
    return e
  }
}

/**
 * The first match of a global expression at or after `p`, for one text; the last answer is remembered, so asking
 * again from anywhere between the last look's start and its match costs nothing (the scans ask at every step).
 */
export function finder(re: RegExp, text: string): (p: number) => number {
  let from = Infinity
  let found = -1
  return (p) => {
    if (p < from || p > found) {
      re.lastIndex = p
      found = re.exec(text)?.index ?? text.length
    }
    from = p
    return found
  }
}

/** Entropy is measured on at most this much of a token (enough to tell a key from a word or a repeat). */
export const ENTROPY_LIMIT = 64

/**
 * Shannon entropy, in bits a character, of text[start, end): of its first ENTROPY_LIMIT characters, every character
 * past ASCII counting as one. A bounded look per candidate keeps the scan linear (`glft-glft-…` costs each `glft-` at
 * most ENTROPY_LIMIT characters).
 */
export function entropy(text: string, start: number, end: number): number {
  const n = Math.max(0, Math.min(end, start + ENTROPY_LIMIT, text.length) - start)
  let h = 0
  for (let i = start; i < start + n; i++) (COUNTS[Math.min(text.charCodeAt(i), 127)] as number)++
  // Each character's count is taken once, then cleared for the next call (not all 128: a setting's value is judged
  // at each `=` of `key=key=…`).
  for (let i = start, c = 0, k = 0; i < start + n; i++) if ((k = COUNTS[(c = Math.min(text.charCodeAt(i), 127))] as number) > 0) (h -= (k / n) * Math.log2(k / n)), (COUNTS[c] = 0)
  // To nine decimals, so a window whose entropy is exactly a threshold (3 bits) reads as 3, not 2.9999999999999996.
  return Math.round(h * 1e9) / 1e9
}
const COUNTS = new Uint8Array(128)

/** A row's keyword as the lookup holds it: prefixed rows carry `body` (and `lead`), keyword rows `values`. */
interface Entry {
  readonly keyword: string
  /** The keyword in lower case. */
  readonly key: string
  readonly id: number
  readonly f: PrefixedFormat | KeywordFormat
  readonly body: Chars
  readonly lead?: Chars
  readonly values: readonly (KeywordFormat['values'][number] & { readonly set: Chars })[]
  /** How far past a value's start its end may lie: its longest form's length and two. */
  readonly reach: number
}

/**
 * A keyword token's value reads as a key, not as words: it holds a digit and a letter, and no two words of four letters
 * or more between its separators (`greenhouse-sensor-west2` is a name).
 */
const KEYLIKE = /^(?=[^]*\d)(?=[^]*[A-Za-z])(?![^]*?(?:^|[-_.])[A-Za-z]{4,}[-_.](?:[^]*[-_.])?[A-Za-z]{4,}(?:[-_.]|$))/
/** What says a value is a hash or an id, not a key (in the 48 characters before it, within its sentence). */
const HASHED = /\b(?:commit|sha\d*|hash|digest|checksum|md5|etag|revision|uuid|(?:request|trace|build|run|job|message|event|order|project|release) id)\b[^.\n]{0,24}$/i

const NUMBER = /\d+/g
const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122)
/** Lower case, index for index (A-Z alone when toLowerCase would change the text's length). */
export const fold = (s: string): string => (s.toLowerCase().length === s.length ? s.toLowerCase() : s.replace(/[A-Z]+/g, (c) => c.toLowerCase()))

/** Two characters (of a lower-case text) as an index, 0 … 16383 (characters past ASCII share theirs with ASCII ones). */
const pair = (s: string, i: number): number => ((s.charCodeAt(i) & 127) << 7) | (s.charCodeAt(i + 1) & 127)

/**
 * The rows by the first two characters of their keywords (lower case), and the prefilter: one alternation of every
 * keyword; built on first use, `rules` counts the keywords.
 */
let compiled: { readonly entries: (Entry[] | undefined)[]; readonly prefilter: RegExp; readonly rules: number } | undefined
function compile(): NonNullable<typeof compiled> {
  const known = new Map<string, Chars>()
  const set = (a: string): Chars => known.get(a) ?? (known.set(a, chars(a)).get(a) as Chars)
  const entries: (Entry[] | undefined)[] = new Array(16384)
  let rules = 0
  for (const f of tokenFormats()) {
    // A row is one kind or the other: the fields of the other kind read as undefined.
    const { values = [], prefixes, keywords, body = '', lead } = f as Partial<Omit<KeywordFormat, 'kind'> & Omit<PrefixedFormat, 'kind'>>
    for (const keyword of prefixes ?? (keywords as readonly string[])) {
      const key = fold(keyword)
      ;(entries[pair(key, 0)] ??= []).push({ keyword, key, id: rules++, f, values: values.map((v) => ({ ...v, set: set(v.body) })), reach: Math.max(0, ...values.map((v) => v.max)) + 2, body: set(body), lead: lead && set(lead.body) })
    }
  }
  // Which keyword of the alternation matches does not matter, only where one starts: a leading digit is any digit (the
  // forty prefixes of a numeric id and `-`, `|`, `%` or `:A` are four), and the lookup tells them apart. (Facebook's
  // prefixes hold a `|`.)
  const keys = new Set(entries.flat().map((e) => (e as Entry).key.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&').replace(/^\d/, '\\d')))
  return { entries, prefilter: new RegExp([...keys].join('|'), 'g'), rules }
}

/**
 * The token whose row's keyword is found at a position, for one text: `at(p)` gives its span or undefined, and
 * `at.next(p)` the first position from `p` where the prefilter found a keyword (the text's length when none). A keyword token's span lies after or before its name,
 * a token with a lead starts before its keyword (Azure's `…8Q~…`).
 */
export function tokenMatcher(text: string): ((p: number) => TokenSpan | undefined) & { readonly next: (p: number) => number } {
  const { entries, prefilter, rules } = (compiled ??= compile())
  const lower = fold(text)
  const run = runs(text)
  const scanned = new Int32Array(rules) // per keyword rule: the characters around a name looked at so far
  /**
   * Where a keyword token's value can be: the runs of VALUE_MIN or more characters other than blanks that hold a digit,
   * as [start, end) pairs in order; read once, when a name is found.
   */
  let long: number[] | undefined
  let line: [number, number] = [0, -1] // the line of the last name looked around, [start, end): names come in order, so each is found once
  const longRuns = (): number[] => {
    const found: number[] = []
    // From each number, out to the blanks around it (white space or a control character; past the text's end, NaN), each
    // character read once.
    for (let m, from = 0, end = (NUMBER.lastIndex = 0); (m = NUMBER.exec(text)); NUMBER.lastIndex = end) {
      for (from = m.index; from > end && text.charCodeAt(from - 1) > 32; ) from--
      for (end = NUMBER.lastIndex; text.charCodeAt(end) > 32; ) end++
      if (end - from >= VALUE_MIN) found.push(from, end)
    }
    return found
  }

  /** The end of the run of `set` from `q` when its length fits (and, unless `open`, a word ends it), or -1. */
  const fits = (set: Chars, q: number, min: number, max: number, open?: boolean, shape?: RegExp): number => {
    let end = Math.min(run(set, q), open ? Infinity : q + max + 2)
    // A sentence's full stop after a token whose alphabet holds `.` is not part of it.
    for (let i = 0; i < 3 && end - q > min && text[end - 1] === '.' && (end - q > max || shape); i++) end--
    // (Past the text's end, NaN: no letter.)
    return end - q >= min && (open || (end - q <= max && !isAlnum(text.charCodeAt(end)))) && shape?.test(text.slice(q, Math.min(end, q + CHECK_LIMIT))) !== false ? end : -1
  }

  const prefixed = (e: Entry, f: PrefixedFormat, at: number): TokenSpan | undefined => {
    let start = at
    while (at - start < (f.lead?.max ?? 0) && e.lead?.has[text.charCodeAt(start - 1)] === 1) start--
    const b = at + e.keyword.length
    // The lead as long as the row allows, the prefix as written (unless any case will do), at a word start, then a
    // fitting body. (A position before the text's start reads as NaN: no letter.)
    const end = at - start >= (f.lead?.min ?? 0) && (f.anyCase || text.startsWith(e.keyword, at)) && !isAlnum(text.charCodeAt(start - 1)) ? fits(e.body, b, f.min, f.max, f.open, f.shape) : -1
    // Then the entropy the row asks for, and not a match of its allowlist.
    return end >= 0 && (!f.entropy || entropy(text, start, end) >= f.entropy) && !f.allow?.test(text.slice(start, Math.min(end, start + CHECK_LIMIT)))
      ? { start: f.keep ? b : start, end, provider: f.provider }
      : undefined
  }

  const keyword = (e: Entry, at: number): TokenSpan | undefined => {
    const after = at + e.keyword.length
    // The look stays on the name's line, KEYWORD_WINDOW either side of it (`>>> 0`: with no line end after the name,
    // indexOf's -1 becomes the largest index), and tries each character once per rule, whatever the names near it.
    if (at < line[0] || at > line[1]) line = [text.lastIndexOf('\n', at - 1) + 1, text.indexOf('\n', at) >>> 0]
    const limit = Math.min(text.length, line[1], after + KEYWORD_WINDOW)
    const q = Math.max(line[0], at - KEYWORD_WINDOW, scanned[e.id] as number)
    scanned[e.id] = limit
    // A value lies in a run of VALUE_MIN or more characters other than blanks, holding a digit (`long`): only those
    // around the name are read, from the first that ends past `q` (found by halves: the runs are in order).
    const r = (long ??= longRuns())
    let k = 0
    for (let n = r.length, mid = 0; k < n; ) (r[(mid = ((k + n) >> 2) << 1) + 1] as number) <= q ? (k = mid + 2) : (n = mid)
    for (; (r[k] as number) < limit; k += 2)
      for (let p = Math.max(q, r[k] as number); p < Math.min(limit, r[k + 1] as number); p++)
        if (!isAlnum(text.charCodeAt(p - 1)) && text.charCodeAt(p - 1) !== 47)
          // (a value starts a word, not a path's part)
          for (const v of e.values) {
            // A value that reads as a key (KEYLIKE, or all digits) and is not said to be a hash or an id (HASHED);
            // what it is does not depend on the name, so a position is judged once for every name around it.
            const end = v.set.has[text.charCodeAt(p)] === 1 ? fits(v.set, p, v.min, v.max, false, v.shape) : -1
            if (end > 0 && (v.body === DIGITS || KEYLIKE.test(text.slice(p, end))) && !HASHED.test(text.slice(Math.max(0, p - 48), p)))
              return { start: p, end, provider: e.f.provider, named: true }
          }
    return undefined
  }




  /**
   * The token at `p`, of the rows whose keyword's first two characters stand there, where a keyword may start: not
   * inside a word (a prefix starts a word or follows its lead's digit, Azure's `8Q~`; a provider's name starts a word
   * or a camelCase part, or follows a digit; before the text's start, NaN, nothing is a letter).
   */
  const at = (p: number): TokenSpan | undefined => {
    // (The text's last position is passed over: no keyword is one character long, and `pair` reading past the end
    // gives NaN, which makes the engines run this lookup slower for the rest of the text: 64 KB of `key=`, 4 → 9 ms.)
    const c = text.charCodeAt(p)
    const before = text.charCodeAt(p - 1)
    const rows = p + 1 >= lower.length || (isAlnum(c) && isAlnum(before) && before > 57 && !(c <= 90 && before >= 97)) ? undefined : entries[pair(lower, p)]
    for (const e of rows ?? []) {
      const span = lower.startsWith(e.key, p) && (e.f.kind === 'keyword' ? keyword(e, p) : prefixed(e, e.f, p))
      if (span) return span
    }
    return undefined
  }

  return Object.assign(at, { next: finder(prefilter, lower) })
}

/** The provider tokens in `text`, as spans in order, none overlapping. Linear in the text's length. */
export function findTokens(text: string): TokenSpan[] {
  const at = tokenMatcher(text)
  const spans: TokenSpan[] = []
  for (let p = at.next(0), covered = 0; p < text.length; p = at.next(Math.max(p + 1, covered))) {
    const span = at(p)
    if (span && span.start >= covered) covered = spans.push(span) && span.end
  }
  return spans
}
