// One offline Claude Code session, end to end: a throwaway git project, the fake Hark behind the TLS proxy,
// the scripted model, and the real `claude -p` from node_modules with a scratch HOME. Everything the run leaves
// (debug log, Hark's log, the model's log and request bodies, the project, the home) lands in one folder.
import { spawn, execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createCA } from './certs.mjs'
import { startFakeHark } from './fake-hark.mjs'
import { startTlsProxy } from './tls-proxy.mjs'
import { loadScenario, startFakeModel } from './fake-model.mjs'

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const REPO_DIR = path.resolve(E2E_DIR, '..')
export const FIXTURE = path.join(E2E_DIR, 'fixtures', 'venture.json')
export const SCENARIO = path.join(E2E_DIR, 'scenarios', 'session.json')
// Mode hang: past the plugin's 3 s limit (so the plugin sees a time-out), short enough that the engine, which
// keeps an abandoned $.http.fetch open and does not exit a -p run before it settles, is let go soon.
export const HANG_S = 5
export const ACCESS_KEY = 'hark_pat_e2e_7Qm2vX9kLp4Rz8Tw' // a fake key; the test checks it only ever travels as "Bearer <key>"

/** The pinned engine binary, from node_modules (never from PATH). */
export function claudeBin() {
  const require = createRequire(path.join(REPO_DIR, 'package.json'))
  const pkg = require.resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`)
  return path.join(path.dirname(pkg), 'claude')
}

/** The environment of every engine process: nothing from the caller's (as `env -i`), only these. */
export function engineEnv({ home, modelPort, proxyPort, caFile }) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TERM: 'dumb',
    ANTHROPIC_API_KEY: 'sk-ant-e2e-dummy',
    ...(modelPort && { ANTHROPIC_BASE_URL: `http://127.0.0.1:${modelPort}` }),
    ...(proxyPort && { HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`, NO_PROXY: '127.0.0.1,localhost' }),
    ...(caFile && { NODE_EXTRA_CA_CERTS: caFile }),
    IS_SANDBOX: '1', // bypassPermissions is refused as root without it
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', // no bootstrap/telemetry calls to api.anthropic.com
    npm_config_update_notifier: 'false', // `npm test` in the Bash tool would CONNECT to the registry
  }
}

const running = new Set() // the programs run() started that have not exited

/** Kills (SIGKILL) every program run() started that is still running: for a bench's ^C and exit handlers. */
export function killRunning() {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

/** Runs a program; resolves { rc, stdout, stderr, wallS } (rc null when killed at the timeout). */
export function run(cmd, args, { cwd, env, input, timeoutS = 60 } = {}) {
  return new Promise((resolve) => {
    const started = performance.now()
    const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
    running.add(child)
    const out = []
    const err = []
    child.stdout.on('data', (c) => out.push(c))
    child.stderr.on('data', (c) => err.push(c))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000)
    child.on('close', (rc) => {
      running.delete(child)
      clearTimeout(timer)
      resolve({ rc, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), wallS: (performance.now() - started) / 1000 })
    })
    child.stdin.end(input ?? '')
  })
}

/** The throwaway project the scripted model works in: a git repository with one commit. */
export function makeProject(dir, { venture = 'V-012', home } = {}) {
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
  write('.hark/project', `${venture}\n`)
  write('package.json', JSON.stringify({ name: 'ledgerline', version: '0.1.0', private: true, scripts: { test: 'node -e "console.log(\'3 tests passed\')"' } }, null, 2) + '\n')
  write('src/db/schema.sql', '-- Ledgerline schema: plain SQL, applied in file order.\nCREATE TABLE accounts (\n  id INTEGER PRIMARY KEY,\n  name TEXT NOT NULL\n);\n')
  const git = (...args) => execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH, HOME: home ?? dir }, stdio: 'pipe' })
  git('-c', 'init.defaultBranch=main', 'init', '-q')
  git('config', 'user.name', 'E2E Tester')
  git('config', 'user.email', 'e2e@example.invalid')
  git('config', 'commit.gpgsign', 'false')
  git('add', '-A')
  git('commit', '-q', '-m', 'Initial commit')
}

/** The scratch home's settings: pluginConfigs keyed by the plugin's name (how a --plugin-dir plugin reads options). */
export function writeSettings(home, settings) {
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true })
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify(settings, null, 2) + '\n')
}

/**
 * Installs the plugin as a user does, from a marketplace: a fresh clone of `repo`'s committed HEAD (or the folder
 * `marketplace`, made by the caller), then `plugin marketplace add`, `plugin install hark-memory@hark` and the key
 * through `plugin configure --values-stdin`, each run in `cwd` (default `dir`). `scope` 'project' or 'local' adds
 * `--scope <scope>` to the first two, as a team installs it in its project (`cwd`); 'user' (the default) runs
 * them as the README's Install section writes them. Resolves the steps' results; throws with the step's output
 * when one fails.
 */
export async function installFromMarketplace({ dir, env, repo = REPO_DIR, key, scope = 'user', cwd = dir, marketplace }) {
  let source = marketplace
  if (source === undefined) {
    source = path.join(dir, 'marketplace-clone')
    execFileSync('git', ['clone', '-q', repo, source], { stdio: 'pipe' })
  }
  const bin = claudeBin()
  const scoped = scope === 'user' ? [] : ['--scope', scope]
  const steps = [
    ['plugin', 'marketplace', 'add', source, ...scoped],
    ['--debug-file', path.join(dir, 'install-debug.log'), 'plugin', 'install', 'hark-memory@hark', ...scoped],
    ['plugin', 'configure', 'hark-memory@hark', '--values-stdin'],
  ]
  const results = []
  for (const args of steps) {
    const input = args.includes('--values-stdin') ? JSON.stringify({ access_key: key }) : undefined
    // `plugin install` runs `npm ci` in the plugin's copy when it holds package.json and a lockfile (60 s limit),
    // unless package.json sets overrides (ours sets `{}`, so the development tools are not installed).
    const r = await run(bin, args, { cwd, env, input, timeoutS: 150 })
    results.push({ args, ...r })
    fs.appendFileSync(path.join(dir, 'install.log'), `$ claude ${args.join(' ')}\nrc=${r.rc}\n${r.stdout}${r.stderr}\n`)
    if (r.rc !== 0) throw new Error(`claude ${args.join(' ')} exited ${r.rc}: ${(r.stdout + r.stderr).trim().slice(0, 600)}`)
  }
  return results
}

/**
 * One scripted session. Options:
 *   dir         the run's folder (made fresh)
 *   pluginDir   load the plugin with --plugin-dir (default: the repository root); or install: true
 *   install     install from a clone of the repository instead (see installFromMarketplace)
 *   configKey   the pluginConfigs key for the access key in --plugin-dir mode (default 'hark-memory'); null = none
 *   key         the access key given to the plugin (default ACCESS_KEY); the fake Hark always expects ACCESS_KEY
 *   fail        a fake-Hark failure mode (http500, rpc-error, tool-error, hang)
 *   hangS       mode hang: the fake drops each unanswered request after this many seconds (default HANG_S;
 *               0 = never, and then the run waits ~30 s for the engine to give up on the abandoned fetches)
 *   delayMs     the fake Hark answers every request this many ms late (default 0)
 *   faults      per-tool faults of the fake Hark ({ <tool>: <mode> }, see TOOL_FAULTS in fake-hark.mjs)
 *   connectFault  (n) => 'refuse' | 'untrusted-cert' | undefined for the proxy's n-th CONNECT to Hark; the fake
 *               then closes each connection after its answer, so each request opens its own
 *   scenario    scenario file (default scenarios/session.json)
 *   transformScenario  (scenario) => scenario: changes the loaded scenario (e.g. a very long answer)
 *   extraPluginDirs  more --plugin-dir folders (e.g. the Bash probe)
 *   extraArgs   more claude arguments
 *   env         more environment variables for the engine (e.g. CLAUDE_BG_SOURCE)
 *   beforeClaude  called with the run's files just before claude starts (the home and project exist); may
 *               return a function, called once claude has exited (the bench watches the store this way)
 *   onModelStep  ({ n, step, last }, files) => …: called, and awaited, when the scripted model is about to answer
 *               a main-loop request (step: the scenario's step it gets; last: the final one), to act at one point of
 *               the conversation (the fault matrix takes the store's lock just before the final answer)
 *   resume      once the first claude has exited, run a second one in the same project, home and listeners:
 *               `claude -p <scenario.resumePrompt> --resume <the first's session id>` with the same flags, its
 *               debug log, stdout and stderr in debug-2.log, stdout-2.jsonl, stderr-2.txt
 *   beforeResume  called with the run's files between the two processes (e.g. to age the plugin's store)
 *   resumeArgs  more arguments for the second claude only (e.g. --fork-session)
 * Resolves { dir, files, rc, wallS, stdout, stderr, harkLog, modelLog, ... }; with resume, also `startedAt`
 * and `endedAt` (ISO, the system clock of the logs' `receivedAt`) and `resumed`: { sessionId, rc, claudeWallS,
 * startedAt, endedAt, events, debug, stderr } of the second process.
 */
export async function runSession(o = {}) {
  const dir = o.dir
  fs.rmSync(dir, { recursive: true, force: true })
  const home = path.join(dir, 'home')
  const proj = path.join(dir, 'project')
  fs.mkdirSync(home, { recursive: true })
  fs.mkdirSync(proj, { recursive: true })
  const files = {
    debug: path.join(dir, 'debug.log'),
    hark: path.join(dir, 'hark.jsonl'),
    proxy: path.join(dir, 'proxy.jsonl'),
    model: path.join(dir, 'model.jsonl'),
    bodies: path.join(dir, 'bodies'),
    stdout: path.join(dir, 'stdout.jsonl'),
    stderr: path.join(dir, 'stderr.txt'),
    ca: path.join(dir, 'ca.pem'),
    project: proj,
    home,
  }
  const started = performance.now()
  makeProject(proj, { home })
  const ca = createCA()
  fs.writeFileSync(files.ca, ca.certPem)
  const loaded = loadScenario(o.scenario ?? SCENARIO, { PROJECT_DIR: proj })
  const scenario = o.transformScenario ? o.transformScenario(loaded) : loaded
  const ttlS = o.ttlS ?? 180

  const stops = []
  let result
  try {
    const hark = await startFakeHark({ fixture: o.fixture ?? FIXTURE, key: ACCESS_KEY, fail: o.fail, hangS: o.hangS ?? HANG_S, delayMs: o.delayMs ?? 0, logFile: files.hark, ttlS, faults: o.faults, closeEach: o.connectFault !== undefined })
    stops.push(hark.close)
    const proxyLog = (e) => fs.appendFileSync(files.proxy, JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n')
    const proxy = await startTlsProxy({ ca, targetPort: hark.port, log: proxyLog, ttlS, connectFault: o.connectFault })
    stops.push(proxy.close)
    const model = await startFakeModel({ scenario, dir, ttlS, onStep: o.onModelStep && ((request) => o.onModelStep(request, files)) })
    stops.push(model.close)
    const env = { ...engineEnv({ home, modelPort: model.port, proxyPort: proxy.port, caFile: files.ca }), ...(o.env ?? {}) }

    const key = o.key ?? ACCESS_KEY
    const pluginArgs = []
    let install
    if (o.install) {
      install = await installFromMarketplace({ dir, env, repo: o.repo, key })
    } else {
      const pluginDir = path.resolve(o.pluginDir ?? REPO_DIR)
      pluginArgs.push('--plugin-dir', pluginDir)
      const configKey = o.configKey === undefined ? 'hark-memory' : o.configKey
      if (configKey) writeSettings(home, { pluginConfigs: { [configKey]: { options: { access_key: key } } } })
    }
    for (const extra of o.extraPluginDirs ?? []) pluginArgs.push('--plugin-dir', path.resolve(extra))

    const args = [
      '-p', scenario.prompt ?? 'go',
      ...pluginArgs,
      '--permission-mode', 'bypassPermissions',
      '--output-format', 'stream-json', '--verbose',
      '--debug-file', files.debug,
      ...(o.extraArgs ?? []),
    ]
    const after = await o.beforeClaude?.(files)
    const startedAt = new Date().toISOString()
    const session = await run(claudeBin(), args, { cwd: proj, env, timeoutS: o.timeoutS ?? 90 })
    const endedAt = new Date().toISOString()
    await after?.()
    fs.writeFileSync(files.stdout, session.stdout)
    fs.writeFileSync(files.stderr, session.stderr)
    result = { dir, files, install, fixture: o.fixture ?? FIXTURE, fail: o.fail, hangS: o.hangS ?? HANG_S, rc: session.rc, claudeWallS: session.wallS, startedAt, endedAt }
    if (o.resume) await o.beforeResume?.(files)
    if (o.resume) result.resumed = await resumeSession({ dir, proj, env, args: [...args, ...(o.resumeArgs ?? [])], session, prompt: scenario.resumePrompt, timeoutS: o.timeoutS ?? 90 })
  } finally {
    for (const stop of stops.reverse()) await stop()
    await new Promise((r) => setTimeout(r, 20)) // let the last 'close' handlers append their log lines
  }
  const out = { ...result, wallS: (performance.now() - started) / 1000, ...collect(files) }
  if (result.resumed) {
    const r = result.resumed
    out.resumed = { ...r, events: parseEvents(readText(r.files.stdout)), debug: readText(r.files.debug), stderr: readText(r.files.stderr) }
  }
  return out
}

/** The second process of a resumed conversation: `-p <prompt> --resume <session id of the first>`, same flags. */
async function resumeSession({ dir, proj, env, args, session, prompt, timeoutS }) {
  const init = session.stdout.split('\n').map((l) => { try { return JSON.parse(l) } catch { return {} } }).find((e) => e.type === 'system' && e.subtype === 'init')
  const sessionId = init?.session_id
  if (!sessionId) throw new Error('the first claude printed no system/init event with a session_id: nothing to resume')
  const files = { debug: path.join(dir, 'debug-2.log'), stdout: path.join(dir, 'stdout-2.jsonl'), stderr: path.join(dir, 'stderr-2.txt') }
  const again = ['-p', prompt ?? 'go on', '--resume', sessionId, ...args.slice(2)]
  again[again.indexOf('--debug-file') + 1] = files.debug
  const startedAt = new Date().toISOString()
  const second = await run(claudeBin(), again, { cwd: proj, env, timeoutS })
  const endedAt = new Date().toISOString()
  fs.writeFileSync(files.stdout, second.stdout)
  fs.writeFileSync(files.stderr, second.stderr)
  return { sessionId, files, rc: second.rc, claudeWallS: second.wallS, startedAt, endedAt }
}

const readText = (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '')
const readJsonl = (f) => readText(f).split('\n').filter(Boolean).map((l) => JSON.parse(l))

const parseEvents = (text) => text.split('\n').filter((l) => l.startsWith('{')).map((l) => { try { return JSON.parse(l) } catch { return {} } })

/** What a run left, parsed: Hark's requests, the model's requests, stream-json events, the debug log. */
export function collect(files) {
  return {
    harkLog: readJsonl(files.hark),
    proxyLog: readJsonl(files.proxy),
    modelLog: readJsonl(files.model),
    events: parseEvents(readText(files.stdout)),
    debug: readText(files.debug),
    stderr: readText(files.stderr),
    modelBody: (name) => JSON.parse(readText(path.join(files.bodies, name)) || '{}'),
  }
}
