/**
 * Which test runner one simple command names (SPEC.md: tool.call, Bash: "If the command line names a
 * test runner (npm test, pytest and others)"): the runner tables (run by their own name, by a
 * subcommand, by a build target), package managers, the wrappers that run another command (`npx`,
 * `uv run`, `env`, `nohup`, `sh -c`, …), and a project's own test scripts. `identify` reads the words
 * shell.ts split out of a command line; the line a command runs (`sh -c '…'`) comes back as `inner`,
 * for test-runs.ts to read in turn. Pure.
 */
import { MAX_DEPTH } from './shell'

export interface Found {
  readonly runner?: string
  /** A command line to read in turn (`sh -c '…'`, `eval …`, `npx -c '…'`). */
  readonly inner?: string
  readonly background?: boolean
}

const NONE: Found = {}
const MAX_RUNNER = 100
const BACKGROUND_COMMANDS = new Set(['nohup', 'setsid', 'disown', 'bg'])

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
const META_FLAGS = new Set([
  '--version',
  '--help',
  '-h',
  '--collect-only',
  '--co',
  '--no-run',
  '--list',
  '-list',
  '--listTests',
  '--list-tests',
  '--showConfig',
  '--clearCache',
  '--init',
  '--dry-run',
  '-DskipTests',
  '-DskipTests=true',
  '-Dmaven.test.skip',
  '-Dmaven.test.skip=true',
])
const hasMetaFlag = (args: readonly string[]): boolean => args.some((a) => META_FLAGS.has(a))

/** Script, task and target names that run tests: test, tests, spec, e2e, and `test:unit`, `unit-test`, … */
export function isTestScriptName(name: string): boolean {
  if (!/^[\w:.@/+-]{1,60}$/.test(name)) return false
  return /^(?:tests?|specs?|e2e)(?:[:_.-][\w:.@/+-]*)?$/i.test(name) || /^[\w.@/+-]+[:_-](?:tests?|specs?|e2e)$/i.test(name)
}

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
function subcommands(args: readonly string[], valueFlags: ReadonlySet<string> = new Set()): { sub: string; rest: string[] }[] {
  return wrapped(args, valueFlags)
    .filter((c) => c.length > 0)
    .map((c) => ({ sub: c[0] ?? '', rest: c.slice(1) }))
}

const set = (...words: string[]): ReadonlySet<string> => new Set(words)

const WRAPPER_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = {
  time: set('-f', '-o', '--format', '--output'),
  sudo: set('-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '--user', '--group'),
  doas: set('-u', '-C'),
  env: set('-u', '-C', '--unset', '--chdir'),
  nice: set('-n', '--adjustment'),
  ionice: set('-c', '-n', '-p'),
  stdbuf: set('-o', '-e', '-i'),
  'xvfb-run': set('-s', '-n', '-f', '-e', '-w', '--server-args', '--server-num'),
  caffeinate: set('-t', '-w'),
  exec: set('-a'),
  nohup: set(),
  setsid: set(),
  command: set(),
  builtin: set(),
  chronic: set(),
  unbuffer: set(),
  'dbus-run-session': set(),
  'cross-env': set(),
  'cross-env-shell': set(),
  dotenv: set('-e', '-c', '-v'),
  c8: set('-r', '--reporter', '-o', '--reports-dir', '--temp-directory', '-x', '--exclude', '-n', '--include'),
  nyc: set('-r', '--reporter', '-x', '--exclude', '-n', '--include', '--report-dir', '--temp-dir'),
}
const NPX_FLAGS = set('-p', '--package', '--node-options', '--call', '--cache', '--userconfig', '-w', '--workspace')
const UV_FLAGS = set('--with', '-p', '--python', '--package', '--extra', '--group', '--directory', '--project', '--env-file', '--index', '--from', '-w')
const ENV_RUNNERS = new Set(['poetry', 'pipenv', 'pdm', 'hatch', 'rye', 'pixi', 'conda', 'mamba', 'micromamba', 'uv', 'mise'])
const SECRET_RUNNERS = new Set(['dotenvx', 'op', 'doppler', 'infisical'])
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish'])
const PYTHON = /^(?:python[0-9.]*|py|pypy[0-9.]*)$/

/** Runners run by their own name, with any arguments. */
const PLAIN: Readonly<Record<string, string>> = {
  jest: 'jest',
  mocha: 'mocha',
  ava: 'ava',
  tap: 'tap',
  tape: 'tape',
  jasmine: 'jasmine',
  uvu: 'uvu',
  qunit: 'qunit',
  cucumber: 'cucumber',
  'cucumber-js': 'cucumber',
  'web-test-runner': 'web-test-runner',
  wtr: 'web-test-runner',
  'elm-test': 'elm-test',
  pytest: 'pytest',
  'py.test': 'pytest',
  tox: 'tox',
  nox: 'nox',
  nose2: 'nose2',
  behave: 'behave',
  gotestsum: 'gotestsum',
  rspec: 'rspec',
  phpunit: 'phpunit',
  pest: 'pest',
  paratest: 'paratest',
  ctest: 'ctest',
  busted: 'busted',
  prove: 'prove',
  bats: 'bats',
  shellspec: 'shellspec',
}

/** Runners named by a command and one of its subcommands. */
const BY_SUBCOMMAND: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  go: { test: 'go test' },
  dotnet: { test: 'dotnet test', vstest: 'dotnet test' },
  deno: { test: 'deno test' },
  swift: { test: 'swift test' },
  mix: { test: 'mix test' },
  rebar3: { eunit: 'rebar3 eunit', ct: 'rebar3 ct' },
  stack: { test: 'stack test' },
  cabal: { test: 'cabal test', 'v2-test': 'cabal test', 'new-test': 'cabal test' },
  dart: { test: 'dart test' },
  flutter: { test: 'flutter test' },
  meson: { test: 'meson test' },
  ninja: { test: 'ninja test', check: 'ninja check' },
  bazel: { test: 'bazel test', coverage: 'bazel test' },
  bazelisk: { test: 'bazel test', coverage: 'bazel test' },
  buck: { test: 'buck test' },
  buck2: { test: 'buck test' },
  pants: { test: 'pants test' },
  playwright: { test: 'playwright test' },
  cypress: { run: 'cypress run' },
  karma: { start: 'karma', run: 'karma' },
  ng: { test: 'ng test', t: 'ng test', e2e: 'ng e2e' },
  'react-scripts': { test: 'react-scripts test' },
  hardhat: { test: 'hardhat test' },
  forge: { test: 'forge test' },
  truffle: { test: 'truffle test' },
  lein: { test: 'lein test' },
  nimble: { test: 'nimble test' },
  crystal: { spec: 'crystal spec' },
  dune: { test: 'dune test', runtest: 'dune test' },
  gleam: { test: 'gleam test' },
  'scala-cli': { test: 'scala-cli test' },
  terraform: { test: 'terraform test' },
  tofu: { test: 'tofu test' },
  codecept: { run: 'codecept run' },
  hatch: { test: 'hatch test' },
  artisan: { test: 'artisan test' },
  rails: { test: 'rails test', t: 'rails test', 'test:system': 'rails test', spec: 'rails spec' },
  'manage.py': { test: 'manage.py test' },
}

/** Runners named by a command and any of its words (build tools with several targets). */
function byTarget(name: string, args: readonly string[]): string | undefined {
  const words = args.filter((a) => !isFlag(a) && !isAssignment(a))
  switch (name) {
    case 'mvn':
    case 'mvnw':
    case 'mvnd': {
      const phase = words.find((w) => ['test', 'verify', 'integration-test', 'surefire:test', 'failsafe:integration-test'].includes(w))
      if (phase === undefined) return undefined
      return phase === 'surefire:test' ? 'mvn test' : phase === 'failsafe:integration-test' ? 'mvn integration-test' : `mvn ${phase}`
    }
    case 'gradle':
    case 'gradlew': {
      const skipped = new Set<string>()
      args.forEach((a, k) => {
        if ((a === '-x' || a === '--exclude-task') && args[k + 1] !== undefined) skipped.add(args[k + 1] ?? '')
      })
      const task = words
        .filter((w) => !skipped.has(w))
        .map((w) => w.slice(w.lastIndexOf(':') + 1))
        .find((t) => t === 'test' || t === 'check' || /^test[A-Z]\w*$/.test(t) || /^\w*[a-z]Test$/.test(t))
      return task === undefined ? undefined : `gradle ${task}`
    }
    case 'sbt':
      return words.some((w) => /^(?:[\w-]+\/)?(?:[\w-]+:)?test(?:Only|Quick)?(?:\s|$)/.test(w)) ? 'sbt test' : undefined
    case 'make':
    case 'gmake':
    case 'just':
    case 'task': {
      // make builds every target it is given; just and task run their first word.
      const targets = name === 'just' || name === 'task' ? words.slice(0, 1) : words
      const target = targets.find((w) => w === 'check' || isTestScriptName(w))
      return target === undefined ? undefined : `${name === 'gmake' ? 'make' : name} ${target}`
    }
    case 'rake': {
      const target = words.find((w) => /^(?:test|spec)(?::[\w:]+)?$/.test(w))
      return target === undefined ? undefined : `rake ${target.startsWith('spec') ? 'spec' : 'test'}`
    }
    case 'xcodebuild': {
      const booleans = new Set(['-quiet', '-verbose', '-json', '-allowProvisioningUpdates', '-parallelizeTargets'])
      const hit = args.some((a, k) => (a === 'test' || a === 'test-without-building') && (k === 0 || !isFlag(args[k - 1] ?? '') || booleans.has(args[k - 1] ?? '')))
      return hit ? 'xcodebuild test' : undefined
    }
    default:
      return undefined
  }
}

/** The runner of a package manager command (npm, pnpm, yarn, bun), or what it wraps. */
function packageManager(pm: string, args: readonly string[], depth: number): Found {
  const globals = set('--prefix', '-C', '--dir', '-w', '--workspace', '--filter', '-F', '--cwd', '--loglevel', '--userconfig', '--registry', '--cache')
  for (const { sub, rest } of subcommands(args, globals)) {
    const s = sub.toLowerCase()
    if (['test', 't', 'tst'].includes(s) || (pm === 'npm' && ['it', 'cit', 'install-test', 'install-ci-test', 'clean-install-test'].includes(s))) {
      return hasMetaFlag(rest.filter((a) => a !== '--')) ? NONE : { runner: `${pm} test` }
    }
    if (s === 'run' || s === 'run-script') {
      const script = wrapped(rest, globals)[0]?.[0]
      if (script === undefined) return NONE
      if (isTestScriptName(script)) return { runner: script === 'test' ? `${pm} test` : `${pm} run ${script}` }
      if (pm === 'bun') return identifyAny([[script, ...(wrapped(rest, globals)[0] ?? []).slice(1)]], depth)
      return NONE
    }
    if (['exec', 'x', 'dlx'].includes(s)) return identifyAny(wrapped(rest, NPX_FLAGS), depth)
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
  const valueFlags = set('-W', '-X', '-Q')
  let i = 0
  while (i < args.length) {
    const a = args[i] ?? ''
    if (a === '-m') {
      const module = args[i + 1] ?? ''
      const rest = args.slice(i + 2)
      if (hasMetaFlag(rest)) return NONE
      if (module === 'pytest' || module === 'py.test') return { runner: 'pytest' }
      if (module === 'unittest') return { runner: 'unittest' }
      if (['tox', 'nox', 'nose2', 'behave'].includes(module)) return { runner: module }
      if (module === 'coverage') return coverage(rest, depth)
      if (module === 'django') return rest[0] === 'test' ? { runner: 'manage.py test' } : NONE
      return NONE
    }
    if (a === '-c') return NONE
    if (/^-m./.test(a)) return python(['-m', a.slice(2), ...args.slice(i + 1)], depth)
    if (!isFlag(a)) break
    i += valueFlags.has(a) ? 2 : 1
  }
  const script = args[i]
  if (script === undefined) return NONE
  return identify([script, ...args.slice(i + 1)], depth + 1)
}

/** `coverage run [flags] -m pytest …` or `coverage run manage.py test`. */
function coverage(args: readonly string[], depth: number): Found {
  if (args[0] !== 'run') return NONE
  const rest = args.slice(1)
  const m = rest.indexOf('-m')
  if (m >= 0) return python(rest.slice(m), depth)
  const first = wrapped(rest, set('--rcfile', '--source', '--include', '--omit', '--data-file'))[0] ?? []
  return python(first, depth)
}

export function identify(words: readonly string[], depth: number): Found {
  if (depth > MAX_DEPTH) return NONE
  let k = 0
  while (k < words.length && isAssignment(words[k] ?? '')) k += 1
  const head = words[k]
  if (head === undefined) return NONE
  const args = words.slice(k + 1)
  const name = commandName(head)

  if (BACKGROUND_COMMANDS.has(name)) {
    const f = identifyAny(wrapped(args), depth)
    return { ...f, background: true }
  }
  if (name === 'command' && args.some((a) => a === '-v' || a === '-V')) return NONE
  if (name === 'timeout' || name === 'gtimeout') {
    const starts = args.flatMap((a, k) => (/^\d+(?:\.\d+)?[smhd]?$/.test(a) ? [args.slice(k + 1)] : []))
    return identifyAny(starts, depth)
  }
  const wrapperFlags = WRAPPER_FLAGS[name]
  if (wrapperFlags !== undefined) {
    const assignments = name === 'env' || name.startsWith('cross-env')
    return identifyAny(wrapped(args, wrapperFlags, assignments), depth)
  }
  if (name === 'direnv') return args[0] === 'exec' ? identifyAny([args.slice(2)], depth) : NONE
  if (SECRET_RUNNERS.has(name)) return args[0] === 'run' ? identifyAny(wrapped(args.slice(1)), depth) : NONE
  if (SHELLS.has(name)) {
    const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a))
    if (c >= 0) return args[c + 1] === undefined ? NONE : { inner: args[c + 1] }
    const script = args.find((a) => !isFlag(a))
    return script === undefined ? NONE : testScript(script)
  }
  if (name === 'eval') return args.length === 0 ? NONE : { inner: args.join(' ') }
  if (name === 'npx' || name === 'pnpx' || name === 'bunx' || name === 'uvx') {
    const c = args.indexOf('-c')
    if (name === 'npx' && c >= 0 && args[c + 1] !== undefined) return { inner: args[c + 1] }
    return identifyAny(wrapped(args, name === 'uvx' ? UV_FLAGS : NPX_FLAGS), depth)
  }
  if (name === 'pipx') return args[0] === 'run' ? identifyAny(wrapped(args.slice(1), UV_FLAGS), depth) : NONE
  if (ENV_RUNNERS.has(name)) {
    let rest = args
    if (name === 'uv' && rest[0] === 'tool' && rest[1] === 'run') rest = rest.slice(1)
    if (rest[0] === 'test' && name === 'hatch') return hasMetaFlag(rest) ? NONE : { runner: 'hatch test' }
    if (rest[0] !== 'run' && !(name === 'mise' && rest[0] === 'r')) return NONE
    const candidates = wrapped(rest.slice(1), set(...UV_FLAGS, '-n', '--name', '--prefix', '-e', '--environment'))
    const f = identifyAny(candidates, depth)
    if (f.runner !== undefined || f.inner !== undefined) return f
    const task = candidates[0]?.[0]
    return task !== undefined && isTestScriptName(task) ? { runner: `${name} run ${task}` } : NONE
  }
  if (name === 'bundle' || name === 'bundler') return args[0] === 'exec' ? identifyAny(wrapped(args.slice(1)), depth) : NONE
  if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') {
    if (name === 'bun' && args[0] === 'test') return hasMetaFlag(args) ? NONE : { runner: 'bun test' }
    return packageManager(name, args, depth)
  }
  if (hasMetaFlag(args)) return NONE
  if (PYTHON.test(name)) return python(args, depth)
  if (name === 'coverage') return coverage(args, depth)
  if (name === 'node' || name === 'tsx') {
    if (args.includes('--test')) return { runner: `${name} --test` }
    const script = wrapped(args, set('-r', '--require', '--import', '--loader', '--experimental-loader', '-e', '--eval', '-p', '--print'))[0]
    if (script === undefined || script.length === 0 || args.some((a) => ['-e', '--eval', '-p', '--print'].includes(a))) return NONE
    return identify(script, depth + 1)
  }
  if (name === 'php' || name === 'ruby') {
    const script = wrapped(args, set('-d', '-c', '-I', '-r'))[0]
    return script === undefined || script.length === 0 ? NONE : identify(script, depth + 1)
  }
  if (name === 'ginkgo' || name === 'wdio') {
    const sub = args.find((a) => !isFlag(a))
    const other = ['bootstrap', 'generate', 'build', 'labels', 'outline', 'unfocus', 'version', 'help', 'config', 'install', 'repl']
    return sub !== undefined && other.includes(sub) ? NONE : { runner: name }
  }
  if (name === 'vitest') {
    const sub = args.find((a) => !isFlag(a))
    return sub !== undefined && ['bench', 'init', 'list'].includes(sub) ? NONE : { runner: 'vitest' }
  }
  const plain = PLAIN[name]
  if (plain !== undefined) return { runner: plain }
  if (name === 'cargo') {
    const rest = args.filter((a) => !a.startsWith('+'))
    for (const { sub, rest: after } of subcommands(rest, set('--manifest-path', '-Z', '--color', '--config', '-C'))) {
      if (sub === 'test' || sub === 't') return { runner: 'cargo test' }
      if (sub === 'nextest' && (after[0] === 'run' || after[0] === 'r')) return { runner: 'cargo nextest' }
    }
    return NONE
  }
  if (name === 'zig') {
    if (args[0] === 'test') return { runner: 'zig test' }
    const step = args[0] === 'build' ? args.slice(1).find((a) => !isFlag(a) && isTestScriptName(a)) : undefined
    return step === undefined ? NONE : { runner: `zig build ${step}` }
  }
  if (name === 'composer') {
    const words = args.filter((a) => !isFlag(a))
    const script = words[0] === 'run' || words[0] === 'run-script' ? words[1] : words[0]
    return script !== undefined && isTestScriptName(script) ? { runner: `composer ${script}` } : NONE
  }
  if (name === 'nx') {
    const sub = args.find((a) => !isFlag(a)) ?? ''
    if (sub === 'run') {
      const target = args.filter((a) => !isFlag(a))[1] ?? ''
      return target.split(':').slice(1).some((t) => isTestScriptName(t)) ? { runner: 'nx test' } : NONE
    }
    if (sub === 'run-many' || sub === 'affected') {
      const targets = args.flatMap((a, k) => (a === '-t' || a === '--target' || a === '--targets' ? [args[k + 1] ?? ''] : /^--targets?=/.test(a) ? [a.slice(a.indexOf('=') + 1)] : []))
      return targets.flatMap((t) => t.split(',')).some((t) => isTestScriptName(t)) ? { runner: 'nx test' } : NONE
    }
    if (sub === 'affected:test') return { runner: 'nx test' }
    return isTestScriptName(sub) ? { runner: `nx ${sub}` } : NONE
  }
  if (name === 'turbo' || name === 'lerna') {
    const words = args.filter((a) => !isFlag(a))
    const tasks = words[0] === 'run' ? words.slice(1) : name === 'turbo' ? words : []
    const task = tasks.find((t) => isTestScriptName(t))
    return task === undefined ? NONE : { runner: name === 'lerna' ? `lerna run ${task}` : `turbo ${task}` }
  }
  if (name === 'vue-cli-service') {
    const sub = args[0] ?? ''
    return isTestScriptName(sub) ? { runner: `vue-cli-service ${sub}` } : NONE
  }
  const target = byTarget(name, args)
  if (target !== undefined) return { runner: target }
  const table = BY_SUBCOMMAND[name]
  if (table !== undefined) {
    for (const { sub } of subcommands(args)) {
      const runner = table[sub]
      if (runner !== undefined) return { runner }
    }
    return NONE
  }
  return testScript(head)
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
