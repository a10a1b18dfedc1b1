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

/** Commands that never fail, so a failure after them is still the run's. */
const NEVER_FAIL = new Set(['echo', 'printf', 'true', ':'])

function analyze(command: string, depth: number): Analysis {
  const line = commandsOf(command, depth)
  const runs: TestCommand[] = []
  let pipedOrBackground = line.pipedOrBackground
  const n = line.commands.length
  // The last list starts after the last ';' or '&'; its runs are decisive only when `&&` alone joins it.
  let lastList = 0
  for (let k = 0; k < n - 1; k++) if (line.links[k] === ';' || line.links[k] === '&') lastList = k + 1
  const joined = line.links.slice(lastList, n - 1).every((l) => l === '&&')
  // The last command that may fail: a failure says a run failed only when no such command follows it.
  const loud = line.commands.findLastIndex((c) => c.negated || !NEVER_FAIL.has(commandName(c.words[0] ?? '')))

  for (const [r, cmd] of line.commands.entries()) {
    const found = identify(cmd.words, depth)
    if (found.background) pipedOrBackground = true
    if (found.runner === undefined && found.inner === undefined) continue
    const decisive = r >= lastList && joined && !cmd.negated
    const outerSucceeded: TestCommand['ifSucceeded'] = decisive ? 'passed' : 'unknown'
    const outerFailed: TestCommand['ifFailed'] = decisive && r >= loud ? 'failed' : 'unknown'
    if (found.runner !== undefined) runs.push({ runner: found.runner, ifSucceeded: outerSucceeded, ifFailed: outerFailed })
    if (found.inner !== undefined && depth < MAX_DEPTH) {
      const inner = analyze(found.inner, depth + 1)
      if (inner.pipedOrBackground) pipedOrBackground = true
      for (const run of inner.runs) {
        runs.push({
          runner: run.runner,
          ifSucceeded: outerSucceeded === 'passed' ? run.ifSucceeded : 'unknown',
          ifFailed: outerFailed === 'failed' ? run.ifFailed : 'unknown',
        })
      }
    }
  }
  // A piped or background run's exit status is not the run's (SPEC.md: result unknown).
  return { runs: pipedOrBackground ? runs.map((r) => ({ runner: r.runner, ifSucceeded: 'unknown', ifFailed: 'unknown' })) : runs, pipedOrBackground }
}
