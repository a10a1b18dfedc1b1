#!/usr/bin/env node
// npm run bench:load [-- rounds] [options]: what loading the hooks module costs at every Claude Code start, which
// part of the plugin each share of it comes from, and how long an interactive start takes to its prompt
// (docs/performance.md, "Module load").
//
// Each sample of the load is one real `claude -p` start (a scratch HOME, a scripted model on loopback that answers
// "ok" at once, no Hark: nothing in it asks for one) with one plugin from --plugin-dir, read from the debug log:
//   scan    `Found N plugins` → `hooks worker spawned`: the engine reads the module and every file it imports,
//           transpiles, parses and checks the loader's rules, on Claude Code's main thread, before the worker;
//   worker  `hooks worker spawned` → `hooks module … loaded`: the worker evaluates the module and runs register.
// The plugins, run one after another in each round, each round starting one further on (so a busier minute
// slows them all, and none always runs first):
//   floor            e2e/passthrough-plugin: the same events, each hook only calling next(e)
//   + <library>      the floor importing one vendored bundle the plugin imports (vendor/<library>.js), one
//                    row for each
//   + own code       the plugin with its vendored bundles stubbed out: its own files alone (it does not start:
//                    its register fails without them, after the scan and the load are timed)
//   plugin           this tree as the engine loads it (hooks/hooks.json → build/register.js)
//   other + own code, other plugin   the same two of the --against tree
// and three starts with a plugin installed as a person installs it (not --plugin-dir, which an interactive start
// treats apart: it lays the engine's declarations in the folder), from a marketplace, before each start into its
// fresh HOME (the commands are outside the figures):
//   floor, user scope          the floor in a marketplace of its own, installed at user scope: the installed floor
//   user scope                 a marketplace of this tree's shipped files (the module and what it imports, the
//                              manifests, README, LICENSE): `plugin marketplace add` + `plugin install
//                              hark-memory@hark` (+ the key); it loads wherever Claude Code starts
//   project scope, elsewhere   the same with --scope project in a folder beside the start's: the start is outside
//                              the project, so no hark-memory module loads (and `claude -p` starts no hooks worker)
// Each -p start is also timed whole, from the spawn to `hi` reaching the scripted model, which with the interactive
// figures is what the installed rows are compared on (a start that loads no module has no scan to read).
// Then, unless --no-tty, each round starts the floor, the plugin and the --against tree's plugin in turn as a
// person does: the real `claude` in a tmux pane of 120×40, the first-run questions answered beforehand, no Hark
// project in the working folder (e2e/lib/tty-start.mjs), and times from the spawn (a) to the prompt row showing
// on screen (the pane captured every 10 ms) and (b) to `hi`, typed as soon as the row shows, reaching the
// scripted model. Prints the medians, the ranges and each figure's difference from the floor's; with --against,
// the other tree's figure beside each of this tree's plugin and the ratio (this ÷ other) of the amounts above
// the floor. The installed rows get a table of their own: each against the floor and the saving of a project-scope
// install over a user-scope one, for a start outside the project, side by side from the same run. Asserts nothing
// (but that each installed start loads the module, or not, as its scope says); no test runs it.
//
//   node scripts/bench-load.mjs [rounds] [--against DIR|COMMIT] [--no-tty] [--json] [--keep]
//
//   rounds            rounds after one to warm up (default 7: about two minutes, one with --no-tty; --against
//                     adds about a third)
//   --against DIR     also load the plugin in DIR (another checkout of it), and its own code alone
//   --against COMMIT  the same for a git ref of this repository, checked out with `git worktree add --detach`
//                     into a temp folder (node_modules linked to this checkout's) and removed when the bench
//                     ends, fails or is interrupted; the engine loads that commit's committed build/ and vendor/
//   --no-tty          leave out the interactive starts (they need tmux)
//   --json            print every sample and the summary as JSON instead of the tables
//   --keep            keep each start's folder (debug.log, home/; for an interactive start run.sh, model.jsonl)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ACCESS_KEY, E2E_DIR, REPO_DIR, claudeBin, engineEnv, installFromMarketplace, killRunning, run } from '../e2e/lib/session.mjs'
import { startFakeModel } from '../e2e/lib/fake-model.mjs'
import { debugLines, median, moduleLoad, scanOf } from '../e2e/lib/timings.mjs'
import { writeStandIns } from '../e2e/lib/stand-ins.mjs'
import { againstTree, onExit } from '../e2e/lib/other-tree.mjs'
import { interactiveStart, killTerminals } from '../e2e/lib/tty-start.mjs'
import { hasTmux } from '../e2e/lib/tty.mjs'

const usage = 'usage: node scripts/bench-load.mjs [rounds] [--against DIR|COMMIT] [--no-tty] [--json] [--keep]   (rounds: a whole number ≥ 1, default 7)'
let parsed
try {
  parsed = parseArgs({
    allowPositionals: true,
    allowNegative: true,
    options: {
      json: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      tty: { type: 'boolean', default: true },
      against: { type: 'string' },
    },
  })
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
if (opt.tty && !hasTmux()) {
  console.error('the interactive starts need tmux (Debian: apt-get install tmux; .ci/run installs it), or run with --no-tty')
  process.exit(2)
}
const TTY = { cols: 120, rows: 40, text: 'hi' }
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-bench-load-'))
const floorDir = path.join(E2E_DIR, 'passthrough-plugin')
// On any exit, ^C included, last registered first: the starts still running are ended, the other tree's
// worktree removed, the folders too (unless --keep).
onExit(() => { if (!opt.keep) fs.rmSync(base, { recursive: true, force: true, maxRetries: 5 }) })
const other = opt.against !== undefined ? againstTree(opt.against, usage) : undefined
onExit(() => {
  killRunning()
  killTerminals()
})

/** The files the engine takes in for a plugin: its module and every file it imports, resolved as the engine does. */
function moduleFiles(dir) {
  const module = JSON.parse(fs.readFileSync(path.join(dir, 'hooks', 'hooks.json'), 'utf8')).modules[0]
  const seen = new Set()
  const resolve = (p) => {
    const bare = p.replace(/\.[cm]?[jt]sx?$/, '')
    return [p, `${bare}.ts`, `${bare}.tsx`, `${p}.ts`, `${p}/index.ts`, `${p}.js`, `${p}/index.js`].find((f) => fs.existsSync(f) && fs.statSync(f).isFile())
  }
  const walk = (file) => {
    if (file === undefined || seen.has(file)) return
    seen.add(file)
    const text = fs.readFileSync(file, 'utf8')
    const imports = [
      ...text.matchAll(/(?:^|[;\n}])\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]/g),
      ...text.matchAll(/(?:^|[;\n}])\s*import\s*['"](\.[^'"]+)['"]/g),
    ]
    for (const m of imports) walk(resolve(path.resolve(path.dirname(file), m[1])))
  }
  walk(resolve(path.resolve(dir, 'hooks', module)))
  return [...seen]
}
const codeBytes = (dir) => moduleFiles(dir).reduce((n, f) => n + fs.statSync(f).size, 0)
/** The vendored bundles the plugin's module imports (vendor/*.js), as paths relative to `dir`. */
const vendored = (dir) => moduleFiles(dir).map((f) => path.relative(dir, f)).filter((f) => /^vendor\/[^/]+\.js$/.test(f)).sort()

/** A copy of the floor whose register.ts imports `file` (copied beside it) and keeps its exports alive. */
function floorWith(name, file) {
  const dir = path.join(base, 'plugins', `floor-${name}`)
  fs.cpSync(floorDir, dir, { recursive: true })
  fs.copyFileSync(path.join(REPO_DIR, file), path.join(dir, 'hooks', path.basename(file)))
  const register = path.join(dir, 'hooks', 'register.ts')
  const importLine = `import * as kept from './${path.basename(file)}'`
  const text = fs.readFileSync(register, 'utf8').replace(/^(import type .*\n)/, `$1${importLine}\nexport const keep = [kept]\n`)
  fs.writeFileSync(register, text)
  return dir
}

/**
 * The plugin in `source` as the engine loads it, each vendored bundle it imports replaced by a stand-in with the
 * same export names and nothing in them.
 */
async function ownCodeAlone(source, name) {
  const dir = path.join(base, 'plugins', name)
  const copy = (rel) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.copyFileSync(path.join(source, rel), path.join(dir, rel))
  }
  for (const part of ['.claude-plugin/plugin.json', 'hooks/hooks.json']) copy(part)
  const bundles = vendored(source)
  for (const file of moduleFiles(source).map((f) => path.relative(source, f))) if (!bundles.includes(file)) copy(file)
  await writeStandIns(source, bundles, dir)
  return dir
}

const plugins = [
  { name: 'floor', dir: floorDir },
  ...vendored(REPO_DIR).map((file) => {
    const lib = path.basename(file, '.js')
    return { name: `+ ${lib}`, dir: floorWith(lib, file) }
  }),
  // The stand-ins' register fails (no container): the worker part is timed to the failure.
  { name: '+ own code', dir: await ownCodeAlone(REPO_DIR, 'own-code'), failsToRegister: true },
  { name: 'plugin', dir: REPO_DIR },
  ...(other === undefined ? [] : [
    { name: 'other + own code', dir: await ownCodeAlone(other.dir, 'other-own-code'), failsToRegister: true, other: true },
    { name: 'other plugin', dir: other.dir, other: true },
  ]),
]
const sizes = Object.fromEntries(plugins.map((p) => [p.name, codeBytes(p.dir)]))
const ttyPlugins = opt.tty ? plugins.filter((p) => ['floor', 'plugin', 'other plugin'].includes(p.name)) : []

/** A marketplace of this tree's shipped files alone: what a start reads of a clone (docs/engine.md, "The folder around the module"). */
function shippedMarketplace() {
  const dir = path.join(base, 'marketplace')
  const files = ['.claude-plugin/plugin.json', '.claude-plugin/marketplace.json', 'hooks/hooks.json', 'README.md', 'LICENSE', ...moduleFiles(REPO_DIR).map((f) => path.relative(REPO_DIR, f))]
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.copyFileSync(path.join(REPO_DIR, rel), path.join(dir, rel))
  }
  return dir
}
/** The floor as a marketplace `hark` of its own, its one plugin named hark-memory as the floor's manifest names it. */
function floorMarketplace() {
  const dir = path.join(base, 'floor-marketplace')
  fs.cpSync(floorDir, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}types`) && !src.endsWith('tsconfig.json') })
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, '.claude-plugin', 'plugin.json'), 'utf8'))
  fs.writeFileSync(path.join(dir, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'hark', owner: { name: 'bench' }, plugins: [{ name: 'hark-memory', source: './', version }] }, null, 2) + '\n')
  return dir
}
const shipped = shippedMarketplace()
const installs = [
  { name: 'floor, user scope', scope: 'user', loads: true, marketplace: floorMarketplace() },
  { name: 'user scope', scope: 'user', loads: true, marketplace: shipped },
  { name: 'project scope, elsewhere', scope: 'project', loads: false, marketplace: shipped },
]
/** Installs hark-memory@hark from `marketplace` in `home` (beside the start folder): at user scope, or at project scope in a folder `team` beside it. */
async function installFor({ scope, marketplace, home, env }) {
  const dir = path.dirname(home)
  const team = path.join(dir, 'team')
  fs.mkdirSync(team, { recursive: true })
  await installFromMarketplace({ dir, env, key: ACCESS_KEY, scope, cwd: scope === 'user' ? dir : team, marketplace })
}
const ttyStarts = opt.tty ? [...ttyPlugins, ...installs] : []

const samples = Object.fromEntries(plugins.map((p) => [p.name, []]))
const ttySamples = Object.fromEntries(ttyStarts.map((p) => [p.name, []]))
const installSamples = Object.fromEntries(installs.map((p) => [p.name, []]))
const modelLog = () => path.join(base, 'model', 'model.jsonl')
/** ms from `spawnAt` to the first request of the main loop the scripted model received after it. */
const toModel = (spawnAt) => {
  const lines = fs.existsSync(modelLog()) ? fs.readFileSync(modelLog(), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []
  const first = lines.find((r) => r.main && Date.parse(r.receivedAt) >= spawnAt)
  return first === undefined ? undefined : Date.parse(first.receivedAt) - spawnAt
}
const ttyFailures = []
const slug = (name) => name.replace(/\W+/g, '-').replace(/^-|-$/g, '')
/** Each round starts one plugin further on, so none always runs first or after the same one. */
const turn = (list, round) => list.map((_, i) => list[(i + round) % list.length])
let model
try {
  model = await startFakeModel({ scenario: { prompt: 'hi', steps: [[{ type: 'text', text: 'ok' }]] }, dir: path.join(base, 'model'), ttlS: 3600 })
  for (let round = 0; round <= rounds; round++) {
    for (const p of turn([...plugins, ...installs], round)) {
      const dir = path.join(base, `${round}-${slug(p.name)}`)
      const home = path.join(dir, 'home')
      fs.mkdirSync(home, { recursive: true })
      const debug = path.join(dir, 'debug.log')
      const env = engineEnv({ home, modelPort: model.port })
      if (p.scope !== undefined) await installFor({ ...p, home, env })
      const spawnAt = Date.now()
      await run(claudeBin(), ['-p', 'hi', ...(p.dir === undefined ? [] : ['--plugin-dir', p.dir]), '--debug-file', debug], { cwd: home, env, timeoutS: 60 })
      const toModelMs = toModel(spawnAt)
      const lines = debugLines(fs.existsSync(debug) ? fs.readFileSync(debug, 'utf8') : '')
      if (p.scope !== undefined) {
        const load = moduleLoad(lines)
        const sample = { toModelMs, loaded: load !== undefined, scanMs: load?.scanMs, workerMs: load?.workerMs }
        if (round === 0) process.stderr.write(`  warm-up ${p.name}: "hi" at the model ${toModelMs} ms, ${sample.loaded ? `module loaded (scan ${load.scanMs} ms)` : 'no module loaded'}\n`)
        else if (toModelMs !== undefined) installSamples[p.name].push(sample)
        if (!opt.keep) fs.rmSync(dir, { recursive: true, force: true })
        continue
      }
      const load = loadOf(lines, p.failsToRegister === true)
      if (round === 0) {
        process.stderr.write(`  warm-up ${p.name}: ${load ? `scan ${load.scanMs} ms, worker ${load.workerMs} ms` : 'no load line'}\n`)
      } else if (load?.scanMs !== undefined && load.workerMs !== undefined) {
        samples[p.name].push({ scanMs: load.scanMs, workerMs: load.workerMs, toModelMs })
      }
      if (!opt.keep) fs.rmSync(dir, { recursive: true, force: true })
    }
    for (const p of turn(ttyStarts, round)) {
      const dir = path.join(base, `${round}-tty-${slug(p.name)}`)
      try {
        const t = await interactiveStart({ pluginDir: p.dir, prepare: p.scope === undefined ? undefined : ({ home, env }) => installFor({ ...p, home, env }), dir, ...TTY })
        if (t.loaded !== (p.loads ?? true)) throw new Error(t.loaded ? 'the module loaded, where its scope should keep it out' : 'the debug log holds no load of the module')
        if (round === 0) process.stderr.write(`  warm-up ${p.name}, interactive: prompt row ${t.promptMs} ms, at the model ${t.modelMs} ms\n`)
        else ttySamples[p.name].push(t)
      } catch (error) {
        ttyFailures.push({ round, name: p.name, message: error.message })
        process.stderr.write(`  interactive start of ${p.name} (round ${round}) failed: ${error.message}\n`)
      }
      if (!opt.keep) fs.rmSync(dir, { recursive: true, force: true })
    }
    if (round > 0) process.stderr.write(`  round ${round}/${rounds}\n`)
  }
} finally {
  await model?.close().catch(() => undefined)
  if (opt.keep) process.stderr.write(`  kept every start's folder (debug.log, home/, …) under ${base}\n`)
}

/** The scan and the worker's part; for a stand-in whose register fails, the worker's part ends at the failure. */
function loadOf(lines, failsToRegister) {
  const load = moduleLoad(lines)
  if (load !== undefined || !failsToRegister) return load
  const { scanMs, spawned } = scanOf(lines)
  const failed = lines.find((l) => /hooks module hark-memory@\S+ failed to load/.test(l.text))
  if (scanMs === undefined || !failed) return undefined
  return { scanMs, workerMs: failed.t - spawned.t }
}
const spread = (xs) => (xs.length === 0 ? [NaN, NaN] : [Math.min(...xs), Math.max(...xs)])
const summary = plugins.map((p) => {
  const s = samples[p.name]
  return { name: p.name, bytes: sizes[p.name], n: s.length, scanMs: median(s.map((x) => x.scanMs)), workerMs: median(s.map((x) => x.workerMs)), scanRange: spread(s.map((x) => x.scanMs)), workerRange: spread(s.map((x) => x.workerMs)), ...(p.other && { tree: 'other' }) }
})
const ttySummary = ttyPlugins.map((p) => {
  const s = ttySamples[p.name]
  const of = (field) => s.map((x) => x[field])
  return { name: p.name, n: s.length, promptMs: median(of('promptMs')), promptRange: spread(of('promptMs')), typedMs: median(of('typedMs')), modelMs: median(of('modelMs')), modelRange: spread(of('modelMs')), retyped: s.filter((x) => x.types > 1).length, reEntered: s.filter((x) => x.enters > 1).length }
})
/**
 * The installed starts beside the floor and the plugin (both --plugin-dir): how many -p starts loaded the module,
 * the -p start to `hi` at the model, and the interactive start's two figures.
 */
const installed = installs.map((p) => {
  const s = installSamples[p.name]
  const t = ttySamples[p.name] ?? []
  const to = s.map((x) => x.toModelMs).filter((x) => x !== undefined)
  return {
    name: p.name,
    scope: p.scope,
    loads: p.loads ?? true,
    n: s.length,
    loaded: s.filter((x) => x.loaded).length,
    scanMs: median(s.filter((x) => x.scanMs !== undefined).map((x) => x.scanMs)),
    toModelMs: median(to),
    toModelRange: spread(to),
    tty: { n: t.length, promptMs: median(t.map((x) => x.promptMs)), promptRange: spread(t.map((x) => x.promptMs)), modelMs: median(t.map((x) => x.modelMs)), modelRange: spread(t.map((x) => x.modelMs)) },
  }
})

/** This tree's figure and the other's, each above the floor, and this ÷ other of those (when the other's is 1 ms or more). */
const versus = (mine, theirs, floorValue) => {
  const a = mine - floorValue
  const b = theirs - floorValue
  return { this: mine, other: theirs, thisAbove: a, otherAbove: b, ratio: b >= 1 && Number.isFinite(a) ? a / b : NaN }
}
const row = (list, name) => list.find((s) => s.name === name)
let against
if (other !== undefined) {
  const floor = row(summary, 'floor')
  const pair = (mine, theirs) => ({
    scanMs: versus(row(summary, mine).scanMs, row(summary, theirs).scanMs, floor.scanMs),
    workerMs: versus(row(summary, mine).workerMs, row(summary, theirs).workerMs, floor.workerMs),
    bytes: { this: sizes[mine], other: sizes[theirs] },
  })
  const ttyFloor = row(ttySummary, 'floor')
  against = {
    spec: opt.against,
    dir: other.dir,
    commit: other.commit,
    worktree: other.worktree,
    plugin: pair('plugin', 'other plugin'),
    ownCode: pair('+ own code', 'other + own code'),
    ...(opt.tty && {
      tty: {
        promptMs: versus(row(ttySummary, 'plugin').promptMs, row(ttySummary, 'other plugin').promptMs, ttyFloor.promptMs),
        modelMs: versus(row(ttySummary, 'plugin').modelMs, row(ttySummary, 'other plugin').modelMs, ttyFloor.modelMs),
      },
    }),
  }
}

if (opt.json) {
  const tty = opt.tty ? { ...TTY, pollMs: 10, samples: ttySamples, summary: ttySummary, failures: ttyFailures } : undefined
  console.log(JSON.stringify({ rounds, engine: 'claude 2.1.332', node: process.version, samples, summary, against, tty, installed: { samples: installSamples, summary: installed } }, null, 2))
} else {
  const floor = summary[0]
  const sign = (x) => (Number.isNaN(x) ? '   n/a' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}`.padStart(7))
  const fixed = (x, w = 7) => (Number.isNaN(x) ? 'n/a' : x.toFixed(1)).padStart(w)
  const spanOf = (r) => (Number.isNaN(r[0]) ? '–' : `${r[0]}–${r[1]}`)
  const width = Math.max(16, ...summary.map((s) => s.name.length)) + 1
  const load = os.loadavg()[0].toFixed(1)
  console.log(`\nhark-memory module load, ${new Date().toISOString()}: ${rounds} starts of each (after one to warm up), in turn; node ${process.version}, ${os.cpus().length} cpus, load ${load}`)
  if (other !== undefined) console.log(`other = ${other.worktree ? `${opt.against} (${other.commit}), checked out in a temp worktree` : `${other.dir}${other.commit ? ` (${other.commit})` : ''}`}`)
  console.log('median ms; scan = Found N plugins → hooks worker spawned (main thread), worker = spawned → module loaded')
  console.log(`  ${'plugin'.padEnd(width)} ${'code KB'.padStart(8)} ${'scan'.padStart(7)} ${'range'.padStart(11)} ${'worker'.padStart(7)}   above the floor: scan  worker`)
  for (const s of summary) {
    if (s.n === 0) {
      console.log(`  ${s.name.padEnd(width)} ${(s.bytes / 1024).toFixed(0).padStart(8)}   no start of it logged a load (run with --keep and read its debug.log)`)
      continue
    }
    console.log(`  ${s.name.padEnd(width)} ${(s.bytes / 1024).toFixed(0).padStart(8)} ${s.scanMs.toFixed(1).padStart(7)} ${spanOf(s.scanRange).padStart(11)} ${s.workerMs.toFixed(1).padStart(7)}   ${s === floor ? '                 ' : `${sign(s.scanMs - floor.scanMs)} ${sign(s.workerMs - floor.workerMs)}`}`)
  }
  if (opt.tty) {
    const ttyFloor = row(ttySummary, 'floor')
    console.log(`\nInteractive start (claude in a ${TTY.cols}×${TTY.rows} tmux pane, no Hark project; the screen read every 10 ms): median (range) ms from the spawn`)
    console.log(`  ${'plugin'.padEnd(width)} ${'prompt row shows'.padStart(22)} ${'above'.padStart(7)}   ${'"hi" reaches the model'.padStart(22)} ${'above'.padStart(7)}`)
    for (const s of ttySummary) {
      if (s.n === 0) {
        console.log(`  ${s.name.padEnd(width)} no interactive start of it completed`)
        continue
      }
      const cell = (m, r) => `${m.toFixed(0)} (${spanOf(r)})`.padStart(22)
      const above = (x) => (s === ttyFloor ? ''.padStart(7) : Number.isNaN(x) ? '    n/a' : `${x >= 0 ? '+' : ''}${x.toFixed(0)}`.padStart(7))
      console.log(`  ${s.name.padEnd(width)} ${cell(s.promptMs, s.promptRange)} ${above(s.promptMs - ttyFloor.promptMs)}   ${cell(s.modelMs, s.modelRange)} ${above(s.modelMs - ttyFloor.modelMs)}`)
    }
    const typed = ttySummary.map((s) => `${s.name} ${Number.isNaN(s.typedMs) ? '–' : s.typedMs.toFixed(0)}`).join(', ')
    console.log(`  ("hi" showed in the row, median ms: ${typed}${ttySummary.some((s) => s.retyped || s.reEntered) ? `; typed again or Enter pressed again in ${ttySummary.map((s) => `${s.name} ${s.retyped}/${s.reEntered}`).join(', ')}` : ''})`)
    if (ttyFailures.length > 0) console.log(`  ${ttyFailures.length} interactive start(s) failed and are left out (their messages are above, on stderr)`)
  }
  if (against !== undefined) {
    console.log(`\nThis tree against the other (${other.worktree ? opt.against : other.label}): medians, ms; the ratio is this ÷ other, of the amounts above the floor`)
    console.log(`  ${'figure'.padEnd(34)} ${'this'.padStart(8)} ${'other'.padStart(8)}   above the floor: ${'this'.padStart(7)} ${'other'.padStart(7)}   this ÷ other`)
    const line = (label, v) => console.log(`  ${label.padEnd(34)} ${fixed(v.this, 8)} ${fixed(v.other, 8)}                    ${sign(v.thisAbove)} ${sign(v.otherAbove)}   ${(Number.isNaN(v.ratio) ? 'n/a' : v.ratio.toFixed(2)).padStart(12)}`)
    line('plugin: scan', against.plugin.scanMs)
    line('plugin: worker', against.plugin.workerMs)
    line('own code alone: scan', against.ownCode.scanMs)
    line('own code alone: worker', against.ownCode.workerMs)
    if (against.tty) {
      line('interactive: prompt row shows', against.tty.promptMs)
      line('interactive: "hi" reaches the model', against.tty.modelMs)
    }
    console.log(`  ${'plugin: code KB'.padEnd(34)} ${(against.plugin.bytes.this / 1024).toFixed(0).padStart(8)} ${(against.plugin.bytes.other / 1024).toFixed(0).padStart(8)}`)
  }
  const floorRow = row(installed, 'floor, user scope')
  const userRow = row(installed, 'user scope')
  const cell = (m, r) => (Number.isNaN(m) ? 'n/a' : `${m.toFixed(0)} (${spanOf(r)})`).padStart(18)
  const above = (x, base) => (Number.isNaN(x - base) ? '    n/a' : `${x - base >= 0 ? '+' : ''}${(x - base).toFixed(0)}`.padStart(7))
  console.log(`\nInstalled from a marketplace: a start outside a project-scope install, against the floor and a user-scope install (claude -p hi${opt.tty ? ', then interactive' : ''}; no Hark project in the start folder): median (range) ms from the spawn, and above the installed floor`)
  console.log(`  ${'start'.padEnd(26)} ${'module'.padStart(7)} ${'scan'.padStart(6)}   ${'-p: "hi" at the model'.padStart(22)} ${'above'.padStart(7)}${opt.tty ? `   ${'prompt row shows'.padStart(18)} ${'above'.padStart(7)}   ${'"hi" at the model'.padStart(18)} ${'above'.padStart(7)}` : ''}`)
  for (const r of installed) {
    const label = r.name
    const vsFloor = (x, base) => (r === floorRow ? ''.padStart(7) : above(x, base))
    const interactive = opt.tty ? `   ${cell(r.tty.promptMs, r.tty.promptRange)} ${vsFloor(r.tty.promptMs, floorRow.tty.promptMs)}   ${cell(r.tty.modelMs, r.tty.modelRange)} ${vsFloor(r.tty.modelMs, floorRow.tty.modelMs)}` : ''
    console.log(`  ${label.padEnd(26)} ${`${r.loaded}/${r.n}`.padStart(7)} ${(Number.isNaN(r.scanMs) ? 'none' : r.scanMs.toFixed(0)).padStart(6)}   ${`${cell(r.toModelMs, r.toModelRange)}`.padStart(22)} ${vsFloor(r.toModelMs, floorRow.toModelMs)}${interactive}`)
  }
  const outside = row(installed, 'project scope, elsewhere')
  const saving = (a, b) => (Number.isNaN(a - b) ? 'n/a' : `${(a - b).toFixed(0)} ms`)
  console.log(`  (module: the -p starts that loaded hark-memory; scan: their median scan, none where no module loaded. Outside the project, the project-scope install saves against the user-scope one: -p ${saving(userRow.toModelMs, outside.toModelMs)}${opt.tty ? `, prompt row ${saving(userRow.tty.promptMs, outside.tty.promptMs)}, "hi" at the model ${saving(userRow.tty.modelMs, outside.tty.modelMs)}` : ''})`)
}
const misplaced = installs.filter((p) => installSamples[p.name].some((x) => x.loaded !== p.loads))
if (misplaced.length > 0) console.error(`a -p start of ${misplaced.map((p) => p.name).join(', ')} ${misplaced.map((p) => (p.loads ? 'did not load' : 'loaded')).join(', ')} the module: its figures do not measure what the row says`)
if (ttyFailures.length > 0 || summary.some((s) => s.n === 0) || installed.some((r) => r.n === 0) || misplaced.length > 0) process.exitCode = 1
