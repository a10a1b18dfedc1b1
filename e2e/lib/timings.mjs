// Reading a finished run for time: each hook's settle time and own time, the module load, when Hark got each
// request, and the plugin's store writes. Used by scripts/bench-session.mjs, bench-load.mjs, scan-curve.mjs and
// scan-shapes.mjs; reads artefacts only.
//
// What the engine (2.1.332) writes to the debug log, and what is read from it here:
//   hooks module hark-memory@inline session.start settled in 210.1ms (worker hop, next() included)
//       one line per hook call, when it settles; the time runs from the engine's dispatch to the answer, so it
//       holds the hop to the hooks worker and back and everything beneath the hook's next(): the hooks of other
//       plugins (`… cc-plugin-agents-md@builtin prompt.submit settled in 27.1ms (native link, next() included)`),
//       the permission check and the tool itself. The engine reports no own time; this file subtracts what it does
//       report beneath (see ownTimes).
//   [Stall] tool_dispatch_start tool=Edit toolUseId=… permissionDecisionMs=10
//   [Stall] tool_dispatch_end tool=Edit toolUseId=… outcome=ok durationMs=10
//       the tool run beneath a tool.call, and the permission decision just before it (tool.check hooks included).
//   hooks worker spawned (one for every plugin) / hooks module hark-memory@inline loaded (worker, …)
//       no duration is logged for a module load; the time between the two lines is the worker's start and the load.
//   $.store.set (hark-memory@inline): <key>            one line per store write ($.store.delete writes unlogged).
//   $.http.fetch (hark-memory): POST https://…         a request the plugin made, and when answered:
//   $.http.fetch (hark-memory): 200 in 73ms, 2263 chars   (its time is part of the hook's own time)
//   $.tool.call (hark-memory): no tool named "AskUserQuestion"; …   the guard asking its question (headless, the
//       engine has no such tool: the plugin then logs one line naming the file and the records, and lets the edit
//       go ahead; in a terminal the line is `$.tool.call (hark-memory): AskUserQuestion (…`)
// Each line starts with an ISO time to the millisecond from the system clock, the clock the fake Hark stamps
// `receivedAt` with, so the two logs can be compared (to about a millisecond).
import fs from 'node:fs'

const LINE = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) \[(\w+)\] (.*)$/
const SETTLED = /^hooks module (.+?) (\S+) (stream )?settled in ([\d.]+)ms \(([^,]+), next\(\) included\)/
const LOADED = /^hooks module (\S+) loaded \((\w+)/
const DISPATCH_START = /^\[Stall\] tool_dispatch_start tool=(\S+) toolUseId=(\S+) permissionDecisionMs=(\d+)/
const DISPATCH_END = /^\[Stall\] tool_dispatch_end tool=(\S+) toolUseId=(\S+) outcome=(\S+) durationMs=(\d+)/

/** The debug log as { t (epoch ms), level, text } lines; lines without a time are left out. */
export function debugLines(text) {
  const out = []
  for (const line of text.split('\n')) {
    const m = line.match(LINE)
    if (m) out.push({ t: Date.parse(m[1]), level: m[2], text: m[3] })
  }
  return out
}

/**
 * The label the engine gives the plugin's module (`hark-memory@inline` with --plugin-dir), and what its load
 * cost: `ms` from `Found N plugins` (the engine then scans each hooks module on its main thread: walks the
 * imports, transpiles and parses every file; docs/engine.md) to the module loaded in the worker, split into
 * `scanMs` (to `hooks worker spawned`) and `workerMs` (the worker's start, the module's load and `register`).
 */
export function moduleLoad(lines, plugin = 'hark-memory') {
  const { scanMs, spawned } = scanOf(lines)
  for (const l of lines) {
    const m = l.text.match(LOADED)
    if (!m || !m[1].startsWith(`${plugin}@`)) continue
    const workerMs = spawned ? l.t - spawned.t : undefined
    return { label: m[1], host: m[2], at: l.t, ms: scanMs !== undefined && workerMs !== undefined ? scanMs + workerMs : undefined, scanMs, workerMs }
  }
  return undefined
}

/**
 * The engine's scan of the hooks modules on its main thread: `scanMs` from `Found N plugins` to `hooks worker
 * spawned` (undefined when either line is missing), and the `spawned` line. Read whether or not the module then
 * loads, so a stand-in whose `register` fails is timed too.
 */
export function scanOf(lines) {
  const found = lines.find((l) => /^Found \d+ plugins/.test(l.text))
  const spawned = lines.find((l) => l.text.startsWith('hooks worker spawned'))
  return { scanMs: found && spawned ? spawned.t - found.t : undefined, spawned }
}

/** The median of `xs` (the mean of the two middle values for an even count); NaN for none. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Every hook call that settled: { label (module, or modules sharing a hop), event, ms, start, end, hop }. */
export function settledHooks(lines) {
  const out = []
  for (const l of lines) {
    const m = l.text.match(SETTLED)
    if (m) out.push({ label: m[1], event: m[2], stream: !!m[3], ms: Number(m[4]), hop: m[5], start: l.t - Number(m[4]), end: l.t })
  }
  return out
}

/** Tool runs: { tool, id, start (permission decision included), dispatched, end, ms, permissionMs }. */
export function toolRuns(lines) {
  const started = new Map()
  const out = []
  for (const l of lines) {
    let m = l.text.match(DISPATCH_START)
    if (m) started.set(m[2], { t: l.t, permissionMs: Number(m[3]) })
    m = l.text.match(DISPATCH_END)
    if (m) {
      const s = started.get(m[2])
      const dispatched = s?.t ?? l.t - Number(m[4])
      const permissionMs = s?.permissionMs ?? 0
      out.push({ tool: m[1], id: m[2], start: dispatched - permissionMs, dispatched, end: l.t, ms: Number(m[4]), permissionMs, outcome: m[3] })
    }
  }
  return out
}

/** Total length of the union of intervals [s, e], each clipped to [from, to]. */
function covered(intervals, from, to) {
  const parts = intervals.map(([s, e]) => [Math.max(s, from), Math.min(e, to)]).filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0])
  let total = 0
  let cur
  for (const [s, e] of parts) {
    if (cur && s <= cur[1]) cur[1] = Math.max(cur[1], e)
    else {
      if (cur) total += cur[1] - cur[0]
      cur = [s, e]
    }
  }
  if (cur) total += cur[1] - cur[0]
  return total
}

/**
 * The plugin's hook calls with their own time: the settle time less the part of its span the log shows was
 * spent beneath it, in other modules' hook calls and in tool runs (permission decision included). What is left
 * is the plugin's code, its $ calls (store, Hark, …) and the engine's hops to and from the hooks worker; the
 * pass-through plugin's own time is the hops alone, the floor.
 * `tools` maps a toolUseId to a name for tool.call ({ name, input } from stream-json).
 */
export function ownTimes(lines, label, tools = new Map()) {
  const hooks = settledHooks(lines)
  const runs = toolRuns(lines)
  const ours = hooks.filter((h) => h.label.split(', ').includes(label))
  const beneath = [...hooks.filter((h) => !h.label.split(', ').includes(label)).map((h) => [h.start, h.end]), ...runs.map((r) => [r.start, r.end])]
  const fetchPrefix = `$.http.fetch (${label.split('@')[0]}): `
  const fetches = lines.filter((l) => l.text.startsWith(`${fetchPrefix}POST`))
  const answers = lines.map((l) => ({ t: l.t, m: l.text.startsWith(fetchPrefix) && l.text.slice(fetchPrefix.length).match(/^\d+ in (\d+)ms/) })).filter((a) => a.m)
  const questions = lines.filter((l) => l.text.startsWith(`$.tool.call (${label.split('@')[0]}): `) && l.text.includes('AskUserQuestion'))
  const seen = new Map()
  return ours.map((h) => {
    let name = h.event
    let tool
    if (h.event === 'tool.call' || h.event === 'tool.run') {
      tool = runs.find((r) => r.end >= h.start && r.end <= h.end + 1)
      const use = tool && tools.get(tool.id)
      name = `${h.event} ${use ? toolLabel(use) : tool?.tool ?? '?'}`
    }
    const n = (seen.get(name) ?? 0) + 1
    seen.set(name, n)
    if (n > 1) name = `${name} #${n}`
    const beneathMs = covered(beneath, h.start, h.end)
    return {
      name,
      event: h.event,
      start: h.start,
      end: h.end,
      settleMs: h.ms,
      beneathMs: round(beneathMs),
      ownMs: round(Math.max(0, h.ms - beneathMs)),
      toolMs: tool?.ms,
      harkRequests: fetches.filter((l) => l.t >= h.start && l.t <= h.end).length,
      // the time the hook's answered requests took, as the engine logs it (`$.http.fetch (…): 200 in 73ms, …`)
      harkMs: answers.filter((a) => a.t >= h.start && a.t <= h.end).reduce((sum, a) => sum + Number(a.m[1]), 0),
      // the questions the hook asked (the edit guard's AskUserQuestion)
      asks: questions.filter((l) => l.t >= h.start && l.t <= h.end).length,
    }
  })
}

/** A tool call as a short name: the file (from the project's folder), or the command's start. */
function toolLabel({ name, input = {}, project }) {
  const file = input.file_path ?? input.notebook_path
  if (typeof file === 'string') return `${name} ${project && file.startsWith(`${project}/`) ? file.slice(project.length + 1) : file.split('/').slice(-2).join('/')}`
  if (typeof input.command === 'string') return `${name} ${input.command.length > 22 ? `${input.command.slice(0, 21)}…` : input.command}`
  return name
}

/** toolUseId → { name, input, project }, from the run's stream-json (assistant tool_use blocks). */
export function toolUses(events, project) {
  const out = new Map()
  for (const e of events) {
    if (e.type !== 'assistant') continue
    for (const c of e.message?.content ?? []) if (c.type === 'tool_use') out.set(c.id, { name: c.name, input: c.input, project })
  }
  return out
}

/** The plugin's `$.store.set` lines: { t, key }. */
export function storeSets(lines, label) {
  const prefix = `$.store.set (${label}): `
  return lines.filter((l) => l.text.startsWith(prefix)).map((l) => ({ t: l.t, key: l.text.slice(prefix.length) }))
}

/** A store key as its kind: the conversation record, the cached brief, a handoff claim. */
export function keyKind(key) {
  if (key.startsWith('c:')) return 'record c:…'
  if (key.startsWith('handoff:')) return 'claim handoff:…'
  return key
}

/**
 * Watches the plugin's store file under a scratch home while a session runs. The engine writes the whole file
 * for every $.store.set and $.store.delete (a temp file renamed over it, `<name>.json.tmp.<random>`): each temp
 * name is one write, and the file is read at each rename, so consecutive states can be compared. Returns
 * `stop()`, which resolves { writes, snapshots: [{ t, bytes, value }] } (a state the reader missed, two writes
 * within its delay, shows as fewer snapshots than writes).
 */
export function watchStore(storeDir, plugin = 'hark-memory') {
  fs.mkdirSync(storeDir, { recursive: true, mode: 0o700 })
  const file = new RegExp(`^${plugin}_[^/]*\\.json$`)
  const temp = new RegExp(`^${plugin}_[^/]*\\.json\\.tmp\\.`)
  const temps = new Set()
  const snapshots = []
  let last
  const watcher = fs.watch(storeDir, (_event, name) => {
    if (!name) return
    if (temp.test(name)) temps.add(name)
    if (!file.test(name)) return
    let text
    try {
      text = fs.readFileSync(`${storeDir}/${name}`, 'utf8')
    } catch {
      return
    }
    if (text === last) return
    last = text
    try {
      snapshots.push({ t: Date.now(), bytes: Buffer.byteLength(text), value: JSON.parse(text) })
    } catch {
      // a half-written file is never seen (the engine renames a whole one over it); skip anything else
    }
  })
  return () => {
    watcher.close()
    return { writes: temps.size, snapshots }
  }
}

/**
 * What a write changed in the value under `key`: 'new' or 'removed', else the fields that differ, an object
 * field by its own fields (`active.at`), a list as a whole (`entries`).
 */
export function changedFields(before, after, key) {
  const a = before?.[key]
  const b = after?.[key]
  if (a === undefined && b !== undefined) return ['new']
  if (a !== undefined && b === undefined) return ['removed']
  return diff(a, b, '', 2)
}

const isRecord = (x) => typeof x === 'object' && x !== null && !Array.isArray(x)
function diff(a, b, at, depth) {
  if (JSON.stringify(a) === JSON.stringify(b)) return []
  if (depth === 0 || !isRecord(a) || !isRecord(b)) return [at || 'value']
  // a field named by a store key (cursors.c:<64 hex>:…) is shown by the key's kind
  const name = (k) => (k.length > 24 ? `${k.slice(0, 2)}…` : k)
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) => diff(a[k], b[k], at ? `${at}.${name(k)}` : name(k), depth - 1))
}

export const round = (x, d = 1) => (x === undefined ? undefined : Math.round(x * 10 ** d) / 10 ** d)
