import { describe, expect, test } from 'vitest'
import { isTestScriptName } from '../../core/domain/test-runners'
import { detectTestRunner, isPipedOrBackground, testCommandsOf } from '../../core/domain/test-runs'

/**
 * [command line, the runner's name as the handoff shows it]: the program and what it runs, one name for the
 * spellings of one run (aliases, wrapper scripts, `npm test` and `npm run test`), two for a package
 * manager's own runner and a package's script (`bun test`, `bun run test`).
 */
const RUNNERS: readonly (readonly [string, string])[] = [
  // JavaScript package managers
  ['npm test', 'npm test'],
  ['npm t', 'npm test'],
  ['npm tst', 'npm test'],
  ['npm run test', 'npm test'],
  ['npm run-script test', 'npm test'],
  ['npm test -- --coverage', 'npm test'],
  ['npm run test -- -t "login flow"', 'npm test'],
  ['npm --silent test', 'npm test'],
  ['npm --prefix web test', 'npm test'],
  ['npm -w packages/api test', 'npm test'],
  ['npm cit', 'npm test'],
  ['npm run test:unit', 'npm run test:unit'],
  ['npm run e2e', 'npm run e2e'],
  ['npm run unit-test', 'npm run unit-test'],
  ['pnpm test', 'pnpm test'],
  ['pnpm -r test', 'pnpm test'],
  ['pnpm --filter web test', 'pnpm test'],
  ['pnpm test:e2e', 'pnpm run test:e2e'],
  ['pnpm vitest run', 'vitest'],
  ['yarn test', 'yarn test'],
  ['yarn run test', 'yarn test'],
  ['yarn test:unit', 'yarn run test:unit'],
  ['yarn workspace @acme/api test', 'yarn test'],
  ['yarn jest --ci', 'jest'],
  ['bun test', 'bun test'],
  ['bun run test', 'bun run test'],
  // JavaScript runners, directly or through npx and friends
  ['npx vitest run', 'vitest'],
  ['npx vitest --run src/a.test.ts', 'vitest'],
  ['npx --yes vitest', 'vitest'],
  ['npx -p vitest vitest run', 'vitest'],
  ['pnpm dlx vitest', 'vitest'],
  ['pnpm exec jest', 'jest'],
  ['npm exec -- jest', 'jest'],
  ['bunx vitest', 'vitest'],
  ['./node_modules/.bin/vitest run', 'vitest'],
  ['node node_modules/jest/bin/jest.js', 'jest'],
  ['vitest', 'vitest'],
  ['jest --watchAll=false', 'jest'],
  ['npx jest path/to/file.test.ts', 'jest'],
  ['mocha', 'mocha'],
  ['npx mocha "test/**/*.spec.js"', 'mocha'],
  ['npx ava', 'ava'],
  ['tap test/*.js', 'tap'],
  ['npx karma start --single-run', 'karma'],
  ['npx playwright test', 'playwright test'],
  ['playwright test --project=chromium', 'playwright test'],
  ['npx cypress run', 'cypress run'],
  ['npx ng test --watch=false', 'ng test'],
  ['npx nx test api', 'nx test'],
  ['npx nx run-many -t test', 'nx test'],
  ['npx turbo run test', 'turbo test'],
  ['node --test', 'node --test'],
  ['node --test test/', 'node --test'],
  ['deno test --allow-read', 'deno test'],
  ['deno task test:unit', 'deno task test:unit'],
  ['npx hardhat test', 'hardhat test'],
  ['c8 npm test', 'npm test'],
  ['npx nyc --reporter=lcov mocha', 'mocha'],
  // Python
  ['pytest', 'pytest'],
  ['pytest -x tests/test_api.py::test_login', 'pytest'],
  ['py.test', 'pytest'],
  ['python -m pytest -x', 'pytest'],
  ['python3 -m pytest', 'pytest'],
  ['python3.12 -W error -m pytest', 'pytest'],
  ['.venv/bin/pytest -q', 'pytest'],
  ['uv run pytest', 'pytest'],
  ['uv run --with pytest-cov pytest --cov', 'pytest'],
  ['uv run python -m pytest', 'pytest'],
  ['poetry run pytest', 'pytest'],
  ['pipenv run pytest', 'pytest'],
  ['pdm run test', 'pdm run test'],
  ['hatch test', 'hatch test'],
  ['hatch run test', 'hatch run test'],
  ['coverage run -m pytest', 'pytest'],
  ['python -m unittest discover -s tests', 'unittest'],
  ['python manage.py test', 'manage.py test'],
  ['./manage.py test accounts', 'manage.py test'],
  ['tox', 'tox'],
  ['tox -e py312', 'tox'],
  ['nox -s tests', 'nox'],
  ['python runtests.py', 'runtests.py'],
  // Go, Rust, .NET, JVM
  ['go test ./...', 'go test'],
  ['go test -race -run TestLogin ./internal/...', 'go test'],
  ['gotestsum --format testname', 'gotestsum'],
  ['ginkgo -r', 'ginkgo'],
  ['cargo test', 'cargo test'],
  ['cargo test --workspace -- --nocapture', 'cargo test'],
  ['cargo +nightly test', 'cargo test'],
  ['cargo t', 'cargo test'],
  ['cargo nextest run', 'cargo nextest'],
  ['dotnet test', 'dotnet test'],
  ['dotnet test --filter Category=Unit', 'dotnet test'],
  ['mvn test', 'mvn test'],
  ['mvn -q -pl core test', 'mvn test'],
  ['mvn clean verify', 'mvn verify'],
  ['./mvnw test', 'mvn test'],
  ['gradle test', 'gradle test'],
  ['./gradlew test', 'gradle test'],
  ['./gradlew :app:test --tests "*LoginTest"', 'gradle test'],
  ['./gradlew check', 'gradle check'],
  ['gradlew.bat test', 'gradle test'],
  ['./gradlew connectedAndroidTest', 'gradle connectedAndroidTest'],
  ['sbt test', 'sbt test'],
  ['sbt "testOnly com.acme.LoginSpec"', 'sbt test'],
  ['lein test', 'lein test'],
  // Ruby, PHP, Elixir, others
  ['rspec', 'rspec'],
  ['bundle exec rspec spec/models', 'rspec'],
  ['bin/rspec', 'rspec'],
  ['rake test', 'rake test'],
  ['bundle exec rake spec', 'rake spec'],
  ['bin/rails test', 'rails test'],
  ['phpunit', 'phpunit'],
  ['vendor/bin/phpunit --filter LoginTest', 'phpunit'],
  ['./vendor/bin/pest', 'pest'],
  ['php artisan test', 'artisan test'],
  ['composer test', 'composer test'],
  ['mix test', 'mix test'],
  ['MIX_ENV=test mix test test/foo_test.exs', 'mix test'],
  ['rebar3 eunit', 'rebar3 eunit'],
  ['swift test', 'swift test'],
  ['xcodebuild -scheme App -destination "platform=iOS Simulator,name=iPhone 15" test', 'xcodebuild test'],
  ['ctest', 'ctest'],
  ['ctest --test-dir build --output-on-failure', 'ctest'],
  ['make test', 'make test'],
  ['make check', 'make check'],
  ['make -C build test', 'make test'],
  ['make -j8 unit-test', 'make unit-test'],
  ['just test', 'just test'],
  ['zig build test', 'zig build test'],
  ['zig test src/main.zig', 'zig test'],
  ['dart test', 'dart test'],
  ['flutter test', 'flutter test'],
  ['stack test', 'stack test'],
  ['cabal test', 'cabal test'],
  ['dune test', 'dune test'],
  ['bazel test //...', 'bazel test'],
  ['meson test -C build', 'meson test'],
  ['forge test', 'forge test'],
  ['bats test/', 'bats'],
  ['prove -lr t', 'prove'],
  ['terraform test', 'terraform test'],
  ['./run_tests.sh', 'run_tests.sh'],
  ['bash scripts/run-tests.sh --fast', 'run-tests.sh'],
  ['./scripts/test', 'test'],
  // Prefixes, wrappers and chains
  ['CI=1 npm test', 'npm test'],
  ['NODE_ENV=test FORCE_COLOR="0 1" npx jest', 'jest'],
  ['env CI=true npm test', 'npm test'],
  ['time npm test', 'npm test'],
  ['time -p pytest', 'pytest'],
  ['sudo npm test', 'npm test'],
  ['sudo -u app -E npm test', 'npm test'],
  ['timeout 600 npm test', 'npm test'],
  ['timeout -k 5 60 pytest', 'pytest'],
  ['nice -n 10 cargo test', 'cargo test'],
  ['xvfb-run -a npm test', 'npm test'],
  ['command npm test', 'npm test'],
  ['cross-env NODE_ENV=test jest', 'jest'],
  ['dotenv -e .env.test -- jest', 'jest'],
  ['op run --env-file .env -- pytest', 'pytest'],
  ['cd app && npm test', 'npm test'],
  ['cd "my app" && npm ci && npm test', 'npm test'],
  ['npm ci && npm test', 'npm test'],
  ['(cd web && npm test)', 'npm test'],
  ['npm test; echo done', 'npm test'],
  ['npm run build && npm test', 'npm test'],
  ['test -f package.json && npm test', 'npm test'],
  ['bash -c "cd api && go test ./..."', 'go test'],
  ["sh -c 'pytest -q'", 'pytest'],
  ['bash -lc "npm test"', 'npm test'],
  ['eval "npm test"', 'npm test'],
  ['npm test 2>&1', 'npm test'],
  ['npm test > test-output.txt 2>&1', 'npm test'],
  ['npm test &> /dev/null', 'npm test'],
  ['npm test 2>&1 | tail -30', 'npm test'],
  ['npm test &', 'npm test'],
  ['nohup npm test > out.log 2>&1 &', 'npm test'],
  ['cat > notes.txt <<EOF\nhello\nEOF\nnpm test', 'npm test'],
  ['npm ci &&\n  npm test', 'npm test'],
  ['npm \\\n  test', 'npm test'],
  ['npm.cmd test', 'npm test'],
  ['"C:\\Program Files\\nodejs\\NPM.CMD" test', 'npm test'],
  ["'.\\node_modules\\.bin\\Vitest.cmd' run", 'vitest'],
  ['/usr/local/bin/pytest -q', 'pytest'],
]

/** Command lines that run no tests. */
const NOT_RUNNERS: readonly string[] = [
  '',
  '   ',
  'npm install',
  'npm i -D vitest',
  'npm ci',
  'npm run build',
  'npm run lint',
  'npm run testing-library-setup',
  'npm view jest version',
  'npm',
  'pnpm build',
  'pnpm add -D jest',
  'yarn',
  'yarn add vitest',
  'bun install',
  'echo npm test',
  'echo "run npm test next"',
  'printf "pytest\\n"',
  'grep test file',
  'grep -r "npm test" .',
  'cat test.txt',
  'cat tests/fixtures/a.json',
  'ls tests/',
  'mkdir -p test',
  'rm -rf test-results',
  'vim test.py',
  'code tests/api.test.ts',
  'python test.py',
  'python -c "import pytest"',
  'node test.js',
  'node scripts/test.js',
  'which pytest',
  'command -v jest',
  'pip install pytest',
  'uv pip install pytest',
  'man jest',
  'git commit -m "npm test now passes"',
  'git log --grep test',
  'jest --version',
  'npx vitest --help',
  'pytest --version',
  'pytest --collect-only',
  'pytest --co -q',
  'cargo build',
  'cargo test --no-run',
  'go build ./...',
  'go vet ./...',
  'mvn -DskipTests install',
  'mvn package',
  'mvn test -DskipTests',
  'gradle build',
  './gradlew assemble',
  'make',
  'make build',
  'make lint',
  'vitest bench',
  'npx vitest init',
  'npx playwright install',
  'npx cypress open',
  'karma init',
  'dotnet build',
  'rake db:migrate',
  'task add test',
  'test -f package.json',
  '[ -d test ] && ls test',
  '# npm test',
  'ls # npm test',
  'echo $(npm test)',
  'echo `npm test`',
  'git commit -m "$(cat <<\'EOF\'\nFix the flaky login test (again)\n\nnpm test passes now\nEOF\n)"',
  'cat <<EOF > run.sh\nnpm test\nEOF',
  'cat <<-EOF\n\tpytest\n\tEOF',
  'docker compose run app npm test',
  'ssh ci-box npm test',
]

describe('detectTestRunner', () => {
  test(`the table has at least 60 command lines (${RUNNERS.length + NOT_RUNNERS.length})`, () => {
    expect(RUNNERS.length + NOT_RUNNERS.length).toBeGreaterThanOrEqual(60)
  })

  test.each(RUNNERS)('%j names %j', (command, runner) => {
    expect(detectTestRunner(command)).toBe(runner)
  })

  test.each(NOT_RUNNERS.map((c) => [c]))('%j names no runner', (command) => {
    expect(detectTestRunner(command)).toBeUndefined()
    expect(testCommandsOf(command)).toEqual([])
  })

  test('a line with two runners has two runs, in order', () => {
    expect(testCommandsOf('go test ./... && npm test').map((r) => r.runner)).toEqual(['go test', 'npm test'])
    expect(detectTestRunner('pytest; npm test')).toBe('pytest')
  })

  test('anything that is not a string names no runner', () => {
    for (const v of [undefined, null, 3, {}, ['npm', 'test']] as unknown[]) {
      expect(detectTestRunner(v as string)).toBeUndefined()
      expect(isPipedOrBackground(v as string)).toBe(false)
    }
  })
})

describe('how a run is named', () => {
  test.each([
    ['bun test', 'bun run test'], // Bun's own runner, and the package's test script
    ['deno test', 'deno task test'], // Deno's own runner, and the project's task
    ['npm test', 'npm run test:unit'],
  ])('%j and %j are two names', (a, b) => {
    expect([detectTestRunner(a), detectTestRunner(b)]).toEqual([expect.any(String), expect.any(String)])
    expect(detectTestRunner(a)).not.toBe(detectTestRunner(b))
  })

  test.each([
    ['npm test', ['npm t', 'npm tst', 'npm run test', 'npm run-script test', 'npm TEST', 'npm Run test']],
    ['pnpm run test:e2e', ['pnpm test:e2e', 'pnpm run test:e2e']],
    ['cargo test', ['cargo t', 'cargo +nightly test']],
    ['gradle test', ['./gradlew test', 'gradlew.bat test', 'gradle :app:test']],
    ['mvn test', ['./mvnw test', 'mvn surefire:test']],
    ['pytest', ['py.test', 'python -m pytest', 'python -m py.test']],
  ] as const)('one name, %j, for the spellings of one run', (name, lines) => {
    for (const line of lines) expect([line, detectTestRunner(line)]).toEqual([line, name])
  })

  test('a run that failed and then passed under another spelling is one runner in the handoff', () => {
    expect(new Set(['npm test', 'npm run test', 'npm t'].map(detectTestRunner)).size).toBe(1)
  })

  test('flags, their values and wrappers are not part of the name', () => {
    for (const line of ['npm --silent --prefix web test', 'npx --yes npm test', 'env CI=1 npm test', 'sudo -u app npm test -- --coverage']) expect(detectTestRunner(line)).toBe('npm test')
    for (const line of ['npx vitest run', 'pnpm exec vitest', './node_modules/.bin/vitest --run', 'uv run vitest']) expect(detectTestRunner(line)).toBe('vitest')
  })

  test('a name Object.prototype has is no command and no subcommand', () => {
    for (const line of ['__proto__', 'constructor', 'toString', 'go toString', 'cargo valueOf', 'hatch constructor', 'rails __proto__', 'npm __proto__']) expect([line, detectTestRunner(line)]).toEqual([line, undefined])
  })

  test("a project's own test script asked about itself is no run", () => {
    for (const line of ['./run_tests.sh --help', './scripts/test --dry-run', 'sh -c "./run_tests.sh --help"', './run_tests.sh --version']) expect([line, detectTestRunner(line)]).toEqual([line, undefined])
    expect(detectTestRunner('./run_tests.sh --fast')).toBe('run_tests.sh')
  })
})

describe('isTestScriptName', () => {
  test.each([
    ['test', true],
    ['tests', true],
    ['test:unit', true],
    ['test-e2e', true],
    ['test_integration', true],
    ['unit:test', true],
    ['e2e', true],
    ['spec', true],
    ['build', false],
    ['testing-library', false],
    ['pretest', false],
    ['latest', false],
    ['contest', false],
    ['test thing', false],
  ])('%j → %s', (name, expected) => {
    expect(isTestScriptName(name)).toBe(expected)
  })
})

describe('wrappers in wrappers', () => {
  // Each `timeout` level tries a few numbers as its duration and the command after each: without a bound on the
  // word lists one command tries, forty levels would try more than a hook call could ever read. The bound leaves
  // real nesting alone.
  test('a few levels still name the run inside', () => {
    expect(detectTestRunner('timeout 5 timeout -k 1 5 nice -n 5 npm test')).toBe('npm test')
    expect(detectTestRunner(`${'timeout 1 '.repeat(6)}pytest -q`)).toBe('pytest')
  })

  test.each([20, 40, 200])('%i levels of `timeout 1` around a command that runs no tests name none, and the answer comes', (levels) => {
    expect(detectTestRunner(`${'timeout 1 '.repeat(levels)}echo done`)).toBeUndefined()
    expect(testCommandsOf(`${'timeout 1 2 3 '.repeat(levels)}true && echo x`)).toEqual([])
  })

  // A level copies the rest of the line only for the numbers it tries: 100 KB of numbers fit in memory and time.
  test.each([
    ['`timeout 1` to the 100 KB cap', `${'timeout 1 '.repeat(10_000)}npm test`, []],
    ['one `timeout` and 50,000 numbers', `timeout ${'1 '.repeat(50_000)}npm test`, []],
    ['numbers after the command', `timeout 1 npm test ${'1 '.repeat(40_000)}`, [{ runner: 'npm test', ifSucceeded: 'passed', ifFailed: 'failed' }]],
  ])('%s: read, and the answer comes', (_what, line, runs) => {
    expect(testCommandsOf(line)).toEqual(runs)
  })
  test('`timeout -k 5 -s 9 10` still finds the command after its duration', () => {
    expect(detectTestRunner('timeout -k 5 -s 9 10 npm test')).toBe('npm test')
  })
})
