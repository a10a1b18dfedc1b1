/**
 * Which test runner one simple command names (SPEC.md: tool.call, Bash: "If the command line names a
 * test runner (npm test, pytest and others)"): one table, RULES (./test-runner-rules), says for each command name how its
 * words are read, and a reader per kind of rule reads them. `identify` takes the words shell.ts split out
 * of a command line; a line the command runs (`sh -c '…'`) comes back as `inner`, for test-runs.ts to read
 * in turn. Pure.
 *
 * A run is named by the program and what it runs, as the command line spells them, without flags, their
 * values or a wrapper (`npx vitest run` is `vitest`), and with one name for the spellings that run the same
 * thing, so a run that failed and then passed is one runner's: a program's aliases (`npm t`, `cargo t`) and
 * wrapper scripts (`./gradlew`, `./mvnw`) say the program's own words (`npm test`, `gradle test`); a package's
 * script is `<pm> test` or `<pm> run <script>` however it was started. A package manager's own runner and a
 * package script are two names: `bun test` is Bun's runner, `bun run test` the package's `test` script.
 *
 * The table is ./test-runner-rules (a string of JSON read on first use); a new runner is one line of it.
 */
import { MAX_DEPTH } from './shell'
import { FLAG_SETS, own, ruleOf, type Rule } from './test-runner-rules'

export interface Found {
  readonly runner?: string
  /** A command line to read in turn (`sh -c '…'`, `eval …`, `npx -c '…'`). */
  readonly inner?: string
  readonly background?: boolean
}


const NONE: Found = {}
const MAX_RUNNER = 100


/** The command's name: the last path part, lower case, without a Windows or script extension. */
export function commandName(word: string): string {
  const base = word.replace(/\\/g, '/').replace(/\/+$/, '')
  return base
    .slice(base.lastIndexOf('/') + 1)
    .replace(/\.(?:exe|cmd|bat|ps1|js|mjs|cjs)$/i, '')
    .toLowerCase()
}

const isFlag = (w: string): boolean => w.length > 1 && w.startsWith('-')
const isAssignment = (w: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w)

/** Flags that ask a runner about itself, or build without running: no test run. */
const META_FLAGS = new Set(
  '--version --help -h --collect-only --co --no-run --list -list --listTests --list-tests --showConfig --clearCache --init --dry-run -DskipTests -DskipTests=true -Dmaven.test.skip -Dmaven.test.skip=true'.split(' '),
)
const hasMetaFlag = (args: readonly string[]): boolean => args.some((a) => META_FLAGS.has(a))

/** Script, task and target names that run tests: test, tests, spec, e2e, and `test:unit`, `unit-test`, … */
export function isTestScriptName(name: string): boolean {
  if (!/^[\w:.@/+-]{1,60}$/.test(name)) return false
  return /^(?:tests?|specs?|e2e)(?:[:_.-][\w:.@/+-]*)?$/i.test(name) || /^[\w.@/+-]+[:_-](?:tests?|specs?|e2e)$/i.test(name)
}

/** A rule's value flags, the sets of FLAG_SETS ("@NPX") spelled out. */
const flagsOf = (list: readonly string[] = []): ReadonlySet<string> => new Set(list.flatMap((f) => own(FLAG_SETS, f.slice(1))?.split(' ') ?? [f]))

/**
 * The words after a wrapper's own flags: where the wrapped command starts. `valueFlags` take the
 * next word; an unknown flag might too, so the word after the first candidate is tried as well.
 */
function wrapped(args: readonly string[], valueFlags: ReadonlySet<string> = new Set(), assignments = false): string[][] {
  let i = 0
  while (i < args.length) {
    const a = args[i] ?? ''
    if (a === '--') return [args.slice(i + 1)]
    if (assignments && isAssignment(a)) i += 1
    else if (isFlag(a)) i += valueFlags.has(a) ? 2 : 1
    else break
  }
  const out = [args.slice(i)]
  const prev = args[i - 1]
  if (prev !== undefined && isFlag(prev) && !prev.includes('=') && !valueFlags.has(prev)) out.push(args.slice(i + 1))
  const dashes = args.indexOf('--', i)
  if (dashes >= 0) out.push(args.slice(dashes + 1))
  return out
}

function identifyAny(candidates: readonly (readonly string[])[], depth: number): Found {
  for (const c of candidates) {
    const f = identify(c, depth + 1)
    if (f.runner !== undefined || f.inner !== undefined || f.background === true) return f
  }
  return NONE
}

/** The subcommand of `args`: the first word that is not a flag (or the one after, see `wrapped`). */
function subcommands(args: readonly string[], valueFlags?: ReadonlySet<string>): { sub: string; rest: string[] }[] {
  return wrapped(args, valueFlags)
    .filter((c) => c.length > 0)
    .map((c) => ({ sub: c[0] ?? '', rest: c.slice(1) }))
}

/** What `word` names when it is one of `list` (see Rule), or undefined. */
function picked(list: readonly string[], word: string): string | undefined {
  for (const entry of list) {
    if (entry === word || (entry === 'script' && isTestScriptName(word))) return word
    if (entry.startsWith('/')) {
      const m = new RegExp(entry.slice(1, -1)).exec(word)
      if (m !== null) return m[1] ?? m[0]
    }
  }
  return undefined
}

export function identify(words: readonly string[], depth: number): Found {
  if (depth > MAX_DEPTH) return NONE
  let k = 0
  while (k < words.length && isAssignment(words[k] ?? '')) k += 1
  const head = words[k]
  if (head === undefined) return NONE
  const name = commandName(head)
  const rule = ruleOf(name)
  const args = words.slice(k + 1)
  if (rule === undefined) return hasMetaFlag(args) ? NONE : testScript(head)
  const reader = rule.is ?? (rule.wrap === undefined ? 'runner' : 'wrapper')
  return own(READERS, reader)?.(rule.as ?? name, rule, args, depth) ?? NONE
}

type Reader = (name: string, rule: Rule, args: readonly string[], depth: number) => Found

const READERS: Readonly<Record<string, Reader>> = {
  /** A runner by its own name, a subcommand or a target; a meta flag (`--version`) means none. */
  runner: (name, rule, args, depth) => (hasMetaFlag(args) ? NONE : runner(name, rule, rule.drop === undefined ? args : args.filter((a) => !a.startsWith(rule.drop as string)), depth)),

  wrapper: (_name, rule, args, depth) => {
    if (rule.never?.some((f) => args.includes(f)) === true) return NONE
    let rest = args
    if (rule.after !== undefined) {
      if (!rule.after.includes(rest[0] ?? '')) return NONE
      rest = rest.slice(1 + (rule.skip ?? 0))
    }
    const c = rest.indexOf(rule.inner as string)
    if (c >= 0 && rest[c + 1] !== undefined) return { inner: rest[c + 1] }
    const candidates = rule.duration === 1 ? rest.flatMap((a, i) => (/^\d+(?:\.\d+)?[smhd]?$/.test(a) ? [rest.slice(i + 1)] : [])) : wrapped(rest, flagsOf(rule.wrap), rule.assign === 1)
    const f = identifyAny(candidates, depth)
    return rule.background === 1 ? { ...f, background: true } : f
  },

  /** `sh -c '…'` runs a line; `sh ./run_tests.sh` a script. */
  shell: (_name, _rule, args) => {
    const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a))
    if (c >= 0) return args[c + 1] === undefined ? NONE : { inner: args[c + 1] }
    const script = args.find((a) => !isFlag(a))
    return script === undefined ? NONE : testScript(script)
  },

  eval: (_name, _rule, args) => (args.length === 0 ? NONE : { inner: args.join(' ') }),

  /** `php vendor/bin/phpunit`, `ruby bin/rails test`: the script, read as a command. */
  script: (_name, rule, args, depth) => identify(wrapped(args, flagsOf(rule.wrap))[0] ?? [], depth + 1),

  /** `node --test`, or the script node runs (`node node_modules/jest/bin/jest.js`), never `node -e`. */
  node: (name, _rule, args, depth) => {
    if (hasMetaFlag(args)) return NONE
    if (args.includes('--test')) return { runner: `${name} --test` }
    if (args.some((a) => ['-e', '--eval', '-p', '--print'].includes(a))) return NONE
    return identify(wrapped(args, flagsOf(['@NODE']))[0] ?? [], depth + 1)
  },

  python: (_name, _rule, args, depth) => python(args, depth),
  coverage: (_name, _rule, args, depth) => coverage(args, depth),
  pm: (name, _rule, args, depth) => packageManager(name, args, depth),
  nx: (_name, _rule, args) => (hasMetaFlag(args) ? NONE : nx(args)),

  /** `poetry run pytest`, `uv run pytest`, `hatch test`, `pdm run test` (a task of its own). */
  env: (name, rule, args, depth) => {
    const rest = args[0] === rule.through ? args.slice(1) : args
    if (own(rule.sub, rest[0] ?? '') !== undefined) return hasMetaFlag(rest) ? NONE : { runner: `${name} ${rest[0]}` }
    if (!(rule.after ?? ['run']).includes(rest[0] ?? '')) return NONE
    const candidates = wrapped(rest.slice(1), flagsOf(['@UV', '@ENV']))
    const f = identifyAny(candidates, depth)
    if (f.runner !== undefined || f.inner !== undefined) return f
    const task = candidates[0]?.[0]
    return task !== undefined && isTestScriptName(task) ? { runner: `${name} ${rest[0]} ${task}` } : NONE
  },
}

/** A runner rule read on `args`: a subcommand, then a target, then the command itself (see Rule). */
function runner(spelled: string, rule: Rule, args: readonly string[], depth: number): Found {
  const list = rule.any ?? rule.first
  if (rule.sub !== undefined) {
    for (const { sub, rest } of subcommands(args, flagsOf(rule.wrap))) {
      const next = own(rule.sub, sub)
      if (next === 0) return { runner: spelled }
      if (next === 1 || typeof next === 'string') return { runner: `${spelled} ${next === 1 ? sub : next}` }
      if (next !== undefined) return runner(next.as ?? `${spelled} ${sub}`, next, rest, depth)
    }
    if (list === undefined) return NONE
  }
  if (list === undefined) return rule.unless?.includes(args.find((a) => !isFlag(a)) as string) === true ? NONE : { runner: spelled }
  const excluded = new Set(args.flatMap((a, k) => (rule.exclude?.includes(a) === true ? args.slice(k + 1, k + 2) : [])))
  // With `booleans`, every other flag takes the next word as its value.
  const takesValue = (k: number): boolean => k > 0 && isFlag(args[k - 1] ?? '') && rule.booleans?.includes(args[k - 1] ?? '') === false
  const words = args.filter((a, k) => !isFlag(a) && !isAssignment(a) && !excluded.has(a) && !takesValue(k))
  for (const word of rule.first === undefined ? words : words.slice(0, 1)) {
    const hit = picked(list, rule.last === undefined ? word : word.slice(word.lastIndexOf(rule.last) + 1))
    if (hit !== undefined) return { runner: `${spelled} ${hit}` }
  }
  return NONE
}

/** The runner of a package manager command (npm, pnpm, yarn, bun), or what it wraps. */
function packageManager(pm: string, args: readonly string[], depth: number): Found {
  const globals = flagsOf(['@PM'])
  for (const { sub, rest } of subcommands(args, globals)) {
    const s = sub.toLowerCase()
    // `<pm> test` runs the package's test script, but for bun, whose own runner it is.
    if (['test', 't', 'tst'].includes(s) || (pm === 'npm' && ['it', 'cit', 'install-test', 'install-ci-test', 'clean-install-test'].includes(s))) {
      return hasMetaFlag(rest) ? NONE : { runner: `${pm} test` }
    }
    if (s === 'run' || s === 'run-script') {
      const script = wrapped(rest, globals)[0]
      if (script?.[0] === undefined) return NONE
      if (isTestScriptName(script[0])) return { runner: script[0] === 'test' && pm !== 'bun' ? `${pm} test` : `${pm} run ${script[0]}` }
      return pm === 'bun' ? identify(script, depth + 1) : NONE
    }
    if (['exec', 'x', 'dlx'].includes(s)) return identifyAny(wrapped(rest, flagsOf(['@NPX'])), depth)
    if (pm === 'yarn' && s === 'workspace') return identify(['yarn', ...rest.slice(1)], depth + 1)
    if (pm === 'yarn' && s === 'workspaces') return identify(['yarn', ...(wrapped(rest.slice(1))[0] ?? [])], depth + 1)
    if (pm !== 'npm') {
      // pnpm, yarn and bun run a package script or a binary by its bare name.
      if (isTestScriptName(sub)) return { runner: `${pm} run ${sub}` }
      const f = identify([sub, ...rest], depth + 1)
      if (f.runner !== undefined) return f
    }
  }
  return NONE
}

/** `python -m pytest`, `python -m django test`, or the script python runs; a meta flag (`--version`) means none. */
function python(args: readonly string[], depth: number): Found {
  if (hasMetaFlag(args)) return NONE
  let i = 0
  while (i < args.length) {
    const a = args[i] ?? ''
    if (a === '-m') {
      const module = args[i + 1] ?? ''
      const rest = args.slice(i + 2)
      if (module === 'coverage') return coverage(rest, depth)
      if (module === 'django') return rest[0] === 'test' ? { runner: 'manage.py test' } : NONE
      return ['pytest', 'py.test', 'unittest', 'tox', 'nox', 'nose2', 'behave'].includes(module) ? { runner: module === 'py.test' ? 'pytest' : module } : NONE
    }
    if (a === '-c') return NONE
    if (/^-m./.test(a)) return python(['-m', a.slice(2), ...args.slice(i + 1)], depth)
    if (!isFlag(a)) break
    i += ['-W', '-X', '-Q'].includes(a) ? 2 : 1
  }
  return identify(args.slice(i), depth + 1)
}

/** `coverage run [flags] -m pytest …` or `coverage run manage.py test`. */
function coverage(args: readonly string[], depth: number): Found {
  if (args[0] !== 'run' || hasMetaFlag(args)) return NONE
  const rest = args.slice(1)
  const m = rest.indexOf('-m')
  if (m >= 0) return python(rest.slice(m), depth)
  return python(wrapped(rest, flagsOf(['@COVERAGE']))[0] ?? [], depth)
}

/** `nx test api`, `nx run api:test`, `nx run-many -t test`, `nx affected --target=test`, `nx affected:test`: `nx <target>`. */
function nx(args: readonly string[]): Found {
  const words = args.filter((a) => !isFlag(a))
  const sub = words[0] ?? ''
  let targets: string[] = [sub]
  if (sub === 'run') targets = (words[1] ?? '').split(':').slice(1)
  else if (sub === 'run-many' || sub === 'affected') {
    targets = args.flatMap((a, k) => (['-t', '--target', '--targets'].includes(a) ? [args[k + 1] ?? ''] : /^--targets?=/.test(a) ? [a.slice(a.indexOf('=') + 1)] : [])).flatMap((t) => t.split(','))
  } else if (sub === 'affected:test') targets = ['test']
  const target = targets.find((t) => isTestScriptName(t))
  return target === undefined ? NONE : { runner: `nx ${target}` }
}

/**
 * A project's own test script: `./run_tests.sh`, `scripts/test.sh`, `bash run-tests.sh`, `./runtests.py`.
 * Not `python test.py` or `node test.js`: a scratch file is often called that.
 */
function testScript(word: string): Found {
  const path = word.replace(/\\/g, '/')
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase()
  const explicit = /^run[_-]?tests?(?:\.sh|\.py)?$/.test(base) || /^tests?\.sh$/.test(base)
  const bare = /^tests?$/.test(base) && path.includes('/')
  return explicit || bare ? { runner: base.slice(0, MAX_RUNNER) } : NONE
}
