/**
 * Which test runner one simple command names (SPEC.md: tool.call, Bash: "If the command line names a
 * test runner (npm test, pytest and others)"): one table, RULES_JSON (./test-runner-rules), says for each
 * command name how its words are read, and a reader per kind of rule (the cases of `read`) reads them.
 * `identify` takes the words shell.ts split out of a command line; a line the command runs (`sh -c '…'`)
 * comes back as `inner`, for test-runs.ts to read in turn. Pure: its one counter (`left`) is set afresh by each
 * `identify` call and read to its end within it.
 *
 * A run is named by the program and what it runs, as the command line spells them, without flags, their
 * values or a wrapper (`npx vitest run` is `vitest`), and with one name for the spellings that run the same
 * thing, so a run that failed and then passed is one runner's: a program's aliases (`npm t`, `cargo t`) and
 * wrapper scripts (`./gradlew`, `./mvnw`) say the program's own words (`npm test`, `gradle test`); a package's
 * script is `<pm> test` or `<pm> run <script>` however it was started. A package manager's own runner and a
 * package script are two names: `bun test` is Bun's runner, `bun run test` the package's `test` script.
 *
 * A new runner is one line of the table.
 */
import { MAX_DEPTH } from './shell'
import { flagsOf, own, ruleOf, type Rule } from './test-runner-rules'

/** What one simple command does about tests. Every answer without any of the three is NONE itself. */
export interface Found {
  readonly runner?: string
  /** A command line to read in turn (`sh -c '…'`, `eval …`, `npx -c '…'`). */
  readonly inner?: string
  readonly background?: boolean
}

const NONE: Found = {}

/** The command's name: the last path part, lower case, without a Windows or script extension. */
export const commandName = (word: string): string =>
  word
    .replace(/[\\/]+$/, '')
    .replace(/^.*[\\/]/s, '')
    .replace(/\.(?:exe|cmd|bat|ps1|js|mjs|cjs)$/i, '')
    .toLowerCase()

const isFlag = (w: string): boolean => w.length > 1 && w.startsWith('-')
const isAssignment = (w: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w)

/** Whether `args` hold a flag that asks a runner about itself, or builds without running: no test run. */
const hasMetaFlag = (args: readonly string[]): boolean =>
  args.some((a) => /^(?:--version|--help|-h|--collect-only|--co|--no-run|--list|-list|--listTests|--list-tests|--showConfig|--clearCache|--init|--dry-run|-DskipTests(?:=true)?|-Dmaven\.test\.skip(?:=true)?)$/.test(a))

/**
 * Script, task and target names that run tests: test, tests, spec, e2e, and `test:unit`, `unit-test`, …
 * (at most 60 characters of `[\w:.@/+-]`).
 */
export const isTestScriptName = (name: string): boolean =>
  /^(?=[\w:.@/+-]{1,60}$)(?:(?:tests?|specs?|e2e)(?:[:_.-][\w:.@/+-]*)?|[\w.@/+-]+[:_-](?:tests?|specs?|e2e))$/i.test(name)

/**
 * Where the wrapped command may start, most likely first: the words after a wrapper's own flags (and,
 * with `assignments`, a rule's `assign`, `NAME=value` words). The flags of `wrap` (a rule's) take the next word; an unknown
 * flag might too, so the word after the first candidate is tried as well, and so are the words after a `--`.
 */
function wrapped(args: readonly string[], wrap?: readonly string[], assignments?: 1): [string[], ...string[][]] {
  const valueFlags = flagsOf(wrap)
  let i = 0
  while (i < args.length) {
    // A string: i is below the length. (The casts below of a word that may be undefined are for
    // `includes`, `indexOf` and `===`, which find no undefined in a list of strings.)
    const a = args[i] as string
    if (a === '--') return [args.slice(i + 1)]
    if (!isFlag(a) && !(assignments && isAssignment(a))) break
    i += valueFlags.includes(a) ? 2 : 1
  }
  const out: [string[], ...string[][]] = [args.slice(i)]
  const prev = args[i - 1] as string
  // A flag, not `--x=value`, not known to take a value (none before the first word: "undefined" is no flag).
  if (/^-[^=]+$/.test(prev) && !valueFlags.includes(prev)) out.push(args.slice(i + 1))
  const dashes = args.indexOf('--', i)
  if (dashes >= 0) out.push(args.slice(dashes + 1))
  return out
}

/**
 * The word lists a wrapper's command may start at that one simple command may try, wrappers in wrappers
 * included: each level tries a few (`timeout -k 5 10 …`), so without a bound `timeout 1` written twenty times
 * would try millions. Past it the command names nothing.
 */
const CANDIDATES_PER_COMMAND = 256
/** The numbers a duration's wrapper tries as its duration: its option values and the duration itself (`-k 5 -s 9 10`). */
const DURATIONS = 4
let left = 0

/** The first of `candidates` (word lists) that names something, read one level deeper; each spends one of `left`. */
function readAny(candidates: readonly (readonly string[])[], depth: number): Found {
  for (const c of candidates) {
    if (--left < 0) return NONE
    const f = read(c, depth + 1)
    if (f !== NONE) return f
  }
  return NONE
}

/**
 * What the simple command `words` (quotes removed, `NAME=value` words first) does about tests, `depth`
 * lines or commands deep (none past MAX_DEPTH).
 */
export function identify(words: readonly string[], depth: number): Found {
  left = CANDIDATES_PER_COMMAND
  return read(words, depth)
}

/** `identify` within the bound: every reader's recursion comes back here. */
function read(words: readonly string[], depth: number): Found {
  if (depth > MAX_DEPTH) return NONE
  // The first word that is not `NAME=value`; none, or '' (which names nothing either), is no run.
  const k = words.findIndex((w) => !isAssignment(w))
  const head = words[k]
  if (!head) return NONE
  const name = commandName(head)
  const rule = ruleOf(name)
  const args = words.slice(k + 1)
  if (!rule) return hasMetaFlag(args) ? NONE : testScript(head)
  const kind = rule.is ?? (rule.wrap ? 'wrapper' : 'runner')
  // For a runner and these readers a meta flag (`--version`) anywhere means no run; the others read on.
  if (/^(?:runner|node|python|coverage|nx)$/.test(kind) && hasMetaFlag(args)) return NONE
  switch (kind) {
    // A wrapper (`sudo -u app`, `npx`, `timeout 60`, `bundle exec`): the command it runs, one level deeper.
    case 'wrapper': {
      if (args.some((a) => rule.never?.includes(a))) return NONE
      if (rule.after?.includes(args[0] as string) === false) return NONE
      const rest = rule.after ? args.slice(rule.skip ?? 1) : args
      const c = rest.indexOf(rule.inner as string) + 1
      if (c > 0 && rest[c] !== undefined) return { inner: rest[c] }
      // A duration's wrapper (`timeout -k 5 10 …`) runs what follows one of its first DURATIONS numbers.
      const numbers: number[] = []
      for (let i = 0; rule.duration && i < rest.length && numbers.length < DURATIONS; i++) if (/^\d+(?:\.\d+)?[smhd]?$/.test(rest[i] as string)) numbers.push(i)
      const f = readAny(rule.duration ? numbers.map((i) => rest.slice(i + 1)) : wrapped(rest, rule.wrap, rule.assign), depth)
      return rule.background ? { ...f, background: true } : f
    }
    // `sh -c '…'` runs a line; `sh ./run_tests.sh` a script.
    case 'shell': {
      const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a)) + 1
      if (c > 0) return args[c] === undefined ? NONE : { inner: args[c] }
      return testScript(args.find((a) => !isFlag(a)) ?? '')
    }
    case 'eval':
      return args.length ? { inner: args.join(' ') } : NONE
    // `node --test`, or the script node runs (`node node_modules/jest/bin/jest.js`), never `node -e`.
    case 'node':
      if (args.includes('--test')) return { runner: `${name} --test` }
      if (args.some((a) => /^(?:-e|--eval|-p|--print)$/.test(a))) return NONE
    // falls through
    // `php vendor/bin/phpunit`, `ruby bin/rails test`: the script, read as a command.
    case 'script':
      return read(wrapped(args, rule.wrap)[0], depth + 1)
    case 'python':
      return python(args, depth)
    // `coverage run [flags] -m pytest …` or `coverage run manage.py test`.
    case 'coverage': {
      if (args[0] !== 'run') return NONE
      const m = args.indexOf('-m')
      return python(m > 0 ? args.slice(m) : wrapped(args.slice(1), rule.wrap)[0], depth)
    }
    case 'pm':
      return packageManager(name, rule, args, depth)
    // `nx test api`, `nx run api:test`, `nx run-many -t test`, `nx affected --target=test`, `nx affected:test`: `nx <target>`.
    case 'nx': {
      const [sub = '', project = ''] = args.filter((a) => !isFlag(a))
      const targets =
        sub === 'run'
          ? project.split(':').slice(1)
          : /^(?:run-many|affected)$/.test(sub)
            ? args.flatMap((a, k) => (/^(?:-t|--targets?)$/.test(a) ? [args[k + 1] ?? ''] : /^--targets?=/.test(a) ? [a.replace(/^--targets?=/, '')] : [])).flatMap((t) => t.split(','))
            : [sub === 'affected:test' ? 'test' : sub]
      const target = targets.find(isTestScriptName)
      return target ? { runner: `nx ${target}` } : NONE
    }
    // `poetry run pytest`, `uv run pytest`, `hatch test`, `pdm run test` (a task of its own).
    case 'env': {
      const rest = args[0] === rule.through ? args.slice(1) : args
      const sub = rest[0] ?? ''
      if (own(rule.sub, sub)) return hasMetaFlag(rest) ? NONE : { runner: `${name} ${sub}` }
      if (!(rule.after ?? ['run']).includes(sub)) return NONE
      const candidates = wrapped(rest.slice(1), rule.wrap)
      const f = readAny(candidates, depth)
      if ((f.runner ?? f.inner) !== undefined) return f
      const task = candidates[0][0] ?? ''
      return isTestScriptName(task) ? { runner: `${name} ${sub} ${task}` } : NONE
    }
    // A runner by its own name, a subcommand or a target.
    default:
      return runner(rule.as ?? name, rule, rule.drop ? args.filter((a) => !a.startsWith(rule.drop as string)) : args)
  }
}

/** A runner rule read on `args`: a subcommand, then a target, then the command itself (see Rule). */
function runner(spelled: string, rule: Rule, args: readonly string[]): Found {
  const list = rule.any ?? rule.first
  if (rule.sub) {
    for (const [sub = '', ...rest] of wrapped(args, rule.wrap)) {
      const next = own(rule.sub, sub)
      if (typeof next === 'string') return { runner: next === '' ? spelled : `${spelled} ${next}` }
      if (next) return runner(next.as ?? `${spelled} ${sub}`, next, rest)
    }
    if (!list) return NONE
  }
  if (!list) return rule.unless?.includes(args.find((a) => !isFlag(a)) as string) ? NONE : { runner: spelled }
  // The words that may be targets: not flags, not `NAME=value`, not a flag's value.
  const excluded = args.filter((_, k) => rule.exclude?.includes(args[k - 1] as string))
  const words = args.filter((a, k) => {
    const prev = args[k - 1] ?? ''
    return !isFlag(a) && !isAssignment(a) && !excluded.includes(a) && !(isFlag(prev) && rule.booleans?.includes(prev) === false)
  })
  for (const word of rule.first ? words.slice(0, 1) : words) {
    const w = rule.last ? word.slice(word.lastIndexOf(rule.last) + 1) : word
    for (const entry of list) {
      const m = entry === w || (entry === 'script' && isTestScriptName(w)) ? [w] : entry.startsWith('/') ? new RegExp(entry.slice(1, -1)).exec(w) : null
      if (m) return { runner: `${spelled} ${m[1] ?? m[0]}` }
    }
  }
  return NONE
}

/** The runner of a package manager command (npm, pnpm, yarn, bun: their rules' `sub`), or what it runs. */
function packageManager(pm: string, rule: Rule, args: readonly string[], depth: number): Found {
  for (const [sub = '', ...rest] of wrapped(args, rule.wrap)) {
    const does = own(rule.sub, sub.toLowerCase())
    // `<pm> test` runs the package's test script, but for bun, whose own runner it is.
    if (does === 'test') return hasMetaFlag(rest) ? NONE : { runner: `${pm} test` }
    if (does === 'run') {
      const script = wrapped(rest, rule.wrap)[0]
      const name = script[0] ?? ''
      if (isTestScriptName(name)) return { runner: name === 'test' && pm !== 'bun' ? `${pm} test` : `${pm} run ${name}` }
      return pm === 'bun' ? read(script, depth + 1) : NONE
    }
    // `pnpm exec jest` reads as `pnpx jest`.
    if (does === 'exec') return read(['pnpx', ...rest], depth)
    if (does === 'workspace') return read([pm, ...rest.slice(1)], depth + 1)
    if (does === 'workspaces') return read([pm, ...wrapped(rest.slice(1))[0]], depth + 1)
    if (pm !== 'npm') {
      // pnpm, yarn and bun run a package script or a binary by its bare name.
      if (isTestScriptName(sub)) return { runner: `${pm} run ${sub}` }
      const f = read([sub, ...rest], depth + 1)
      if (f.runner) return f
    }
  }
  return NONE
}

/** `python -m pytest`, `python -m django test`, or the script python runs (`args` hold no meta flag). */
function python(args: readonly string[], depth: number): Found {
  let i = 0
  while (i < args.length) {
    const a = args[i] as string
    if (/^-m(?:$|.)/.test(a)) {
      // The module and its arguments (`-m pytest -x`, `-mpytest -x`).
      const rest = args.slice(i + 1)
      const module = a.slice(2) || (rest.shift() ?? '')
      if (module === 'django') return rest[0] === 'test' ? { runner: 'manage.py test' } : NONE
      if (module === 'unittest') return { runner: module }
      // These modules are read as the commands of the same names.
      return /^(?:pytest|py\.test|tox|nox|nose2|behave|coverage)$/.test(module) ? read([module, ...rest], depth) : NONE
    }
    if (a === '-c') return NONE
    if (!isFlag(a)) break
    i += /^-[WXQ]$/.test(a) ? 2 : 1
  }
  return read(args.slice(i), depth + 1)
}

/**
 * A project's own test script: `./run_tests.sh`, `scripts/test.sh`, `bash run-tests.sh`, `./runtests.py`,
 * `scripts/test` (a bare `test` only in a folder). Not `python test.py` or `node test.js`: a scratch file is
 * often called that. The run is named by the script's file name, in lower case.
 */
function testScript(word: string): Found {
  const m = /(?:^|[\\/])(run[_-]?tests?(?:\.sh|\.py)?|tests?\.sh)$|[\\/](tests?)$/i.exec(word)
  return m ? { runner: ((m[1] ?? m[2]) as string).toLowerCase() } : NONE
}
