#!/usr/bin/env node
// npm run bench:load [-- rounds]: what loading the hooks module costs at every Claude Code start, and which part
// of the plugin each share of it comes from (issue 11, "module load"; docs/performance.md, "Module load").
//
// Each sample is one real `claude -p` start (a scratch HOME, a scripted model on loopback that answers "ok" at
// once, no Hark: nothing in it asks for one) with one plugin from --plugin-dir, read from the debug log:
//   scan    `Found N plugins` → `hooks worker spawned`: the engine reads the module and every file it imports,
//           transpiles, parses and checks the loader's rules, on Claude Code's main thread, before the worker;
//   worker  `hooks worker spawned` → `hooks module … loaded`: the worker evaluates the module and runs register.
// The plugins, run one after another in each round (so a busier minute slows them all):
//   floor            e2e/passthrough-plugin: the same events, each hook only calling next(e)
//   + inversify      the floor importing vendor/inversify.js (the container the design asks for)
//   + picomatch      the floor importing vendor/picomatch.js (the guard's glob matcher)
//   + own code       the plugin with both vendored bundles stubbed out: its own files alone (it does not
//                    start: its register fails without the container, after the scan and the load are timed)
//   plugin           this tree as the engine loads it (hooks/hooks.json → build/register.js)
// Prints the median of each and its difference from the floor. Asserts nothing; no test runs it.
//
//   node scripts/bench-load.mjs [rounds] [--json] [--keep]   (default 7 rounds of 5 starts, about 0.7 s a start:
//                                                              25 s; --keep keeps each start's debug.log)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { E2E_DIR, REPO_DIR, claudeBin, engineEnv, run } from '../e2e/lib/session.mjs'
import { startFakeModel } from '../e2e/lib/fake-model.mjs'
import { debugLines, moduleLoad } from '../e2e/lib/timings.mjs'

const usage = 'usage: node scripts/bench-load.mjs [rounds] [--json] [--keep]   (rounds: a whole number ≥ 1, default 7)'
let parsed
try {
  parsed = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean', default: false }, keep: { type: 'boolean', default: false } } })
} catch (error) {
  console.error(`${error.message}\n${usage}`)
  process.exit(2)
}
const { values: opt, positionals } = parsed
const roundsText = positionals[0] ?? '7'
const rounds = /^\d+$/.test(roundsText) ? Number(roundsText) : NaN
if (!Number.isInteger(rounds) || rounds < 1 || positionals.length > 1) {
  console.error(`rounds must be a whole number ≥ 1, not ${JSON.stringify(positionals.slice(0, 2).join(' '))}\n${usage}`)
  process.exit(2)
}
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-bench-load-'))
const floorDir = path.join(E2E_DIR, 'passthrough-plugin')

/** A copy of the floor whose register.ts imports `file` (copied beside it) and keeps its export alive. */
function floorWith(name, file, importLine) {
  const dir = path.join(base, 'plugins', name)
  fs.cpSync(floorDir, dir, { recursive: true })
  fs.copyFileSync(path.join(REPO_DIR, file), path.join(dir, 'hooks', path.basename(file)))
  const register = path.join(dir, 'hooks', 'register.ts')
  const text = fs.readFileSync(register, 'utf8').replace(/^(import type .*\n)/, `$1${importLine}\nexport const keep = [kept]\n`)
  fs.writeFileSync(register, text)
  return dir
}

/** The plugin as the engine loads it, with the vendored bundles replaced by empty stand-ins. */
function ownCodeAlone() {
  const dir = path.join(base, 'plugins', 'own-code')
  for (const part of ['.claude-plugin/plugin.json', 'hooks/hooks.json', 'build/register.js']) {
    fs.mkdirSync(path.dirname(path.join(dir, part)), { recursive: true })
    fs.copyFileSync(path.join(REPO_DIR, part), path.join(dir, part))
  }
  fs.mkdirSync(path.join(dir, 'vendor'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'vendor', 'inversify.js'), 'export class Container {}\nexport class ContainerModule {}\n')
  fs.writeFileSync(path.join(dir, 'vendor', 'picomatch.js'), 'export default function picomatch() {}\n')
  return dir
}

let plugins
let sizes
try {
  plugins = [
    { name: 'floor', dir: floorDir },
    { name: '+ inversify', dir: floorWith('inversify', 'vendor/inversify.js', "import { Container as kept } from './inversify.js'") },
    { name: '+ picomatch', dir: floorWith('picomatch', 'vendor/picomatch.js', "import kept from './picomatch.js'") },
    // The one plugin here whose register fails (no container): its worker part is timed to the failure.
    { name: '+ own code', dir: ownCodeAlone(), failsToRegister: true },
    { name: 'plugin', dir: REPO_DIR },
  ]
  sizes = Object.fromEntries(plugins.map((p) => [p.name, codeBytes(p.dir)]))
} catch (error) {
  fs.rmSync(base, { recursive: true, force: true })
  throw error
}

function codeBytes(dir) {
  const module = JSON.parse(fs.readFileSync(path.join(dir, 'hooks', 'hooks.json'), 'utf8')).modules[0]
  const entry = path.resolve(dir, 'hooks', module)
  const seen = new Set()
  const walk = (file) => {
    if (seen.has(file) || !fs.existsSync(file)) return
    seen.add(file)
    const text = fs.readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:^|[;\n}])\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]/g)) walk(path.resolve(path.dirname(file), m[1]))
  }
  walk(entry)
  return [...seen].reduce((n, f) => n + fs.statSync(f).size, 0)
}

const samples = Object.fromEntries(plugins.map((p) => [p.name, []]))
const cleanUp = () => {
  if (!opt.keep) fs.rmSync(base, { recursive: true, force: true })
}
process.once('SIGINT', () => {
  cleanUp()
  process.exit(130)
})
let model
try {
  model = await startFakeModel({ scenario: { prompt: 'hi', steps: [[{ type: 'text', text: 'ok' }]] }, dir: path.join(base, 'model'), ttlS: 3600 })
  for (let round = 0; round <= rounds; round++) {
    // Each round starts one plugin further on, so none always runs first or after the same one.
    for (const p of plugins.map((_, i) => plugins[(i + round) % plugins.length])) {
      const dir = path.join(base, `${round}-${p.name.replace(/\W+/g, '')}`)
      const home = path.join(dir, 'home')
      fs.mkdirSync(home, { recursive: true })
      const debug = path.join(dir, 'debug.log')
      await run(claudeBin(), ['-p', 'hi', '--plugin-dir', p.dir, '--debug-file', debug], { cwd: home, env: engineEnv({ home, modelPort: model.port }), timeoutS: 60 })
      const load = loadOf(debugLines(fs.existsSync(debug) ? fs.readFileSync(debug, 'utf8') : ''), p.failsToRegister === true)
      if (round === 0) {
        process.stderr.write(`  warm-up ${p.name}: ${load ? `scan ${load.scanMs} ms, worker ${load.workerMs} ms` : 'no load line'}\n`)
      } else if (load?.scanMs !== undefined && load.workerMs !== undefined) {
        samples[p.name].push({ scanMs: load.scanMs, workerMs: load.workerMs })
      }
      if (!opt.keep) fs.rmSync(dir, { recursive: true, force: true })
    }
    if (round > 0) process.stderr.write(`  round ${round}/${rounds}\n`)
  }
} finally {
  await model?.close().catch(() => undefined)
  if (opt.keep) process.stderr.write(`  kept every start's folder (debug.log, home/) under ${base}\n`)
  cleanUp()
}

/** The scan and the worker's part; for the stand-in whose register fails, the worker's part ends at the failure. */
function loadOf(lines, failsToRegister) {
  const load = moduleLoad(lines)
  if (load !== undefined || !failsToRegister) return load
  const found = lines.find((l) => /^Found \d+ plugins/.test(l.text))
  const spawned = lines.find((l) => l.text.startsWith('hooks worker spawned'))
  const failed = lines.find((l) => /hooks module hark-memory@\S+ failed to load/.test(l.text))
  if (!found || !spawned || !failed) return undefined
  return { scanMs: spawned.t - found.t, workerMs: failed.t - spawned.t }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const summary = plugins.map((p) => {
  const s = samples[p.name]
  return { name: p.name, bytes: sizes[p.name], n: s.length, scanMs: median(s.map((x) => x.scanMs)), workerMs: median(s.map((x) => x.workerMs)), scanRange: [Math.min(...s.map((x) => x.scanMs)), Math.max(...s.map((x) => x.scanMs))] }
})
if (opt.json) {
  console.log(JSON.stringify({ rounds, engine: 'claude 2.1.332', node: process.version, samples, summary }, null, 2))
} else {
  const floor = summary[0]
  const sign = (x) => (Number.isNaN(x) ? '   n/a' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}`.padStart(7))
  const load = os.loadavg()[0].toFixed(1)
  console.log(`\nhark-memory module load, ${new Date().toISOString()}: ${rounds} starts of each (after one to warm up), in turn; node ${process.version}, ${os.cpus().length} cpus, load ${load}`)
  console.log('median ms; scan = Found N plugins → hooks worker spawned (main thread), worker = spawned → module loaded')
  console.log(`  ${'plugin'.padEnd(14)} ${'code KB'.padStart(8)} ${'scan'.padStart(7)} ${'range'.padStart(11)} ${'worker'.padStart(7)}   above the floor: scan  worker`)
  for (const s of summary) {
    if (s.n === 0) {
      console.log(`  ${s.name.padEnd(14)} ${(s.bytes / 1024).toFixed(0).padStart(8)}   no start of it logged a load (run with --keep and read its debug.log)`)
      continue
    }
    console.log(`  ${s.name.padEnd(14)} ${(s.bytes / 1024).toFixed(0).padStart(8)} ${s.scanMs.toFixed(1).padStart(7)} ${`${s.scanRange[0]}–${s.scanRange[1]}`.padStart(11)} ${s.workerMs.toFixed(1).padStart(7)}   ${s === floor ? '                 ' : `${sign(s.scanMs - floor.scanMs)} ${sign(s.workerMs - floor.workerMs)}`}`)
  }
}
