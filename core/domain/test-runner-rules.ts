/**
 * The test runners' table (./test-runners reads it): RULES, for each command name, how its words are read,
 * as a string of JSON read on first use. Claude Code reads and checks every line of the module at every
 * start, and a table written as code costs it far more than the same table as one string (docs/performance.md,
 * "What each part costs"). A new runner is one line of it.
 */
/**
 * How one command's words are read. A word list may hold `"script"` (a test script's name:
 * isTestScriptName) and `"/regex/"` entries (the run is named by the first group, or the whole match).
 */
export interface Rule {
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

// Flags that take a value, each set a list separated by spaces: shared by several rules of RULES (named there
// as "@NPX", "@UV", "@PM"), and the sets test-runners.ts's own readers name ("@NODE", "@ENV", "@COVERAGE").
export const FLAG_SETS: Readonly<Record<string, string>> = {
  NPX: '-p --package --node-options --call --cache --userconfig -w --workspace',
  UV: '--with -p --python --package --extra --group --directory --project --env-file --index --from -w',
  PM: '--prefix -C --dir -w --workspace --filter -F --cwd --loglevel --userconfig --registry --cache',
  NODE: '-r --require --import --loader --experimental-loader',
  ENV: '-n --name --prefix -e --environment',
  COVERAGE: '--rcfile --source --include --omit --data-file',
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
export const own = <T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined => (table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined)

/** The rule for a command name (RULES_JSON is read on the first call). */
export function ruleOf(name: string): Rule | undefined {
  rules ??= JSON.parse(RULES_JSON) as Record<string, 1 | Rule>
  const rule = own(rules, PYTHON.test(name) ? 'python' : name)
  return rule === 1 ? {} : rule
}
