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
const MAX_URL = 2_000

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
    const cleaned = typeof notes === 'string' ? cleanNotes(notes, accessKey) : ''
    const watch = watchOutFor(w.tests)
    return {
      venture: project,
      what_i_did: whatIDid(w, cleaned),
      what_changed: whatChanged(w),
      whats_next: whatsNext(w, cleaned),
      links: links(w),
      ...(watch === undefined ? {} : { watch_out_for: watch }),
    }
  } catch {
    return { venture: project, what_i_did: 'Worked in a Claude Code session.', what_changed: '', whats_next: '', links: [] }
  }
}

// ---------------------------------------------------------------------------------------------
// The fields

function whatIDid(w: SaneWork, notes: string): string {
  const parts = [countsSentence(w.files.length, w.commits.length, w.tests.length)]
  if (w.tests.length > 0) parts.push(['Test runs:', ...capped(w.tests.map(runLine), MAX_RUN_LINES, 'more test run')].join('\n'))
  if (notes !== '') parts.push(`Agent notes:\n${notes}`)
  return parts.join('\n\n')
}

/** `npm test: passed`, `pytest: failed`, `go test: result unknown`. */
export function runLine(run: { readonly runner: string; readonly result: TestResult }): string {
  return `${run.runner}: ${run.result === 'unknown' ? 'result unknown' : run.result}`
}

/** `Edited 2 files, made 1 commit and ran the tests 3 times.` */
export function countsSentence(files: number, commits: number, tests: number): string {
  const ran = tests === 0 ? 'ran no tests' : tests === 1 ? 'ran the tests once' : `ran the tests ${tests} times`
  return `Edited ${counted(files, 'file')}, made ${counted(commits, 'commit')} and ${ran}.`
}

/** `no files`, `1 file`, `3 files`: `n` and `noun`, plural unless `n` is 1. */
function counted(n: number, noun: string): string {
  return `${n === 0 ? 'no' : n} ${noun}${n === 1 ? '' : 's'}`
}

/** The first `max` of `lines`, then `and N more <noun>s` for the rest. */
function capped(lines: readonly string[], max: number, noun: string): string[] {
  const more = lines.length - max
  return more > 0 ? [...lines.slice(0, max), `and ${counted(more, noun)}`] : [...lines]
}

function whatChanged(w: SaneWork): string {
  const lines = [
    ...capped(w.files.map((p) => `edited ${p}`), MAX_CHANGED_FILES, 'more file'),
    ...capped(w.commits.map((c) => `commit ${c.sha} ${c.subject}`.trimEnd()), MAX_CHANGED_COMMITS, 'more commit'),
  ]
  return lines.length > 0 ? lines.join('\n') : 'No files edited and no commits.'
}

/**
 * SPEC.md: the notes' "Next steps" or "Next up" section; without one, `Fix the failing test runs: …`,
 * or `Review this session's changes to …`. Beyond SPEC.md: commits alone are named by hash; runs alone
 * ask to rerun the unknown ones, or say there is nothing left.
 */
function whatsNext(w: SaneWork, notes: string): string {
  const section = nextStepsOf(notes)
  if (section !== undefined) return section
  const failing = runnersWhere(w.tests, 'failing')
  if (failing.length > 0) return `Fix the failing test runs: ${named(failing, 'more runner')}.`
  if (w.files.length > 0) return `Review this session's changes to ${named(w.files, 'more file')}.`
  if (w.commits.length > 0) return `Review this session's changes in ${w.commits.length === 1 ? 'commit' : 'commits'} ${named(w.commits.map((c) => c.sha), 'more commit')}.`
  const unknown = runnersWhere(w.tests, 'unknown')
  if (unknown.length > 0) return `Rerun the test runs whose result is unknown: ${named(unknown, 'more runner')}.`
  return 'Nothing is left to pick up from this session: its test runs passed.'
}

function watchOutFor(tests: readonly Run[]): string | undefined {
  if (!tests.some((t) => t.result === 'failed')) return undefined
  const parts: string[] = []
  for (const [which, opening] of [['failing', 'Failing test runs'], ['recovered', 'Failed earlier in the session, then passed']] as const) {
    const runners = runnersWhere(tests, which)
    if (runners.length > 0) parts.push(`${opening}: ${runners.map((r) => `${r} (${failedCount(tests, r)})`).join(', ')}.`)
  }
  return parts.join(' ')
}

function failedCount(tests: readonly Run[], runner: string): string {
  const mine = tests.filter((t) => t.runner === runner)
  return `failed ${mine.filter((t) => t.result === 'failed').length} of ${counted(mine.length, 'run')}`
}

function links(w: SaneWork): string[] {
  return [...new Set([...w.links, ...w.files])].slice(0, MAX_LINKS)
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
    const lines = notes.replace(/\r\n?/g, '\n').split('\n')
    let found: string | undefined
    for (let i = 0; i < lines.length; i++) {
      const inline = nextStepsHeading(lines, i)
      if (inline === undefined) continue
      const body = [inline]
      let j = i + 1
      if (isSetextUnderline(lines, j)) j += 1
      for (; j < lines.length && !isSectionBreak(lines, j); j++) body.push(lines[j] ?? '')
      const text = body.join('\n').trim()
      if (text !== '') found = text
      i = j - 1
    }
    return found === undefined ? undefined : capText(found, NOTES_LIMIT)
  } catch {
    return undefined
  }
}

const NEXT_PHRASE = /^(?:(?:suggested|recommended|possible|remaining|proposed|immediate|open|your)\s+)?next\s+(?:steps?|up)\b/i

/** The heading's inline text ('' for none) when line `i` opens a next-steps section; else undefined. */
function nextStepsHeading(lines: readonly string[], i: number): string | undefined {
  const line = lines[i] ?? ''
  // `t`, without what opens and ends it, is the phrase and at most `slack` characters more.
  const isNext = (t: string, slack: number): boolean => {
    const words = t.replace(/^[^\p{L}]+/u, '').replace(/[\s:.!*_]+$/u, '')
    const m = NEXT_PHRASE.exec(words)
    return m !== null && words.length - m[0].length <= slack
  }
  const atx = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
  if (atx !== null) return isNext(atx[1] ?? '', 40) ? '' : undefined
  const bold = /^\s*(\*\*|__)(.+?)\1\s*:?\s*(.*)$/.exec(line)
  if (bold !== null) return isNext(bold[2] ?? '', 40) ? (bold[3] ?? '').trim() : undefined
  const label = /^\s*([^:]{1,60}):\s*(.*)$/.exec(line)
  if (label !== null && isNext(label[1] ?? '', 0)) return (label[2] ?? '').trim()
  if (isSetextUnderline(lines, i + 1) && isNext(line, 40)) return ''
  return undefined
}

/** `===` or `---` under a non-blank line that is not a list item. */
function isSetextUnderline(lines: readonly string[], j: number): boolean {
  const under = lines[j]
  const above = lines[j - 1]
  if (under === undefined || above === undefined || above.trim() === '') return false
  if (/^\s*(?:[-*+]|\d+[.)])\s/.test(above)) return false
  return /^\s{0,3}(?:=+|-+)\s*$/.test(under)
}

/** A line that ends a section: a heading, a bold-only or bold-labelled line, a `Label:` line, a rule. */
function isSectionBreak(lines: readonly string[], j: number): boolean {
  const line = lines[j] ?? ''
  if (/^\s{0,3}#{1,6}\s/.test(line)) return true
  if (/^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/.test(line)) return true
  if (/^\s*(\*\*|__)[^*_\n]+?(?::\s*\1|\1\s*:|\1\s*$)/.test(line)) return true
  if (/^[A-Z][\w' -]{0,40}:\s*$/.test(line)) return true
  return isSetextUnderline(lines, j + 1)
}

// ---------------------------------------------------------------------------------------------
// Work as sent

interface SaneWork {
  readonly files: string[]
  readonly commits: { readonly sha: string; readonly subject: string }[]
  readonly tests: Run[]
  readonly links: string[]
}

const RESULTS: readonly TestResult[] = ['passed', 'failed', 'unknown']

/** The work with every value checked, single-line and bounded (the store's values are not trusted). */
function sanitize(work: unknown, accessKey: string | undefined): SaneWork {
  // Values as JSON holds them: an array has no fields to read.
  const fields = (v: unknown): Record<string, unknown> => object(v) ?? {}
  const o = fields(work)
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
  const line = (v: unknown, max: number): string | undefined => {
    if (typeof v !== 'string') return undefined
    const t = v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
    return t === '' ? undefined : capText(t, max)
  }
  const unique = <T>(xs: T[]): T[] => [...new Set(xs)]
  // Paths, runners and links may come from the store, which any program can write: only paths inside
  // the project, runner names without secrets, and pull request URLs without credentials are sent.
  // A path is sent as it is, but the access key never: a file named after it is sent with the key redacted.
  const files = unique(list(o['files']).flatMap((p) => (typeof p === 'string' && isProjectRelative(p) ? (line(redactAccessKey(p, accessKey), MAX_PATH) ?? []) : [])))
  const commits = list(o['commits']).flatMap((c) => {
    const r = fields(c)
    const sha = typeof r['sha'] === 'string' ? r['sha'].trim().toLowerCase() : ''
    if (!/^[0-9a-f]{4,64}$/.test(sha)) return []
    return [{ sha, subject: typeof r['subject'] === 'string' ? cleanSubject(r['subject'], accessKey) : '' }]
  })
  const tests = list(o['tests']).flatMap((t) => {
    const r = fields(t)
    const named = line(r['runner'], MAX_RUNNER)
    return named === undefined ? [] : [{ runner: redactSecrets(named, accessKey), result: RESULTS.find((x) => x === r['result']) ?? 'unknown' }]
  })
  const links = unique(list(o['links']).flatMap((l) => pullRequestUrl(l, accessKey) ?? []))
  return { files, commits, tests, links }
}

/**
 * Runners, in first-seen order: `failing` when the last run with a known result failed; `recovered`
 * when a run failed but the last known result passed; `unknown` when no run has a known result.
 */
function runnersWhere(tests: readonly Run[], which: 'failing' | 'recovered' | 'unknown'): string[] {
  return [...new Set(tests.map((t) => t.runner))].filter((runner) => {
    const known = tests.filter((t) => t.runner === runner && t.result !== 'unknown')
    const last = known[known.length - 1]?.result
    if (which === 'unknown') return last === undefined
    if (which === 'failing') return last === 'failed'
    return last === 'passed' && known.some((t) => t.result === 'failed')
  })
}

/** `a, b, c, d, e and 3 more files` (at most MAX_NAMED named; `more`: `more file`). */
function named(items: readonly string[], more: string): string {
  const rest = items.length - MAX_NAMED
  if (rest > 0) return `${items.slice(0, MAX_NAMED).join(', ')} and ${counted(rest, more)}`
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
