#!/usr/bin/env node
// npm run demo [-- --plugin-dir DIR] [-- --fail http500|rpc-error|tool-error|hang] [-- --keep] [-- --dir DIR]
//
// One scripted Claude Code session, offline, with the plugin loaded: the real `claude -p` from node_modules,
// a scripted model, and a fake Hark reached at https://harkstudio.io/mcp through a local TLS proxy. Then it
// prints, for a person, what happened: the brief the model got, the edit guard's verdict, the status line,
// and the handoff Hark received, with a verdict at the end: the checks of e2e test (a) for a healthy Hark,
// or, under --fail, what SPEC.md promises when Hark fails (the checks of e2e test (b)). Exit 0 when they hold.
// The run's folder is removed at the end unless --keep (or --dir) is given or a check fails.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { FAILURES } from './lib/fake-hark.mjs'
import { HANG_S, REPO_DIR, runSession } from './lib/session.mjs'
import {
  GUARDED_FILE, briefBlock, callsTo, editWentAhead, engineVersion, faultChecks, guardLine, handoffText, moduleLoaded,
  pluginFailures, pluginLog, recordsOver, sessionChecks, statusLines,
} from './lib/inspect.mjs'

const { values: opt } = parseArgs({
  options: {
    'plugin-dir': { type: 'string', default: process.env.HARK_PLUGIN_DIR ?? REPO_DIR },
    fail: { type: 'string', default: process.env.FAKE_HARK_FAIL || undefined },
    keep: { type: 'boolean', default: false },
    dir: { type: 'string' },
    'hang-s': { type: 'string', default: String(HANG_S) },
  },
})
if (opt.fail && !FAILURES.includes(opt.fail)) {
  console.error(`--fail must be one of ${FAILURES.join(', ')}`)
  process.exit(2)
}
const pluginDir = path.resolve(opt['plugin-dir'])
const dir = opt.dir ? path.resolve(opt.dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'hark-demo-'))
const keep = opt.keep || !!opt.dir
const hangS = Number(opt['hang-s'])

const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s)
const indent = (text, n = 4) => text.split('\n').map((l) => ' '.repeat(n) + l).join('\n')
const clip = (text, lines) => {
  const all = text.split('\n')
  return all.length > lines ? [...all.slice(0, lines), `… (${all.length - lines} more lines)`].join('\n') : text
}
const failText = {
  http500: 'every request answered HTTP 500',
  'rpc-error': 'every request answered with a JSON-RPC error',
  'tool-error': 'every tool answers isError: true',
  hang: `no request answered (the fake drops each after ${hangS > 0 ? `${hangS} s` : 'never'}; the plugin gives up after 3 s)`,
}

console.log(bold('hark-memory demo: one scripted Claude Code session, offline'))
console.log(`  plugin  ${pluginDir} (--plugin-dir)`)
console.log(`  engine  claude ${engineVersion()} (node_modules)`)
if (opt.fail) console.log(`  Hark    failing on purpose (${opt.fail}): ${failText[opt.fail]}`)
console.log(`  … running (${opt.fail === 'hang' ? 'about 15 s: the plugin waits out its time limits' : 'about 2–10 s'})\n`)

const run = await runSession({ dir, pluginDir, fail: opt.fail, hangS })
const loadFailure = pluginFailures(run).find((l) => /did not load|failed to load/.test(l))
console.log(moduleLoaded(run) ? '  the plugin loaded\n' : `  the plugin did NOT load: ${(loadFailure ?? 'no load line in the debug log').replace(/^.*?\[ERROR\] /, '').slice(0, 300)}\n`)

console.log(bold('1. The brief the model received') + ' (its JSON shown one field a line, long values cut)')
const brief = briefBlock(run)
if (!brief) console.log(`    (none: no <hark-brief> block in any request to the model${opt.fail ? '; Hark failed to send one' : ''})`)
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

console.log(bold(`\n2. The edit guard, on ${GUARDED_FILE}`))
const line = guardLine(run)
const records = recordsOver(GUARDED_FILE, run.fixture)
console.log(`    The fixture's records whose scope covers the file (only settled ones count), and whether the plugin named them:`)
const width = Math.max(...records.map((r) => r.name.length)) + 2
for (const r of records) {
  const named = line?.includes(`"${r.name}"`)
  console.log(`      ${(named ? 'named' : 'not named').padEnd(10)} ${r.kind.padEnd(9)} ${`"${r.name}"`.padEnd(width)} scope ${r.scope} (${r.from}); ${r.settled ? r.status : `${r.status}, not settled`}`)
}
if (!editWentAhead(run)) console.log('    The edit did NOT happen.')
else if (opt.fail) console.log('    The edit went ahead: Hark failed, so the guard had no decisions to check (the non-goals cover nothing here).')
else console.log(`    Headless (-p) the question can't be shown, so the edit went ahead and the plugin logged one line (its 'no tool named "AskUserQuestion"' is the engine's):`)
if (line) console.log(`      ${line}`)
else if (!opt.fail) console.log('      (no plugin log line names the file)')

console.log(bold('\n3. Status line'))
const statuses = statusLines(run)
if (statuses.length === 0) console.log('    (none on stdout)')
for (const s of statuses) console.log(`    ${s}`)

console.log(bold('\n4. What Hark received'))
const answer = (r) => (r.outcome === 'ok' ? 'ok'
  : r.outcome === 'hang' ? 'no answer'
    : `${r.outcome}${r.status && r.status !== 200 ? ` (HTTP ${r.status})` : ''}`)
for (const r of run.harkLog) console.log(`    #${r.n} ${r.tool ?? r.method ?? r.http} → ${answer(r)}`)
if (run.harkLog.length === 0) console.log('    nothing')
const end = callsTo(run, 'end_session')[0]
if (end) {
  console.log('\n    end_session:')
  for (const [k, v] of Object.entries(handoffText(end.arguments))) console.log(`      ${k}:\n${indent(v, 8)}`)
  const notes = handoffText(end.arguments).what_i_did ?? ''
  if (/\[redacted\]|\[code omitted\]/.test(notes)) {
    console.log(`    ([redacted] and [code omitted] are the plugin cleaning Claude's notes: the answer held a fake API_TOKEN=… and a code block.)`)
  }
}

console.log(bold('\n5. Every line the plugin logged'))
const { logs } = pluginLog(run)
if (logs.length === 0) console.log('    none')
else if (logs.length === 1 && logs[0] === line) console.log('    only the guard\'s line above')
else for (const l of logs) console.log(`    ${l}`)

const checks = opt.fail ? faultChecks(run) : sessionChecks(run, { pluginDir })
const missing = checks.filter((c) => !c.ok)
if (opt.fail) {
  console.log(bold(`\nVerdict, by what SPEC.md promises when Hark fails (e2e test (b) asserts the same, with http500): `)
    + (missing.length === 0 ? `all ${checks.length} hold` : `${missing.length} of ${checks.length} failed`))
  for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${!c.ok && c.detail ? `: ${c.detail.slice(0, 300)}` : ''}`)
} else {
  console.log(bold('\nVerdict: ') + (missing.length === 0
    ? `all ${checks.length} checks of e2e test (a) hold`
    : `${missing.length} of the ${checks.length} checks of e2e test (a) failed`)
    + ' (Hark\'s calls and arguments, headers, privacy, the guard\'s line, the handoff; listed in e2e/README.md)')
  for (const c of missing) console.log(`  FAIL ${c.name}${c.detail ? `: ${c.detail.slice(0, 300)}` : ''}`)
}
const kept = keep || missing.length > 0
if (!kept) fs.rmSync(dir, { recursive: true, force: true })
console.log(`(${run.wallS.toFixed(1)} s; claude ${run.claudeWallS.toFixed(1)} s; ${kept
  ? `artefacts kept in ${dir}: debug.log, hark.jsonl, model.jsonl, bodies/, project/`
  : 'run folder removed; --keep keeps it'})`)
process.exitCode = missing.length === 0 ? 0 : 1
