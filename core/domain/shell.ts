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
    if (typeof command !== 'string') return []
    return commandsOf(command, 0).commands.map((c) => c.words)
  } catch {
    return []
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the line

type Token = { readonly kind: 'word'; readonly text: string } | { readonly kind: 'op'; readonly op: string }

/** How deeply reading may nest: substitutions here, and lines run by a command (`sh -c`) in test-runs.ts. */
export const MAX_DEPTH = 12
const MAX_COMMAND = 100_000

/** What the next word is: a word of the command, a redirection's target (dropped), or a heredoc's delimiter. */
type NextWord = 'word' | 'target' | 'heredoc' | 'heredoc-strip'

interface Scan {
  readonly tokens: Token[]
  readonly end: number
}

/** Tokens from `start`; inside `$(…)` (`nested`), up to and past the closing parenthesis. */
function scan(src: string, start: number, depth: number, nested: boolean): Scan {
  const tokens: Token[] = []
  let word = ''
  let inWord = false
  let quoted = false
  let parens = 0
  let next: NextWord = 'word'
  const heredocs: { delimiter: string; strip: boolean }[] = []

  const endWord = (): void => {
    if (!inWord) return
    if (next === 'word') tokens.push({ kind: 'word', text: word })
    else if (next !== 'target') heredocs.push({ delimiter: word, strip: next === 'heredoc-strip' })
    next = 'word'
    word = ''
    inWord = false
    quoted = false
  }
  const op = (o: string): void => {
    endWord()
    next = 'word'
    tokens.push({ kind: 'op', op: o })
  }
  let i = start
  /** `text` added to the word (`q`: it was quoted), reading on from `end`. */
  const add = (text: string, end: number, q: boolean): void => {
    word += text
    inWord = true
    quoted ||= q
    i = end
  }

  while (i < src.length) {
    const c = src[i] ?? ''
    const d = src[i + 1] ?? ''
    if (c === '\\') {
      if (d === '\n') i += 2
      else add(d, i + 2, true)
      continue
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1)
      const e = j < 0 ? src.length : j
      add(src.slice(i + 1, e), e + 1, true)
      continue
    }
    if (c === '$' && d === "'") {
      let j = i + 2
      while (j < src.length && src[j] !== "'") j += src[j] === '\\' ? 2 : 1
      add(src.slice(i + 2, Math.min(j, src.length)), j + 1, true)
      continue
    }
    if (c === '"') {
      const r = readDoubleQuoted(src, i + 1, depth)
      add(r.text, r.end, true)
      continue
    }
    const expansion = expansionEnd(src, i, depth)
    if (expansion !== undefined) {
      add(src.slice(i, expansion), expansion, false)
      continue
    }
    if (' \t\r'.includes(c)) {
      endWord()
      i += 1
      continue
    }
    if (c === '#' && !inWord) {
      const nl = src.indexOf('\n', i)
      i = nl < 0 ? src.length : nl
      continue
    }
    if ('<>'.includes(c) && d === '(') {
      // Process substitution: a word, never a command of this line.
      const e = skipSubstitution(src, i + 2, depth)
      add(src.slice(i, e), e, false)
      continue
    }
    if ('<>'.includes(c) || (c === '&' && d === '>')) {
      // A redirection; digits just before it name a file descriptor, not a word.
      if (inWord && !quoted && /^\d+$/.test(word)) {
        word = ''
        inWord = false
      } else endWord()
      const r = (/^(?:<<<|<<-|<<|&>>|<>|<&|>>|>&|>\||&>)/.exec(src.slice(i, i + 3)) ?? [c])[0]
      i += r.length
      next = r === '<<-' ? 'heredoc-strip' : r === '<<' ? 'heredoc' : 'target'
      continue
    }
    // An operator: `&&`, `||`; `&`, `|`, and `|&` (a pipe of both streams); `;`, `;;`, `;&`, `;;&`; `(`, `)`;
    // a newline, past the bodies of the heredocs its line opened.
    if ('&|;()\n'.includes(c)) {
      const o = /^(?:&&|\|\||\|&|;;?&?|.)/s.exec(src.slice(i, i + 3))?.[0] ?? c
      if (c === ')' && nested && parens === 0) {
        endWord()
        return { tokens, end: i + 1 }
      }
      parens = Math.max(0, parens + (c === '(' ? 1 : c === ')' ? -1 : 0))
      op(o === '&&' || o === '||' ? o : c)
      i += o.length
      if (c === '\n' && heredocs.length > 0) {
        i = skipHeredocBodies(src, i, heredocs)
        heredocs.length = 0
      }
      continue
    }
    add(c, i + 1, false)
  }
  endWord()
  return { tokens, end: src.length }
}

function readDoubleQuoted(src: string, start: number, depth: number): { text: string; end: number } {
  let text = ''
  let i = start
  while (i < src.length) {
    const c = src[i] ?? ''
    const d = src[i + 1] ?? ''
    if (c === '"') return { text, end: i + 1 }
    if (c === '\\') {
      if (d !== '\n') text += '$`"\\'.includes(d) && d !== '' ? d : c + d
      i += 2
      continue
    }
    const expansion = expansionEnd(src, i, depth)
    if (expansion !== undefined) {
      text += src.slice(i, expansion)
      i = expansion
      continue
    }
    text += c
    i += 1
  }
  return { text, end: src.length }
}

/**
 * Where a `$( )`, `${ }` or backtick expansion starting at `i` ends (kept whole, as the shell would
 * read it before running anything); undefined when none starts there. Shared by words and double quotes.
 */
function expansionEnd(src: string, i: number, depth: number): number | undefined {
  const c = src[i]
  const d = src[i + 1]
  if (c === '$' && d === '(') return skipSubstitution(src, i + 2, depth)
  if (c === '$' && d === '{') return skipPast(src, i + 2, '{', '}')
  if (c === '`') return skipPast(src, i + 1, '`', '`')
  return undefined
}

/** The index just past the `)` closing a `$(` (or `<(`) whose body starts at `start`. */
function skipSubstitution(src: string, start: number, depth: number): number {
  if (depth >= MAX_DEPTH) return src.length
  return scan(src, start, depth + 1, true).end
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

/** Past the bodies of the heredocs opened on the line just ended, each up to its delimiter line. */
function skipHeredocBodies(src: string, start: number, heredocs: readonly { delimiter: string; strip: boolean }[]): number {
  let i = start
  for (const h of heredocs) {
    for (;;) {
      if (i >= src.length) return src.length
      const nl = src.indexOf('\n', i)
      const end = nl < 0 ? src.length : nl
      const line = src.slice(i, end)
      i = nl < 0 ? src.length : nl + 1
      if ((h.strip ? line.replace(/^\t+/, '') : line).trim() === h.delimiter.trim()) break
    }
  }
  return i
}

// ---------------------------------------------------------------------------------------------
// Commands and how they are joined

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

/** Words that open or close a compound command, dropped from the front of a command. */
const KEYWORDS = new Set(['{', '}', '(', ')', '!', 'then', 'do', 'else', 'elif', 'if', 'while', 'until'])

/**
 * The simple commands a line runs at its top level, how each is joined to the next, and whether the
 * line pipes or sends to the background. `depth`: how deeply this line is nested already.
 */
export function commandsOf(command: string, depth: number): Line {
  const src = command.length > MAX_COMMAND ? command.slice(0, MAX_COMMAND) : command
  const { tokens } = scan(src, 0, depth, false)
  const commands: Command[] = []
  const links: Link[] = []
  let current: string[] = []
  let pipedOrBackground = false
  const close = (link: Link): void => {
    let negated = false
    while (current.length > 0 && KEYWORDS.has(current[0] ?? '')) negated = current.shift() === '!' || negated
    if (current.length > 0) {
      commands.push({ words: current, negated })
      links.push(link)
    } else if (links.length > 0 && links[links.length - 1] === '' && link !== '') {
      links[links.length - 1] = link
    }
    current = []
  }
  for (const t of tokens) {
    if (t.kind === 'word') {
      current.push(t.text)
      continue
    }
    const o = t.op
    if (o === '|' || o === '&' || o === '&&' || o === '||') {
      // A lone `|` or `&` pipes or sends to the background.
      pipedOrBackground ||= o.length === 1
      close(o)
    } else if (o === '(' || o === ')') close('')
    // `;`, `;;` and newlines; a newline right after `&&`, `||` or `|` continues the list.
    else if (current.length > 0 || links.length === 0 || links[links.length - 1] === '') close(';')
  }
  close('')
  // A '' link between two commands (after a group) reads as ';'.
  for (let k = 0; k < links.length - 1; k++) if (links[k] === '') links[k] = ';'
  return { commands, links, pipedOrBackground }
}
