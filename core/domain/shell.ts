/**
 * A small, total reader of one Bash command line (SPEC.md: tool.call, Bash): quotes, escapes, `$(…)`,
 * backticks, heredocs, redirections and operators are understood well enough to find the simple
 * commands a line runs and how they are joined (`&&`, `||`, `;`, `|`, `&`); anything inside quotes,
 * substitutions or heredocs is never a command. Bounded: the first MAX_COMMAND characters are read,
 * substitutions nested at most MAX_DEPTH deep. Pure; simpleCommands never throws.
 */

/**
 * The words of each simple command a line runs at its top level, quotes removed (`$(…)` and
 * backtick substitutions are kept as written). Quoted text and heredoc bodies are never commands.
 */
export function simpleCommands(command: string): string[][] {
  try {
    return typeof command === 'string' ? commandsOf(command, 0).commands.map((c) => c.words) : []
  } catch {
    return []
  }
}

/** How deeply reading may nest: substitutions here, and lines run by a command (`sh -c`) in test-runs.ts. */
export const MAX_DEPTH = 12
const MAX_COMMAND = 100_000

type Link = '&&' | '||' | ';' | '|' | '&' | ''

interface Command {
  readonly words: string[]
  /** `! cmd`: the exit status is inverted, so it says nothing about a run. */
  readonly negated: boolean
}

interface Line {
  readonly commands: Command[]
  /** links[i] joins commands[i] to commands[i + 1] ('' after the last). */
  readonly links: Link[]
  readonly pipedOrBackground: boolean
}

/**
 * The simple commands a line runs at its top level, how each is joined to the next, and whether the
 * line pipes or sends to the background. `depth`: how deeply this line is nested already.
 */
export function commandsOf(command: string, depth: number): Line {
  return scan(command.slice(0, MAX_COMMAND), 0, depth, false).line
}

// ---------------------------------------------------------------------------------------------
// Reading the line

/** Words that open or close a compound command, dropped from the front of a command. */
const KEYWORDS = new Set('{ } ( ) ! then do else elif if while until'.split(' '))

/**
 * At `lastIndex`, a single-quoted string (group 1: its body) or an ANSI-C one, `$'…'` (group 2: its body,
 * escapes as written); unterminated, the body runs to the end of the text.
 */
const QUOTED = /'([^']*)|\$'((?:\\[^]?|[^'\\])*)/y

/**
 * Reads `src` from `start`: the line's simple commands and their links, and where reading ended: the end
 * of `src`, or inside `$(…)` (`nested`) just past its closing parenthesis (a nested line is not used).
 */
function scan(src: string, start: number, depth: number, nested: boolean): { line: Line; end: number } {
  const commands: Command[] = []
  const links: Link[] = []
  let pipedOrBackground = false
  let current: string[] = []
  let word = ''
  let inWord = false
  let quoted = false
  let inDoubleQuotes = false
  let parens = 0
  /** What the next word is: `word`, one of the command; else the redirection before it: its target (dropped), or after `<<` or `<<-` a heredoc's delimiter. */
  let next = 'word'
  /** The delimiters (trimmed) of the heredocs opened on the line being read. */
  const heredocs: string[] = []
  let end = src.length
  let i = start

  const endWord = (): void => {
    if (!inWord) return
    if (next === 'word') current.push(word)
    else if (next === '<<' || next === '<<-') heredocs.push(word.trim())
    next = 'word'
    word = ''
    inWord = false
    quoted = false
  }
  /** The command read so far ends, joined to the next by `link`: the keywords in front of it go, and a `!` among them negates it. */
  const close = (link: Link): void => {
    let negated = false
    while (KEYWORDS.has(current[0]!)) negated = current.shift() === '!' || negated
    if (current.length) {
      commands.push({ words: current, negated })
      links.push(link)
    } else if (links.at(-1) === '' && link !== '') links[links.length - 1] = link
    current = []
  }
  /** `text` added to the word (`q`: it was quoted), reading on from `to`. */
  const add = (text: string, to: number, q: boolean): void => {
    word += text
    inWord = true
    quoted ||= q
    i = to
  }

  while (i < src.length) {
    const c = src[i]!
    const d = src[i + 1] ?? ''
    if (inDoubleQuotes) {
      // `\` escapes only `$`, a backtick, `"`, `\` and a newline (which goes); expansions are kept whole.
      if (c === '"') {
        inDoubleQuotes = false
        i += 1
      } else if (c === '\\') {
        if (d !== '\n') word += '$`"\\'.includes(d) && d !== '' ? d : c + d
        i += 2
      } else {
        const to = pieceEnd(src, i, depth)
        word += src.slice(i, to)
        i = to
      }
    } else if (c === '\\') {
      if (d === '\n') i += 2
      else add(d, i + 2, true)
    } else if (c === "'" || (c === '$' && d === "'")) {
      QUOTED.lastIndex = i
      const m = QUOTED.exec(src)!
      add(m[1] ?? m[2]!, i + m[0].length + 1, true)
    } else if (c === '"') {
      add('', i + 1, true)
      inDoubleQuotes = true
    } else if (' \t\r'.includes(c)) {
      endWord()
      i += 1
    } else if (c === '#' && !inWord) {
      const nl = src.indexOf('\n', i)
      i = nl < 0 ? src.length : nl
    } else if (('<>'.includes(c) && d !== '(') || (c === '&' && d === '>')) {
      // A redirection; digits just before it name a file descriptor, dropped like a target.
      if (inWord && !quoted && /^\d+$/.test(word)) next = '>'
      endWord()
      next = (/^(?:<<<|<<-|<<|&>>|<>|<&|>>|>&|>\||&>)/.exec(src.slice(i, i + 3)) ?? [c])[0]
      i += next.length
    } else if ('&|;()\n'.includes(c)) {
      // An operator: `&&`, `||`; `&`, `|`, and `|&` (a pipe of both streams); `;`, `;;`, `;&`, `;;&`; `(`, `)`;
      // a newline, past the bodies of the heredocs its line opened.
      if (c === ')' && nested && parens === 0) {
        end = i + 1
        break
      }
      const o = /^(?:&&|\|\||\|&|;;?&?|.)/s.exec(src.slice(i, i + 3))![0]
      parens = Math.max(0, parens + (c === '(' ? 1 : c === ')' ? -1 : 0))
      endWord()
      next = 'word'
      if ('()'.includes(c)) close('')
      else if (';\n'.includes(c)) {
        // A newline right after `&&`, `||` or `|` continues the list.
        if (current.length || !links.at(-1)) close(';')
      } else {
        // A lone `|` or `&` pipes or sends to the background.
        const link = o === '|&' ? c : o
        pipedOrBackground ||= link.length === 1
        close(link as Link)
      }
      i += o.length
      if (c === '\n') i = skipHeredocBodies(src, i, heredocs.splice(0))
    } else {
      // A character of a word, a whole expansion, or a process substitution (`<(…)`, `>(…)`: a word, never a command of this line).
      const to = '<>'.includes(c) ? skipSubstitution(src, i + 2, depth) : pieceEnd(src, i, depth)
      add(src.slice(i, to), to, false)
    }
  }
  endWord()
  close('')
  // A '' link between two commands (after a group) reads as ';'.
  for (let k = 0; k < links.length - 1; k++) if (links[k] === '') links[k] = ';'
  return { line: { commands, links, pipedOrBackground }, end }
}

/**
 * Where the piece of a word starting at `i` ends: past a whole `$( )`, `${ }` or backtick expansion (kept
 * whole, as the shell would read it before running anything), else past its one character. Shared by
 * words and double quotes.
 */
function pieceEnd(src: string, i: number, depth: number): number {
  const two = src.slice(i, i + 2)
  if (two === '$(') return skipSubstitution(src, i + 2, depth)
  if (two === '${') return skipPast(src, i + 2, '{', '}')
  return src[i] === '`' ? skipPast(src, i + 1, '`', '`') : i + 1
}

/** The index just past the `)` closing a `$(` (or `<(`) whose body starts at `start`. */
function skipSubstitution(src: string, start: number, depth: number): number {
  return depth >= MAX_DEPTH ? src.length : scan(src, start, depth + 1, true).end
}

/** The index just past the `close` ending a `${` or backtick expansion whose body starts at `start` (`open` nests). */
function skipPast(src: string, start: number, open: string, close: string): number {
  let level = 1
  for (let i = start; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') i += 1
    else if (c === close && --level === 0) return i + 1
    else if (c === open) level += 1
  }
  return src.length
}

/**
 * Past the bodies of the heredocs opened on the line just ended, each up to its delimiter line (leading tabs,
 * which `<<-` strips, go with the rest of the white space around it).
 */
function skipHeredocBodies(src: string, start: number, delimiters: readonly string[]): number {
  let i = start
  for (const delimiter of delimiters) {
    for (;;) {
      if (i >= src.length) return src.length
      const nl = src.indexOf('\n', i)
      const end = nl < 0 ? src.length : nl
      const line = src.slice(i, end)
      i = end + 1
      if (line.trim() === delimiter) break
    }
  }
  return i
}
