/**
 * The test runners' table (SPEC.md: tool.call, Bash, "If the command line names a test runner"):
 * RULES_JSON, for each command name, how ./test-runners reads its words, as one string of JSON read on first
 * use. Claude Code reads and checks every line of the module at every start, and a table written as code
 * costs it far more than the same table as one string (docs/performance.md, "What each part costs"). A new
 * runner is one line of it; spec/core/test-runner-rules.spec.ts holds every line to Rule.
 */

/** The readers of their own (`read`'s cases in ./test-runners), and the two a rule is without `is`. */
export type Reader = 'runner' | 'wrapper' | 'pm' | 'python' | 'coverage' | 'node' | 'script' | 'shell' | 'eval' | 'env' | 'nx'

/**
 * How one command's words are read. A word list may hold `"script"` (a test script's name:
 * isTestScriptName) and `"/regex/"` entries (the run is named by the first group, or the whole match).
 */
export interface Rule {
  /** The program's own name in the run's name, when it differs from the command's (`gradlew` is `gradle`). */
  readonly as?: string
  /** A reader of its own (`read`'s cases in ./test-runners); without it, `runner`, or `wrapper` with `wrap`. */
  readonly is?: Reader
  /**
   * The first word that is not a flag picks, by its spelling: a word, the run is named by the program and
   * that word (`"test": "test"`, an alias `"t": "test"`); `""`, by the program alone; a rule, read on from
   * there. A package manager's (`is: "pm"`) say what the subcommand does: `test`, `run`, `exec`,
   * `workspace`, `workspaces`.
   */
  readonly sub?: Readonly<Record<string, string | Rule>>
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
   * The flags that take a value (`"@NPX"`: a list of RULES_JSON): a wrapper's own, before the command it
   * runs (a rule with `wrap` is a wrapper unless `is` says otherwise); with `sub`, the global flags before
   * the subcommand (`cargo -C x test`); a reader's own (`node -r x`, `poetry run --name x`).
   */
  readonly wrap?: readonly string[]
  /** A wrapper runs a command only after this first word (`bundle exec`, `op run`), from the word `skip` (1 unless said) on. */
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

/**
 * The rules, by command name (`python3.12`, `pypy` and the like are read as `python`). First the flag lists
 * rules name with `@` in `wrap` (keys in capitals: never a command's name, which is read in lower case, each
 * list separated by spaces); then in groups: runners by their own name; by a subcommand; by a target; readers
 * of their own; wrappers.
 */
export const RULES_JSON = String.raw`{
"@NPX":"-p --package --node-options --call --cache --userconfig -w --workspace",
"@UV":"--with -p --python --package --extra --group --directory --project --env-file --index --from -w",
"@PM":"--prefix -C --dir -w --workspace --filter -F --cwd --loglevel --userconfig --registry --cache",
"@NODE":"-r --require --import --loader --experimental-loader", "@ENV":"-n --name --prefix -e --environment",
"@COVERAGE":"--rcfile --source --include --omit --data-file",

"jest":{}, "mocha":{}, "ava":{}, "tap":{}, "tape":{}, "jasmine":{}, "uvu":{}, "qunit":{}, "cucumber":{}, "cucumber-js":{"as":"cucumber"},
"web-test-runner":{}, "wtr":{"as":"web-test-runner"}, "elm-test":{}, "pytest":{}, "py.test":{"as":"pytest"}, "tox":{}, "nox":{}, "nose2":{}, "behave":{},
"gotestsum":{}, "rspec":{}, "phpunit":{}, "pest":{}, "paratest":{}, "ctest":{}, "busted":{}, "prove":{}, "bats":{}, "shellspec":{},
"vitest":{"unless":["bench","init","list"]},
"ginkgo":{"unless":["bootstrap","generate","build","labels","outline","unfocus","version","help","config","install","repl"]},
"wdio":{"unless":["bootstrap","generate","build","labels","outline","unfocus","version","help","config","install","repl"]},

"go":{"sub":{"test":"test"}}, "deno":{"sub":{"test":"test","task":{"first":["script"]}}}, "swift":{"sub":{"test":"test"}}, "mix":{"sub":{"test":"test"}},
"dotnet":{"sub":{"test":"test","vstest":"test"}}, "rebar3":{"sub":{"eunit":"eunit","ct":"ct"}}, "stack":{"sub":{"test":"test"}},
"cabal":{"sub":{"test":"test","v2-test":"test","new-test":"test"}}, "dart":{"sub":{"test":"test"}}, "flutter":{"sub":{"test":"test"}},
"meson":{"sub":{"test":"test"}}, "ninja":{"sub":{"test":"test","check":"check"}}, "bazel":{"sub":{"test":"test","coverage":"test"}},
"bazelisk":{"as":"bazel","sub":{"test":"test","coverage":"test"}}, "buck":{"sub":{"test":"test"}}, "buck2":{"as":"buck","sub":{"test":"test"}}, "pants":{"sub":{"test":"test"}},
"playwright":{"sub":{"test":"test"}}, "cypress":{"sub":{"run":"run"}}, "karma":{"sub":{"start":"","run":""}},
"ng":{"sub":{"test":"test","t":"test","e2e":"e2e"}}, "react-scripts":{"sub":{"test":"test"}}, "hardhat":{"sub":{"test":"test"}},
"forge":{"sub":{"test":"test"}}, "truffle":{"sub":{"test":"test"}}, "lein":{"sub":{"test":"test"}}, "nimble":{"sub":{"test":"test"}},
"crystal":{"sub":{"spec":"spec"}}, "dune":{"sub":{"test":"test","runtest":"test"}}, "gleam":{"sub":{"test":"test"}}, "scala-cli":{"sub":{"test":"test"}},
"terraform":{"sub":{"test":"test"}}, "tofu":{"sub":{"test":"test"}}, "codecept":{"sub":{"run":"run"}}, "artisan":{"sub":{"test":"test"}},
"rails":{"sub":{"test":"test","t":"test","test:system":"test","spec":"spec"}}, "manage.py":{"sub":{"test":"test"}},
"cargo":{"drop":"+","wrap":["--manifest-path","-Z","--color","--config","-C"],"is":"runner","sub":{"test":"test","t":"test","nextest":{"sub":{"run":"","r":""}}}},
"zig":{"sub":{"test":"test","build":{"any":["script"]}}},
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

"npm":{"is":"pm","wrap":["@PM"],"sub":{"test":"test","t":"test","tst":"test","run":"run","run-script":"run","exec":"exec","x":"exec","dlx":"exec","it":"test","cit":"test","install-test":"test","install-ci-test":"test","clean-install-test":"test"}},
"pnpm":{"is":"pm","wrap":["@PM"],"sub":{"test":"test","t":"test","tst":"test","run":"run","run-script":"run","exec":"exec","x":"exec","dlx":"exec"}}, "bun":{"is":"pm","wrap":["@PM"],"sub":{"test":"test","t":"test","tst":"test","run":"run","run-script":"run","exec":"exec","x":"exec","dlx":"exec"}},
"yarn":{"is":"pm","wrap":["@PM"],"sub":{"test":"test","t":"test","tst":"test","run":"run","run-script":"run","exec":"exec","x":"exec","dlx":"exec","workspace":"workspace","workspaces":"workspaces"}},
"python":{"is":"python"}, "coverage":{"is":"coverage","wrap":["@COVERAGE"]}, "node":{"is":"node","wrap":["@NODE"]}, "tsx":{"is":"node","wrap":["@NODE"]},
"php":{"is":"script","wrap":["-d","-c","-I","-r"]}, "ruby":{"is":"script","wrap":["-d","-c","-I","-r"]},
"sh":{"is":"shell"}, "bash":{"is":"shell"}, "zsh":{"is":"shell"}, "dash":{"is":"shell"}, "ksh":{"is":"shell"}, "fish":{"is":"shell"},
"eval":{"is":"eval"}, "nx":{"is":"nx"},
"poetry":{"is":"env","wrap":["@UV","@ENV"]}, "pipenv":{"is":"env","wrap":["@UV","@ENV"]}, "pdm":{"is":"env","wrap":["@UV","@ENV"]}, "rye":{"is":"env","wrap":["@UV","@ENV"]}, "pixi":{"is":"env","wrap":["@UV","@ENV"]}, "conda":{"is":"env","wrap":["@UV","@ENV"]},
"mamba":{"is":"env","wrap":["@UV","@ENV"]}, "micromamba":{"is":"env","wrap":["@UV","@ENV"]}, "uv":{"is":"env","wrap":["@UV","@ENV"],"through":"tool"}, "mise":{"is":"env","wrap":["@UV","@ENV"],"after":["run","r"]},
"hatch":{"is":"env","wrap":["@UV","@ENV"],"sub":{"test":"test"}},

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
"direnv":{"wrap":[],"after":["exec"],"skip":2}, "op":{"wrap":[],"after":["run"]}, "dotenvx":{"wrap":[],"after":["run"]},
"doppler":{"wrap":[],"after":["run"]}, "infisical":{"wrap":[],"after":["run"]}
}`

let rules: Readonly<Record<string, Rule>> | undefined

/** A table's own entry for `key` (never one Object.prototype has: `__proto__`, `toString`). */
export const own = <T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined => (table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined)

/** The rule for a command name (RULES_JSON is read on the first call). */
export function ruleOf(name: string): Rule | undefined {
  rules ??= JSON.parse(RULES_JSON) as Record<string, Rule>
  return own(rules, /^(?:python[0-9.]*|py|pypy[0-9.]*)$/.test(name) ? 'python' : name)
}

/** A rule's value flags (`wrap`), its lists ("@NPX") spelled out; read after ruleOf, which reads the table. */
export const flagsOf = (list: readonly string[] = []): string[] => list.flatMap((f) => (own(rules, f) as string | undefined)?.split(' ') ?? [f])
