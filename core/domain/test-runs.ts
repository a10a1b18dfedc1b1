/**
 * Test runs in a Bash command line (SPEC.md: tool.call, Bash): every run the line makes, and whether
 * the command's exit status tells how that run went. Reads the simple commands shell.ts finds in the
 * line and asks test-runners.ts which runner each names; a command that runs a line of its own
 * (`sh -c '…'`, `eval …`) has that line read too.
 * Pure; never throws (a surprise gives "no runner").
 */

import { commandsOf, MAX_DEPTH } from './shell'
import { commandName, identify } from './test-runners'
import type { TestResult } from './work'

/** A test run a command line makes, and what its exit status says about it. */
export interface TestCommand {
  /** The runner's name as the handoff shows it: `npm test`, `pytest`, `go test`, `vitest`, … */
  readonly runner: string
  /** The run's result when the whole command line succeeded: `passed`, or `unknown` (`npm test || true`). */
  readonly ifSucceeded: Extract<TestResult, 'passed' | 'unknown'>
  /** …and when it failed: `failed`, or `unknown` (`npm test; echo done`, `npm test && npm run lint`). */
  readonly ifFailed: Extract<TestResult, 'failed' | 'unknown'>
}

/** The test runner a command line names, or undefined (the first, when it names several). */
export function detectTestRunner(command: string): string | undefined {
  return testCommandsOf(command)[0]?.runner
}

/**
 * Every test run a command line makes, in order. A run's result follows the line's exit status only
 * when nothing in the line is piped or sent to the background, and the run is in the line's last list
 * (after any `;` or newline), reached through `&&` alone, followed by `&&` alone, and not negated:
 * then success means it passed; failure means it failed when the run is the last command (or only
 * `echo`/`printf`/`true`/`:` follow it).
 */
export function testCommandsOf(command: string): TestCommand[] {
  try {
    if (typeof command !== 'string') return []
    return analyze(command, 0).runs
  } catch {
    return []
  }
}

/**
 * Whether the command line pipes output (`|`, `|&`; not `||`) or sends something to the background
 * (`&`, not `&&` or `&>`; `nohup`, `setsid`, `disown`). Quoted text, substitutions and heredocs don't count.
 */
export function isPipedOrBackground(command: string): boolean {
  try {
    if (typeof command !== 'string') return false
    return analyze(command, 0).pipedOrBackground
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// What the exit status says about each run

interface Analysis {
  readonly runs: TestCommand[]
  readonly pipedOrBackground: boolean
}

function analyze(command: string, depth: number): Analysis {
  const line = commandsOf(command, depth)
  const runs: TestCommand[] = []
  let pipedOrBackground = line.pipedOrBackground
  // The last list starts after the last ';' or '&' between commands; its runs are decisive only when `&&` alone joins it.
  const links = line.links.slice(0, -1)
  const lastList = links.findLastIndex((l) => l === ';' || l === '&') + 1
  const joined = links.slice(lastList).every((l) => l === '&&')
  // The last command that may fail (not `echo`, `printf`, `true`, `:`): a failure says a run failed only when no such command follows it.
  const loud = line.commands.findLastIndex((c) => c.negated || !/^(?:echo|printf|true|:)$/.test(commandName(c.words[0] ?? '')))

  for (const [r, cmd] of line.commands.entries()) {
    const found = identify(cmd.words, depth)
    const decisive = r >= lastList && joined && !cmd.negated
    /** A run of this command, with its results when the command's own exit status said `ok` or `bad`. */
    const add = (runner: string, ok: TestCommand['ifSucceeded'], bad: TestCommand['ifFailed']): number =>
      runs.push({ runner, ifSucceeded: decisive ? ok : 'unknown', ifFailed: decisive && r >= loud ? bad : 'unknown' })
    if (found.background) pipedOrBackground = true
    if (found.runner) add(found.runner, 'passed', 'failed')
    if (found.inner !== undefined && depth < MAX_DEPTH) {
      const inner = analyze(found.inner, depth + 1)
      pipedOrBackground ||= inner.pipedOrBackground
      for (const run of inner.runs) add(run.runner, run.ifSucceeded, run.ifFailed)
    }
  }
  // A piped or background run's exit status is not the run's (SPEC.md: result unknown).
  return { runs: pipedOrBackground ? runs.map(({ runner }) => ({ runner, ifSucceeded: 'unknown', ifFailed: 'unknown' })) : runs, pipedOrBackground }
}
