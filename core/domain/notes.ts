/**
 * The cleaning of the agent notes and commit subjects (SPEC.md: The handoff). Fenced code blocks
 * become `[code omitted]`; private keys, URL passwords, secret settings, provider token formats
 * and the user's own access key become `[redacted]`; the result is capped. Best effort by design:
 * a password written out in prose or an indented code excerpt is sent as written.
 * Pure and total: any input (even a non-string) gives a string, nothing throws.
 *
 * Linear time, whatever the input (docs/handoff.md, Cleaning): the input is cut to a prefix first,
 * and no rule can rescan a long run of text at each of its positions (no unbounded look-ahead, no
 * run of a body followed by something that can fail where the body's first characters may start
 * another match, no two adjacent quantifiers over the same characters). spec/core/notes.spec.ts
 * times every rule on 200 KB of its own hostile input. Provider token formats are matched by
 * token-formats.ts (facts from gitleaks' and secretlint's rule sets), linear by construction; secret settings
 * (`NAME=value` and its kin) by secret-settings.ts.
 */
import { CODE_OMITTED, REDACTED } from './markers'
import { redactSettings } from './secret-settings'
import { redactTokens } from './token-formats'

export { tokenFormats } from './token-formats'
export { isSecretName } from './secret-settings'
export { CODE_OMITTED, REDACTED } from './markers'

/** The notes cap, in UTF-16 code units (so also at most 1,500 code points or graphemes). */
export const NOTES_LIMIT = 1500
/** The commit subject cap, in UTF-16 code units. */
export const SUBJECT_LIMIT = 200
/** A shorter access key is ignored, so a blank or one-letter key can't redact ordinary text. */
export const MIN_ACCESS_KEY_LENGTH = 8
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
    let text = normalize(clip(answer, NOTES_INPUT))
    text = omitCodeBlocks(text)
    text = redactSecrets(text, accessKey)
    text = trimLineEnds(text).replace(/\n{3,}/g, '\n\n').trim()
    return capText(text, NOTES_LIMIT)
  } catch {
    return ''
  }
}

/** A commit subject: its first non-blank line, single-spaced, redacted, ≤ SUBJECT_LIMIT. */
export function cleanSubject(subject: string, accessKey?: string): string {
  try {
    if (typeof subject !== 'string') return ''
    const line = normalize(clip(subject, SUBJECT_INPUT)).split('\n').find((l) => l.trim() !== '') ?? ''
    const text = redactSecrets(line.replace(/\s+/g, ' ').trim(), accessKey)
    return capText(text, SUBJECT_LIMIT)
  } catch {
    return ''
  }
}

/**
 * Webhook URLs whose path is the secret: the host stays, the path goes. Slack (gitleaks slack-webhook-url,
 * secretlint slack), Microsoft Teams (gitleaks microsoft-teams-webhook), Discord.
 */
const WEBHOOKS = /\b(hooks\.slack\.com\/(?:services|workflows|triggers)\/|discord(?:app)?\.com\/api\/webhooks\/)[A-Za-z0-9/_-]+/gi
/** A Teams webhook (its host's first label at most 63 characters, as in DNS), looked for only when the text names the host. */
const TEAMS_WEBHOOK = /\b([a-z0-9-]{1,63}\.webhook\.office\.com\/webhookb2\/)[A-Za-z0-9/_@-]+/gi

/** PEM private keys (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), from BEGIN to END (see redactPemBlocks). */
const PEM_BEGIN = /-----BEGIN[ A-Z0-9]{0,64}PRIVATE KEY(?: BLOCK)?-----/gi
const PEM_END = /-----END[ A-Z0-9]{0,64}PRIVATE KEY(?: BLOCK)?-----/gi
/** A PEM private key cut off before its END line: the BEGIN line and the key-like lines after it. */
const PEM_OPEN =
  /-----BEGIN[ A-Z0-9]{0,64}PRIVATE KEY(?: BLOCK)?-----[^\n]*(?:\n(?:[ \t]*[A-Za-z0-9+/=\\]+[ \t]*|[ \t]*(?:Proc-Type|DEK-Info|Version|Comment|Hash):[^\n]*|[ \t]*)(?=\n|$))*/gi
/** A PuTTY private key file. */
const PUTTY = /PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|$)/g

/**
 * `Authorization: <scheme> <credentials>` (RFC 9110 §11.6.2; also Proxy-Authorization): the scheme word stays,
 * whatever it is (Bearer, Basic, ApiKey, SSWS, Splunk, DeepL-Auth-Key, AWS4-HMAC-SHA256, …), and the credentials
 * go: a token, or `name=value` parameters with quoted values and the comma-separated parameters after them
 * (`Token token="…"`, `Credential=…, SignedHeaders=…, Signature=…`).
 */
const AUTH_PARAM = `[A-Za-z][\\w-]{0,63}=(?:"[^"\\n]{0,1024}"|'[^'\\n]{0,1024}'|[^\\s"'\`,]*)`
/** Schemes kept by name (IANA's registry and common vendor ones); another word is a scheme only before a credential with a digit. */
const KNOWN_SCHEME =
  '(?:[A-Za-z0-9]{1,16}-)?HMAC-SHA[0-9]{1,3}|Bearer|Basic|Token|Digest|Bot|Negotiate|NTLM|HOBA|Mutual|OAuth|SCRAM-SHA-1|SCRAM-SHA-256|vapid|' +
  'ApiKey|Api-Key|Key|SSWS|Splunk|DeepL-Auth-Key|GoogleLogin|SharedKey|SharedKeyLite|Signature|JWT|MAC|Klaviyo-API-Key|Zoho-oauthtoken|GenieKey'
/**
 * The credentials are never a secret label (`Authorization: token: …`), which the settings passes read, nor a
 * bold marker standing alone (`**Authorization:** Basic …`); a token that starts with `-`, `_` or `*` (base64url)
 * is one, whatever follows it (a flag after the header, `--token …`, cannot be told from one). Bounded, so the
 * look-ahead costs each match a few steps.
 */
const NOT_A_NAME =
  '(?![A-Za-z_-]{0,64}(?:key|token|secret|pass|auth)[A-Za-z0-9_.-]{0,64}:[ \\t]|(?:\\*\\*|__)(?:[ \\t]|$))'
const AUTHORIZATION = new RegExp(
  `\\b((?:Proxy-)?Authorization(?:\\*\\*|__)?["']?[ \\t]*[:=](?:[ \\t]*(?:\\*\\*|__))?[ \\t]*["']?)` +
    `(?:(${KNOWN_SCHEME})[ \\t]+(?=[^\\s'\`])|([A-Za-z][A-Za-z-]{1,31})[ \\t]+(?=[^\\s"'\`,;]{0,256}\\d))?${NOT_A_NAME}` +
    `(?:${AUTH_PARAM}|"[^"\\n]{1,1024}"|[^\\s"'\`,;]+)(?:[ \\t]*,[ \\t]*${AUTH_PARAM})*`,
  'gi',
)
/** `Bearer <token>` anywhere, when the token looks like one (16+ characters with a digit). */
const BEARER = /\b(Bearer\s+)([A-Za-z0-9\-._~+/]{16,}=*)/g
/** `curl -u user:password`: the password goes. */
const CURL_USER = /((?:^|\s)(?:-u|--user)[\s=]+["']?)([^\s:"']+):([^\s"']+)/g
/** `scheme://user:password@host`: user and host stay, the password goes. The scheme is at most 32 characters. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:/?#@"'`<>]*):([^\s/?#"'`<>]+)@(?=[^\s@]*[A-Za-z0-9\]])/gi

/** The redaction alone. */
export function redactSecrets(text: string, accessKey?: string): string {
  try {
    if (typeof text !== 'string') return ''
    let out = redactAccessKey(text, accessKey)
    out = redactPemBlocks(out).replace(PEM_OPEN, REDACTED).replace(PUTTY, REDACTED)
    out = out.replace(AUTHORIZATION, (_m, head: string, known: string | undefined, other: string | undefined) => {
      const scheme = known ?? other
      return `${head}${scheme === undefined ? '' : `${scheme} `}${REDACTED}`
    })
    out = out.replace(BEARER, (m, head: string, token: string) => (/\d/.test(token) ? head + REDACTED : m))
    out = out.replace(CURL_USER, (_m, head: string, user: string) => `${head}${user}:${REDACTED}`)
    out = out.replace(URL_PASSWORD, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`)
    out = out.replace(WEBHOOKS, (_m, head: string) => head + REDACTED)
    if (/webhook\.office\.com/i.test(out)) out = out.replace(TEAMS_WEBHOOK, (_m, head: string) => head + REDACTED)
    out = redactTokens(out, REDACTED)
    out = redactSettings(out)
    return out
  } catch {
    return ''
  }
}

/**
 * Each BEGIN … PRIVATE KEY line to the first END line after it, found in one pass: an END search
 * starts where the previous block ended, and once one finds nothing no later BEGIN can have an END.
 */
function redactPemBlocks(text: string): string {
  let out = ''
  let at = 0
  PEM_BEGIN.lastIndex = 0
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    PEM_END.lastIndex = begin.index + begin[0].length
    const end = PEM_END.exec(text)
    if (end === null) break
    out += text.slice(at, begin.index) + REDACTED
    at = end.index + end[0].length
    PEM_BEGIN.lastIndex = at
  }
  return out + text.slice(at)
}

/** A piece of the access key this long (or the whole key, when shorter) is redacted wherever it stands. */
export const KEY_PIECE = 12

/** A-Z to a-z and nothing else, so every index stays where it was (toLowerCase can change a text's length). */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/**
 * The user's access key out of `text` (issue 12 §3: the key only in the Authorization header).
 * Not only the whole key as written: any run of text holding a piece of it KEY_PIECE characters
 * long, in any case of its ASCII letters, becomes `[redacted]` (overlapping and touching pieces as
 * one). So a key split across lines, cut off by a length cap, or written in capitals leaves no
 * piece long enough to matter; a key shorter than KEY_PIECE is matched whole, in any case.
 * Linear: up to three pair look-ups per position of the text, and a piece look-up where all three are the key's.
 */
export function redactAccessKey(text: string, accessKey: string | undefined): string {
  if (typeof text !== 'string' || typeof accessKey !== 'string') return text
  const key = asciiLower(accessKey.trim())
  if (key.length < MIN_ACCESS_KEY_LENGTH) return text
  const n = Math.min(KEY_PIECE, key.length)
  const pieces = new Set<string>()
  for (let i = 0; i + n <= key.length; i++) pieces.add(key.slice(i, i + n))
  // A piece starts, ends and has its middle at pairs of the key's characters: cheap looks before the set look-up.
  const pairs = new Set<number>() // pairs with a character past ASCII
  const asciiPairs = new Uint8Array(128 * 128)
  for (let i = 0; i + 1 < key.length; i++) {
    const a = key.charCodeAt(i)
    const b = key.charCodeAt(i + 1)
    if (a < 128 && b < 128) asciiPairs[a * 128 + b] = 1
    else pairs.add(a * 65536 + b)
  }
  const lower = asciiLower(text)
  const pairAt = (i: number): boolean => {
    const a = lower.charCodeAt(i)
    const b = lower.charCodeAt(i + 1)
    return a < 128 && b < 128 ? asciiPairs[a * 128 + b] === 1 : pairs.has(a * 65536 + b)
  }
  let out = ''
  let at = 0 // the text before `at` is in `out`
  let start = -1 // the run of pieces being found: [start, end)
  let end = -1
  for (let i = 0; i + n <= lower.length; i++) {
    if (!pairAt(i) || !pairAt(i + n - 2) || !pairAt(i + (n >> 1)) || !pieces.has(lower.slice(i, i + n))) continue
    if (start >= 0 && i <= end) {
      end = i + n
      continue
    }
    if (start >= 0) out += text.slice(at, start) + REDACTED
    if (start >= 0) at = end
    start = i
    end = i + n
  }
  if (start < 0) return text
  return out + text.slice(at, start) + REDACTED + text.slice(end)
}

/** Fenced code blocks (``` or ~~~, three or more, also unterminated) → `[code omitted]`. */
export function omitCodeBlocks(text: string): string {
  const out: string[] = []
  let fence: { char: string; length: number } | undefined
  for (const line of text.split('\n')) {
    if (fence === undefined) {
      const open = /^((?:[ \t]|>|[-*+][ \t]|\d{1,9}[.)][ \t])*)(`{3,}|~{3,})(.*)$/.exec(line)
      const marks = open?.[2]
      if (open !== null && marks !== undefined && !(marks[0] === '`' && (open[3] ?? '').includes('`'))) {
        fence = { char: marks[0] ?? '`', length: marks.length }
        out.push(`${open[1] ?? ''}${CODE_OMITTED}`)
      } else {
        out.push(line)
      }
    } else {
      const close = /^[ \t>]*(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1]
      if (close !== undefined && close[0] === fence.char && close.length >= fence.length) fence = undefined
    }
  }
  return out.join('\n')
}

/**
 * At most `limit` UTF-16 code units. A cut text ends with `…` (counted in the limit); the cut never
 * splits a surrogate pair, a combining sequence, an emoji sequence, a flag or a `[redacted]` /
 * `[code omitted]` marker.
 */
export function capText(text: string, limit: number): string {
  if (typeof text !== 'string') return ''
  if (text.length <= limit) return text
  if (limit < CUT_MARK.length) return ''
  let cut = limit - CUT_MARK.length
  // Never end on a high surrogate.
  if (isHigh(text.charCodeAt(cut - 1))) cut -= 1
  // Back off to the start of the grapheme the cut falls in.
  for (let guard = 0; cut > 0 && guard < 64 && continuesGrapheme(text, cut); guard++) cut = prevIndex(text, cut)
  // An odd run of regional indicators before the cut would leave half a flag.
  let ri = 0
  for (let i = cut; i > 0; ) {
    const p = prevIndex(text, i)
    const cp = text.codePointAt(p) ?? 0
    if (cp < 0x1f1e6 || cp > 0x1f1ff) break
    ri += 1
    i = p
  }
  if (ri % 2 === 1) cut = prevIndex(text, cut)
  // Never cut a marker in half.
  for (const marker of [REDACTED, CODE_OMITTED]) {
    const start = text.lastIndexOf('[', cut - 1)
    if (start >= 0 && start < cut && start + marker.length > cut && text.startsWith(marker, start)) cut = start
  }
  return text.slice(0, cut).trimEnd() + CUT_MARK
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}

function prevIndex(text: string, i: number): number {
  if (i >= 2 && isHigh(text.charCodeAt(i - 2)) && text.charCodeAt(i - 1) >= 0xdc00 && text.charCodeAt(i - 1) <= 0xdfff) return i - 2
  return i - 1
}

/** Whether the code point at `i` belongs to the grapheme before it. */
function continuesGrapheme(text: string, i: number): boolean {
  const cp = text.codePointAt(i) ?? 0
  const before = text.codePointAt(prevIndex(text, i)) ?? 0
  return (
    before === 0x200d || // after a zero-width joiner
    cp === 0x200d ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || // variation selectors
    (cp >= 0x1f3fb && cp <= 0x1f3ff) || // skin tones
    (cp >= 0xe0020 && cp <= 0xe007f) || // tag sequences
    cp === 0x20e3 || // keycap
    /\p{M}/u.test(String.fromCodePoint(cp)) // combining marks
  )
}

/**
 * Terminal escape sequences, in their 7-bit and C1 forms: strings (OSC, DCS, SOS, PM, APC: `ESC ]8;;url`)
 * up to their terminator (BEL or ST) or the line end; CSI (`ESC [31m`); any other `ESC` sequence.
 * Each alternative always matches from its start, so the pass is linear.
 */
const ESCAPES = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|\u001b[ -/]*[0-~]?/g
/** C0 controls but newline and tab, DEL, C1 controls, and bidi controls (marks, embeddings, overrides, isolates). */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

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
    const quote = c === '"' || c === "'"
    if (open === '') {
      if (quote || c === ' ' || c === '\t' || (c > '~' && /\s/.test(c))) cut = i
      if (quote && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? ' ')) open = c
    } else if (c === '\\' && open === '"') i++
    else if (c === open) open = ''
  }
  return text.slice(0, cut)
}

/** Trailing spaces and tabs off every line (a loop: `/[ \t]+$/gm` rescans a long run of spaces at each of its positions). */
function trimLineEnds(text: string): string {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    let end = line.length
    while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
    if (end < line.length) lines[i] = line.slice(0, end)
  }
  return lines.join('\n')
}
