/**
 * The cleaning of the agent notes and commit subjects (SPEC.md: The handoff). Fenced code blocks become
 * `[code omitted]`; private keys, URL passwords, secret settings, provider token formats and the user's own
 * access key become `[redacted]` (./redaction/redact: one scan and one table of verdicts); the result is
 * capped. Best effort by design: a password written out in prose or an indented code excerpt is sent as
 * written. Pure and total: any input (even a non-string) gives a string, nothing throws.
 *
 * Linear time, whatever the input (docs/handoff.md, Cleaning): the input is cut to a prefix first, and no rule
 * rescans a long run of text at each of its positions. spec/core/notes.spec.ts times every rule on 200 KB of
 * its own hostile input.
 */
import { CODE_OMITTED, REDACTED } from './markers'
import { redactSecrets } from './redaction/redact'

export { redactSecrets, isSecretName } from './redaction/redact'
export { KEY_PIECE, MIN_ACCESS_KEY_LENGTH, redactAccessKey } from './redaction/access-key'
export { tokenFormats } from './redaction/token-table'
export { CODE_OMITTED, REDACTED } from './markers'

/** The notes cap, in UTF-16 code units (so also at most 1,500 code points or graphemes). */
export const NOTES_LIMIT = 1500
/** The commit subject cap, in UTF-16 code units. */
export const SUBJECT_LIMIT = 200
/** What a cut text ends with. */
export const CUT_MARK = '…'

/**
 * The notes' input is cut to this many UTF-16 code units before cleaning, and a commit subject's to
 * SUBJECT_INPUT (the results are capped far below): see clip.
 */
export const NOTES_INPUT = 65_536
export const SUBJECT_INPUT = 4_096

/** Claude's last complete answer → the agent notes: code omitted, secrets redacted, ≤ NOTES_LIMIT. */
export function cleanNotes(answer: string, accessKey?: string): string {
  try {
    if (typeof answer !== 'string') return ''
    const text = redactSecrets(omitCodeBlocks(normalize(clip(answer, NOTES_INPUT))), accessKey)
    return capText(trimLineEnds(text).replace(/\n{3,}/g, '\n\n').trim(), NOTES_LIMIT)
  } catch {
    return ''
  }
}

/** A commit subject: its first non-blank line, single-spaced, redacted, ≤ SUBJECT_LIMIT. */
export function cleanSubject(subject: string, accessKey?: string): string {
  try {
    if (typeof subject !== 'string') return ''
    // From the first character that is not white space to its line's end.
    const line = /\S[^\n]*/.exec(normalize(clip(subject, SUBJECT_INPUT)))?.[0] ?? ''
    return capText(redactSecrets(line.replace(/\s+/g, ' ').trim(), accessKey), SUBJECT_LIMIT)
  } catch {
    return ''
  }
}

/**
 * A fenced code block: its opening line (``` or ~~~, three or more, after any indentation, list or quote markers,
 * which stay; a backtick fence's info string holds no backtick), up to the first line holding only a fence of the
 * same character at least as long, or to the end of the text when none closes it. Lines are what `\n` ends: a
 * U+2028 is inside a line, in an info string as anywhere (CommonMark's reading). Linear: a line is tried only where one starts, the fence
 * is taken whole at once (inside a lookahead, so a shorter run is never tried again), and each block is read once.
 */
const FENCED = /(?<![^\n])((?:[ \t]|>|[-*+][ \t]|\d{1,9}[.)][ \t])*)(?=((`|~)\3{2,}))\2(?!(?<=`)[^\n]*`)[^\n]*(?:[\s\S]*?\n[ \t>]*\2\3*[ \t]*(?![^\n])|[\s\S]*)/g

/** Fenced code blocks, also unterminated ones → `[code omitted]`. */
export function omitCodeBlocks(text: string): string {
  // Most answers hold no fence: those are not read at all.
  return text.includes('```') || text.includes('~~~') ? text.replace(FENCED, (_, lead: string) => lead + CODE_OMITTED) : text
}

/**
 * At most `limit` UTF-16 code units. A cut text ends with `…` (counted in the limit); the cut falls between
 * graphemes (Unicode's extended grapheme clusters, as Intl.Segmenter tells them: never inside a surrogate pair, a
 * combining sequence, an emoji sequence or a flag) and never inside a `[redacted]` / `[code omitted]` marker.
 */
export function capText(text: string, limit: number): string {
  if (typeof text !== 'string' || limit < CUT_MARK.length) return ''
  if (text.length <= limit) return text
  let cut = limit - CUT_MARK.length
  // Two ASCII characters always have a grapheme boundary between them (no CR is left to pair with LF).
  if (cut > 0 && (text.charCodeAt(cut) > 127 || text.charCodeAt(cut - 1) > 127)) {
    // No surrogate pair is split, with a Segmenter or without one (a runtime built without it); the grapheme
    // holding the character before the pair ends where the pair starts, or holds the pair too.
    if (/[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(cut - 1, cut + 1))) cut--
    graphemes ??= typeof globalThis.Intl?.Segmenter === 'function' ? new Intl.Segmenter('en', { granularity: 'grapheme' }) : null
    const g = graphemes?.segment(text).containing(cut - 1)
    if (g && g.index + g.segment.length > cut) cut = g.index
  }
  // A marker holds no `[` but its first: only the last `[` before the cut can open one the cut would split (none
  // before it means the text does not start with `[`, so `startsWith` at -1, read as 0, finds no marker).
  const open = text.lastIndexOf('[', cut - 1)
  if ([REDACTED, CODE_OMITTED].some((marker) => open + marker.length > cut && text.startsWith(marker, open))) cut = open
  return text.slice(0, cut).trimEnd() + CUT_MARK
}
let graphemes: Intl.Segmenter | null | undefined

/**
 * Terminal escape sequences, in their 7-bit and C1 forms: strings (OSC, DCS, SOS, PM, APC: `ESC ]8;;url`)
 * up to their terminator (BEL or ST) or the line end; CSI (`ESC [31m`); any other `ESC` sequence.
 * Each alternative always matches from its start, so the pass is linear.
 */
const ESCAPES = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|\u001b[ -/]*[0-~]?/g
/**
 * C0 controls but newline and tab, DEL, C1 controls, bidi controls (marks, embeddings, overrides, isolates), and the
 * invisible characters that only split a word (soft hyphen, zero-width space, word joiner, BOM): a token written
 * with one inside is read whole. The zero-width joiner stays (emoji sequences).
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g

/** Unix line ends; no escape sequences, control or bidi characters; no lone surrogates. */
function normalize(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(ESCAPES, '')
    .replace(CONTROLS, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
}

/**
 * `text` cut to at most `max` UTF-16 code units, before any cleaning, where the cut can't leave part
 * of a secret the cleaning would have caught: at the last line end within it (no secret value the
 * rules catch spans a line end, and a private key cut between its lines is still caught from its BEGIN
 * line); when a single line runs past `max`, at its last white space or quote before `max` that is
 * outside any quoted value (a token holds neither, and a quoted value is then whole or gone). A quote
 * opens a value only where a value can start, not after a letter or digit (`don't` opens nothing).
 */
function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const lineEnd = Math.max(text.lastIndexOf('\n', max), text.lastIndexOf('\r', max))
  if (lineEnd >= 0) return text.slice(0, lineEnd)
  let cut = 0
  let open = '' // the quote a quoted value opened, until it closes (`\"` doesn't close `"`)
  for (let i = 0; i <= max; i++) {
    const c = text[i] as string
    const quote = /["']/.test(c)
    if (open === '') {
      // (A quote, a space or a tab, or white space past ASCII: not a line end, none is left before `max`.)
      if (/["' \t]|(?=[^\0-~])\s/.test(c)) cut = i
      if (quote && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? ' ')) open = c
    } else if (c === '\\' && open === '"') i++
    else if (c === open) open = ''
  }
  return text.slice(0, cut)
}

/** Trailing white space off every line (per line: `/[ \t]+$/gm` rescans a long run of spaces at each of its positions). */
function trimLineEnds(text: string): string {
  return text.split('\n').map((line) => line.trimEnd()).join('\n')
}
