/**
 * Redaction of the agent notes and commit subjects (SPEC.md: The handoff: private keys and URL passwords,
 * NAME=value settings whose name contains KEY, SECRET, TOKEN or PASSWORD, provider token formats and your own
 * access key become `[redacted]`; best effort). docs/handoff.md, "How the redaction works", says the same for
 * people.
 *
 * The design, in three parts:
 *
 * 1. **Candidates, found in one scan.** The user's own key goes first (./access-key: not a pattern, but any
 *    12 characters of the key glued to anything). Then one pass goes over the text, left to right, from one place
 *    where something may start to the next, and asks what starts there:
 *    - a provider token, where ./tokens' prefilter finds a row's prefix or provider name (./token-table:
 *      prefixes, alphabets, lengths, keywords from gitleaks, secretlint or ours);
 *    - a setting, at a `=`, `:=`, `?=`, `=>` or `:`, at the `,` after a call's quoted first argument
 *      (`define('DB_PASSWORD', '…')`) and at the `>` of an XML element's opening tag (`<password>…`): SETTING reads
 *      the name back (through a closing quote or `**`) and the value forward (quoted, in escaped quotes, in backticks,
 *      a `${{ }}` reference, or a run up to its kind's stop characters); how it is written and where it stands make
 *      its form (`setting`); `--name value` is read at its dashes;
 *    - the other kinds, one sticky expression each (READERS): an Authorization header's credentials (its scheme
 *      word stays), a URL's password, `Bearer <token>`, curl's `-u user:password`, a login's `-p password`, a netrc
 *      entry's password, an XML attribute pair's value, a PuTTY key, a private key block (BEGIN to END, or its
 *      key-like lines when cut off).
 *    A candidate is a span to redact, or nothing. What goes is the union of the spans, so no candidate depends
 *    on another having run first: a keyword token found ahead and a setting around it simply overlap. What is
 *    inside a key block, a PuTTY file or a prefixed token is not looked at again.
 * 2. **One table of verdicts.** A recognised token, key, URL password, header, Bearer or curl credential goes:
 *    recognition is the rule. A setting goes as SETTINGS says for its form, in named facts (FACTS). Adding a
 *    provider format is one row of ./token-table; a settings form is one row of SETTINGS and, where it reads
 *    differently, a line of `setting`; another kind is a row of READERS.
 * 3. **Linear time, whatever the input** (docs/handoff.md, Cleaning): the scan goes from one place where
 *    something may start to the next (STARTS, and ./tokens' keyword prefilter), each found once; along a line
 *    holding none of HINT's words, where no setting, flag or header can be secret, only a URL's `://` is read at
 *    a separator (QUIET); a run of value characters is measured once and remembered (`x=y=z=…` is not re-read
 *    from each name; ./tokens `runs`), a value is judged on a bounded head; names are read back only over name characters, which a separator ends;
 *    the readers are sticky and bounded, or read a stretch the scan then skips (a key block up to the next BEGIN
 *    line at most). spec/core/notes.spec.ts times every rule on 200 KB of its own hostile text.
 *
 * Pure and total: any input gives a string, nothing throws.
 */
import { REDACTED } from '../markers'
import { redactAccessKey } from './access-key'
import { chars, ENTROPY_LIMIT, entropy, finder, runs, tokenMatcher, type Chars } from './tokens'

/** A setting as its form's verdict reads it. */
interface Setting {
  readonly text: string
  /** Where the name starts (or its opening quote), and where the value ends as written. */
  readonly start: number
  readonly end: number
  readonly name: string
  /** The value without its quotes or backticks. */
  readonly value: string
  readonly quoted: boolean
}

/**
 * What each named fact says of a setting.
 *   secret      the name is secret (isSecretName) and the value not one that never is (HARMLESS)
 *   quoted      the value is in quotes
 *   endsLine    only closing punctuation, then a comment or the line end, follows the value
 *   credential  the value looks like a credential and the name's last word names one (X-API-Key, apiKey)
 *   strong      the name holds KEY, SECRET, TOKEN, PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL, not only a part
 *               such as pass, pwd or auth (`Tests pass: 48/48` is prose)
 *   startsLine  only indentation, a list, quote or bold marker comes before the name on its line
 *   notWord     the value holds something besides letters (`use --token to sign in` is prose)
 */
const FACTS: Readonly<Record<string, (c: Setting) => boolean>> = {
  secret: (c) => isSecretName(c.name) && !(c.value.length < 256 && HARMLESS.test(c.value)),
  quoted: (c) => c.quoted,
  endsLine: (c) => /^[\s`'".,;)\]}]*?(?:\n|#|\/\/|$)/.test(c.text.slice(c.end, c.end + 256)),
  // A sentence's punctuation after the value (`the api_key = 3f2a…, which`) is not part of what is judged.
  credential: (c) => CREDENTIAL_NAME_END.test(words(c.name)) && looksLikeCredential(c.value.length < 256 ? c.value.replace(/[,.;:)\]}[]{1,3}$/, '') : c.value),
  strong: (c) => SECRET_WORDS.test(c.name),
  startsLine: (c) => /(?:^|\n)[ \t]*(?:(?:[-*+>]|\d{1,3}[.)])[ \t]+)*(?:\*\*|__)?$/.test(c.text.slice(Math.max(0, c.start - 64), c.start)),
  notWord: (c) => c.quoted || !/^\p{L}+[.,;:!?)]*$/u.test(c.value),
}

/**
 * The verdicts, one row a form (`form: condition, condition`): a setting's value is redacted when every condition
 * of its form's row holds; a condition is a fact, or facts separated by spaces (any of them). The forms, as `setting` tells them apart:
 *   plain     NAME=value, --name=value, ?token=…&, Password=…;, <password>…</password> (no space around `=`)
 *   spaced    SECRET_KEY = '…', apiKey := "…", DB_PASSWORD ?= …, the api_key = 3f2a… worked
 *   label     password: …, X-Api-Key: …, Send X-API-Key: 3f2a… with each call, **Password:** …
 *   json      "password": …, 'client_secret': '…' (a quoted name before `:`)
 *   quotedEq  @{ "X-API-Key" = "…" }, define('DB_PASSWORD', '…'), 'password' => '…', password => '…' (a quoted
 *             name before `=` or `,`; any name before `=>`, which also writes a function: `token => token.trim()`)
 *   bold      - **API key**: 3f2a… (a bold name)
 *   code      API key: `3f2a…` (a value in backticks)
 *   nested    a name inside another setting's value: Header: X-API-Key: 3f2a…, --from-literal=api-key=…,
 *             WEBHOOK_URL=https://…?token=…, --set-env-vars=A=1,API_KEY=…
 *   flag      --password hunter2, --token "…"
 */
const SETTINGS =
  'plain: secret; spaced: secret, quoted endsLine credential; label: secret, quoted endsLine credential, strong startsLine; json: secret; ' +
  'quotedEq: secret, quoted credential; bold: secret, quoted credential; code: secret, credential; nested: secret, credential; flag: secret, notWord'

/** SETTINGS read: per form, its conditions, each a list of facts. */
const VERDICTS: Readonly<Record<string, string[][]>> = Object.fromEntries(SETTINGS.split('; ').map((row) => row.split(': ')).map(([form, all]) => [form, (all as string).split(', ').map((any) => any.split(' '))]))

/** A setting's name is secret when it contains one of these (SPEC.md: KEY, SECRET, TOKEN, PASSWORD; plus three more). */
const SECRET_WORDS = /key|secret|token|password|passwd|passphrase|credential/i
/** …or when one of its words (`words`) is one of these; PWD and OLDPWD hold a directory. */
const SECRET_PART = /(?:^|[^a-z0-9])(?:pass|pwd|pw|auth|authorization)(?![a-z0-9])/
/**
 * Values that are never a secret: flags, nothing, placeholders, type names, a reference to another variable, a
 * command's output unquoted (`TOKEN=$(gh auth token)`: the value read is `$(gh`; a quoted `"$(… secret …)"` is judged
 * as any value).
 */
const HARMLESS =
  /^(?:|true|false|yes|no|on|off|null|nil|none|undefined|value|values|val|string|str|number|int|integer|boolean|bool|object|any|unknown|\.{3}|…|x{3,}|\*{3,}|\[redacted\]|\$\w+|\$\{\w+\}|\$\{\{[^}]*\}\}|\$\(\S*|%\w+%)$/i
/** The last word of a name that holds a credential (`X-API-Key`, `apiKey`, `X-Auth-Token`; not `tokenizer`, `secretName`). */
const CREDENTIAL_NAME_END = /(?:^|[^a-z0-9])(?:key|apikey|token|secret|password|passwd|passphrase|credentials?)[^a-z0-9]*$/

/** Whether a setting with this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_WORDS.test(name) || (/pw|pass|auth/i.test(name) && !/^-*(?:old)?pwd$/i.test(name) && SECRET_PART.test(words(name)))
}

/**
 * A name in lower case, its camelCase parts apart (`X-API-Key` → `x-api-key`, `apiKey` → `api key`): its words are
 * what any character but a letter or digit separates. The last 1,024 names are remembered: a text repeats its
 * names (`pw: "x"` a thousand times on one line).
 */
const words = (name: string): string => {
  let w = WORDS.get(name)
  if (!w) {
    if (WORDS.size >= 1024) WORDS.clear()
    WORDS.set(name, (w = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()))
  }
  return w
}
const WORDS = new Map<string, string>()

/**
 * Whether a value reads as a credential rather than a word, path or version: 16 or more characters of a
 * token's alphabet (base64, base64url, hex) with a letter and a digit, at least 3 bits a character (not a
 * placeholder such as `AAAAAAAAAAAAAAA1`), not shaped like a path (`./x`, `/x`, `~/x`, a `.ext` ending) or a
 * version (`1.2.3-rc.4`), and at most one word of four or more letters between its separators
 * (`node-modules-3f2a…` and `bert-base-uncased-v2` are names; `sk_live_51Hq…` is not). A value is judged on its
 * first ENTROPY_LIMIT characters and its ending, so settings nested in one long run cost each a bounded look.
 */
function looksLikeCredential(value: string): boolean {
  const head = value.slice(0, ENTROPY_LIMIT)
  return (
    value.length >= 16 &&
    /^(?=.*\d)(?=.*[A-Za-z])[\w\-.~+/=]+$/.test(head) &&
    !/^(?:\.{0,2}\/|~\/|v?\d+(?:\.\d+)+)/.test(head) &&
    !/\.[A-Za-z]{1,5}$/.test(value.slice(-6)) &&
    entropy(head, 0, ENTROPY_LIMIT) >= 3 &&
    // the words: four or more letters, not all of them hex digits
    head.split(/[-._~+/=]+/).filter((part) => /^(?![0-9A-Fa-f]+$)[A-Za-z]{4,}$/.test(part)).length < 2
  )
}

/** What ends an unquoted value, per kind of setting (docs/handoff.md, Secret settings): white space, and these. */
const VALUE = {
  eq: chars(`^\\s'"\`;&<>`),
  colon: chars(`^\\s'"\`,;{}[\\]`),
  nested: chars(`^\\s'"\`,;&<>{}[\\]()#`),
  flag: chars(`^\\s'"\`;&|<>`),
}
const NAME = '-{0,2}[A-Za-z_][\\w.-]*'
/**
 * A setting's separator and, behind it, its name: `name`, `"name"`, `'name'`, `**name**` or `__name__` (bold as
 * `**name**` is; a `**` after it changes nothing), an index's `]` (`os.environ["API_KEY"] = …`), then blanks; a name
 * not right after a letter, digit, `_`, `.` or `-`, nor after a `$` that opens a scope (so `x.y` and `$env:` are no
 * names, while PHP's, Perl's and PowerShell's `$password = …` is one). The separators: `=`, `:=`, `?=` (Makefile), `=>`
 * (PHP, Ruby, Perl), `:`, a `,` after a call's quoted first argument (`define('DB_PASSWORD', '…')`,
 * `headers.set("X-API-Key", "…")`), and the `>` of an XML element's opening tag (`<password>…</password>`).
 * Groups: 1 and 2 a quoted name, 3 and 5 a plain one, 4 and 6 its bold marker, 7 what stands before the separator
 * (an index's `]`, blanks, a `?`), 8 the separator, 9 the blanks after; after a `:`, the closing `**` of a bold label
 * (`**Password:** …`) is passed over too.
 */
const SETTING = new RegExp(
  `(?<=(?<![\\w.-]|(?<!\\$)\\$(?=\\w*:))(?:"(${NAME})"|'(${NAME})'|__(\\w+)(__)(?:\\*\\*)?|(${NAME})(\\*\\*)?)(\\]?[ \\t]*\\??))(:=|=>|=(?![=>])|:(?!//)|,(?<=\\([ \\t]*(?:"[^"\\n]{1,64}"|'[^'\\n]{1,64}')[ \\t]*,)|>(?<=<${NAME}>))([ \\t]*)(?:(?<=:[ \\t]*)(?:\\*\\*|__)[ \\t]*)?`,
  'y',
)
/**
 * A value read whole: quoted; in escaped quotes, as JSON written inside a string has it (`API_KEY=\"…\"`); in
 * backticks, taken only when of a token's alphabet (`` `3f2a…` ``, not `` `userId` ``); a GitHub Actions expression,
 * `${{ secrets.X }}` (a reference, kept whole: at most 200 characters inside).
 */
const WHOLE = /"(?:[^"\\\n]|\\.)*"|\\"(?:[^"\\\n]|\\[^"\n])*\\"|'[^'\n]*'|`[\w\-.~+/=]{16,512}`|\$\{\{[^}\n]{0,200}\}\}/y
/** `--name` (at most 64 characters) and the blanks after it, before a value that is not another flag. */
const FLAG = /(?<![\w-])(--[A-Za-z][\w.-]{0,63})[ \t]+(?!-)/y
/**
 * The kinds read by one sticky expression each, at the characters they can start with: [those characters, the
 * expression, the group that goes (it ends the match; 0: the whole match; the scan goes on past the match), the group
 * that stays in front of `[redacted]` (the scheme word)]. Each expression fails at once where it cannot start (a
 * lookbehind reads at most a scheme's or a header name's few characters back).
 */
const AUTH_PARAM = `[A-Za-z][\\w-]{0,63}=(?:"[^"\\n]{0,1024}"|'[^'\\n]{0,1024}'|[^\\s"'\`,]*)`
const READERS: readonly (readonly [string, RegExp, number, number?])[] = [
  [
    ':=',
    // `Authorization: <scheme> <credentials>` (RFC 9110 §11.6.2; Proxy-Authorization too): the scheme word stays (a
    // registered or common one, or any word of letters and hyphens before a credential with a digit); the
    // credentials go: a token, a quoted string, or `name=value` parameters and the comma-separated ones after
    // them (`Token token="…"`, `Credential=…, Signature=…`). They are never a secret label (`Authorization:
    // token: …`, a setting of its own) nor a bold marker standing alone; a token starting with `-`, `_` or `*`
    // (base64url) is one, whatever follows it.
    new RegExp(
      `(?<=\\bauthorization(?:\\*\\*|__)?["']?[ \\t]*)[:=](?:[ \\t]*(?:\\*\\*|__))?[ \\t]*["']?(((?:(?:[A-Za-z0-9]{1,16}-)?HMAC-SHA[0-9]{1,3}|Bearer|Basic|Token|` +
        'Digest|Bot|Negotiate|NTLM|HOBA|Mutual|OAuth|SCRAM-SHA-1|SCRAM-SHA-256|vapid|ApiKey|Api-Key|Key|SSWS|Splunk|DeepL-Auth-Key|GoogleLogin|SharedKey|' +
        `SharedKeyLite|Signature|JWT|MAC|Klaviyo-API-Key|Zoho-oauthtoken|GenieKey)[ \\t]+(?=[^\\s'\`])|[A-Za-z][A-Za-z-]{1,31}[ \\t]+(?=[^\\s"'\`,;]{0,256}\\d))?` +
        `(?![A-Za-z_-]{0,64}(?:key|token|secret|pass|auth)[\\w.-]{0,64}:[ \\t]|(?:\\*\\*|__)(?:[ \\t]|$))` +
        `(?:${AUTH_PARAM}|"[^"\\n]{1,1024}"|[^\\s"'\`,;]+)(?:[ \\t]*,[ \\t]*${AUTH_PARAM})*)`,
      'iy',
    ),
    1,
    2,
  ],
  // `scheme://user:password@host`: the password goes, up to the last `@` before the host (a scheme of up to 32 characters).
  [':', /(?=:\/\/)(?<=[a-z][a-z0-9+.-]{0,31}):\/\/[^\s:/?#@"'`<>]*:([^\s/?#"'`<>]+)(?=@[^\s@]*[A-Za-z0-9\]])/iy, 1],
  // `Bearer <token>` anywhere, when the token looks like one (16 or more characters with a digit).
  ['B', /(?<!\w)Bearer\s+((?=[\w.~+/-]{16})[\w.~+/-]*\d[\w.~+/-]*=*)/y, 1],
  // `curl -u user:password`: the password goes.
  ['-', /(?<=^|\s)(?:-u|--user)[\s=]+["']?[^\s:"']+:([^\s"']+)/y, 1],
  // A login's `-p password` (docker, oc, mongosh, twine, sshpass) or `-ppassword` (mysql), at most eight words after
  // `login`, `-u user` or `sshpass`; a port or an address (`-p 8080:80`) is none.
  ['-', /(?<=(?:\blogin|(?:^|\s)(?:-u|--user(?:name)?)(?:[ =]|(?=[^\s-]))\S{1,256}|\bsshpass)(?:[ \t]+\S{1,256}){0,8}[ \t]+)-p(?:[ \t]+(?=[^\s-]))?(?![\d.:,]+(?:\s|$))(["']?)([^\s"'`;|&<>]+)(?=\1)/y, 2],
  // A netrc entry: `machine <host> [login <user>] password <password>`, on one line or several.
  ['m', /(?<![\w-])machine[ \t]+\S{1,256}\s{1,64}(?:login[ \t]+\S{1,256}\s{1,64})?password[ \t]+(\S{1,512})/y, 1],
  // An XML attribute pair naming a secret (NuGet's `<add key="ClearTextPassword" value="…"/>`, `<property name="password" value="…"/>`).
  ['=', /(?<=\b(?:key|name)=["'][\w.:-]{0,64}(?:pass|secret|token|key|pwd|credential)[\w.:-]{0,64}["'][ \t]+value)=["']([^"'\n]{1,512})(?=["'])/iy, 1],
  // A PuTTY private key file, to its MAC line.
  ['P', /PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|$)/y, 0],
  // A PEM private key (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), BEGIN line to the first END line, not across
  // another BEGIN line (so each stretch is read once); a key cut off before its END: its BEGIN and key-like lines.
  [
    '-',
    /-----BEGIN[ A-Z0-9_-]{0,100}?PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----BEGIN)[\s\S])*?-----END[ A-Z0-9_-]{0,100}?PRIVATE KEY(?: BLOCK)?-----|[^\n]*(?:\n(?:[ \t]*[A-Za-z0-9+/=\\]+[ \t]*|[ \t]*(?:Proc-Type|DEK-Info|Version|Comment|Hash):[^\n]*|[ \t]*)(?=\n|$))*)/iy,
    0,
  ],
]

/** The readers by the character they start at (a lookup: trying each reader at every start costs 10 to 20 % on 64 KB of settings). */
const READS = new Map([...':=B-Pm'].map((c) => [c, READERS.filter(([on]) => on.includes(c))]))
/**
 * Where `read` looks: a setting's separator (a `,` after a quote and a `>` after a name among them), a flag's dashes
 * (not inside a word or a run of dashes), curl's `-u` and a login's `-p` after white space, a key block's five
 * dashes, `Bearer`, `PuTTY`, a netrc entry's `machine` (each written from its first character, which the engine then
 * looks for). QUIET is the same past a line without a HINT, where only a URL's `://` is read at a `:` or `=`.
 */
const STARTS = /[:=]|,(?<=["'][ \t]*,)|>(?<=\w>)|--(?<=(?<![\w-])--)|-[up](?<=(?<=^|\s)-.)|-----|Bearer|PuTTY|machine/g
const QUIET = /:\/\/|--(?<=(?<![\w-])--)|-[up](?<=(?<=^|\s)-.)|-----|Bearer|PuTTY|machine/g
/** What a secret name holds one of (isSecretName), and so does `Authorization`: a line without one has no secret setting, flag or header. */
const HINT = /key|secret|token|credential|pw|pass|auth/gi

/** The redaction alone: `text` with every secret found in it as `[redacted]`. */
export function redactSecrets(text: string, accessKey?: string): string {
  try {
    return typeof text === 'string' ? scan(redactAccessKey(text, accessKey)) : ''
  } catch {
    return ''
  }
}

function scan(s: string): string {
  const spans: [number, number, string][] = []
  let skip = 0 // the scan goes on from here: what is before it is inside a key block, a PuTTY file or a prefixed token
  // (a keyword token's span is apart from its name: what comes between them is still read)
  let cut = 0 // where the last of those ends: a name starts there at the earliest, as after `[redacted]`
  let wideStart = 0 // the span found that ends last
  let wideEnd = 0
  const add = (start: number, end: number, text = REDACTED, past?: boolean): void => {
    spans.push([start, end, text])
    if (end > wideEnd) (wideStart = start), (wideEnd = end)
    if (past) skip = cut = Math.max(skip, end)
  }
  const token = tokenMatcher(s)
  const run = runs(s)
  // Where the last `=` and the last `:` setting's value ends: a name before that is inside it (nested).
  const within = { eq: 0, colon: 0 }
  // Where the line last read ends, and the first HINT from its start on. On a line without one no setting, flag or
  // header is secret, nor does a setting nest anything past it (no name or value holds a line end): none is read.
  let line = 0
  let hint = -1
  const hinted = (at: number): boolean => {
    if (at >= line) {
      HINT.lastIndex = s.lastIndexOf('\n', at) + 1
      if (hint < HINT.lastIndex) hint = HINT.exec(s)?.index ?? s.length
      line = s.indexOf('\n', at) < 0 ? s.length : s.indexOf('\n', at)
    }
    return hint < line
  }

  /** The value at `v` judged as `form`'s: redacted when its verdict holds. Returns where it ends as written, or -1. */
  const value = (v: number, set: Chars, form: (quote: string) => string, start: number, name: string): number => {
    const first = s[v] as string // (past the text's end: undefined, which no expression or quote reads)
    WHOLE.lastIndex = v
    const whole = WHOLE.test(s)
    const quote = !whole || first === '$' ? '' : first === '\\' ? '\\"' : first
    // An opening quote that does not close starts no value.
    const end = whole ? WHOLE.lastIndex : `"'\``.includes(first) ? v : run(set, v)
    const q = quote.length // the quotes stay
    const c = { text: s, start, end, name, value: s.slice(v + q, end - q), quoted: /["']/.test(quote) }
    if (end > v && (VERDICTS[form(quote)] as string[][]).every((any) => any.some((fact) => (FACTS[fact] as (c: Setting) => boolean)(c)))) add(v + q, end - q)
    return end > v ? end : -1
  }

  /** The setting whose separator (`=`, `:=` or `:`) is at `at`. */
  const setting = (at: number): void => {
    // A name inside the value of one before it (nested) whose value, a plain run, lies in a span already found and
    // ends within the value around it: whatever it is, it adds nothing.
    const v = at + (s.startsWith(':=', at) ? 2 : 1)
    const around = within[s[at] === ':' && v === at + 1 ? 'colon' : 'eq']
    const e = at < around && v < s.length && !'$*_'.includes(s[v] as string) ? run(VALUE.nested, v) : -1
    if (e > v && e <= around && v >= wideStart && e <= wideEnd) return
    // Read from `cut` on (a string from there: its start is where a name may start at the earliest).
    const from = at - cut < 256 ? cut : 0
    SETTING.lastIndex = at - from
    const [, double, single, underscored, underline, bare, stars, before = '', sep = '', after = ''] = SETTING.exec(s.slice(from)) ?? []
    const plain = underscored ?? bare
    const bold = underline ?? stars
    const name = double ?? single ?? plain ?? ''
    // Where the name, or its opening quote, starts. A URL's `//user:password@` is a URL's (READERS).
    const open = at - before.length - name.length - (plain ? (bold?.length ?? 0) : 2)
    const layer = sep === ':' ? 'colon' : 'eq'
    const nested = open < within[layer]
    SETTING.lastIndex += from
    if (name === '' || (sep === ':' && s.startsWith('//', open - 2))) return
    const form = (quote: string): string =>
      quote === '`' ? 'code' : bold ? 'bold' : (!plain && sep !== ':') || sep === '=>' ? 'quotedEq' : nested ? 'nested' : !plain ? 'json' : sep === ':' ? 'label' : before + after !== '' ? 'spaced' : 'plain'
    const end = value(SETTING.lastIndex, VALUE[nested ? 'nested' : layer], form, open, name)
    // A plain, spaced, label or JSON setting's value holds what is nested in it.
    if (end > 0 && !bold && (plain || sep === ':') && s[end - 1] !== '`') within[layer] = Math.max(within[layer], end)
  }

  /** What starts at `p`, one of STARTS: a reader's kind, a setting, a flag. */
  const read = (p: number): void => {
    const c = s[p] as string
    let taken = false // by a reader: then no setting is read at this `:` or `=`
    for (const [, re, group, keep] of READS.get(c) ?? []) {
      re.lastIndex = p
      const m = re.exec(s)
      // (`m[undefined]`, a reader without a group that stays, is undefined.)
      if (m !== null) (taken = true), add(re.lastIndex - (m[group] as string).length, re.lastIndex, m[keep as number] ? `${(m[keep as number] as string).trim()} ${REDACTED}` : REDACTED, true)
    }
    if (':=,>'.includes(c) && !taken && hinted(p)) setting(p)
    FLAG.lastIndex = p
    const flag = c === '-' && hinted(p) && FLAG.exec(s)
    if (flag) value(FLAG.lastIndex, VALUE.flag, () => 'flag', p, flag[1] as string)
  }

  // From one position where something may start to the next: one of STARTS (QUIET's along a line without a HINT),
  // or a keyword the prefilter found.
  const starts = finder(STARTS, s)
  const quiet = finder(QUIET, s)
  const start = (p: number): number => (p < line && hint >= line ? Math.min(quiet(p), line) : starts(p))
  for (let p = 0; p < s.length; p = Math.min(token.next(p), start(p))) {
    if (start(p) === p) read(p)
    const t = p >= skip && token(p)
    if (t) add(t.start, t.end, REDACTED, !t.named)
    p = Math.max(p + 1, skip)
  }

  // The union of the spans, in order: a span that starts inside the one before it extends it.
  let out = ''
  let at = 0
  for (const [start, end, text] of spans.sort((x, y) => x[0] - y[0])) {
    if (start >= at) out += s.slice(at, start) + text
    at = Math.max(at, end)
  }
  return out + s.slice(at)
}
