/**
 * What the plugin keeps from one Bash call (SPEC.md: tool.call, Bash): test runs with their result,
 * the commit Claude Code reports (short hash and cleaned subject) and a pull request URL it reports.
 * Nothing else of the command or its output is kept. Pure; never throws.
 */

import { cleanSubject, redactSecrets } from './notes'
import { simpleCommands } from './shell'
import { commandName } from './test-runners'
import { testCommandsOf } from './test-runs'
import type { TestResult, WorkEntry } from './work'

/** One Bash call as plain data, filled by the adapter from the engine's event and result. */
export interface BashReport {
  readonly command: string
  /** The tool reported an error (non-zero exit, interrupted, refused). */
  readonly failed: boolean
  /** The user interrupted the call: the run's result is unknown. */
  readonly interrupted?: boolean
  /** The engine's result has `timedOutAfterMs`. */
  readonly timedOut?: boolean
  /** `run_in_background`, or the result has `backgroundTaskId` / `backgroundedByUser`. */
  readonly background?: boolean
  /** The call was denied before it ran (permission refused, a hook's deny): nothing ran, nothing is kept. */
  readonly refused?: boolean
  /** Only to find the commit's subject line; never kept. */
  readonly stdout?: string
  /** The engine's `gitOperation.commit` (kind committed, amended or cherry-picked). */
  readonly commit?: { readonly sha: string }
  /** The engine's `gitOperation.pr.url`. */
  readonly pullRequestUrl?: string
}

/** Short hashes are git's abbreviation as printed, else the first 7 characters; at most this many. */
export const MAX_SHORT_SHA = 12
export const DEFAULT_SHORT_SHA = 7
/** A longer pull request URL is dropped. */
export const MAX_URL = 500
/** stdout beyond this is not searched for the commit line. */
const MAX_STDOUT = 1_000_000

/** The work entries one Bash call yields: test runs, then the commit, then the pull request link. */
export function workFromBash(report: BashReport, accessKey?: string): WorkEntry[] {
  try {
    if (typeof report !== 'object' || report === null || report.refused === true) return []
    // A command that is not a string names no run and no commit message.
    const command = report.command
    const out: WorkEntry[] = []

    // SPEC.md: piped, background or timed out → result unknown (testCommandsOf handles pipes and `&`
    // in the line; an interrupted run neither passed nor failed).
    const unknown = report.timedOut === true || report.background === true || report.interrupted === true
    for (const run of testCommandsOf(command)) {
      const result: TestResult = unknown ? 'unknown' : report.failed === true ? run.ifFailed : run.ifSucceeded
      const runner = redactSecrets(run.runner, accessKey)
      if (runner !== '') out.push({ kind: 'test', runner, result })
    }

    const commit = commitOf(report, command, accessKey)
    if (commit !== undefined) out.push(commit)

    const url = pullRequestUrl(report.pullRequestUrl, accessKey)
    if (url !== undefined) out.push({ kind: 'link', url })
    return out
  } catch {
    return []
  }
}

function commitOf(report: BashReport, command: string, accessKey: string | undefined): WorkEntry | undefined {
  const raw = (report.commit as { sha?: unknown } | undefined)?.sha
  if (typeof raw !== 'string') return undefined
  const sha = raw.trim().toLowerCase()
  if (!/^[0-9a-f]{4,64}$/.test(sha)) return undefined
  const line = commitLine(report.stdout, sha)
  const short = line?.abbrev ?? (sha.length <= MAX_SHORT_SHA ? sha : sha.slice(0, DEFAULT_SHORT_SHA))
  const subject = line?.subject ?? messageOf(command) ?? ''
  return { kind: 'commit', sha: short, subject: cleanSubject(subject, accessKey) }
}

/**
 * git's summary line for the commit, `[branch abc1234] Subject` (also `[main (root-commit) …]`,
 * `[detached HEAD …]`), whose hash matches `sha`; the last such line wins (an amend follows a commit).
 */
export function commitLine(stdout: unknown, sha: string): { abbrev: string; subject: string } | undefined {
  if (typeof stdout !== 'string' || stdout === '') return undefined
  const text = stdout.slice(0, MAX_STDOUT).replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\r/g, '')
  const lines = /^\[[^\]\n]*?[ \t]([0-9a-f]{4,64})\][ \t]?([^\n]*)$/gm
  let found: { abbrev: string; subject: string } | undefined
  for (const m of text.matchAll(lines)) {
    const abbrev = m[1] ?? ''
    if (!sha.startsWith(abbrev) && !abbrev.startsWith(sha)) continue
    const short = abbrev.length > MAX_SHORT_SHA ? abbrev.slice(0, DEFAULT_SHORT_SHA) : abbrev
    found = { abbrev: short.length > sha.length ? sha : short, subject: m[2] ?? '' }
  }
  return found
}

const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'])

/**
 * The subject a `git commit` in the command line gives with `-m`/`--message` (the last such commit
 * in the line): the message's first non-blank line. Claude Code's `-m "$(cat <<'EOF' … EOF)"` form
 * is read through its heredoc; a message built from other shell expansions gives nothing.
 */
export function messageOf(command: string): string | undefined {
  let message: string | undefined
  for (const words of simpleCommands(command)) {
    let k = 0
    while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k] ?? '')) k += 1
    if (commandName(words[k] ?? '') !== 'git') continue
    k += 1
    while (k < words.length && (words[k] ?? '').startsWith('-')) k += GIT_VALUE_OPTIONS.has(words[k] ?? '') ? 2 : 1
    if (words[k] !== 'commit') continue
    const found = firstMessage(words.slice(k + 1))
    if (found !== undefined) message = found
  }
  if (message === undefined) return undefined
  const text = heredocBody(message) ?? message
  if (/\$[({A-Za-z_]|`/.test(text)) return undefined
  const first = text.split('\n').find((l) => l.trim() !== '')
  return first === undefined ? undefined : first.trim()
}

function firstMessage(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ''
    // The end of the options, or a message from a file or another commit (`-F`, `--file`, `-C`, `-c`).
    if (/^(?:--|-[FCc]|--file)$|^--file=/.test(a)) return undefined
    if (a === '--message' || /^-[a-zA-Z]*m$/.test(a)) return args[i + 1]
    if (a.startsWith('--message=')) return a.slice('--message='.length)
    if (/^-m./.test(a)) return a.slice(2)
  }
  return undefined
}

/** The body of `$(cat <<'EOF' … EOF)`, or undefined for anything else. */
function heredocBody(word: string): string | undefined {
  const open = /^\$\(\s*cat\s+<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1[^\n]*\n/.exec(word)
  if (open === null) return undefined
  const delimiter = open[2] ?? ''
  const lines = word.slice(open[0].length).split('\n')
  const end = lines.findIndex((l) => l.trim() === delimiter)
  return (end < 0 ? lines : lines.slice(0, end)).join('\n')
}

/**
 * A pull request URL as kept: http(s) only, on a host name (no user or password), with its path;
 * query and fragment dropped; at most MAX_URL characters; dropped if it holds anything secret-looking.
 */
export function pullRequestUrl(value: unknown, accessKey?: string): string | undefined {
  if (typeof value !== 'string') return undefined
  const url = value.trim()
  if (url.length > MAX_URL) return undefined
  const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?'
  const m = new RegExp(`^(https?)://(${label}(?:\\.${label})*)(:\\d{1,5})?(/[A-Za-z0-9\\-._~!$&'()*+,;=:@%/]*)?(?:[?#][^\\s]*)?$`, 'i').exec(url)
  if (m === null) return undefined
  const clean = `${(m[1] ?? '').toLowerCase()}://${(m[2] ?? '').toLowerCase()}${m[3] ?? ''}${m[4] ?? ''}`
  return redactSecrets(clean, accessKey) === clean ? clean : undefined
}
