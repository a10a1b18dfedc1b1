/**
 * Which test runner one simple command names (SPEC.md: tool.call, Bash: "If the command line names a
 * test runner (npm test, pytest and others)"): one table, RULES, says for each command name how its
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
 * The table is a string of JSON read on first use: Claude Code reads and checks every line of the module
 * at every start, and a table written as code costs it far more than the same table as one string
 * (docs/performance.md, "What each part costs"). A new runner is one line of it.
 */
import { MAX_DEPTH } from './shell'

export interface Found {
  readonly runner?: string
  /** A command line to read in turn (`sh -c '…'`, `eval …`, `npx -c '…'`). */
  readonly inner?: string
  readonly background?: boolean
}

/**
 * How one command's words are read. A word list may hold `"script"` (a test script's name:
 * isTestScriptName) and `"/regex/"` entries (the run is named by the first group, or the whole match).
 */
interface Rule {
  /** The program's own name in the run's name, when it differs from the command's (`gradlew` is `gradle`). */
  readonly as?: string
  /** A reader of its own (READERS: `pm`, `python`, `coverage`, `node`, `script`, `shell`, `eval`, `env`, `nx`); else `runner`, or `wrapper` with `wrap`. */
  readonly is?: string
  /**
   * The first word that is not a flag picks: `1`, the run is named by that word; a word, by that word (an
   * alias: `"t": "test"`); `0`, by the program alone; a rule, read on from there.
   */
  readonly sub?: Readonly<Record<string, 0 | 1 | string | Rule>>
  /** Any word (not a flag, not `NAME=value`) in this list is the run (a build tool's targets). */
  readonly any?: readonly string[]
  /** Only the first such word may be. */
  readonly first?: readonly string[]
  /** With `any`: the part of a word after the last of these characters is what is read (`:app:test`). */
  readonly last?: string
  /** With `any`: the value after one of these flags is not a target (`gradle -x test`). */
  readonly exclude?: readonly string[]
  /** With `any`: every flag takes a value, but these. */
  readonly booleans?: readonly string[]
  /** With no sub, any or first: the command runs tests, unless its first word is one of these. */
  readonly unless?: readonly string[]
  /**
   * The flags that take a value: a wrapper's own, before the command it runs (a rule with `wrap` is a
   * wrapper unless `is` says otherwise); with `sub`, the global flags before the subcommand (`cargo -C x test`).
   */
  readonly wrap?: readonly string[]
  /** A wrapper runs a command only after this first word (`bundle exec`, `op run`), and skips `skip` more. */
  readonly after?: readonly string[]
  readonly skip?: number
  /** A wrapper takes `NAME=value` words before the command (`env`). */
  readonly assign?: 1
  /** A wrapper that sends what it runs to the background (`nohup`). */
  readonly background?: 1
  /** This flag of a wrapper takes a command line (`npx -c '…'`). */
  readonly inner?: string
  /** A wrapper whose command follows a duration (`timeout 60 npm test`). */
  readonly duration?: 1
  /** A wrapper that runs nothing when given one of these (`command -v jest`). */
  readonly never?: readonly string[]
  /** Words that start with this are dropped before the first one is read (`cargo +nightly test`: `+`). */
  readonly drop?: string
  /** A first word an environment runner passes over (`uv tool run`). */
  readonly through?: string
}

const NONE: Found = {}
const MAX_RUNNER = 100

// Flags that take a value, shared by several rules of RULES (named there as "@NPX", "@UV", "@PM").
const FLAG_SETS: Readonly<Record<string, readonly string[]>> = {
  NPX: ['-p', '--package', '--node-options', '--call', '--cache', '--userconfig', '-w', '--workspace'],
  UV: ['--with', '-p', '--python', '--package', '--extra', '--group', '--directory', '--project', '--env-file', '--index', '--from', '-w'],
  PM: ['--prefix', '-C', '--dir', '-w', '--workspace', '--filter', '-F', '--cwd', '--loglevel', '--userconfig', '--registry', '--cache'],
}

/**
 * The rules, by command name (`python3.12`, `pypy` and the like are read as `python`). Kept in groups:
 * runners by their own name; by a subcommand; by a target; readers of their own; wrappers.
 */
const RULES_JSON = String.raw`{
"jest":1, "mocha":1, "ava":1, "tap":1, "tape":1, "jasmine":1, "uvu":1, "qunit":1, "cucumber":1, "cucumber-js":{"as":"cucumber"},
"web-test-runner":1, "wtr":{"as":"web-test-runner"}, "elm-test":1, "pytest":1, "py.test":{"as":"pytest"}, "tox":1, "nox":1, "nose2":1, "behave":1,
"gotestsum":1, "rspec":1, "phpunit":1, "pest":1, "paratest":1, "ctest":1, "busted":1, "prove":1, "bats":1, "shellspec":1,
"vitest":{"unless":["bench","init","list"]},
"ginkgo":{"unless":["bootstrap","generate","build","labels","outline","unfocus","version","help","config","install","repl"]},
"wdio":{"unless":["bootstrap","generate","build","labels","outline","unfocus","version","help","config","install","repl"]},

"go":{"sub":{"test":1}}, "deno":{"sub":{"test":1,"task":{"first":["script"]}}}, "swift":{"sub":{"test":1}}, "mix":{"sub":{"test":1}},
"dotnet":{"sub":{"test":1,"vstest":"test"}}, "rebar3":{"sub":{"eunit":1,"ct":1}}, "stack":{"sub":{"test":1}},
"cabal":{"sub":{"test":1,"v2-test":"test","new-test":"test"}}, "dart":{"sub":{"test":1}}, "flutter":{"sub":{"test":1}},
"meson":{"sub":{"test":1}}, "ninja":{"sub":{"test":1,"check":1}}, "bazel":{"sub":{"test":1,"coverage":"test"}},
"bazelisk":{"as":"bazel","sub":{"test":1,"coverage":"test"}}, "buck":{"sub":{"test":1}}, "buck2":{"as":"buck","sub":{"test":1}}, "pants":{"sub":{"test":1}},
"playwright":{"sub":{"test":1}}, "cypress":{"sub":{"run":1}}, "karma":{"sub":{"start":0,"run":0}},
"ng":{"sub":{"test":1,"t":"test","e2e":1}}, "react-scripts":{"sub":{"test":1}}, "hardhat":{"sub":{"test":1}},
"forge":{"sub":{"test":1}}, "truffle":{"sub":{"test":1}}, "lein":{"sub":{"test":1}}, "nimble":{"sub":{"test":1}},
"crystal":{"sub":{"spec":1}}, "dune":{"sub":{"test":1,"runtest":"test"}}, "gleam":{"sub":{"test":1}}, "scala-cli":{"sub":{"test":1}},
"terraform":{"sub":{"test":1}}, "tofu":{"sub":{"test":1}}, "codecept":{"sub":{"run":1}}, "artisan":{"sub":{"test":1}},
"rails":{"sub":{"test":1,"t":"test","test:system":"test","spec":1}}, "manage.py":{"sub":{"test":1}},
"cargo":{"drop":"+","wrap":["--manifest-path","-Z","--color","--config","-C"],"is":"runner","sub":{"test":1,"t":"test","nextest":{"sub":{"run":0,"r":0}}}},
"zig":{"sub":{"test":1,"build":{"any":["script"]}}},
"composer":{"sub":{"run":{"as":"composer","first":["script"]},"run-script":{"as":"composer","first":["script"]}},"first":["script"]},
"turbo":{"sub":{"run":{"as":"turbo","any":["script"]}},"any":["script"]}, "lerna":{"sub":{"run":{"any":["script"]}}},
"vue-cli-service":{"first":["script"]},

"mvn":{"any":["test","verify","integration-test","/^surefire:(test)$/","/^failsafe:(integration-test)$/"]},
"mvnw":{"as":"mvn","any":["test","verify","integration-test","/^surefire:(test)$/","/^failsafe:(integration-test)$/"]},
"mvnd":{"as":"mvn","any":["test","verify","integration-test","/^surefire:(test)$/","/^failsafe:(integration-test)$/"]},
"gradle":{"any":["test","check","/^test[A-Z]\\w*$/","/^\\w*[a-z]Test$/"],"last":":","exclude":["-x","--exclude-task"]},
"gradlew":{"as":"gradle","any":["test","check","/^test[A-Z]\\w*$/","/^\\w*[a-z]Test$/"],"last":":","exclude":["-x","--exclude-task"]},
"sbt":{"any":["/^(?:[\\w-]+\\/)?(?:[\\w-]+:)?(test)(?:Only|Quick)?(?:\\s|$)/"]},
"make":{"any":["script","check"]}, "gmake":{"as":"make","any":["script","check"]}, "just":{"first":["script","check"]}, "task":{"first":["script","check"]},
"rake":{"any":["/^(test|spec)(?::[\\w:]+)?$/"]},
"xcodebuild":{"any":["test","/^(test)-without-building$/"],"booleans":["-quiet","-verbose","-json","-allowProvisioningUpdates","-parallelizeTargets"]},

"npm":{"is":"pm"}, "pnpm":{"is":"pm"}, "yarn":{"is":"pm"}, "bun":{"is":"pm"},
"python":{"is":"python"}, "coverage":{"is":"coverage"}, "node":{"is":"node"}, "tsx":{"is":"node"},
"php":{"is":"script","wrap":["-d","-c","-I","-r"]}, "ruby":{"is":"script","wrap":["-d","-c","-I","-r"]},
"sh":{"is":"shell"}, "bash":{"is":"shell"}, "zsh":{"is":"shell"}, "dash":{"is":"shell"}, "ksh":{"is":"shell"}, "fish":{"is":"shell"},
"eval":{"is":"eval"}, "nx":{"is":"nx"},
"poetry":{"is":"env"}, "pipenv":{"is":"env"}, "pdm":{"is":"env"}, "rye":{"is":"env"}, "pixi":{"is":"env"}, "conda":{"is":"env"},
"mamba":{"is":"env"}, "micromamba":{"is":"env"}, "uv":{"is":"env","through":"tool"}, "mise":{"is":"env","after":["run","r"]},
"hatch":{"is":"env","sub":{"test":1}},

"time":{"wrap":["-f","-o","--format","--output"]}, "sudo":{"wrap":["-u","-g","-h","-p","-C","-D","-r","-t","-U","--user","--group"]},
"doas":{"wrap":["-u","-C"]}, "env":{"wrap":["-u","-C","--unset","--chdir"],"assign":1}, "nice":{"wrap":["-n","--adjustment"]},
"ionice":{"wrap":["-c","-n","-p"]}, "stdbuf":{"wrap":["-o","-e","-i"]},
"xvfb-run":{"wrap":["-s","-n","-f","-e","-w","--server-args","--server-num"]}, "caffeinate":{"wrap":["-t","-w"]},
"exec":{"wrap":["-a"]}, "command":{"wrap":[],"never":["-v","-V"]}, "builtin":{"wrap":[]}, "chronic":{"wrap":[]},
"unbuffer":{"wrap":[]}, "dbus-run-session":{"wrap":[]}, "cross-env":{"wrap":[],"assign":1}, "cross-env-shell":{"wrap":[],"assign":1},
"dotenv":{"wrap":["-e","-c","-v"]}, "c8":{"wrap":["-r","--reporter","-o","--reports-dir","--temp-directory","-x","--exclude","-n","--include"]},
"nyc":{"wrap":["-r","--reporter","-x","--exclude","-n","--include","--report-dir","--temp-dir"]},
"nohup":{"wrap":[],"background":1}, "setsid":{"wrap":[],"background":1}, "disown":{"wrap":[],"background":1}, "bg":{"wrap":[],"background":1},
"timeout":{"wrap":[],"duration":1}, "gtimeout":{"wrap":[],"duration":1},
"npx":{"wrap":["@NPX"],"inner":"-c"}, "pnpx":{"wrap":["@NPX"]}, "bunx":{"wrap":["@NPX"]}, "uvx":{"wrap":["@UV"]},
"pipx":{"wrap":["@UV"],"after":["run"]}, "bundle":{"wrap":[],"after":["exec"]}, "bundler":{"wrap":[],"after":["exec"]},
"direnv":{"wrap":[],"after":["exec"],"skip":1}, "op":{"wrap":[],"after":["run"]}, "dotenvx":{"wrap":[],"after":["run"]},
"doppler":{"wrap":[],"after":["run"]}, "infisical":{"wrap":[],"after":["run"]}
}`

let rules: Readonly<Record<string, 1 | Rule>> | undefined
const PYTHON = /^(?:python[0-9.]*|py|pypy[0-9.]*)$/

/** A table's own entry for `key` (never one Object.prototype has: `__proto__`, `toString`). */
const own = <T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined => (table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined)

/** The rule for a command name (RULES_JSON is read on the first call). */
function ruleOf(name: string): Rule | undefined {
  rules ??= JSON.parse(RULES_JSON) as Record<string, 1 | Rule>
  const rule = own(rules, PYTHON.test(name) ? 'python' : name)
  return rule === 1 ? {} : rule
}

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

/** A rule's value flags, the shared sets ("@NPX") spelled out. */
const flagsOf = (list: readonly string[] = []): ReadonlySet<string> => new Set(list.flatMap((f) => FLAG_SETS[f.slice(1)] ?? [f]))

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
    const c = rule.inner === undefined ? -1 : rest.indexOf(rule.inner)
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
  script: (_name, rule, args, depth) => {
    const script = wrapped(args, flagsOf(rule.wrap))[0]
    return script === undefined || script.length === 0 ? NONE : identify(script, depth + 1)
  },

  /** `node --test`, or the script node runs (`node node_modules/jest/bin/jest.js`), never `node -e`. */
  node: (name, _rule, args, depth) => {
    if (hasMetaFlag(args)) return NONE
    if (args.includes('--test')) return { runner: `${name} --test` }
    if (args.some((a) => ['-e', '--eval', '-p', '--print'].includes(a))) return NONE
    const script = wrapped(args, flagsOf(['-r', '--require', '--import', '--loader', '--experimental-loader']))[0]
    return script === undefined || script.length === 0 ? NONE : identify(script, depth + 1)
  },

  python: (_name, _rule, args, depth) => (hasMetaFlag(args) ? NONE : python(args, depth)),
  coverage: (_name, _rule, args, depth) => (hasMetaFlag(args) ? NONE : coverage(args, depth)),
  pm: (name, _rule, args, depth) => packageManager(name, args, depth),
  nx: (_name, _rule, args) => (hasMetaFlag(args) ? NONE : nx(args)),

  /** `poetry run pytest`, `uv run pytest`, `hatch test`, `pdm run test` (a task of its own). */
  env: (name, rule, args, depth) => {
    const rest = args[0] === rule.through ? args.slice(1) : args
    if (own(rule.sub, rest[0] ?? '') !== undefined) return hasMetaFlag(rest) ? NONE : { runner: `${name} ${rest[0]}` }
    if (!(rule.after ?? ['run']).includes(rest[0] ?? '')) return NONE
    const candidates = wrapped(rest.slice(1), flagsOf(['@UV', '-n', '--name', '--prefix', '-e', '--environment']))
    const f = identifyAny(candidates, depth)
    if (f.runner !== undefined || f.inner !== undefined) return f
    const task = candidates[0]?.[0]
    return task !== undefined && isTestScriptName(task) ? { runner: `${name} ${rest[0]} ${task}` } : NONE
  },
}

/** A runner rule read on `args`: a subcommand, then a target, then the command itself (see Rule). */
function runner(spelled: string, rule: Rule, args: readonly string[], depth: number): Found {
  if (rule.sub !== undefined) {
    for (const { sub, rest } of subcommands(args, flagsOf(rule.wrap))) {
      const next = own(rule.sub, sub)
      if (next === 0) return { runner: spelled }
      if (next === 1 || typeof next === 'string') return { runner: `${spelled} ${next === 1 ? sub : next}` }
      if (next !== undefined) return runner(next.as ?? `${spelled} ${sub}`, next, rest, depth)
    }
    if (rule.any === undefined && rule.first === undefined) return NONE
  }
  const list = rule.any ?? rule.first
  if (list === undefined) {
    const word = args.find((a) => !isFlag(a))
    return word !== undefined && rule.unless?.includes(word) === true ? NONE : { runner: spelled }
  }
  const excluded = new Set(args.flatMap((a, k) => (rule.exclude?.includes(a) === true && args[k + 1] !== undefined ? [args[k + 1]] : [])))
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
      return hasMetaFlag(rest.filter((a) => a !== '--')) ? NONE : { runner: `${pm} test` }
    }
    if (s === 'run' || s === 'run-script') {
      const script = wrapped(rest, globals)[0]
      if (script?.[0] === undefined) return NONE
      if (isTestScriptName(script[0])) return { runner: script[0] === 'test' && pm !== 'bun' ? `${pm} test` : `${pm} run ${script[0]}` }
      return pm === 'bun' ? identifyAny([script], depth) : NONE
    }
    if (['exec', 'x', 'dlx'].includes(s)) return identifyAny(wrapped(rest, flagsOf(['@NPX'])), depth)
    if (pm === 'yarn' && s === 'workspace') return identifyAny([['yarn', ...rest.slice(1)]], depth)
    if (pm === 'yarn' && s === 'workspaces') return identifyAny([['yarn', ...(wrapped(rest.slice(1))[0] ?? [])]], depth)
    if (pm !== 'npm') {
      // pnpm, yarn and bun run a package script or a binary by its bare name.
      if (isTestScriptName(sub)) return { runner: `${pm} run ${sub}` }
      const f = identify([sub, ...rest], depth + 1)
      if (f.runner !== undefined) return f
    }
  }
  return NONE
}

function python(args: readonly string[], depth: number): Found {
  let i = 0
  while (i < args.length) {
    const a = args[i] ?? ''
    if (a === '-m') {
      const module = args[i + 1] ?? ''
      const rest = args.slice(i + 2)
      if (hasMetaFlag(rest)) return NONE
      if (module === 'coverage') return coverage(rest, depth)
      if (module === 'django') return rest[0] === 'test' ? { runner: 'manage.py test' } : NONE
      if (module === 'pytest' || module === 'py.test') return { runner: 'pytest' }
      return ['unittest', 'tox', 'nox', 'nose2', 'behave'].includes(module) ? { runner: module } : NONE
    }
    if (a === '-c') return NONE
    if (/^-m./.test(a)) return python(['-m', a.slice(2), ...args.slice(i + 1)], depth)
    if (!isFlag(a)) break
    i += ['-W', '-X', '-Q'].includes(a) ? 2 : 1
  }
  const script = args[i]
  return script === undefined ? NONE : identify([script, ...args.slice(i + 1)], depth + 1)
}

/** `coverage run [flags] -m pytest …` or `coverage run manage.py test`. */
function coverage(args: readonly string[], depth: number): Found {
  if (args[0] !== 'run') return NONE
  const rest = args.slice(1)
  const m = rest.indexOf('-m')
  if (m >= 0) return python(rest.slice(m), depth)
  return python(wrapped(rest, flagsOf(['--rcfile', '--source', '--include', '--omit', '--data-file']))[0] ?? [], depth)
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
