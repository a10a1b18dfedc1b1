// The first guarded edit of a session, cold in JavaScriptCore: the domain work it does (the MCP reply of
// list_journal_entries read, the decisions' records, the guard compiled, one path matched; see
// scripts/bench/cold-edit-entry.ts) run in Debian's `jsc` shell, one fresh process a run, so every function is
// met for the first time, as in the engine's hooks worker at a session's first guarded edit. For
// scripts/bench-session.mjs and scripts/bench-cold-edit.mjs. Figures only.
//
// Each tree's own sources are bundled by esbuild (the entry, read from this checkout, resolved inside that
// tree; an IIFE, minified as scripts/build-module.mjs minifies the module). Each jsc process first freezes the
// built-ins as the hooks worker has them frozen (every intrinsic constructor, prototype and namespace, the
// iterator prototypes too; `Object.isFrozen` inside `claude plugin test` finds all of them frozen), then
// loads the bundle (not timed: the engine loads the module at the start), then reads the reply and times the
// steps. The trees take turns, which one goes first flipping each round; one round before the counted ones
// is not counted. The reply is the fake Hark's answer (e2e/lib/fake-hark.mjs: an SSE event holding the
// tool result, structuredContent and its text) to the plugin's request for 200 decisions.
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where Debian's package puts the shell. */
export const JSC = '/usr/bin/jsc'
/** One line for a machine without it. */
export const NO_JSC = `cold edit in JavaScriptCore: skipped, no ${JSC} (apt-get install libjavascriptcoregtk-4.0-bin)`
/** The file the session bench's Edit writes, which the demo's two decisions cover. */
export const EDITED = 'src/db/schema.sql'
/** The plugin asks list_journal_entries for this many (adapters/hark/mcp-hark.gateway.ts). */
const LIMIT = 200
const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cold-edit-entry.ts')
const ID = 7

/**
 * Freezes what the hooks worker has frozen: every intrinsic reachable from the global constructors and
 * namespaces below (their properties, accessors and prototypes), and the iterator prototypes; the global
 * object itself stays open, as it is there.
 */
const FREEZE = `(() => {
  const roots = [Object, Function, Array, String, RegExp, Number, Boolean, Symbol, BigInt, Date, Promise, Map, Set,
    WeakMap, WeakSet, Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError,
    ArrayBuffer, DataView, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    Float32Array, Float64Array, BigInt64Array, BigUint64Array, JSON, Math, Reflect, Proxy,
    typeof Intl === 'undefined' ? {} : Intl, typeof Iterator === 'undefined' ? {} : Iterator,
    [][Symbol.iterator](), ''[Symbol.iterator](), new Map().entries(), new Set().values(), /a/[Symbol.matchAll]('a'),
    function* () {}, async function () {}, Object.getPrototypeOf(Int8Array)]
  const seen = new Set()
  const todo = [...roots]
  while (todo.length > 0) {
    const o = todo.pop()
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) continue
    seen.add(o)
    todo.push(Object.getPrototypeOf(o))
    for (const key of Reflect.ownKeys(o)) {
      const d = Reflect.getOwnPropertyDescriptor(o, key)
      if ('value' in d) todo.push(d.value)
      else todo.push(d.get, d.set)
    }
    Object.freeze(o)
  }
})();
`

/** The SSE body the fake Hark answers list_journal_entries with, for `journal` (a fixture's entries). */
export function replyText(journal) {
  const payload = { entries: journal.filter((e) => e.kind === 'decision').slice(0, LIMIT) }
  const result = { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload }
  return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: ID, result })}\n\n`
}

/** The entry bundled against `tree`'s sources, written to `file`. */
export async function bundle(tree, file) {
  const out = await build({
    // The entry's imports, written from scripts/bench/, resolved from the tree's root (a tree may have no scripts/bench/).
    stdin: { contents: fs.readFileSync(ENTRY, 'utf8').replaceAll("from '../../", "from './"), loader: 'ts', resolveDir: tree, sourcefile: 'cold-edit-entry.ts' },
    absWorkingDir: tree,
    bundle: true,
    format: 'iife',
    globalName: 'harkColdEdit',
    platform: 'neutral',
    target: 'es2022',
    charset: 'utf8',
    minifyWhitespace: true,
    minifySyntax: true,
    write: false,
    logLevel: 'error',
  })
  fs.writeFileSync(file, out.outputFiles[0].text)
}

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b)
  if (v.length === 0) return undefined
  const m = Math.floor(v.length / 2)
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2
}
const round = (x, digits = 2) => (typeof x === 'number' ? Number(x.toFixed(digits)) : undefined)
const STEPS = ['replyMs', 'recordsMs', 'compileMs', 'matchMs', 'totalMs']

/**
 * Runs the cold edit `runs` times for each of `trees` ([{ label, dir }], one or two), taking turns; `journal`
 * is the fixture's entries, `scratch` a folder for the bundles. Returns undefined without jsc (having said so
 * through `say`), else { runs, decisions, path, trees: [{ label, ...medians of STEPS, records, matched, totals }],
 * ratio (the first tree's total ÷ the second's) }.
 */
export async function coldEdit({ trees, runs, journal, scratch, path: edited = EDITED, say = (line) => process.stderr.write(`${line}\n`) }) {
  if (!fs.existsSync(JSC)) {
    say(NO_JSC)
    return undefined
  }
  fs.mkdirSync(scratch, { recursive: true })
  const freeze = path.join(scratch, 'freeze.js')
  const reply = path.join(scratch, 'reply.txt')
  fs.writeFileSync(freeze, FREEZE)
  fs.writeFileSync(reply, replyText(journal))
  const sides = []
  for (const [i, tree] of trees.entries()) {
    const file = path.join(scratch, `cold-edit-${i}.js`)
    await bundle(tree.dir, file)
    const run = path.join(scratch, `run-${i}.js`)
    fs.writeFileSync(run, `const text = readFile(${JSON.stringify(reply)});\nprint(JSON.stringify(harkColdEdit.coldEdit(text, ${JSON.stringify(edited)})));\n`)
    sides.push({ ...tree, argv: [freeze, file, run], results: [] })
  }
  const once = (side) => JSON.parse(execFileSync(JSC, side.argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').at(-1))
  for (let turn = -1; turn < runs; turn++) {
    for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) {
      const r = once(side)
      if (turn >= 0) side.results.push(r)
    }
  }
  const out = sides.map((s) => ({
    label: s.label,
    ...Object.fromEntries(STEPS.map((k) => [k, round(median(s.results.map((r) => r[k])))])),
    records: s.results[0]?.records,
    matched: s.results[0]?.matched,
    each: s.results.map((r) => Object.fromEntries(STEPS.map((k) => [k, round(r[k], 3)]))),
  }))
  const [mine, theirs] = out
  return {
    runs,
    decisions: journal.filter((e) => e.kind === 'decision').slice(0, LIMIT).length,
    path: edited,
    trees: out,
    ratio: theirs === undefined || !(theirs.totalMs > 0) ? undefined : round(mine.totalMs / theirs.totalMs),
  }
}

/** The figures as lines: each tree's median total and steps, and the ratio. */
export function coldEditLines(result) {
  const f = (x) => (typeof x === 'number' ? x.toFixed(2) : '–')
  const lines = [`cold first guarded edit in JavaScriptCore (jsc, ${result.decisions} decisions, ${result.path}; median of ${result.runs} fresh processes a tree, ms)`]
  const width = Math.max(...result.trees.map((t) => t.label.length)) + 2
  for (const t of result.trees) {
    lines.push(`  ${t.label.padEnd(width)}${f(t.totalMs).padStart(7)}   reply ${f(t.replyMs)}, records ${f(t.recordsMs)}, compile ${f(t.compileMs)}, match ${f(t.matchMs)}; ${t.records} records, ${t.matched?.length ?? '?'} matched`)
  }
  if (result.ratio !== undefined) lines.push(`  this ÷ other ${result.ratio.toFixed(2)}`)
  const [a, b] = result.trees
  if (b !== undefined && JSON.stringify(a.matched) !== JSON.stringify(b.matched)) lines.push(`  the trees matched different records: ${a.matched?.join(', ')} | ${b.matched?.join(', ')}`)
  return lines
}
