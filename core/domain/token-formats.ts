/**
 * Finding provider tokens in text (SPEC.md: The handoff, "well-known token formats"; docs/handoff.md,
 * Token formats): the formats of ./token-table, facts from gitleaks' and secretlint's rule sets; the code
 * that matches them is ours (secretlint itself does not run in the engine: docs/engine.md, "secretlint in
 * the engine").
 *
 * Two kinds of rule:
 * - a **prefixed token** (`ghp_…`, `glffct-…`, `dp.pt.…`): a fixed prefix at a word start, then a run
 *   of the format's alphabet whose length, shape and entropy must fit;
 * - a **keyword token** (Datadog, Twitter, …: formats with no prefix of their own): a value of the
 *   format's alphabet and length, with a digit in it, within a few characters after the provider's
 *   name on the same line (`DATADOG_API_KEY=…`, `the Datadog key 0a1b…`).
 *
 * Linear time, whatever the input, with no regular expression run over the text but the keyword
 * prefilter (an alternation of literals, each tried for at most its own length at each position):
 * every candidate starts at a keyword the prefilter found, a run of an alphabet is measured once per
 * alphabet and position (a cache, so `eyJ-eyJ-eyJ-…` is not rescanned from each `eyJ`), a keyword
 * looks at most KEYWORD_WINDOW characters ahead, and shape and entropy checks read at most
 * CHECK_LIMIT characters of a candidate. Pure and total.
 */
import { CHECK_LIMIT, DIGITS, KEYWORD_WINDOW, tokenFormats, type Alphabet, type KeywordFormat, type PrefixedFormat, type TokenFormat } from './token-table'

// The table's names, for the code that reads formats beside the matches (specs, bench:redact).
export { CHECK_LIMIT, KEYWORD_WINDOW, tokenFormats, type KeywordFormat, type PrefixedFormat, type TokenFormat } from './token-table'

// ---------------------------------------------------------------------------------------------
// Matching

/** A span of the text a rule found: [start, end). */
export interface TokenSpan {
  readonly start: number
  readonly end: number
  readonly provider: string
}

interface CompiledAlphabet {
  readonly id: number
  readonly has: Uint8Array
}

/** A prefixed format with its alphabets compiled. */
interface PrefixedRule {
  readonly format: PrefixedFormat
  readonly prefix: string
  readonly body: CompiledAlphabet
  readonly lead?: CompiledAlphabet
}

/** A keyword format with its alphabets compiled. */
interface KeywordRule {
  /** Its index among the keyword rules (for the per-text scan marks). */
  readonly id: number
  readonly format: KeywordFormat
  readonly keywordLength: number
  readonly values: readonly (KeywordFormat['values'][number] & { readonly alphabet: CompiledAlphabet })[]
}

interface Entry {
  /** The keyword the prefilter finds, in lower case. */
  readonly keyword: string
  readonly rule: { readonly kind: 'prefixed'; readonly r: PrefixedRule } | { readonly kind: 'keyword'; readonly r: KeywordRule }
}

interface Compiled {
  readonly prefilter: RegExp
  /** Entries by the keyword's first two characters (lower case), as startKey gives them. */
  readonly byStart: Map<number, Entry[]>
  readonly alphabetCount: number
  readonly keywordRuleCount: number
}

let compiled: Compiled | undefined

const startKey = (s: string, at: number): number => s.charCodeAt(at) * 65536 + s.charCodeAt(at + 1)

function compileAlphabet(source: Alphabet, id: number): CompiledAlphabet {
  const has = new Uint8Array(128)
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i)
    if (source[i + 1] === '-' && i + 2 < source.length) {
      for (let x = c; x <= source.charCodeAt(i + 2); x++) has[x] = 1
      i += 2
    } else has[c] = 1
  }
  return { id, has }
}

function compile(): Compiled {
  if (compiled !== undefined) return compiled
  const alphabets = new Map<Alphabet, CompiledAlphabet>()
  const alphabet = (a: Alphabet): CompiledAlphabet => {
    const known = alphabets.get(a)
    if (known !== undefined) return known
    const made = compileAlphabet(a, alphabets.size)
    alphabets.set(a, made)
    return made
  }
  const byStart = new Map<number, Entry[]>()
  const keywords = new Set<string>()
  const add = (entry: Entry): void => {
    keywords.add(entry.keyword)
    const key = startKey(entry.keyword, 0)
    const list = byStart.get(key) ?? []
    list.push(entry)
    byStart.set(key, list)
  }
  let keywordRuleCount = 0
  for (const format of tokenFormats()) {
    if (format.kind === 'prefixed') {
      const body = alphabet(format.body)
      const lead = format.lead === undefined ? undefined : alphabet(format.lead.body)
      for (const prefix of format.prefixes) {
        add({ keyword: prefix.toLowerCase(), rule: { kind: 'prefixed', r: { format, prefix, body, ...(lead === undefined ? {} : { lead }) } } })
      }
    } else {
      const values = format.values.map((value) => ({ ...value, alphabet: alphabet(value.body) }))
      for (const k of format.keywords) add({ keyword: k, rule: { kind: 'keyword', r: { id: keywordRuleCount++, format, keywordLength: k.length, values } } })
    }
  }
  const prefilter = new RegExp(trie([...keywords]), 'g')
  compiled = { prefilter, byStart, alphabetCount: alphabets.size, keywordRuleCount }
  return compiled
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

/**
 * An alternation of literal keywords written as a trie (`sk(?:-(?:ant-|proj-)|_live_)|…`): at a
 * position only the branches of its first character are tried, and a longer keyword before a
 * shorter one that it starts with, so the longest is found.
 */
function trie(words: readonly string[]): string {
  const groups = new Map<string, string[]>()
  let ends = false
  for (const w of words) {
    if (w === '') {
      ends = true
      continue
    }
    const rest = groups.get(w[0] as string) ?? []
    rest.push(w.slice(1))
    groups.set(w[0] as string, rest)
  }
  const branches = [...groups].map(([c, rest]) => {
    const inner = trie(rest)
    return escape(c) + (inner === '' ? '' : rest.length === 1 ? inner : `(?:${inner})`)
  })
  if (ends && branches.length > 0) branches.push('')
  return branches.join('|')
}

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/** Entropy is measured on at most this much of a token (enough to tell a key from a word or a repeat). */
export const ENTROPY_LIMIT = 64

const counts = new Uint16Array(128)

/** Shannon entropy, in bits a character, of `s` from `start` to `end`, at most ENTROPY_LIMIT characters of it (ASCII; others count as one). */
export function shannonEntropy(s: string, start = 0, end = s.length): number {
  const stop = Math.min(end, start + ENTROPY_LIMIT, s.length)
  const n = stop - start
  if (n <= 0) return 0
  // counts is all zeros between calls: the second loop zeroes what the first counted.
  for (let i = start; i < stop; i++) {
    const c = Math.min(s.charCodeAt(i), 127)
    counts[c] = (counts[c] as number) + 1
  }
  let bits = 0
  for (let i = start; i < stop; i++) {
    const c = Math.min(s.charCodeAt(i), 127)
    const k = counts[c] as number
    if (k === 0) continue
    counts[c] = 0 // each character's share counted once
    const p = k / n
    bits -= p * Math.log2(p)
  }
  return bits
}

/** x·log2(x) for the counts a window can hold. */
const X_LOG_X = Array.from({ length: ENTROPY_LIMIT + 1 }, (_, x) => (x === 0 ? 0 : x * Math.log2(x)))

/**
 * shannonEntropy over windows that move forward through one text, kept up to date as they move (a
 * window of `twitter-twitter-…` or `glft-glft-…` is not recounted from scratch at each keyword). A
 * window that does not move forward from the last one is counted afresh. Per alphabet, since a
 * window ends where its alphabet's run ends.
 */
export type EntropyOf = (a: CompiledAlphabet, start: number, end: number) => number

export function entropyMeter(text: string, alphabetCount: number): EntropyOf {
  const windows: ({ s: number; e: number; sum: number; counts: Uint8Array } | undefined)[] = new Array(alphabetCount)
  const code = (i: number): number => Math.min(text.charCodeAt(i), 127)
  return (a, start, end) => {
    const stop = Math.min(end, start + ENTROPY_LIMIT, text.length)
    if (stop <= start) return 0
    let w = windows[a.id]
    if (w === undefined) {
      w = { s: start, e: start, sum: 0, counts: new Uint8Array(128) }
      windows[a.id] = w
    }
    const { counts } = w
    const add = (c: number): void => {
      const k = counts[c] as number
      w.sum += (X_LOG_X[k + 1] as number) - (X_LOG_X[k] as number)
      counts[c] = k + 1
    }
    const remove = (c: number): void => {
      const k = counts[c] as number
      w.sum += (X_LOG_X[k - 1] as number) - (X_LOG_X[k] as number)
      counts[c] = k - 1
    }
    if (start >= w.s && start <= w.e && stop >= w.e) {
      for (let i = w.e; i < stop; i++) add(code(i))
      for (let i = w.s; i < start; i++) remove(code(i))
    } else {
      for (let i = w.s; i < w.e; i++) counts[code(i)] = 0
      w.sum = 0
      for (let i = start; i < stop; i++) add(code(i))
    }
    w.s = start
    w.e = stop
    const n = stop - start
    // H = log2(n) - (1/n)·Σ c·log2(c); never below 0 (rounding).
    return Math.max(0, Math.log2(n) - w.sum / n)
  }
}

/**
 * The end of the maximal run of an alphabet's characters from a position, measured at most `cap`
 * characters far (a run that long is reported as `p + cap`). A run measured to its end is remembered
 * per alphabet, so a position inside it is answered without rescanning.
 */
type RunOf = (a: CompiledAlphabet, p: number, cap: number) => number

function runMeter(text: string, alphabetCount: number): RunOf {
  // Per alphabet, the last run measured: it starts at runFrom, goes on at least to runEnd, and ends
  // there when runDone is 1. A later position inside it extends it rather than rescanning it.
  const runFrom = new Int32Array(alphabetCount).fill(-1)
  const runEnd = new Int32Array(alphabetCount).fill(-1)
  const runDone = new Uint8Array(alphabetCount)
  return (a, p, cap) => {
    const want = Math.min(text.length, p + cap)
    const from = runFrom[a.id] as number
    let e = p
    if (from !== -1 && p >= from && p < (runEnd[a.id] as number)) {
      e = runEnd[a.id] as number
      if (runDone[a.id] === 1 || e >= want) return Math.min(e, want)
    } else {
      runFrom[a.id] = p
    }
    while (e < want) {
      const c = text.charCodeAt(e)
      if (c >= 128 || a.has[c] !== 1) break
      e++
    }
    runEnd[a.id] = e
    runDone[a.id] = e < want || e === text.length ? 1 : 0
    return e
  }
}

/**
 * The provider tokens in `text`, as spans in order, none overlapping. Linear in the text's length
 * (see the file's opening comment). Never throws for a string.
 */
export function findTokens(text: string): TokenSpan[] {
  const { prefilter, byStart, alphabetCount, keywordRuleCount } = compile()
  // Lower case for the prefilter, index for index (toLowerCase changes the length of a few non-ASCII texts).
  let lower = text.toLowerCase()
  if (lower.length !== text.length) lower = text.replace(/[A-Z]+/g, (s) => s.toLowerCase())
  const runOf = runMeter(text, alphabetCount)
  const entropyOf = entropyMeter(text, alphabetCount)
  // Per keyword rule, where its last look ahead stopped: a value before that was already tried.
  const scanned = new Int32Array(keywordRuleCount)
  const spans: TokenSpan[] = []
  let covered = 0 // text before this is inside a span already found
  prefilter.lastIndex = 0
  for (let hit = prefilter.exec(lower); hit !== null; hit = prefilter.exec(lower)) {
    const at = hit.index
    prefilter.lastIndex = at + 1 // overlapping keywords are found too
    if (at < covered) continue
    for (const entry of byStart.get(startKey(lower, at)) ?? []) {
      if (!lower.startsWith(entry.keyword, at)) continue
      const span = entry.rule.kind === 'prefixed' ? matchPrefixed(text, at, entry.rule.r, runOf, entropyOf) : matchKeyword(text, at, entry.rule.r, runOf, scanned)
      if (span !== undefined && span.start >= covered) {
        spans.push(span)
        covered = span.end
        break
      }
    }
  }
  return spans
}

function matchPrefixed(text: string, at: number, rule: PrefixedRule, runOf: RunOf, entropyOf: EntropyOf): TokenSpan | undefined {
  const f = rule.format
  if (f.anyCase !== true && !text.startsWith(rule.prefix, at)) return undefined
  let start = at
  if (rule.lead !== undefined && f.lead !== undefined) {
    start = at - f.lead.n
    if (start < 0) return undefined
    for (let i = start; i < at; i++) {
      const c = text.charCodeAt(i)
      if (c >= 128 || rule.lead.has[c] !== 1) return undefined
    }
  }
  // A token starts a word: no letter or digit before it.
  if (start > 0 && isAlnum(text.charCodeAt(start - 1))) return undefined
  const bodyStart = at + rule.prefix.length
  let end = runOf(rule.body, bodyStart, f.open === true ? text.length : f.max + 2)
  // A sentence's full stop after a token whose alphabet holds `.` is not part of it.
  while (end - bodyStart > f.min && text[end - 1] === '.' && (end - bodyStart > f.max || f.shape !== undefined)) end--
  const length = end - bodyStart
  if (length < f.min) return undefined
  if (f.open !== true && (length > f.max || (end < text.length && isAlnum(text.charCodeAt(end))))) return undefined
  if (f.shape !== undefined && !f.shape.test(text.slice(bodyStart, Math.min(end, bodyStart + CHECK_LIMIT)))) return undefined
  if (f.entropy !== undefined && entropyOf(rule.body, start, end) < f.entropy) return undefined
  if (f.allow?.test(text.slice(start, Math.min(end, start + CHECK_LIMIT))) === true) return undefined
  return { start, end, provider: f.provider }
}

function matchKeyword(text: string, at: number, rule: KeywordRule, runOf: RunOf, scanned: Int32Array): TokenSpan | undefined {
  // The name starts a word or a part of one (`DATADOG_KEY`, `myDatadogKey`), not the middle of a word.
  const before = at > 0 ? text.charCodeAt(at - 1) : 32
  const first = text.charCodeAt(at)
  if (isLetter(before) && !(before >= 97 && before <= 122 && first >= 65 && first <= 90)) return undefined
  const limit = Math.min(text.length, at + rule.keywordLength + KEYWORD_WINDOW)
  // A value is tried once whatever the number of names before it (`twitter-twitter-…` stays linear):
  // `scanned` moves only forward, to where this scan stopped (a line's end: the next line's name scans on).
  const from = Math.max(at + rule.keywordLength, scanned[rule.id] as number)
  scanned[rule.id] = limit
  for (let p = from; p < limit; p++) {
    const c = text.charCodeAt(p)
    if (c === 10) {
      scanned[rule.id] = p
      return undefined
    }
    if (c >= 128 || isAlnum(text.charCodeAt(p - 1))) continue // a value starts a word
    for (const value of rule.values) {
      if (value.alphabet.has[c] !== 1) continue
      let end = runOf(value.alphabet, p, value.max + 2)
      if (end - p > value.max && text[end - 1] === '.') end--
      const n = end - p
      if (n < value.min || n > value.max) continue
      if (end < text.length && isAlnum(text.charCodeAt(end))) continue
      const candidate = text.slice(p, end)
      if (value.shape !== undefined && !value.shape.test(candidate)) continue
      // A word is not a key: a value holds a digit (and, unless it is all digits, a letter).
      if (!/[0-9]/.test(candidate) || (value.body !== DIGITS && !/[A-Za-z]/.test(candidate))) continue
      return { start: p, end, provider: rule.format.provider }
    }
  }
  return undefined
}

/** `text` with every provider token replaced by `replacement`. */
export function redactTokens(text: string, replacement: string): string {
  const spans = findTokens(text)
  if (spans.length === 0) return text
  let out = ''
  let at = 0
  for (const s of spans) {
    out += text.slice(at, s.start) + replacement
    at = s.end
  }
  return out + text.slice(at)
}
