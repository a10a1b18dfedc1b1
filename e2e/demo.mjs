#!/usr/bin/env node
// npm run demo [-- --plugin-dir DIR] [-- --fail http500|rpc-error|tool-error|hang]
//
// One scripted Claude Code session, offline, with the plugin loaded: the real `claude -p` from node_modules,
// a scripted model, and a fake Hark reached at https://harkstudio.io/mcp through a local TLS proxy. Then it
// prints, for a person, what happened: the brief the model got, the edit guard's verdict, the status line,
// and the handoff Hark received, with a one-line verdict at the end.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { REPO_DIR, runSession } from './lib/session.mjs'
import { briefBlock, callsTo, engineVersion, handoffText, moduleLoaded, pluginFailures, pluginLog, sessionChecks, statusLines } from './lib/inspect.mjs'

const { values: opt } = parseArgs({
  options: {
    'plugin-dir': { type: 'string', default: process.env.HARK_PLUGIN_DIR ?? REPO_DIR },
    fail: { type: 'string', default: process.env.FAKE_HARK_FAIL },
    dir: { type: 'string' },
  },
})
const pluginDir = path.resolve(opt['plugin-dir'])
const dir = opt.dir ? path.resolve(opt.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'hark-demo-'))

const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s)
const indent = (text, n = 4) => text.split('\n').map((l) => ' '.repeat(n) + l).join('\n')
const clip = (text, lines) => {
  const all = text.split('\n')
  return all.length > lines ? [...all.slice(0, lines), `… (${all.length - lines} more lines)`].join('\n') : text
}

console.log(bold('hark-memory demo: one scripted Claude Code session, offline'))
console.log(`  plugin  ${pluginDir} (--plugin-dir)`)
console.log(`  engine  claude ${engineVersion()} (node_modules)${opt.fail ? `\n  Hark    failing on purpose: ${opt.fail}` : ''}`)
console.log(`  run     ${dir}`)
console.log('  … running (a few seconds)\n')

const run = await runSession({ dir, pluginDir, fail: opt.fail })
const loadFailure = pluginFailures(run).find((l) => /did not load|failed to load/.test(l))
console.log(moduleLoaded(run) ? '  the plugin loaded\n' : `  the plugin did NOT load: ${(loadFailure ?? 'no load line in the debug log').replace(/^.*?\[ERROR\] /, '').slice(0, 300)}\n`)

console.log(bold('1. The brief the model received'))
const brief = briefBlock(run)
if (!brief) console.log('    (none: no <hark-brief> block in any request to the model)')
else {
  // The block holds the brief as Hark sent it (JSON text): show it one field a line, long values cut.
  const [open, ...rest] = brief.split('\n')
  const inner = rest.slice(0, -1).join('\n')
  const cut = (s, n = 110) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
  let lines
  try {
    lines = Object.entries(JSON.parse(inner)).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v)
      ? [`${k}:`, ...Object.entries(v).map(([k2, v2]) => cut(`  ${k2}: ${JSON.stringify(v2)}`))]
      : [cut(`${k}: ${JSON.stringify(v)}`)]))
  } catch {
    lines = clip(inner, 30).split('\n')
  }
  console.log(indent([open, ...lines.map((l) => `  ${l}`), '</hark-brief>'].join('\n')))
}

console.log(bold('\n2. The edit guard, on src/db/schema.sql (covered by "Raw SQL, no ORM (scope: src/db/**)")'))
const schema = fs.readFileSync(path.join(run.files.project, 'src/db/schema.sql'), 'utf8')
console.log(`    the edit ${schema.includes('CREATE TABLE users') ? 'went ahead (headless: no question can be shown)' : 'did NOT happen'}`)
const { logs } = pluginLog(run)
const guardLines = logs.filter((l) => l.includes('src/db/schema.sql') || l.includes('Raw SQL, no ORM'))
if (guardLines.length === 0) console.log('    no plugin log line names the file or the decision')
for (const l of guardLines) console.log(`    plugin log: ${l}`)

console.log(bold('\n3. Status line'))
const statuses = statusLines(run)
if (statuses.length === 0) console.log('    (none on stdout)')
for (const s of statuses) console.log(`    ${s}`)

console.log(bold('\n4. What Hark received'))
for (const r of run.harkLog) console.log(`    #${r.n} ${r.tool ?? r.method ?? r.http} → ${r.outcome}${r.status ? ` (HTTP ${r.status})` : ''}`)
if (run.harkLog.length === 0) console.log('    nothing')
const end = callsTo(run, 'end_session')[0]
if (end) {
  console.log('\n    end_session:')
  for (const [k, v] of Object.entries(handoffText(end.arguments))) console.log(`      ${k}:\n${indent(v, 8)}`)
}

console.log(bold('\n5. Every line the plugin logged'))
if (logs.length === 0) console.log('    none')
for (const l of logs) console.log(`    ${l}`)

const checks = sessionChecks(run, { pluginDir })
const missing = checks.filter((c) => !c.ok)
console.log(bold('\nVerdict: ') + (missing.length === 0
  ? `all good (${checks.length} checks)`
  : `${missing.length} of ${checks.length} checks failed: ${missing.map((c) => c.name).join('; ')}`))
for (const c of missing) if (c.detail) console.log(`  - ${c.name}: ${c.detail.slice(0, 300)}`)
console.log(`(${run.wallS.toFixed(1)} s; claude ${run.claudeWallS.toFixed(1)} s; artefacts in ${dir}: debug.log, hark.jsonl, model.jsonl, bodies/, project/)`)
process.exitCode = missing.length === 0 ? 0 : 1
