/**
 * The handoff sent with `end_session` when a session ends (SPEC.md: The handoff): what was done,
 * what changed, what comes next, the links and what to watch out for. Every field is bounded.
 * Pure; never throws.
 */

import { pullRequestUrl } from './bash-report'
import { capText, cleanNotes, cleanSubject, NOTES_LIMIT, redactAccessKey, redactSecrets } from './notes'
import { object } from './item'
import { isProjectRelative, type Venture } from './project'
import type { TestResult, Work } from './work'

/** `close_session`'s reason (SPEC.md: Every outbound request). */
export const CLOSE_REASON = 'Claude Code session with no edits, commits or test runs'

/** links: pull request URLs, then touched paths, this many at most. */
export const MAX_LINKS = 10
/** what_i_did lists this many test runs, then "and N more test runs". */
export const MAX_RUN_LINES = 50
/** what_changed lists this many files and commits, then "and N more …". */
export const MAX_CHANGED_FILES = 100
export const MAX_CHANGED_COMMITS = 50
/** whats_next names this many paths, runners or commits, then "and N more …". */
export const MAX_NAMED = 5
/** A longer path is cut (with `…`). */
export const MAX_PATH = 300
const MAX_RUNNER = 100

/** The arguments of `end_session`. */
export interface HandoffPayload {
  readonly venture: string
  /** Counts of files, commits and test runs; each test run on its own line; then the agent notes. */
  readonly what_i_did: string
  /** `edited <path>` for each file, then `commit <sha> <subject>` for each commit. */
  readonly what_changed: string
  /** The notes' "Next steps"/"Next up" section; else what to pick up. */
  readonly whats_next: string
  /** Pull request URLs, then touched paths; MAX_LINKS at most. */
  readonly links: readonly string[]
  /** Only when a test run failed. */
  readonly watch_out_for?: string
}

interface Run {
  readonly runner: string
  readonly result: TestResult
}

/** `end_session`'s arguments from the segment's work and Claude's latest notes (cleaned again here). */
export function buildHandoff(venture: Venture, work: Work, notes?: string, accessKey?: string): HandoffPayload {
  const project = typeof venture === 'string' ? venture : ''
  try {
    const w = sanitize(work, accessKey)
    // cleanNotes gives '' for anything but a string.
    const cleaned = cleanNotes(notes as string, accessKey)
    return {
      venture: project,
      what_i_did: whatIDid(w, cleaned),
      what_changed: whatChanged(w),
      whats_next: whatsNext(w, cleaned),
      links: [...new Set([...w.links, ...w.files])].slice(0, MAX_LINKS),
      ...watchOutFor(w.tests),
    }
  } catch {
    return { venture: project, what_i_did: 'Worked in a Claude Code session.', what_changed: '', whats_next: '', links: [] }
  }
}

// ---------------------------------------------------------------------------------------------
// The fields

function whatIDid(w: SaneWork, notes: string): string {
  return [
    countsSentence(w.files.length, w.commits.length, w.tests.length),
    w.tests.length && ['Test runs:', ...capped(w.tests.map(runLine), MAX_RUN_LINES, 'more test run')].join('\n'),
    notes && `Agent notes:\n${notes}`,
  ]
    .filter(Boolean)
    .join('\n\n')
}

/** `npm test: passed`, `pytest: failed`, `go test: result unknown`. */
export function runLine(run: { readonly runner: string; readonly result: TestResult }): string {
  return `${run.runner}: ${run.result === 'unknown' ? 'result unknown' : run.result}`
}

/** `Edited 2 files, made 1 commit and ran the tests 3 times.` */
export function countsSentence(files: number, commits: number, tests: number): string {
  const ran = tests === 0 ? 'no tests' : tests === 1 ? 'the tests once' : `the tests ${tests} times`
  return `Edited ${counted(files, 'file')}, made ${counted(commits, 'commit')} and ran ${ran}.`
}

/** `no files`, `1 file`, `3 files`: `n` and `noun`, plural unless `n` is 1. */
function counted(n: number, noun: string): string {
  return `${n === 0 ? 'no' : n} ${noun}${n === 1 ? '' : 's'}`
}

/** The first `max` of `lines`, then `<and>N more <noun>s` for the rest (`and`: `and ` unless given). */
function capped(lines: readonly string[], max: number, noun: string, and = 'and '): string[] {
  const more = lines.length - max
  return more > 0 ? [...lines.slice(0, max), `${and}${counted(more, noun)}`] : [...lines]
}

function whatChanged(w: SaneWork): string {
  const lines = [
    ...capped(w.files.map((p) => `edited ${p}`), MAX_CHANGED_FILES, 'more file'),
    ...capped(w.commits.map((c) => `commit ${c.sha} ${c.subject}`.trimEnd()), MAX_CHANGED_COMMITS, 'more commit'),
  ]
  return lines.join('\n') || 'No files edited and no commits.'
}

/**
 * SPEC.md: the notes' "Next steps" or "Next up" section; without one, `Fix the failing test runs: …`,
 * or `Review this session's changes to …`. Beyond SPEC.md: commits alone are named by hash; runs alone
 * ask to rerun the unknown ones, or say there is nothing left. The first of these with something to name wins.
 */
function whatsNext(w: SaneWork, notes: string): string {
  const shas = w.commits.map((c) => c.sha)
  const byState = runnerStates(w.tests)
  const [opening, items, more] = (
    [
      ['Fix the failing test runs:', byState('failing'), 'runner'],
      ["Review this session's changes to", w.files, 'file'],
      [`Review this session's changes in ${shas.length === 1 ? 'commit' : 'commits'}`, shas, 'commit'],
      ['Rerun the test runs whose result is unknown:', byState('unknown'), 'runner'],
    ] as const
  ).find((row) => row[1].length) ?? ['Nothing is left to pick up from this session: its test runs passed.']
  return nextStepsOf(notes) ?? (items ? `${opening} ${named(items, `more ${more}`)}.` : opening)
}

/** `{ watch_out_for }` naming the failing and the recovered runners, when a test run failed; else `{}`. */
function watchOutFor(tests: readonly Run[]): { watch_out_for?: string } {
  const byState = runnerStates(tests)
  const described = (r: Tally): string => `${r.name} (failed ${r.failed} of ${counted(r.runs, 'run')})`
  const parts = (
    [
      ['Failing test runs', byState('failing', described)],
      ['Failed earlier in the session, then passed', byState('recovered', described)],
    ] as const
  ).flatMap(([opening, runners]) => (runners.length ? `${opening}: ${runners.join(', ')}.` : []))
  // A failed run leaves its runner failing or recovered, so parts is empty only when none failed.
  return parts.length ? { watch_out_for: parts.join(' ') } : {}
}

// ---------------------------------------------------------------------------------------------
// Reading the notes

/**
 * The "Next steps" or "Next up" section of the notes, or undefined: a markdown heading (`## Next
 * steps`), a bold line (`**Next up:**`) or a `Next steps:` line, in any case, optionally after a word
 * such as "Suggested"; its body runs to the next heading, bold line, `Label:` line or rule. The last
 * non-empty such section wins. Capped like the notes.
 */
export function nextStepsOf(notes: string): string | undefined {
  try {
    // Anything but a string throws here and gives undefined.
    const lines = notes.split(/\r\n?|\n/)
    let found: string | undefined
    for (let i = 0; i < lines.length; i++) {
      const inline = nextStepsHeading(lines, i)
      if (inline === undefined) continue
      // The body starts under the heading (and its setext underline) and ends before a line that ends a section.
      const start = i + (isSetextUnderline(lines, i + 1) ? 2 : 1)
      let j = start
      while (j < lines.length && !(SECTION_BREAK.test(lines[j]!) || isSetextUnderline(lines, j + 1))) j++
      found = [inline, ...lines.slice(start, j)].join('\n').trim() || found
      i = j - 1
    }
    return found && capText(found, NOTES_LIMIT)
  } catch {
    return undefined
  }
}

const NEXT_PHRASE = /^(?:(?:suggested|recommended|possible|remaining|proposed|immediate|open|your)\s+)?next\s+(?:steps?|up)\b/i

/** A line that ends a section: a heading, a rule, a bold-only or bold-labelled line, a `Label:` line (a setext heading's text line, too, tested apart). */
const SECTION_BREAK = /^\s{0,3}#{1,6}\s|^\s{0,3}([-*_])(?:\s*\1){2,}\s*$|^\s*(\*\*|__)[^*_\n]+?(?::\s*\2|\2\s*:|\2\s*$)|^[A-Z][\w' -]{0,40}:\s*$/

/** The heading's inline text ('' for none) when line `i` opens a next-steps section; else undefined. */
function nextStepsHeading(lines: readonly string[], i: number): string | undefined {
  const line = lines[i] ?? ''
  // `t`, without what opens and ends it, is the phrase and at most `slack` characters more.
  const isNext = (t: string, slack: number): boolean => {
    const words = t.replace(/^[^\p{L}]+/u, '').replace(/[\s:.!*_]+$/u, '')
    const m = NEXT_PHRASE.exec(words)
    return !!m && words.length - m[0].length <= slack
  }
  // The groups read below take part in every match, so none is undefined.
  const atx = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
  if (atx) return isNext(atx[1]!, 40) ? '' : undefined
  const bold = /^\s*(\*\*|__)(.+?)\1\s*:?\s*(.*)$/.exec(line)
  if (bold) return isNext(bold[2]!, 40) ? bold[3]!.trim() : undefined
  const label = /^\s*([^:]{1,60}):\s*(.*)$/.exec(line)
  if (label && isNext(label[1]!, 0)) return label[2]!.trim()
  return isSetextUnderline(lines, i + 1) && isNext(line, 40) ? '' : undefined
}

/** `===` or `---` on line `j`, under a non-blank line that is not a list item. */
function isSetextUnderline(lines: readonly string[], j: number): boolean {
  return /^\s{0,3}(?:=+|-+)\s*$/.test(lines[j] ?? '') && /^(?!\s*(?:[-*+]|\d+[.)])\s)\s*\S/.test(lines[j - 1] ?? '')
}

// ---------------------------------------------------------------------------------------------
// Work as sent

interface SaneWork {
  readonly files: string[]
  readonly commits: { readonly sha: string; readonly subject: string }[]
  readonly tests: Run[]
  readonly links: string[]
}

const RESULTS: readonly unknown[] = ['passed', 'failed', 'unknown'] satisfies TestResult[]

/** The work with every value checked, single-line and bounded (the store's values are not trusted). */
function sanitize(work: unknown, accessKey: string | undefined): SaneWork {
  // Values as JSON holds them: an array has no fields to read.
  const fields = (v: unknown): Record<string, unknown> => object(v) ?? {}
  const o = fields(work)
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
  /** `v` on one line (control characters as spaces), trimmed and capped at `max`; '' for anything but a string. */
  const line = (v: unknown, max: number): string => (typeof v === 'string' ? capText(v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim(), max) : '')
  // Paths, runners and links may come from the store, which any program can write: only paths inside
  // the project, runner names without secrets, and pull request URLs without credentials are sent.
  // A path is sent as it is, but the access key never: a file named after it is sent with the key redacted.
  const files = list(o['files']).flatMap((p) => (typeof p === 'string' && isProjectRelative(p) && line(redactAccessKey(p, accessKey), MAX_PATH)) || [])
  const commits = list(o['commits'])
    .map(fields)
    .flatMap(({ sha, subject }) => {
      const hash = typeof sha === 'string' ? sha.trim().toLowerCase() : ''
      // cleanSubject gives '' for anything but a string.
      return /^[0-9a-f]{4,64}$/.test(hash) ? [{ sha: hash, subject: cleanSubject(subject as string, accessKey) }] : []
    })
  const tests = list(o['tests'])
    .map(fields)
    .flatMap(({ runner, result }) => {
      const name = line(runner, MAX_RUNNER)
      return name ? [{ runner: redactSecrets(name, accessKey), result: RESULTS.includes(result) ? (result as TestResult) : 'unknown' }] : []
    })
  const links = list(o['links']).flatMap((l) => pullRequestUrl(l, accessKey) ?? [])
  return { files: [...new Set(files)], commits, tests, links: [...new Set(links)] }
}

/** A runner of the work's test runs: its runs, its failed runs, and its state (see runnerStates). */
interface Tally {
  readonly name: string
  runs: number
  failed: number
  state: 'failing' | 'recovered' | 'unknown' | 'passing'
}

/**
 * The runners of `tests` in a state, in first-seen order, each shown by `show` (its name unless said):
 * `failing` when the last run with a known result failed; `recovered` when a run failed but the last known
 * result passed; `unknown` when no run has a known result; else `passing`.
 */
function runnerStates(tests: readonly Run[]): (state: Tally['state'], show?: (r: Tally) => string) => string[] {
  const tallies = new Map<string, Tally>()
  for (const { runner, result } of tests) {
    const r = tallies.get(runner) ?? { name: runner, runs: 0, failed: 0, state: 'unknown' }
    r.runs += 1
    if (result === 'failed') r.failed += 1
    if (result !== 'unknown') r.state = result === 'failed' ? 'failing' : r.failed > 0 ? 'recovered' : 'passing'
    tallies.set(runner, r)
  }
  return (state, show = (r) => r.name) => [...tallies.values()].filter((r) => r.state === state).map(show)
}

/** `a, b, c, d, e and 3 more files` (at most MAX_NAMED named; `more`: `more file`). */
function named(items: readonly string[], more: string): string {
  const shown = capped(items, MAX_NAMED, more, '')
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
}
