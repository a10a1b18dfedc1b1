#!/usr/bin/env node
// npm run fake-hark [-- options]: the fake Hark and the TLS proxy in front of it, alone, for running Claude Code
// by hand with the plugin. Prints the port, the key it expects and the command line to use. Ctrl-C stops it;
// it also stops on its own after --ttl seconds.
//
//   --fail MODE        http500 | rpc-error | tool-error | hang        (or FAKE_HARK_FAIL)
//   --key KEY          the access key it expects                     (or FAKE_HARK_KEY; default: the e2e key)
//   --fixture FILE     the project it serves                         (default e2e/fixtures/venture.json)
//   --scenario FILE    also start the scripted model, playing FILE, with {{PROJECT_DIR}} = the current folder
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
import { ACCESS_KEY, FIXTURE, REPO_DIR, claudeBin } from './lib/session.mjs'

const { values: opt } = parseArgs({
  options: {
    fail: { type: 'string', default: process.env.FAKE_HARK_FAIL },
    key: { type: 'string', default: process.env.FAKE_HARK_KEY ?? ACCESS_KEY },
    fixture: { type: 'string', default: FIXTURE },
    scenario: { type: 'string' },
    'pass-through': { type: 'boolean', default: false },
    'json-response': { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
    'proxy-port': { type: 'string', default: '0' },
    ttl: { type: 'string', default: '3600' },
  },
})
if (opt.fail && !FAILURES.includes(opt.fail)) {
  console.error(`--fail must be one of ${FAILURES.join(', ')}`)
  process.exit(2)
}
const ttlS = Number(opt.ttl)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-hark-'))
const files = { ca: path.join(dir, 'ca.pem'), log: path.join(dir, 'hark.jsonl'), proxy: path.join(dir, 'proxy.jsonl'), settings: path.join(dir, 'settings.json') }

const ca = createCA()
fs.writeFileSync(files.ca, ca.certPem)
// Options reach a --plugin-dir plugin from settings' pluginConfigs; --settings keeps the person's own settings untouched.
fs.writeFileSync(files.settings, JSON.stringify({ pluginConfigs: { 'hark-memory': { options: { access_key: opt.key } } } }, null, 2) + '\n')

const hark = await startFakeHark({ fixture: path.resolve(opt.fixture), key: opt.key, fail: opt.fail, logFile: files.log, jsonResponse: opt['json-response'], port: Number(opt.port), ttlS })
const proxyLog = (e) => fs.appendFileSync(files.proxy, JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n')
const proxy = await startTlsProxy({ ca, targetPort: hark.port, log: proxyLog, passThrough: opt['pass-through'], port: Number(opt['proxy-port']), ttlS })
const model = opt.scenario ? await startFakeModel({ scenario: loadScenario(path.resolve(opt.scenario), { PROJECT_DIR: process.cwd() }), dir, ttlS }) : undefined

const noProxy = '127.0.0.1,localhost'
const envLine = [
  `HTTPS_PROXY=http://127.0.0.1:${proxy.port}`,
  `NO_PROXY=${noProxy}`,
  `NODE_EXTRA_CA_CERTS=${files.ca}`,
  ...(model ? [`ANTHROPIC_BASE_URL=http://127.0.0.1:${model.port}`, 'ANTHROPIC_API_KEY=sk-ant-dummy', 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1'] : []),
].join(' \\\n  ')
console.log(`fake Hark is up${opt.fail ? `, failing on purpose: ${opt.fail}` : ''} (stops by itself in ${ttlS} s; Ctrl-C to stop now)

  MCP endpoint   http://127.0.0.1:${hark.port}/mcp          (plain HTTP, direct)
  TLS proxy      http://127.0.0.1:${proxy.port}             (CONNECT harkstudio.io:443 → the fake Hark; other hosts ${opt['pass-through'] ? 'tunnelled' : 'refused, 403'})
  access key     ${opt.key}
  project        ${path.resolve(opt.fixture)} (V-012)
  logs           ${files.log}  (every request: tool, arguments, headers, bearer, _meta)
${model ? `  scripted model http://127.0.0.1:${model.port}  playing ${opt.scenario} (request bodies in ${dir}/bodies)\n` : ''}
Run Claude Code by hand with the plugin, in a project whose .hark/project holds V-012:

  ${envLine} \\
  ${claudeBin()} --plugin-dir ${REPO_DIR} --settings ${files.settings}

${files.settings} gives the plugin its access key (pluginConfigs["hark-memory"].options.access_key).
${model ? '' : `Without --scenario the session talks to the real model API: add --pass-through here (the proxy then tunnels api.anthropic.com),\nor add its host to NO_PROXY.\n`}As root, add IS_SANDBOX=1 for --permission-mode bypassPermissions. Watch requests: tail -f ${files.log}`)

const stop = async () => {
  clearTimeout(ttl)
  await Promise.all([hark.close(), proxy.close(), model?.close()])
  process.exit(0)
}
const ttl = setTimeout(stop, ttlS * 1000)
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
