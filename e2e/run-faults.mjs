#!/usr/bin/env node
// The fault matrix (docs/reliability.md; the `faults` step of `npm test`): every fault of e2e/lib/fault-matrix.mjs at every
// point, each one real headless session, two at a time, judged by what SPEC.md promises; then the machine's
// faults. Prints a PASS/FAIL line per check, writes the table to docs/reliability.md, and exits 0 only when all
// pass. A table that differs from the committed one is shown by `git diff` (the run prints a note); it does not fail
// the run: the checks do.
//
//   node e2e/run-faults.mjs [--only id,id] [--jobs N] [--keep] [--no-write] [--plugin-dir DIR]
//
//   --only   cells whose id starts with one of these (e.g. `hang,http401@edit,store-locked`); the table is then not
//            written
//   --jobs   sessions at a time (default 2: the machine this was built on has 2 cores)
//
// Each cell runs in a child process of its own (`--cell ID --dir DIR`, printing its result as JSON), so one
// session's listeners never wait behind another's work (a run-time CA's RSA keys hold an event loop for a
// while, and the exit window is 1.5 s).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { REPO_DIR, runSession } from './lib/session.mjs'
import { callsTo, engineVersion, pluginVersion, STORE_FILE } from './lib/inspect.mjs'
import { cellChecks, cells, reliabilityDoc, sessionOptions, sessions, writeMatrixFixture } from './lib/fault-matrix.mjs'

const { values: opt } = parseArgs({
  options: {
    'plugin-dir': { type: 'string', default: process.env.HARK_PLUGIN_DIR ?? REPO_DIR },
    only: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    cell: { type: 'string' },
    dir: { type: 'string' },
  },
})
const pluginDir = path.resolve(opt['plugin-dir'])
const only = opt.only?.split(',').map((s) => s.trim()).filter(Boolean)
const chosen = cells().filter((c) => !only || only.some((o) => c.id.startsWith(o)))
const groups = sessions(chosen)
const DOC = path.join(REPO_DIR, 'docs', 'reliability.md')

/**
 * For a handoff kept at exit: the next session in the project, with the first run's store, sends it once with
 * end_session ("Recorded …" first in what_i_did) besides its own handoff.
 */
async function deliverLater(first, dir) {
  const fixture = first.fixture
  const from = path.join(first.files.home, '.claude', 'plugins', 'store', STORE_FILE)
  if (!fs.existsSync(from)) return { ok: false, detail: 'no store file after the first run' }
  const run = await runSession({
    dir,
    pluginDir,
    fixture,
    beforeClaude: (files) => {
      const to = path.join(files.home, '.claude', 'plugins', 'store')
      fs.mkdirSync(to, { recursive: true })
      fs.copyFileSync(from, path.join(to, STORE_FILE))
    },
  })
  const ends = callsTo(run, 'end_session')
  const later = ends.filter((e) => String(e.arguments?.what_i_did ?? '').startsWith('Recorded '))
  const firstId = callsTo(first, 'get_agent_brief')[0]?.meta?.conversation
  const ok = later.length === 1 && later[0].outcome === 'ok' && later[0].meta?.conversation === firstId && ends.length === 2
  return { ok, detail: `${ends.length} end_session (${later.length} delivered later, under ${later[0]?.meta?.conversation === firstId ? 'the first conversation id' : 'another id'})`, run }
}

/** One session, in this process (and the delivery after it), its cells judged: [{ id, checks, row, slowStore }]. */
async function runSessionHere(group, dir) {
  try {
    const fixture = writeMatrixFixture(`${dir}.fixture.json`)
    const run = await runSession({ dir, pluginDir, fixture, ...sessionOptions(group.cells) })
    const kept = group.cells.some((c) => c.point?.id === 'exit' && c.fault.class === 'nothing-reached')
    const delivery = kept ? await deliverLater(run, `${dir}-next`) : undefined
    return group.cells.map((cell) => ({ id: cell.id, ...cellChecks(run, cell, { delivery, together: group.cells }) }))
  } catch (e) {
    return group.cells.map((cell) => ({ id: cell.id, checks: [{ key: 'finished', name: 'the session ran', ok: false, detail: e.stack }], row: { work: '?', status: '?', log: '?', exit: {} } }))
  }
}

/** One session, in a child process of its own: its cells' results. */
function runGroup(group, base) {
  const t0 = performance.now()
  const dir = path.join(base, group.id.replace(/[^a-z0-9@+-]/gi, '_'))
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--cell', group.cells.map((c) => c.id).join(','), '--dir', dir, '--plugin-dir', pluginDir], { stdio: ['ignore', 'pipe', 'inherit'] })
    const out = []
    child.stdout.on('data', (c) => out.push(c))
    child.on('close', (rc) => {
      const text = Buffer.concat(out).toString('utf8').trim().split('\n').at(-1) ?? ''
      let results
      try {
        results = JSON.parse(text)
      } catch {
        results = group.cells.map((c) => ({ id: c.id, checks: [{ key: 'finished', name: 'the session ran', ok: false, detail: `child exited ${rc}: ${text.slice(0, 300)}` }], row: { work: '?', status: '?', log: '?', exit: {} } }))
      }
      const seconds = (performance.now() - t0) / 1000
      resolve(results.map((r) => ({ ...r, cell: group.cells.find((c) => c.id === r.id), dir, seconds })))
    })
  })
}

if (opt.cell) {
  const ids = opt.cell.split(',')
  const group = { id: ids.join('+'), cells: cells().filter((c) => ids.includes(c.id)) }
  if (group.cells.length !== ids.length) throw new Error(`no cell ${opt.cell}`)
  console.log(JSON.stringify(await runSessionHere(group, path.resolve(opt.dir))))
  process.exit(0)
}
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-faults-'))

const started = performance.now()
const byCell = new Map()
let next = 0
let passed = 0
let failed = 0
const sessionSeconds = []
async function worker() {
  while (next < groups.length) {
    const group = groups[next++]
    const rs = await runGroup(group, base)
    sessionSeconds.push(rs[0]?.seconds ?? 0)
    for (const r of rs) {
      byCell.set(r.cell.id, r)
      const bad = r.checks.filter((c) => !c.ok)
      passed += r.checks.length - bad.length
      failed += bad.length
      const e = r.row.exit ?? {}
      // end_session's arrival at the fake Hark, from classic.SessionEnd's start, when one came at exit
      const handoff = e.handoffMs === undefined ? '' : `; end_session ${Math.round(e.handoffMs)} ms after classic.SessionEnd began`
      console.log(`${bad.length ? 'FAIL' : 'PASS'} ${r.cell.id} (session ${group.id}: ${r.seconds.toFixed(1)} s; exit hooks ${e.spanMs === undefined ? '?' : Math.round(e.spanMs)} ms${handoff})`)
      if (r.slowStore?.length) console.log(`     (a slow store, besides the fault: ${r.slowStore.join(' | ')})`)
      for (const c of bad) console.log(`     ${c.name}\n       ${String(c.detail).slice(0, 700)}`)
      if (bad.length) console.log(`     artefacts: ${r.dir}`)
    }
  }
}
await Promise.all(Array.from({ length: Math.max(1, Number(opt.jobs) || 1) }, worker))
const wall = (performance.now() - started) / 1000
const results = chosen.map((c) => byCell.get(c.id)).filter(Boolean)

const spans = results.map((r) => r.row.exit?.spanMs).filter((x) => typeof x === 'number').sort((a, b) => a - b)
const secs = sessionSeconds.sort((a, b) => a - b)
const ms = (x) => (x === undefined ? '?' : Math.round(x))
console.log(`exit hooks (classic.SessionEnd to session.end settled): min ${ms(spans[0])} ms, median ${ms(spans[Math.floor(spans.length / 2)])} ms, max ${ms(spans.at(-1))} ms`)
console.log(`${groups.length} sessions for ${results.length} cells (plus a delivery session after each handoff kept at exit), each ${secs[0]?.toFixed(1)}–${secs.at(-1)?.toFixed(1)} s, ${opt.jobs} at a time`)

if (!only && !opt['no-write']) {
  const doc = reliabilityDoc(results, { engine: engineVersion(), plugin: pluginVersion(pluginDir), sessionCount: groups.length })
  const before = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : ''
  fs.writeFileSync(DOC, doc)
  let tracked = true
  try { execFileSync('git', ['ls-files', '--error-unmatch', 'docs/reliability.md'], { cwd: REPO_DIR, stdio: 'pipe' }) } catch { tracked = false }
  if (before !== doc) console.log(`docs/reliability.md ${tracked ? 'changed: see git diff, and commit it' : 'written (not yet committed)'}`)
  else console.log('docs/reliability.md unchanged')
}

console.log(`faults: ${passed} passed, ${failed} failed (${results.length} cells, ${groups.length} sessions, ${wall.toFixed(1)} s)`)
if (failed === 0 && !opt.keep) fs.rmSync(base, { recursive: true, force: true })
else console.log(`artefacts kept in ${base}`)
process.exitCode = failed === 0 ? 0 : 1
