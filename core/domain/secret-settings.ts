/**
 * Secret settings in the agent notes and commit subjects (SPEC.md: The handoff, "NAME=value settings whose name
 * contains KEY, SECRET, TOKEN or PASSWORD"; docs/handoff.md, "Secret settings"): which names are secret, which
 * values look like a credential, and the passes that redact a setting's value and keep its name, `=`/`:` and
 * quotes. notes.ts runs them after the private keys, Authorization headers, URL passwords and token formats.
 * Pure and linear in the input, as notes.ts's opening comment says of every rule (spec/core/notes.spec.ts
 * times each on 200 KB of its own hostile input).
 */
import { REDACTED } from './markers'
import { shannonEntropy } from './token-formats'

/** A setting's name is secret when it contains one of these (SPEC.md: KEY, SECRET, TOKEN, PASSWORD; plus three more). */
const SECRET_WORDS = /key|secret|token|password|passwd|passphrase|credential/i
/** …or when one of its parts (split at `_`, `-`, `.` and camelCase) is one of these. */
const SECRET_PARTS = new Set(['pass', 'pwd', 'pw', 'auth', 'authorization'])
/** Names that hold a directory, not a password. */
const NOT_SECRET_NAMES = new Set(['pwd', 'oldpwd'])
/** Values that are never a secret: flags, nothing, placeholders, type names, a reference to another variable. */
const HARMLESS_VALUE =
  /^(?:|true|false|yes|no|on|off|null|nil|none|undefined|value|values|val|string|str|number|int|integer|boolean|bool|object|any|unknown|\.{3}|…|x{3,}|\*{3,}|\[redacted\]|\$\w+|\$\{\w+\}|\$\{\{[^}]*\}\}|%\w+%)$/i

/** Whether a setting with this name holds a secret. */
export function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, '')
  if (NOT_SECRET_NAMES.has(bare.toLowerCase())) return false
  if (SECRET_WORDS.test(bare)) return true
  return nameParts(bare).some((p) => SECRET_PARTS.has(p))
}

/** A name's words, lower case: split at `_`, `-`, `.` and camelCase (`X-API-Key` → x, api, key). */
function nameParts(name: string): string[] {
  return name
    .replace(/^-+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== '')
    .map((p) => p.toLowerCase())
}

/**
 * Whether an unquoted value reads as a credential rather than a word, path or version: CREDENTIAL_LIKE, not a
 * placeholder (entropy), not shaped like a path or a version, and at most one word of four or more letters
 * between its separators (`node-modules-3f2a…` and `bert-base-uncased-v2` are names; `sk_live_51Hq…` is not).
 */
function looksLikeCredential(value: string): boolean {
  if (!CREDENTIAL_LIKE.test(value) || PATH_LIKE.test(value) || VERSION_LIKE.test(value)) return false
  if (shannonEntropy(value) < CREDENTIAL_ENTROPY) return false
  const words = value.split(/[-._~+/=]+/).filter((part) => WORD_PART.test(part) && !HEX_PART.test(part))
  return words.length < 2
}

const NAME = '-{0,2}[A-Za-z_][A-Za-z0-9_.-]*'
const QUOTED = `"(?:[^"\\\\\\n]|\\\\.)*"|'[^'\\n]*'`
/** A value in backticks, taken only when it is of a token's alphabet (`` API key: `3f2a…` ``; not `` `userId` `` or text between two code spans). */
const BACKTICKED = '`[A-Za-z0-9\\-._~+/=]{16,512}`'
/**
 * A GitHub Actions expression, `${{ secrets.X }}`: a reference, kept whole. At most 200 characters inside,
 * so a line of `${{` with no end costs each try 200 steps, not the rest of the line (linear in the input).
 */
const EXPRESSION = '\\$\\{\\{[^}\\n]{0,200}\\}\\}'
/** `NAME=value`, `export NAME=value`, `NAME = "value"`, `name := "value"`, `--name=value`, `?name=value&`. */
const ASSIGNMENT = new RegExp(`(?<![A-Za-z0-9_.$-])(${NAME})([ \\t]*):?=(?!=)([ \\t]*)(${QUOTED}|${EXPRESSION}|[^\\s'"\`;&<>]+)`, 'g')
/** `name: value` (YAML, headers), `"name": "value"` (JSON), `**Name:** value`. */
const COLON = new RegExp(
  `(?<![A-Za-z0-9_.$-])(["']?)(${NAME})\\1([ \\t]*):(?!//)([ \\t]*(?:(?:\\*\\*|__)[ \\t]*)?)(${QUOTED}|${EXPRESSION}|[^\\s'"\`,;{}\\[\\]]+)`,
  'g',
)

/*
 * The later passes: forms the two above do not read, each its own pass after them, so whatever the two found
 * inside a value is already redacted and none of these can hide it (a value holding `[redacted]` is left as it
 * is). Each redacts only a value that looks like a credential (or, for a quoted name, a quoted value) after a
 * secret name, so a status word or an identifier after a label stays.
 */
/** An unquoted value that starts with another setting's name: read the inner one where it starts. */
const NOT_A_LABEL = `(?!${NAME}[ \\t]*:?=(?!=)|${NAME}[ \\t]*:[ \\t])`
const L = '(?<![A-Za-z0-9_.$-])'
/** `Header: X-API-Key: …`, `--from-literal=api-key=…`, `env: API_KEY: …` (the inner setting). */
const NESTED = new RegExp(`${L}(?<name>${NAME})[ \\t]*(?::|:?=(?!=))[ \\t]*(?<value>${NOT_A_LABEL}[^\\s'"\`,;&<>{}\\[\\]]+)`, 'g')
/** `"X-API-Key" = "…"` (a PowerShell hashtable). */
const QUOTED_NAME = new RegExp(`${L}(?<q>["'])(?<name>${NAME})\\k<q>[ \\t]*=(?!=)[ \\t]*(?<value>${QUOTED})`, 'g')
/** `` API key: `3f2a…` ``, `**Token:** \`…\``, `` KEY=`…` ``. */
const BACKTICK_VALUE = new RegExp(`${L}(?<name>${NAME})(?:\\*\\*|__)?[ \\t]*(?::|:?=(?!=))[ \\t]*(?:(?:\\*\\*|__)[ \\t]*)?(?<value>${BACKTICKED})`, 'g')
/** `**API key**: …`, `__Token__: …`. */
const BOLD_NAME = new RegExp(`${L}(?<name>${NAME})(?:\\*\\*|__)[ \\t]*:[ \\t]*(?<value>${QUOTED}|[^\\s'"\`,;{}\\[\\]]+)`, 'g')
/** `?token=…&`, `,API_KEY=…` (settings listed in one value: `--set-env-vars=A=1,API_KEY=…`). */
const LISTED = new RegExp(`[?&;,](?<name>${NAME})=(?<value>[^\\s&#;,'"\`<>()]+)`, 'g')
/** Each later pass with what a text must hold for it to find anything (most prose holds none of them: no scan). */
const LATER_PASSES: readonly (readonly [RegExp, RegExp, boolean])[] = [
  [NESTED, /[:=][ \t]*-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,256}[ \t]*:?[:=]/, false],
  [QUOTED_NAME, /["'][ \t]*=/, true],
  [BACKTICK_VALUE, /[:=][ \t]*(?:(?:\*\*|__)[ \t]*)?`/, false],
  [BOLD_NAME, /(?:\*\*|__)[ \t]*:/, true],
  [LISTED, /[?&;,]-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,256}=/, false],
]
/** `--password value` (a long flag, then a value that is not another flag). */
const FLAG_VALUE = new RegExp(`(?<![A-Za-z0-9_-])(--[A-Za-z][A-Za-z0-9_.-]*)([ \\t]+)(${QUOTED}|[^\\s'"\`;&|<>-][^\\s'"\`;&|<>]*)`, 'g')
/** What may follow an unquoted value on its line for it to count as the whole value: these, then a comment or the line end. */
const AFTER_VALUE = /[\s`'".,;)\]}]/
/** The characters a line's prefix before a setting may hold (indentation, list and quote markers, `**`). */
const LINE_PREFIX_CHAR = /[ \t*+>.)_\d-]/
/**
 * A value that looks like a credential: 16 or more characters of a token's alphabet (base64, base64url, hex),
 * with a letter and a digit, as the Bearer rule above reads one. Such a value after a secret name is a setting
 * wherever it stands, not only at the end of its line: a header in a curl line (`-H "X-API-Key: 3f2a…"
 * https://…`), `the api_key = 9c1d… worked` (gitleaks' generic-api-key reads a keyword then a token the same way).
 */
const CREDENTIAL_LIKE = /^(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9\-._~+/=]{16,}$/
/** The last word of a name that holds a credential (`X-API-Key`, `apiKey`, `X-Auth-Token`; not `tokenizer`, `secretName`). */
const CREDENTIAL_NAME_END = new Set(['key', 'apikey', 'token', 'secret', 'password', 'passwd', 'passphrase', 'credential', 'credentials'])
/** Values shaped like a path (`./config/dev.pem`, `/etc/ssl/x`), a version (`1.2.3-rc.4`), or words (`bert-base-uncased`). */
const PATH_LIKE = /^(?:\.{0,2}\/|~\/)|\.[A-Za-z]{1,5}$/
const VERSION_LIKE = /^v?\d+(?:\.\d+)+/
const WORD_PART = /^[A-Za-z]{4,}$/
const HEX_PART = /^[0-9A-Fa-f]+$/
/** …and not a placeholder (`AAAAAAAAAAAAAAA1`): bits a character over its first 64, as token-formats.ts measures it. */
const CREDENTIAL_ENTROPY = 3

/** `text` with the value of every secret setting it holds redacted. */
export function redactSettings(text: string): string {
  const valueOf = (quoted: string): string => quoted.replace(/^(["'`])([\s\S]*)\1$/, '$2')
  const redactValue = (value: string): string => {
    const q = value[0]
    return (q === '"' || q === "'" || q === '`') && value.length >= 2 && value.endsWith(q) ? `${q}${REDACTED}${q}` : REDACTED
  }
  /** Whether only closing punctuation, then a comment or the line end, follows `from`. */
  const endsLine = (s: string, from: number): boolean => {
    for (let i = from; i < s.length; i++) {
      const c = s[i] as string
      if (c === '\n' || c === '#' || (c === '/' && s[i + 1] === '/')) return true
      if (!AFTER_VALUE.test(c)) return false
    }
    return true
  }
  const quoted = (v: string): boolean => /^["']/.test(v)
  /**
   * Whether only indentation, a list or quote marker, or `**` comes before `at` on its line. Reads back only
   * over the characters such a prefix holds, so a long line costs each match a few steps, not the line.
   */
  const startsLine = (s: string, at: number): boolean => {
    let from = at
    while (from > 0 && s[from - 1] !== '\n') {
      if (!LINE_PREFIX_CHAR.test(s[from - 1] as string)) return false
      from -= 1
    }
    return /^[ \t]*(?:(?:[-*+>]|\d{1,3}[.)])[ \t]+)*(?:\*\*|__)?$/.test(s.slice(from, at))
  }

  /** A value that looks like a credential after a name whose last word names one (`X-API-Key`, not `tokenizer`). */
  const credentialAfterSecretWord = (name: string, value: string): boolean =>
    CREDENTIAL_NAME_END.has(nameParts(name).at(-1) ?? '') && looksLikeCredential(value)

  let out = text.replace(ASSIGNMENT, (m, name: string, before: string, after: string, value: string, offset: number, s: string) => {
    if (!isSecretName(name) || HARMLESS_VALUE.test(valueOf(value))) return m
    // `name = value` with spaces reads like prose unless the value is quoted, ends the line, or looks like a
    // credential after a name that names one.
    if ((before !== '' || after !== '') && !quoted(value) && !endsLine(s, offset + m.length) && !credentialAfterSecretWord(name, value)) return m
    return m.slice(0, m.length - value.length) + redactValue(value)
  })
  out = out.replace(COLON, (m, q: string, name: string, _b: string, _a: string, value: string, offset: number, s: string) => {
    if (!isSecretName(name) || HARMLESS_VALUE.test(valueOf(value))) return m
    // A bare `Name: value` needs the value to end its line (`Password: the one in the vault` stays), or to look
    // like a credential after a name whose last word names one (a header in a curl line); a quoted name (JSON)
    // or a quoted value is a setting wherever it stands.
    if (q === '' && !quoted(value) && !endsLine(s, offset + m.length) && !credentialAfterSecretWord(name, value)) return m
    // A name secret only by a part (`pass`, `auth`) after other words is prose (`Tests pass: 48/48`); at the
    // start of a line (`pass: hunter2`, `- auth: x`) it is a setting.
    if (q === '' && !SECRET_WORDS.test(name) && !startsLine(s, offset)) return m
    return m.slice(0, m.length - value.length) + redactValue(value)
  })
  /** A later pass's verdict: a secret name and a credential (a quoted value, where `quotedCounts`), not yet redacted. */
  const later = (quotedCounts: boolean) => (m: string, ...rest: unknown[]): string => {
    const { name = '', value = '' } = rest.at(-1) as Record<string, string | undefined>
    if (!isSecretName(name) || value.includes(REDACTED) || HARMLESS_VALUE.test(valueOf(value))) return m
    const inner = value.startsWith('`') ? value.slice(1, -1) : value
    const ok = quotedCounts && quoted(value) ? true : !quoted(value) && credentialAfterSecretWord(name, inner)
    return ok ? m.slice(0, m.length - value.length) + redactValue(value) : m
  }
  for (const [re, holds, quotedCounts] of LATER_PASSES) {
    if (holds.test(out)) out = out.replace(re, later(quotedCounts))
  }
  out = out.replace(FLAG_VALUE, (m, name: string, _s: string, value: string) => {
    if (!isSecretName(name) || HARMLESS_VALUE.test(valueOf(value))) return m
    // `use --token to sign in` is prose: an unquoted value must hold something other than letters.
    if (!quoted(value) && /^\p{L}+[.,;:!?)]*$/u.test(value)) return m
    return m.slice(0, m.length - value.length) + redactValue(value)
  })
  return out
}
