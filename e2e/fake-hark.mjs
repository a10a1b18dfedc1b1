#!/usr/bin/env node
// npm run fake-hark [-- options]: the fake Hark and the TLS proxy in front of it, alone, for running Claude Code
// by hand with the plugin. Prints the ports, the key it expects and the command line to use. Ctrl-C stops it;
// it also stops on its own after --ttl seconds.
//
//   --project DIR      make the demo's throwaway project in DIR (a new or empty folder) and run there
//   --scenario FILE    also start the scripted model, playing FILE, with {{PROJECT_DIR}} = --project's DIR, else the
//                      folder `npm run` was typed in (INIT_CWD), else the current folder
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

const { values: opt } = parseArgs({
  options: {
    project: { type: 'string' },
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
let projectDir
if (opt.project) {
  projectDir = fromCaller(opt.project)
  if (fs.existsSync(projectDir) && fs.readdirSync(projectDir).length > 0) die(`--project ${projectDir}: not empty; give a new or empty folder`)
  fs.mkdirSync(projectDir, { recursive: true })
  makeProject(projectDir) // git repository with a user set, .hark/project = V-012, package.json with a test, src/db/schema.sql
} else if (opt.scenario) {
  projectDir = callerDir
}

const ttlS = Number(opt.ttl)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-hark-'))
const files = { ca: path.join(dir, 'ca.pem'), log: path.join(dir, 'hark.jsonl'), proxy: path.join(dir, 'proxy.jsonl'), settings: path.join(dir, 'settings.json'), debug: path.join(dir, 'debug.log') }

const ca = createCA()
fs.writeFileSync(files.ca, ca.certPem)
// Options reach a --plugin-dir plugin from settings' pluginConfigs; --settings keeps the person's own settings untouched.
fs.writeFileSync(files.settings, JSON.stringify({ pluginConfigs: { 'hark-memory': { options: { access_key: opt.key } } } }, null, 2) + '\n')

const hark = await startFakeHark({ fixture: input(opt.fixture), key: opt.key, fail: opt.fail, hangS: Number(opt['hang-s']), delayMs: Number(opt['delay-ms']), logFile: files.log, jsonResponse: opt['json-response'], port: Number(opt.port), ttlS })
const proxyLog = (e) => fs.appendFileSync(files.proxy, JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n')
const proxy = await startTlsProxy({ ca, targetPort: hark.port, log: proxyLog, passThrough: opt['pass-through'], port: Number(opt['proxy-port']), ttlS })
const model = opt.scenario ? await startFakeModel({ scenario: loadScenario(input(opt.scenario), { PROJECT_DIR: projectDir }), dir, ttlS }) : undefined

const root = process.getuid?.() === 0
const env = [
  `HTTPS_PROXY=http://127.0.0.1:${proxy.port}`,
  'NO_PROXY=127.0.0.1,localhost',
  `NODE_EXTRA_CA_CERTS=${files.ca}`,
  'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1', // else the engine's bootstrap, telemetry and MCP-registry calls meet the proxy's 403: [ERROR] lines in the debug log
  ...(model ? [`ANTHROPIC_BASE_URL=http://127.0.0.1:${model.port}`, 'ANTHROPIC_API_KEY=sk-ant-dummy', 'npm_config_update_notifier=false'] : []),
  ...(model && root ? ['IS_SANDBOX=1'] : []), // bypassPermissions is refused as root without it
]
const command = [
  ...(projectDir ? [`cd ${projectDir} &&`] : []),
  env.slice(0, 3).join(' '),
  env.slice(3).join(' '),
  `${claudeBin()} --plugin-dir ${REPO_DIR}`,
  `--settings ${files.settings}${model ? ' --permission-mode bypassPermissions' : ''}`,
].filter(Boolean).join(' \\\n    ')

const hasProjectFile = projectDir && fs.existsSync(path.join(projectDir, '.hark', 'project'))
console.log(`fake Hark is up${opt.fail ? `, failing on purpose: ${opt.fail}` : ''} (stops by itself in ${ttlS} s; Ctrl-C to stop now)

  MCP endpoint   http://127.0.0.1:${hark.port}/mcp          (plain HTTP, direct)
  TLS proxy      http://127.0.0.1:${proxy.port}             (CONNECT harkstudio.io:443 → the fake Hark; other hosts ${opt['pass-through'] ? 'tunnelled' : 'refused, 403'})
  access key     ${opt.key}  (in ${files.settings}, which the command passes with --settings)
  Hark project   ${input(opt.fixture)} (V-012)
  requests       ${files.log}  (tail -f it: tool, arguments, headers, bearer, _meta)
${model ? `  scripted model http://127.0.0.1:${model.port}  playing ${opt.scenario} (request bodies in ${dir}/bodies)\n` : ''}${projectDir ? `  project        ${projectDir}${opt.project ? ' (made now: git, .hark/project = V-012, npm test, src/db/schema.sql)' : ''}\n` : ''}
Run Claude Code with the plugin${projectDir ? '' : ', in a project whose .hark/project holds V-012'}:

    ${command}
`)
if (projectDir && !hasProjectFile) console.log(`Note: ${projectDir} has no .hark/project, so the plugin stays idle there; --project DIR makes a ready project.\n`)
if (model) {
  console.log(`In a terminal that is an interactive session: the status line shows, and the edit of src/db/schema.sql asks Allow or Stop.
Headless, add  -p "go" --debug-file ${files.debug}  : the status line is then only in the debug log, the guard
cannot ask (the edit goes ahead and the plugin logs a line), and the end of the run sends end_session.`)
} else {
  console.log(`No --scenario, so the session needs the real model: a Claude Code you are logged in to${opt['pass-through']
    ? ', reached through this proxy (--pass-through tunnels its host).'
    : `, and --pass-through on\nthis command so the proxy lets the model's host through (now it refuses every host but harkstudio.io).`}
Without a login, -p answers "Not logged in". Offline instead: --scenario e2e/scenarios/session.json --project DIR.
For a headless run (-p) add --permission-mode bypassPermissions${root ? ', and IS_SANDBOX=1 as root' : ''}.`)
}

const stop = async () => {
  clearTimeout(ttl)
  await Promise.all([hark.close(), proxy.close(), model?.close()])
  process.exit(0)
}
const ttl = setTimeout(stop, ttlS * 1000)
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
