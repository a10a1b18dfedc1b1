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
    const unknown = [report.timedOut, report.background, report.interrupted].includes(true)
    for (const run of testCommandsOf(command)) {
      const runner = redactSecrets(run.runner, accessKey)
      if (runner !== '') out.push({ kind: 'test', runner, result: unknown ? 'unknown' : report.failed === true ? run.ifFailed : run.ifSucceeded })
    }

    // The commit: its hash as git abbreviated it in stdout, else the first 7 characters of a longer one.
    const raw = (report.commit as { sha?: unknown } | undefined)?.sha
    const sha = typeof raw === 'string' ? raw.trim().toLowerCase() : ''
    if (/^[0-9a-f]{4,64}$/.test(sha)) {
      const line = commitLine(report.stdout, sha)
      out.push({ kind: 'commit', sha: line?.abbrev ?? sha.slice(0, sha.length > MAX_SHORT_SHA ? DEFAULT_SHORT_SHA : MAX_SHORT_SHA), subject: cleanSubject(line?.subject ?? messageOf(command) ?? '', accessKey) })
    }

    const url = pullRequestUrl(report.pullRequestUrl, accessKey)
    if (url) out.push({ kind: 'link', url })
    return out
  } catch {
    return []
  }
}

/**
 * git's summary line for the commit, `[branch abc1234] Subject` (also `[main (root-commit) …]`,
 * `[detached HEAD …]`), whose hash matches `sha`; the last such line wins (an amend follows a commit).
 * `abbrev` is the line's hash, cut to DEFAULT_SHORT_SHA characters when longer than MAX_SHORT_SHA, and
 * never longer than `sha`.
 */
export function commitLine(stdout: unknown, sha: string): { abbrev: string; subject: string } | undefined {
  if (typeof stdout !== 'string') return undefined
  const text = stdout.slice(0, MAX_STDOUT).replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\r/g, '')
  const m = [...text.matchAll(/^\[[^\]\n]*?[ \t]([0-9a-f]{4,64})\][ \t]?([^\n]*)$/gm)].findLast(([, abbrev = '']) => sha.startsWith(abbrev) || abbrev.startsWith(sha))
  if (!m) return undefined
  // One hash is the start of the other: the first characters of either are the same.
  const abbrev = m[1] as string
  return { abbrev: abbrev.slice(0, Math.min(sha.length, abbrev.length > MAX_SHORT_SHA ? DEFAULT_SHORT_SHA : MAX_SHORT_SHA)), subject: m[2] as string }
}

/**
 * The subject a `git commit` in the command line gives with `-m`/`--message` (the last such commit
 * in the line): the message's first non-blank line. Claude Code's `-m "$(cat <<'EOF' … EOF)"` form
 * is read through its heredoc (up to the line holding the delimiter alone); a message built from other
 * shell expansions gives nothing.
 */
export function messageOf(command: string): string | undefined {
  // '' when no commit gives one: no line of it is non-blank.
  let message = ''
  for (const words of simpleCommands(command)) {
    let k = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))
    if (commandName(words[k] ?? '') !== 'git') continue
    k += 1
    // git's own options before the subcommand; these take a value.
    while (/^-/.test(words[k] ?? '')) k += /^(?:-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env)$/.test(words[k] as string) ? 2 : 1
    if (words[k] !== 'commit') continue
    message = firstMessage(words.slice(k + 1)) ?? message
  }
  const open = /^\$\(\s*cat\s+<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1[^\n]*\n/.exec(message)
  const lines = message.slice(open?.[0].length).split('\n')
  // Without a heredoc no line is its delimiter (`trim` gives a string, never undefined).
  const end = lines.findIndex((l) => l.trim() === open?.[2])
  const body = end < 0 ? lines : lines.slice(0, end)
  return body.some((l) => /\$[({A-Za-z_]|`/.test(l)) ? undefined : body.find((l) => l.trim() !== '')?.trim()
}

/**
 * The message the options of one `git commit` give: none at the end of the options or with a message
 * from a file or another commit (`--`, `-F`, `--file`, `-C`, `-c`); the next word after `-m`, `-am`,
 * `--message`; the rest of `-mText`, `--message=Text`; the first of these wins.
 */
function firstMessage(args: readonly string[]): string | undefined {
  for (const [i, a] of args.entries()) {
    const m = /^(?:(--|-[FCc]|--file|--file=[^]*)|--message|-[a-zA-Z]*m|(?:--message=|-m(?=.))([^]*))$/.exec(a)
    // Group 1 (a message from elsewhere) is never empty.
    if (m) return m[1] ? undefined : (m[2] ?? args[i + 1])
  }
  return undefined
}

/**
 * A pull request URL as kept: http(s) only, on a host name (no user or password), with its path;
 * query and fragment dropped; at most MAX_URL characters; dropped if it holds anything secret-looking.
 */
export function pullRequestUrl(value: unknown, accessKey?: string): string | undefined {
  if (typeof value !== 'string') return undefined
  const url = value.trim()
  if (url.length > MAX_URL) return undefined
  // The scheme and host (each label 1 to 63 letters, digits or inner hyphens), the port, the path.
  const m = /^(https?:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)(:\d{1,5})?(\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*)?(?:[?#]\S*)?$/i.exec(url)
  if (!m) return undefined
  const clean = (m[1] as string).toLowerCase() + m.slice(2).join('')
  return redactSecrets(clean, accessKey) === clean ? clean : undefined
}
