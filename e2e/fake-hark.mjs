#!/usr/bin/env node
// npm run fake-hark [-- options]: the fake Hark and the TLS proxy in front of it, alone, for running Claude Code
// by hand with the plugin. Prints the ports, the key it expects and ONE command to paste: it starts Claude Code
// in a scratch HOME made for this run, with the first-run questions already answered (lib/scratch-home.mjs), so
// your own HOME is never read or written. Then prints one line per request Hark receives (tool, arguments,
// outcome). Ctrl-C stops it; it also stops on its own after --ttl seconds.
//
//   --scenario FILE    also start the scripted model, playing FILE, in a fresh demo project made for this run
//                      (or in --project's DIR); {{PROJECT_DIR}} in FILE is that folder
//   --project DIR      make the demo's throwaway project in DIR (a new or empty folder) and run there
//   --reset            with --project: empty DIR first when it holds a demo project an earlier run made (its git
//                      user is e2e@example.invalid); any other folder is left alone
//   --fail MODE        http500 | rpc-error | tool-error | hang        (or FAKE_HARK_FAIL)
//   --hang-s S         mode hang: drop each unanswered request after S seconds (default 5; 0 = never)
//   --delay-ms N       answer every request N ms late (a slow Hark; default 0)
//   --key KEY          the access key it expects                     (or FAKE_HARK_KEY; default: the e2e key)
//   --fixture FILE     the project it serves                         (default e2e/fixtures/venture.json)
//   --pass-through     tunnel CONNECTs to other hosts instead of refusing them (to use the real model API)
//   --json-response    answer application/json instead of an SSE stream
//   --port N / --proxy-port N   fixed ports (default: free ones)    --ttl S   lifetime (default 3600)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createCA } from './lib/certs.mjs'
import { FAILURES, startFakeHark } from './lib/fake-hark.mjs'
import { startTlsProxy } from './lib/tls-proxy.mjs'
import { loadScenario, startFakeModel } from './lib/fake-model.mjs'
import { ACCESS_KEY, FIXTURE, HANG_S, REPO_DIR, claudeBin, makeProject } from './lib/session.mjs'
import { prepareHome } from './lib/scratch-home.mjs'
import { followLog } from './lib/live-view.mjs'

const { values: opt } = parseArgs({
  options: {
    project: { type: 'string' },
    reset: { type: 'boolean', default: false },
    scenario: { type: 'string' },
    fail: { type: 'string', default: process.env.FAKE_HARK_FAIL || undefined },
    'hang-s': { type: 'string', default: String(HANG_S) },
    'delay-ms': { type: 'string', default: '0' },
    key: { type: 'string', default: process.env.FAKE_HARK_KEY ?? ACCESS_KEY },
    fixture: { type: 'string', default: FIXTURE },
    'pass-through': { type: 'boolean', default: false },
    'json-response': { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
    'proxy-port': { type: 'string', default: '0' },
    ttl: { type: 'string', default: '3600' },
  },
})
const die = (text) => {
  console.error(text)
  process.exit(2)
}
if (opt.fail && !FAILURES.includes(opt.fail)) die(`--fail must be one of ${FAILURES.join(', ')}`)

// Relative paths are the caller's: under `npm run` the current folder is the repository root, and INIT_CWD is
// the folder `npm run` was typed in.
const callerDir = process.env.INIT_CWD || process.cwd()
const fromCaller = (p) => path.resolve(callerDir, p)
// An input file (scenario, fixture): from the caller's folder, else from the repository root.
const input = (p) => (fs.existsSync(fromCaller(p)) ? fromCaller(p) : path.resolve(REPO_DIR, p))
const ttlS = Number(opt.ttl)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-hark-'))
const files = { ca: path.join(dir, 'ca.pem'), log: path.join(dir, 'hark.jsonl'), proxy: path.join(dir, 'proxy.jsonl'), home: path.join(dir, 'home'), debug: path.join(dir, 'debug.log') }

// The project: --project's DIR, or with --scenario a fresh one in this run's folder (so a second run needs no
// clean-up); else the folder `npm run` was typed in, which must hold .hark/project itself.
let projectDir
if (opt.project) {
  projectDir = fromCaller(opt.project)
  // Only a folder makeProject made (its git config names the e2e user): never a person's own project.
  const gitConfig = path.join(projectDir, '.git', 'config')
  const isDemo = fs.existsSync(gitConfig) && fs.readFileSync(gitConfig, 'utf8').includes('e2e@example.invalid')
  if (opt.reset && isDemo) fs.rmSync(projectDir, { recursive: true, force: true })
  if (fs.existsSync(projectDir) && fs.readdirSync(projectDir).length > 0) die(`--project ${projectDir}: not empty; give a new or empty folder${opt.reset ? ' (--reset empties only a demo project an earlier run made)' : ', or add --reset to empty a demo project an earlier run made'}`)
} else if (opt.scenario) {
  projectDir = path.join(dir, 'project')
}
if (projectDir) {
  fs.mkdirSync(projectDir, { recursive: true })
  makeProject(projectDir, { home: files.home }) // git repository with a user set, .hark/project = V-012, package.json with a test, src/db/schema.sql
} else {
  projectDir = callerDir
}

const ca = createCA()
fs.writeFileSync(files.ca, ca.certPem)
// The scripted model's dummy key; without --scenario, your own key if the environment has one (only its last 20
// characters are written, as the engine keeps an approved key).
const apiKey = opt.scenario ? 'sk-ant-dummy' : process.env.ANTHROPIC_API_KEY
prepareHome({ home: files.home, projectDir, apiKey: apiKey ?? '', accessKey: opt.key })

const hark = await startFakeHark({ fixture: input(opt.fixture), key: opt.key, fail: opt.fail, hangS: Number(opt['hang-s']), delayMs: Number(opt['delay-ms']), logFile: files.log, jsonResponse: opt['json-response'], port: Number(opt.port), ttlS })
const proxyLog = (e) => fs.appendFileSync(files.proxy, JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n')
const proxy = await startTlsProxy({ ca, targetPort: hark.port, log: proxyLog, passThrough: opt['pass-through'], port: Number(opt['proxy-port']), ttlS })
const model = opt.scenario ? await startFakeModel({ scenario: loadScenario(input(opt.scenario), { PROJECT_DIR: projectDir }), dir, ttlS }) : undefined

const root = process.getuid?.() === 0
// env -i: nothing of your environment but PATH, TERM and LANG reaches the session (no CLAUDE_CONFIG_DIR, no
// login of yours), and HOME is the scratch one.
const env = [
  `env -i PATH="$PATH" TERM="$TERM" LANG="\${LANG:-C.UTF-8}" HOME=${files.home}`,
  `HTTPS_PROXY=http://127.0.0.1:${proxy.port} NO_PROXY=127.0.0.1,localhost NODE_EXTRA_CA_CERTS=${files.ca}`,
  // without it the engine's bootstrap, telemetry and MCP-registry calls meet the proxy's 403: [ERROR] lines in the debug log
  ['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
    ...(model ? [`ANTHROPIC_BASE_URL=http://127.0.0.1:${model.port}`, `ANTHROPIC_API_KEY=${apiKey}`, 'npm_config_update_notifier=false'] : ['ANTHROPIC_API_KEY="$ANTHROPIC_API_KEY"']),
    ...(root ? ['IS_SANDBOX=1'] : []), // bypassPermissions is refused as root without it
  ].join(' '),
]
const command = [
  `cd ${projectDir} &&`,
  ...env,
  `${claudeBin()} --plugin-dir ${REPO_DIR}`,
  `--permission-mode bypassPermissions --debug-file ${files.debug}`,
].join(' \\\n    ')

const hasProjectFile = fs.existsSync(path.join(projectDir, '.hark', 'project'))
console.log(`fake Hark is up${opt.fail ? `, failing on purpose: ${opt.fail}` : ''} (stops by itself in ${ttlS} s; Ctrl-C to stop now)

  MCP endpoint   http://127.0.0.1:${hark.port}/mcp          (plain HTTP, direct)
  TLS proxy      http://127.0.0.1:${proxy.port}             (CONNECT harkstudio.io:443 → the fake Hark; other hosts ${opt['pass-through'] ? 'tunnelled' : 'refused, 403'})
  access key     ${opt.key}  (in the scratch HOME's settings, pluginConfigs["hark-memory"])
  Hark project   ${input(opt.fixture)} (V-012)
  requests       ${files.log}  (every request in full: headers, bearer, _meta; summed up below as they come)
  scratch HOME   ${files.home}  (onboarding done, the folder trusted, the API key approved, bypass mode accepted)
${model ? `  scripted model http://127.0.0.1:${model.port}  playing ${opt.scenario} (request bodies in ${dir}/bodies)\n` : ''}  project        ${projectDir}${opt.project || opt.scenario ? ' (made now: git, .hark/project = V-012, npm test, src/db/schema.sql)' : ''}

Paste this in another terminal (it asks nothing before the prompt):

    ${command}
`)
if (!hasProjectFile) console.log(`Note: ${projectDir} has no .hark/project, so the plugin stays idle there; --project DIR or --scenario makes a ready project.\n`)
if (model) {
  console.log(`The status row shows Hark V-012 · Open · 2 need you; type any prompt (the scripted model plays its steps
whatever you type) and the edit of src/db/schema.sql asks Allow or Stop; /hark, /hark needs, /hark open,
/hark preview, /hark doctor, /hark handoff; /exit sends end_session. Headless instead: add  -p "go"  (the guard cannot ask there; the edit goes
ahead and the plugin logs a line). A second run: run this again; each run makes a fresh project and HOME.`)
} else {
  console.log(`No --scenario, so the session needs the real model: an ANTHROPIC_API_KEY in your environment (the
command passes it; it was approved in the scratch HOME${apiKey ? '' : ' only if set when you ran this, which it was not'})${opt['pass-through']
    ? ', reached through this proxy (--pass-through tunnels its host).'
    : `, and --pass-through on\nthis command so the proxy lets the model's host through (now it refuses every host but harkstudio.io).`}
Offline instead: --scenario e2e/scenarios/session.json.`)
}
console.log('\nWhat Hark receives (time, tool, arguments, outcome):')
const stopView = followLog(files.log, (line) => console.log(`  ${line}`))

const stop = async () => {
  clearTimeout(ttl)
  stopView()
  await Promise.all([hark.close(), proxy.close(), model?.close()])
  process.exit(0)
}
const ttl = setTimeout(stop, ttlS * 1000)
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
