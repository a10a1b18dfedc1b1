#!/usr/bin/env node
// npm run bench [-- options]: the plugin in real sessions, against a floor. Runs the scripted session of
// `npm run demo` (real `claude -p`, scripted model, fake Hark behind the TLS proxy, scratch HOME) N times with
// the plugin and N times with e2e/passthrough-plugin (the same events and matchers, each hook only calling
// next(e)), alternating, one at a time. The fake Hark serves the demo's project with a decision log of 200
// records (--decisions). Prints per event each one's median own time and the plugin's overhead above the floor;
// the first guarded edit on a line of its own, and the session's summed overhead; the module load; Hark's
// requests; the store's writes and bytes; when end_session reached Hark after session.end began; and the targets
// of docs/performance.md against those figures. Beside the first guarded edit, that edit's domain work cold in
// JavaScriptCore (scripts/bench/cold-edit.mjs: Debian's `jsc`, a fresh process a run). Asserts nothing.
//
//   node scripts/bench-session.mjs [runs] [--runs N] [--warmup N] [--delay-ms N] [--decisions N|demo] [--json]
//                                  [--plugin-dir DIR] [--against DIR|COMMIT] [--floor-dir DIR] [--cold-runs N]
//                                  [--keep] [--from FILE]
//
//   runs / --runs N   sessions of each plugin (default 7), after one of each to warm up (--warmup N)
//   --delay-ms N      the fake Hark answers every request N ms late
//   --decisions N     list_journal_entries answers with N decision records (default 200), generated from a fixed
//                     seed by e2e/lib/decisions.mjs: the demo's decisions among them, scoped as a real project's
//                     are (globs, areas, a `(scope: …)` title, `scope:` body lines, one in ten with none), mostly
//                     accepted, some proposed, rejected or superseded; the session's Edit of src/db/schema.sql
//                     is still guarded by the demo's two decisions alone. 0 or `demo`: the demo's own journal
//   --json            print the results as JSON (every run, and the summary) instead of the table
//   --plugin-dir DIR  bench another checkout's plugin (the floor stays this repository's pass-through)
//   --against DIR     also bench the plugin in DIR (another checkout of it), its sessions alternating with the
//                     plugin's and the floor's, and print both plugins' overheads side by side, with the ratio
//                     (this ÷ other) beside each
//   --against COMMIT  the same for a git ref of this repository, checked out with `git worktree add --detach`
//                     into a temp folder (node_modules linked to this checkout's), removed when the bench ends,
//                     fails or is interrupted; the engine loads that commit's committed build/ and vendor/
//   --floor-dir DIR   another floor plugin
//   --cold-runs N     after the sessions, the first guarded edit's domain work (the reply of list_journal_entries
//                     read, the records, the guard compiled, one match), over the same decisions, cold in `jsc`:
//                     N fresh processes for the plugin's tree (default 21), taking turns with --against's tree,
//                     each tree's own sources bundled; the median printed beside the edit's own time, with the
//                     ratio (this ÷ other). 0 leaves it out; without /usr/bin/jsc one line says how to install it
//   --keep            keep each run's folder (debug.log, hark.jsonl, home/, …) under $TMPDIR/hark-bench-*
//   --from FILE       print the table of an earlier --json output instead of running
//
// Own time, per hook call: the engine's `hooks module <label> <event> settled in X ms (…, next() included)`
// less what the same log shows was spent beneath the hook (other plugins' hook calls, the tool run with its
// permission decision). See e2e/lib/timings.mjs for the lines read, and docs/performance.md for how to read
// the figures.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { E2E_DIR, FIXTURE, REPO_DIR, killRunning, runSession } from '../e2e/lib/session.mjs'
import { engineVersion, pluginVersion } from '../e2e/lib/inspect.mjs'
import { changedFields, debugLines, keyKind, moduleLoad, ownTimes, round, storeSets, toolUses, watchStore } from '../e2e/lib/timings.mjs'
import { decisionFixture } from '../e2e/lib/decisions.mjs'
import { againstTree, onExit } from '../e2e/lib/other-tree.mjs'
import { coldEdit, coldEditLines } from './bench/cold-edit.mjs'
import { whole } from './bench/args.mjs'

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string' },
    warmup: { type: 'string', default: '1' },
    'delay-ms': { type: 'string', default: '0' },
    json: { type: 'boolean', default: false },
    'plugin-dir': { type: 'string', default: REPO_DIR },
    'floor-dir': { type: 'string', default: path.join(E2E_DIR, 'passthrough-plugin') },
    against: { type: 'string' },
    decisions: { type: 'string', default: '200' },
    'cold-runs': { type: 'string', default: '21' },
    keep: { type: 'boolean', default: false },
    from: { type: 'string' },
  },
})
const runs = whole('runs', opt.runs ?? positionals[0] ?? '7', 1)
const warmup = whole('--warmup', opt.warmup, 0)
const delayMs = whole('--delay-ms', opt['delay-ms'], 0)
const pluginDir = path.resolve(opt['plugin-dir'])
const floorDir = path.resolve(opt['floor-dir'])
const decisionsN = opt.decisions === 'demo' ? 0 : whole('--decisions', opt.decisions, 0)
const coldRuns = whole('--cold-runs', opt['cold-runs'], 0)
const base = opt.from ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'hark-bench-'))
// On any exit, ^C included, last registered first: the session still running is killed, the other tree's
// worktree removed, the run folders too (unless --keep).
if (base !== undefined) onExit(() => { if (!opt.keep) fs.rmSync(base, { recursive: true, force: true, maxRetries: 5 }) })
const other = opt.against !== undefined && !opt.from ? againstTree(opt.against) : undefined
onExit(killRunning)
const againstDir = other?.dir
const progress = (text) => process.stderr.write(`${text}\n`)

// The project the fake Hark serves: the demo's fixture, its journal grown to N decisions unless N is 0.
let fixture
let journal = opt.from ? [] : JSON.parse(fs.readFileSync(FIXTURE, 'utf8')).journal ?? []
let decisions = { n: 'demo', fixture: path.relative(REPO_DIR, FIXTURE) }
if (base !== undefined && decisionsN > 0) {
  let generated
  try {
    generated = decisionFixture(decisionsN)
  } catch (error) {
    console.error(error.message)
    process.exit(2)
  }
  fixture = path.join(base, 'fixture.json')
  fs.writeFileSync(fixture, JSON.stringify(generated.fixture, null, 2) + '\n')
  journal = generated.fixture.journal
  decisions = { n: decisionsN, ...generated.stats }
}

/** One session, read: the plugin's hook calls with own times, its load, Hark's requests, the store's writes. */
async function session(kind, dir, i) {
  const folder = path.join(base, `${String(i).padStart(2, '0')}-${kind}`)
  let store = { writes: 0, snapshots: [] }
  const run = await runSession({
    dir: folder,
    pluginDir: dir,
    delayMs,
    fixture,
    beforeClaude: (files) => {
      const stop = watchStore(path.join(files.home, '.claude', 'plugins', 'store'))
      // claude has exited: let the last file events arrive, then stop watching
      return () => new Promise((resolve) => setTimeout(resolve, 50)).then(() => { store = stop() })
    },
  })
  const lines = debugLines(run.debug)
  const load = moduleLoad(lines)
  const label = load?.label ?? 'hark-memory@inline'
  const hooks = ownTimes(lines, label, toolUses(run.events, run.files.project))
  const at = (name) => hooks.find((h) => h.name === name)
  const requests = run.harkLog.map((r) => ({ tool: r.tool ?? r.method ?? r.http, outcome: r.outcome, receivedAt: Date.parse(r.receivedAt ?? r.t) }))
  const end = requests.find((r) => r.tool === 'end_session')
  // What list_journal_entries served (the first answer), and the first guarded edit: the first edit hook that asked.
  const served = run.harkLog.find((r) => r.tool === 'list_journal_entries' && r.outcome === 'ok')?.payload?.entries
  const guarded = hooks.find((h) => h.event === 'tool.call' && /^tool\.call (Edit|Write|MultiEdit|NotebookEdit)\b/.test(h.name) && h.asks > 0)
  const guardLine = guarded && lines.find((l) => l.t >= guarded.start && l.t <= guarded.end + 5 && l.text.startsWith('[hark-memory] $.ui.log: '))?.text.slice('[hark-memory] $.ui.log: '.length)
  const sessionEnd = at('session.end')
  const exitStart = at('classic.SessionEnd') ?? sessionEnd
  // Each logged set, with the state the store file held after it when the watcher saw every write.
  const sets = storeSets(lines, label)
  const complete = store.snapshots.length === sets.length && store.writes === sets.length
  const writes = sets.map((s, n) => {
    const hook = hooks.find((h) => s.t >= h.start && s.t <= h.end) ?? [...hooks].reverse().find((h) => h.end < s.t)
    const within = hook !== undefined && s.t <= hook.end
    const snap = complete ? store.snapshots[n] : undefined
    const changed = complete ? changedFields(store.snapshots[n - 1]?.value, snap.value, s.key) : undefined
    return { at: s.t, hook: hook ? (within ? hook.name : `after ${hook.name}`) : '?', key: keyKind(s.key), changed, bytes: snap?.bytes }
  })
  const result = {
    kind,
    dir: folder,
    rc: run.rc,
    claudeS: round(run.claudeWallS, 2),
    loaded: load !== undefined,
    loadMs: load?.ms,
    scanMs: load?.scanMs,
    workerMs: load?.workerMs,
    hooks: hooks.map(({ start, end: stop, ...h }) => h),
    ownTotalMs: round(hooks.reduce((sum, h) => sum + h.ownMs, 0)),
    hark: requests.map((r) => r.tool),
    decisionsServed: served?.filter((e) => e?.kind === 'decision').length,
    guard: guarded ? { hook: guarded.name, line: guardLine } : undefined,
    store: {
      sets: sets.length,
      writes: store.writes,
      watched: store.snapshots.length,
      bytesWritten: complete ? store.snapshots.reduce((sum, s) => sum + s.bytes, 0) : undefined,
      finalBytes: store.snapshots.at(-1)?.bytes ?? 0,
      list: writes,
    },
    endSession: end && sessionEnd ? { afterSessionEndMs: round(end.receivedAt - sessionEnd.start), afterExitStartMs: round(end.receivedAt - exitStart.start) } : undefined,
  }
  if (!opt.keep) fs.rmSync(folder, { recursive: true, force: true })
  return result
}

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b)
  if (v.length === 0) return undefined
  const m = Math.floor(v.length / 2)
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2
}
const range = (xs) => {
  const v = xs.filter((x) => typeof x === 'number')
  return v.length ? [Math.min(...v), Math.max(...v)] : undefined
}

/** Runs the sessions, alternating plugin and floor, and reads them: { …what was run, summary, targets, runs }. */
async function measure() {
  const load0 = os.loadavg()
  const started = Date.now()
  const sides = [['plugin', pluginDir], ...(againstDir === undefined ? [] : [['against', againstDir]]), ['floor', floorDir]]
  const all = Object.fromEntries(sides.map(([kind]) => [kind, []]))
  const total = (warmup + runs) * sides.length
  let n = 0
  for (let i = 0; i < warmup + runs; i++) {
    for (const [kind, dir] of sides) {
      n++
      const r = await session(kind, dir, n)
      const what = i < warmup ? 'warm-up, not counted' : `own ${r.ownTotalMs} ms over ${r.hooks.length} hook calls`
      progress(`  ${String(n).padStart(2)}/${total} ${kind.padEnd(7)} claude ${r.claudeS.toFixed(1)} s, ${what}${r.rc === 0 && r.loaded ? '' : `  (rc ${r.rc}, ${r.loaded ? 'loaded' : 'NOT LOADED'})`}`)
      if (i >= warmup) all[kind].push(r)
    }
  }
  const load1 = os.loadavg()

  /** One plugin's figures against the floor's: per event, the totals, the store, end_session, and the targets (docs/performance.md). */
  const summarize = (side) => {
    // Per event, in the session's order: each side's median own and settle times, and the overhead.
    const names = []
    for (const r of [...all[side], ...all.floor]) for (const h of r.hooks) if (!names.includes(h.name)) names.push(h.name)
    const times = (kind, name, field) => all[kind].map((r) => r.hooks.find((h) => h.name === name)?.[field])
    const events = names.map((name) => {
      const own = { plugin: median(times(side, name, 'ownMs')), floor: median(times('floor', name, 'ownMs')) }
      const settle = { plugin: median(times(side, name, 'settleMs')), floor: median(times('floor', name, 'settleMs')) }
      const waits = median(times(side, name, 'harkRequests')) ?? 0
      const harkMs = median(times(side, name, 'harkMs'))
      return {
        name,
        own,
        ownRange: { plugin: range(times(side, name, 'ownMs')), floor: range(times('floor', name, 'ownMs')) },
        settle,
        overheadMs: own.plugin !== undefined && own.floor !== undefined ? round(own.plugin - own.floor) : undefined,
        settleOverheadMs: settle.plugin !== undefined && settle.floor !== undefined ? round(settle.plugin - settle.floor) : undefined,
        harkRequests: waits,
        harkMs,
      }
    })
    const sum = (xs) => round(xs.reduce((s, x) => s + (x ?? 0), 0))
    const counts = (list) => Object.entries(list.reduce((m, t) => ({ ...m, [t]: (m[t] ?? 0) + 1 }), {})).map(([t, c]) => `${t} ${c}`).join(', ')
    const harkSets = [...new Set(all[side].map((r) => counts(r.hark)))]
    const sample = all[side].find((r) => r.store.list.every((w) => w.changed !== undefined)) ?? all[side].at(-1)
    // A write that changes nothing: the value differs from the one before it in savedAt (the write's own time) alone.
    const idle = (w) => w.changed !== undefined && w.changed.every((f) => f === 'savedAt')
    const summary = {
      events,
      ownTotalMs: { plugin: sum(events.map((e) => e.own.plugin)), floor: sum(events.map((e) => e.own.floor)) },
      ownTotalPerRunMs: { plugin: median(all[side].map((r) => r.ownTotalMs)), floor: median(all.floor.map((r) => r.ownTotalMs)) },
      overheadTotalMs: sum(events.map((e) => e.overheadMs)),
      loadMs: { plugin: median(all[side].map((r) => r.loadMs)), floor: median(all.floor.map((r) => r.loadMs)) },
      loadRange: { plugin: range(all[side].map((r) => r.loadMs)), floor: range(all.floor.map((r) => r.loadMs)) },
      scanMs: { plugin: median(all[side].map((r) => r.scanMs)), floor: median(all.floor.map((r) => r.scanMs)) },
      workerMs: { plugin: median(all[side].map((r) => r.workerMs)), floor: median(all.floor.map((r) => r.workerMs)) },
      hark: { plugin: harkSets, floor: [...new Set(all.floor.map((r) => counts(r.hark)))] },
      store: {
        writes: median(all[side].map((r) => r.store.writes)),
        sets: median(all[side].map((r) => r.store.sets)),
        bytesWritten: median(all[side].map((r) => r.store.bytesWritten)),
        finalBytes: median(all[side].map((r) => r.store.finalBytes)),
        fullyWatched: all[side].filter((r) => r.store.list.every((w) => w.changed !== undefined)).length,
        unchanged: median(all[side].filter((r) => r.store.list.every((w) => w.changed !== undefined)).map((r) => r.store.list.filter(idle).length)),
        floorWrites: median(all.floor.map((r) => r.store.writes)),
        list: sample?.store.list ?? [],
        listFrom: sample ? path.basename(sample.dir) : undefined,
      },
      endSession: {
        afterSessionEndMs: median(all[side].map((r) => r.endSession?.afterSessionEndMs)),
        afterSessionEndRange: range(all[side].map((r) => r.endSession?.afterSessionEndMs)),
        afterExitStartMs: median(all[side].map((r) => r.endSession?.afterExitStartMs)),
        reached: all[side].filter((r) => r.endSession !== undefined).length,
      },
    }
    // The first guarded edit: the event most sessions name as their first edit hook that asked.
    const guardedNames = all[side].map((r) => r.guard?.hook).filter(Boolean)
    const guardedName = [...new Set(guardedNames)].sort((a, b) => guardedNames.filter((x) => x === b).length - guardedNames.filter((x) => x === a).length)[0]
    const guardedEvent = events.find((e) => e.name === guardedName)
    summary.firstGuardedEdit = guardedEvent === undefined ? undefined : {
      name: guardedName,
      own: guardedEvent.own,
      ownRange: guardedEvent.ownRange,
      overheadMs: guardedEvent.overheadMs,
      harkMs: guardedEvent.harkMs,
      harkRequests: guardedEvent.harkRequests,
      asked: all[side].filter((r) => r.guard?.hook === guardedName).length,
      sessions: all[side].length,
      line: all[side].find((r) => r.guard?.hook === guardedName)?.guard.line,
    }
    summary.decisionsServed = median(all[side].map((r) => r.decisionsServed))
    const start = events.find((e) => e.name === 'session.start')
    const over25 = events.filter((e) => (e.overheadMs ?? 0) > 25)
    const targets = [
      { target: 'session.start settles within the floor + 20 ms', value: start?.settleOverheadMs, met: start?.settleOverheadMs !== undefined && start.settleOverheadMs <= 20, unit: 'ms above the floor (settle medians)' },
      { target: 'overhead above the floor, summed over the events, ≤ 200 ms', value: summary.overheadTotalMs, met: summary.overheadTotalMs <= 200, unit: 'ms' },
      {
        target: 'no event over 25 ms of overhead but the one that waits for Hark',
        value: over25.map((e) => `${e.name} ${e.overheadMs}${e.harkRequests > 0 ? ' (waits for Hark)' : ''}`).join('; ') || 'none',
        met: over25.filter((e) => e.harkRequests === 0).length === 0 && over25.length <= 1,
      },
      // The module-load target was first measured in the worker (spawned → loaded); the engine's scan before it was
      // found later, and is held to the same bound here so it is never out of sight (docs/performance.md, "Module load").
      { target: 'module load in the worker ≤ the floor + 20 ms', value: round((summary.workerMs?.plugin ?? NaN) - (summary.workerMs?.floor ?? NaN)), met: summary.workerMs?.plugin - summary.workerMs?.floor <= 20, unit: 'ms above the floor' },
      { target: "the engine's scan before the worker ≤ the floor + 20 ms", value: round((summary.scanMs?.plugin ?? NaN) - (summary.scanMs?.floor ?? NaN)), met: summary.scanMs?.plugin - summary.scanMs?.floor <= 20, unit: 'ms above the floor (npm run bench:load: inversify alone +83, picomatch +37)' },
      { target: 'no store write that changes nothing', value: summary.store.unchanged, met: summary.store.unchanged === 0, unit: 'writes that change only savedAt (median)' },
      { target: 'end_session within 15 ms of session.end starting', value: summary.endSession.afterSessionEndMs, met: summary.endSession.afterSessionEndMs !== undefined && summary.endSession.afterSessionEndMs <= 15, unit: 'ms (median)' },
    ]
    return { summary, targets }
  }
  const { summary, targets } = summarize('plugin')

  const git = (dir, ...args) => {
    try {
      return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    } catch {
      return undefined
    }
  }
  const meta = {
    bench: 'session',
    date: new Date(started).toISOString(),
    seconds: round((Date.now() - started) / 1000),
    sessions: runs,
    warmup,
    delayMs,
    decisions,
    plugin: { dir: pluginDir, version: pluginVersion(pluginDir), commit: git(pluginDir, 'rev-parse', '--short', 'HEAD'), dirty: (git(pluginDir, 'status', '--porcelain', '--untracked-files=no') ?? '') !== '' },
    floor: { dir: floorDir },
    engine: engineVersion(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, platform: `${process.platform}/${process.arch}`, loadavg: { before: load0.map((x) => round(x, 2)), after: load1.map((x) => round(x, 2)) } },
  }
  const against = againstDir === undefined ? undefined : { dir: againstDir, version: pluginVersion(againstDir), commit: git(againstDir, 'rev-parse', '--short', 'HEAD'), ref: other.worktree ? opt.against : undefined, worktree: other.worktree, ...summarize('against') }
  const cold = await coldFirstEdit(meta.plugin, against)
  return { ...meta, summary, targets, against, ratios: against === undefined ? undefined : ratios(summary, against.summary), coldEdit: cold, runs: all }
}

/** After the sessions, the first guarded edit's domain work cold in jsc, for the plugin's tree and the other's (--cold-runs). */
async function coldFirstEdit(plugin, against) {
  if (coldRuns === 0) return undefined
  const trees = [{ label: treeLabel(plugin.dir, plugin.commit), dir: plugin.dir }]
  if (against !== undefined) trees.push({ label: against.ref ?? treeLabel(against.dir, against.commit), dir: against.dir })
  progress(`  the first guarded edit cold in jsc: ${coldRuns} run(s) of ${trees.length === 1 ? 'the plugin\'s tree' : 'each tree, taking turns'}`)
  let skipped
  try {
    const result = await coldEdit({ trees, runs: coldRuns, journal, scratch: path.join(base, 'cold-edit'), say: (line) => { skipped = line } })
    return result ?? { skipped }
  } catch (error) {
    return { skipped: `cold edit in JavaScriptCore: failed (${error.message.split('\n')[0]})` }
  }
}

const treeLabel = (dir, commit) => `${path.basename(dir)}${commit ? ` (${commit})` : ''}`

/** This ÷ other, of an amount above the floor; undefined unless the other's is 1 ms or more (a smaller one is noise). */
const ratioOf = (mine, theirs) => (typeof mine === 'number' && typeof theirs === 'number' && theirs >= 1 ? round(mine / theirs, 2) : undefined)

/** With --against: each event's overhead, the sum, the first guarded edit and the load, this ÷ other. */
function ratios(mine, theirs) {
  const event = (name) => theirs.events.find((e) => e.name === name)?.overheadMs
  const diff = (s, field) => (s[field] === undefined ? undefined : s[field].plugin - s[field].floor)
  return {
    events: Object.fromEntries(mine.events.map((e) => [e.name, ratioOf(e.overheadMs, event(e.name))])),
    overheadTotalMs: ratioOf(mine.overheadTotalMs, theirs.overheadTotalMs),
    firstGuardedEdit: mine.firstGuardedEdit ? ratioOf(mine.firstGuardedEdit.overheadMs, event(mine.firstGuardedEdit.name)) : undefined,
    loadMs: ratioOf(diff(mine, 'loadMs'), diff(theirs, 'loadMs')),
    scanMs: ratioOf(diff(mine, 'scanMs'), diff(theirs, 'scanMs')),
    workerMs: ratioOf(diff(mine, 'workerMs'), diff(theirs, 'workerMs')),
  }
}

/** The report as tables for a person. */
function printTable(report) {
  const { summary, targets, runs: all, plugin, floor, machine, delayMs: delay } = report
  const { events } = summary
  const f = (x) => (x === undefined || x === null ? '–' : x.toFixed(1))
  const signed = (x) => (x === undefined || x === null || Number.isNaN(x) ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}`)
  const pad = (s, w) => String(s).padEnd(w)
  const lpad = (s, w) => String(s).padStart(w)
  const width = Math.max(28, ...events.map((e) => e.name.length)) + 2
  const load = machine.loadavg
  console.log(`\nhark-memory session bench, ${report.date}: ${report.sessions} sessions each (after ${report.warmup} to warm up), plugin and floor alternating; Hark answers ${delay ? `${delay} ms late` : 'at once'}`)
  console.log(`  plugin  ${plugin.dir} (${plugin.version}${plugin.commit ? `, ${plugin.commit}${plugin.dirty ? ' + changes' : ''}` : ''})`)
  console.log(`  floor   ${path.relative(REPO_DIR, floor.dir) || floor.dir} (each hook only calls next(e))`)
  console.log(`  engine  claude ${report.engine}; node ${machine.node}, ${machine.cpus} cpus, load ${load.before[0].toFixed(1)} → ${load.after[0].toFixed(1)}; ${report.seconds} s`)
  const d = report.decisions
  if (d !== undefined) {
    const served = summary.decisionsServed === undefined ? '' : `; list_journal_entries served ${summary.decisionsServed} (median)`
    console.log(d.n === 'demo'
      ? `  Hark    the demo's fixture (${d.fixture}), its own journal${served}`
      : `  Hark    ${d.decisions} decisions: the demo's ${d.demo} and ${d.generated} generated (seed ${d.seed}); ${d.settled} settled, ${d.scoped} with a scope, ${d.settledScoped} both${served}`)
  }
  console.log('\nOwn time per hook call, median ms: settle time less the hooks and the tool run beneath it (docs/performance.md)')
  console.log(`  ${pad('event', width)}${lpad('plugin', 8)}${lpad('floor', 8)}${lpad('overhead', 10)}${lpad('of it Hark', 12)}   settle: plugin / floor`)
  for (const e of events) {
    const hark = e.harkRequests ? `${f(e.harkMs)} (${e.harkRequests})` : ''
    console.log(`  ${pad(e.name, width)}${lpad(f(e.own.plugin), 8)}${lpad(f(e.own.floor), 8)}${lpad(signed(e.overheadMs), 10)}${lpad(hark, 12)}   ${f(e.settle.plugin)} / ${f(e.settle.floor)}`)
  }
  const harkTotal = events.reduce((sum, e) => sum + (e.harkMs ?? 0), 0)
  console.log(`  ${pad('sum of the medians', width)}${lpad(f(summary.ownTotalMs.plugin), 8)}${lpad(f(summary.ownTotalMs.floor), 8)}${lpad(signed(summary.overheadTotalMs), 10)}${lpad(f(harkTotal), 12)}`)
  console.log('  (of it Hark: the time the hook waited on its Hark requests, as $.http.fetch logs it, median; in brackets how many)')
  const g = summary.firstGuardedEdit
  if (g !== undefined) {
    const hark = g.harkRequests ? `, ${f(g.harkMs)} ms of it Hark (${g.harkRequests} request${g.harkRequests === 1 ? '' : 's'})` : ', none of it Hark'
    console.log(`\nFirst guarded edit, ${g.name} (the guard asked in ${g.asked} of ${g.sessions} sessions): own ${f(g.own.plugin)} ms, the floor's ${f(g.own.floor)}, ${signed(g.overheadMs)} ms above it${hark}`)
    if (g.line) console.log(`  the plugin's line: ${g.line.length > 200 ? `${g.line.slice(0, 199)}…` : g.line}`)
  } else if (summary.decisionsServed !== undefined || report.decisions !== undefined) {
    console.log('\nFirst guarded edit: no edit hook asked the guard\'s question in these sessions')
  }
  // Beside it, the same edit's domain work cold in jsc (--cold-runs).
  if (report.coldEdit !== undefined) for (const line of report.coldEdit.skipped !== undefined ? [report.coldEdit.skipped] : coldEditLines(report.coldEdit)) console.log(`  ${line}`)
  console.log(`Session overhead above the floor, summed over the events: ${signed(summary.overheadTotalMs)} ms`)
  console.log(`\nModule load (Found N plugins → module loaded), median ms: plugin ${f(summary.loadMs.plugin)}, floor ${f(summary.loadMs.floor)}, ${signed(summary.loadMs.plugin - summary.loadMs.floor)}`)
  if (summary.scanMs !== undefined) {
    console.log(`  the engine's scan on its main thread (Found N plugins → hooks worker spawned): plugin ${f(summary.scanMs.plugin)}, floor ${f(summary.scanMs.floor)}, ${signed(summary.scanMs.plugin - summary.scanMs.floor)}`)
    console.log(`  the worker (spawned → module loaded): plugin ${f(summary.workerMs.plugin)}, floor ${f(summary.workerMs.floor)}, ${signed(summary.workerMs.plugin - summary.workerMs.floor)}`)
  }
  console.log(`Hark requests per session: ${summary.hark.plugin.join(' | ') || 'none'}${summary.hark.plugin.length > 1 ? ' (differs between runs)' : ''}; the floor: ${summary.hark.floor.join(' | ') || 'none'}`)
  const s = summary.store
  const missed = all.plugin.length - s.fullyWatched
  console.log(`Store writes per session (median): ${s.writes} (${s.sets} $.store.set lines), ${s.bytesWritten === undefined ? '?' : (s.bytesWritten / 1024).toFixed(1)} KB written (each write is the whole file), the file ${(s.finalBytes / 1024).toFixed(1)} KB at exit; the floor ${s.floorWrites}${missed > 0 ? ` (in ${missed} run(s) the watcher missed a state)` : ''}`)
  const e = summary.endSession
  const spread = e.afterSessionEndRange ? `${e.afterSessionEndRange[0]}–${e.afterSessionEndRange[1]}` : '–'
  console.log(`end_session reached Hark ${f(e.afterSessionEndMs)} ms after session.end began (median; ${spread}), ${f(e.afterExitStartMs)} ms after classic.SessionEnd began; in ${e.reached} of ${all.plugin.length} sessions`)
  console.log(`\nThe store writes of one session (${s.listFrom ?? '–'}): the hook, the key, the file's size after it, what changed in the value`)
  for (const [i, w] of s.list.entries()) {
    const what = w.changed === undefined ? '?' : w.changed.length === 0 ? 'nothing' : w.changed.join(', ')
    console.log(`  ${lpad(i + 1, 2)}. ${pad(w.hook, width)}${pad(w.key, 17)}${lpad(w.bytes ?? '?', 6)} B  ${what}`)
  }
  console.log('\nTargets (docs/performance.md; read from these figures, not asserted)')
  for (const t of targets) console.log(`  ${t.met ? 'met    ' : 'not met'}  ${t.target}: ${typeof t.value === 'number' ? t.value.toFixed(1) : t.value ?? '–'}${t.unit ? ` ${t.unit}` : ''}`)
  if (report.against !== undefined) printAgainst(report, width)
}

/** With --against: the two plugins' overheads above the same floor, side by side (sessions alternated), and this ÷ other. */
function printAgainst(report, width) {
  const a = report.against
  const r = report.ratios ?? ratios(report.summary, a.summary)
  const f = (x) => (x === undefined || x === null || Number.isNaN(x) ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}`)
  const x = (q) => (q === undefined || q === null ? '–' : q.toFixed(2))
  const pad = (s, w) => String(s).padEnd(w)
  const lpad = (s, w) => String(s).padStart(w)
  const label = (dir, commit) => `${path.basename(dir)}${commit ? ` (${commit})` : ''}`
  const left = label(report.plugin.dir, report.plugin.commit)
  const right = a.ref !== undefined ? `${a.ref}${a.commit ? ` (${a.commit})` : ''}` : label(a.dir, a.commit)
  const col = Math.max(14, left.length, right.length) + 2
  console.log(`\nSide by side, overhead above the floor (ms, medians; the three alternated session by session): ${left} | ${right}${a.worktree ? ` (a temp worktree: ${a.dir})` : ''}`)
  console.log(`  ${pad('event', width)}${lpad(left, col)}${lpad(right, col)}${lpad('this ÷ other', 14)}`)
  for (const e of report.summary.events) {
    const other = a.summary.events.find((o) => o.name === e.name)
    console.log(`  ${pad(e.name, width)}${lpad(f(e.overheadMs), col)}${lpad(f(other?.overheadMs), col)}${lpad(x(r.events[e.name]), 14)}`)
  }
  console.log(`  ${pad('sum of the medians', width)}${lpad(f(report.summary.overheadTotalMs), col)}${lpad(f(a.summary.overheadTotalMs), col)}${lpad(x(r.overheadTotalMs), 14)}`)
  const g = report.summary.firstGuardedEdit
  const og = a.summary.firstGuardedEdit
  if (g !== undefined || og !== undefined) {
    const asked = (s) => (s === undefined ? 'none asked' : `asked ${s.asked}/${s.sessions}`)
    console.log(`  ${pad(`first guarded edit (${asked(g)} | ${asked(og)})`, width)}${lpad(f(g?.overheadMs), col)}${lpad(f(og?.overheadMs), col)}${lpad(x(r.firstGuardedEdit), 14)}`)
  }
  const cold = report.coldEdit?.trees
  if (cold?.length === 2) {
    const ms = (x) => (typeof x === 'number' ? x.toFixed(1) : '–')
    console.log(`  ${pad('  its domain work cold in jsc (ms)', width)}${lpad(ms(cold[0].totalMs), col)}${lpad(ms(cold[1].totalMs), col)}${lpad(x(report.coldEdit.ratio), 14)}`)
  }
  const load = (s) => s.loadMs.plugin - s.loadMs.floor
  console.log(`  ${pad('module load above the floor', width)}${lpad(f(load(report.summary)), col)}${lpad(f(load(a.summary)), col)}${lpad(x(r.loadMs), 14)}`)
  const scan = (s) => (s.scanMs === undefined ? NaN : s.scanMs.plugin - s.scanMs.floor)
  const worker = (s) => (s.workerMs === undefined ? NaN : s.workerMs.plugin - s.workerMs.floor)
  console.log(`  ${pad('  of it the scan, before the worker', width)}${lpad(f(scan(report.summary)), col)}${lpad(f(scan(a.summary)), col)}${lpad(x(r.scanMs), 14)}`)
  console.log(`  ${pad('  of it the worker', width)}${lpad(f(worker(report.summary)), col)}${lpad(f(worker(a.summary)), col)}${lpad(x(r.workerMs), 14)}`)
  const end = (s) => s.endSession.afterSessionEndMs
  console.log(`  ${pad('end_session after session.end began', width)}${lpad(f(end(report.summary)).replace('+', ''), col)}${lpad(f(end(a.summary)).replace('+', ''), col)}`)
  console.log(`  ${pad('store writes', width)}${lpad(report.summary.store.writes, col)}${lpad(a.summary.store.writes, col)}`)
  console.log(`  ${pad('targets met', width)}${lpad(`${report.targets.filter((t) => t.met).length} of ${report.targets.length}`, col)}${lpad(`${a.targets.filter((t) => t.met).length} of ${a.targets.length}`, col)}`)
  console.log('  (this ÷ other: the ratio of the two overheads above the floor, where the other\'s is 1 ms or more)')
}

const report = opt.from ? JSON.parse(fs.readFileSync(opt.from, 'utf8')) : await measure()
if (opt.json) console.log(JSON.stringify(report, null, 2))
else printTable(report)
if (base !== undefined) {
  if (opt.keep) progress(`\nRun folders kept in ${base}`)
  else fs.rmSync(base, { recursive: true, force: true })
}
const bad = Object.values(report.runs).flat().filter((r) => r.rc !== 0 || !r.loaded)
if (bad.length > 0) {
  progress(`${bad.length} session(s) failed or did not load the plugin: ${bad.map((r) => path.basename(r.dir)).join(', ')}`)
  process.exitCode = 1
}
