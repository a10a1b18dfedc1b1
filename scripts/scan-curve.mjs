#!/usr/bin/env node
// node scripts/scan-curve.mjs [rounds] [--keep 1,0.75,0.5,0.25,0]: how the engine's scan of the hooks module
// (docs/engine.md, "Before the worker") follows the amount of the plugin's own code, read from copies of this tree's
// build/register.js that keep a share of its syntax nodes. A copy keeps every statement, import and export (so the
// loader takes it as it takes the module and the scan is timed the same way) and empties the bodies of some of the
// outermost functions, picked in a fixed pseudo-random order until the share of nodes is gone: `{}` for a block, `0`
// for an arrow's expression. Its vendored bundles are stand-ins with the same export names and nothing in them (as
// bench:load's "own code" row), so only the plugin's own code varies; the copies' register then fails in the worker,
// after the scan. Each round starts the pass-through floor and every copy in turn with a real `claude -p hi` (a
// scratch HOME, a scripted model, no Hark) and reads `Found N plugins` → `hooks worker spawned` from its debug log.
// Prints, per copy, its nodes, functions and bytes, the median scan above the floor with every sample, and the line
// through the medians (least squares: ms at no node, µs a node). Asserts nothing; no test runs it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as acorn from 'acorn'
import { E2E_DIR, REPO_DIR, claudeBin, engineEnv, run } from '../e2e/lib/session.mjs'
import { startFakeModel } from '../e2e/lib/fake-model.mjs'
import { debugLines, median, scanOf } from '../e2e/lib/timings.mjs'
import { writeStandIns } from '../e2e/lib/stand-ins.mjs'

const usage = 'usage: node scripts/scan-curve.mjs [rounds] [--keep SHARES]   (rounds ≥ 1, default 7; SHARES: comma-separated, each 0 to 1)'
const { values: opt, positionals } = parseArgs({ allowPositionals: true, options: { keep: { type: 'string', default: '1,0.75,0.5,0.25,0' } } })
const rounds = Number(positionals[0] ?? 7)
const keeps = opt.keep.split(',').map((k) => (k.trim() === '' ? NaN : Number(k)))
if (!Number.isInteger(rounds) || rounds < 1 || keeps.some((k) => !(k >= 0 && k <= 1)) || new Set(keeps).size < keeps.length) {
  console.error(usage)
  process.exit(2)
}

const parse = (text) => acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module' })
/** Each child node of `node` (acorn's nodes are the objects with a string `type`). */
const children = (node) => Object.values(node).flatMap((v) => (Array.isArray(v) ? v : [v])).filter((c) => typeof c?.type === 'string')
function count(node) {
  const c = { nodes: 0, functions: 0 }
  const stack = [node]
  while (stack.length > 0) {
    const x = stack.pop()
    c.nodes++
    if (/Function/.test(x.type)) c.functions++
    stack.push(...children(x))
  }
  return c
}

const source = fs.readFileSync(path.join(REPO_DIR, 'build', 'register.js'), 'utf8')
const whole = count(parse(source)).nodes
/** The outermost functions of the module, in a fixed pseudo-random order (sort keys from one fixed arithmetic sequence). */
const outermost = []
const collect = (node, inside) => {
  const isFunction = /Function/.test(node.type)
  if (isFunction && !inside) outermost.push(node)
  for (const c of children(node)) collect(c, inside || isFunction)
}
collect(parse(source), false)
let seed = 7
const draw = () => (seed = (seed * 1103515245 + 12345) % 2147483648)
const order = outermost.map((f) => [draw(), f]).sort((a, b) => a[0] - b[0]).map(([, f]) => f)

/** build/register.js with bodies emptied until `1 - keep` of its nodes are gone. */
function keeping(keep) {
  const edits = []
  let removed = 0
  for (const f of order) {
    if (removed >= whole * (1 - keep)) break
    const body = count(f.body).nodes
    if (body <= 1) continue
    edits.push([f.body.start, f.body.end, f.body.type === 'BlockStatement' ? '{}' : '0'])
    removed += body - 1
  }
  let text = source
  for (const [start, end, by] of edits.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + by + text.slice(end)
  return text
}

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-scan-curve-'))
process.on('exit', () => fs.rmSync(base, { recursive: true, force: true, maxRetries: 5 }))
const plugins = [{ name: 'floor', dir: path.join(E2E_DIR, 'passthrough-plugin') }]
const vendored = [...new Set([...source.matchAll(/from\s*"\.\.\/(vendor\/[\w.-]+\.js)"/g)].map((m) => m[1]))]
for (const keep of keeps) {
  const text = keeping(keep)
  const dir = path.join(base, `keep-${keep}`)
  const write = (rel, content) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), content)
  }
  for (const rel of ['.claude-plugin/plugin.json', 'hooks/hooks.json']) write(rel, fs.readFileSync(path.join(REPO_DIR, rel)))
  write('build/register.js', text)
  await writeStandIns(REPO_DIR, vendored, dir)
  plugins.push({ name: `keep ${keep}`, dir, ...count(parse(text)), bytes: Buffer.byteLength(text) })
}

const samples = Object.fromEntries(plugins.map((p) => [p.name, []]))
const model = await startFakeModel({ scenario: { prompt: 'hi', steps: [[{ type: 'text', text: 'ok' }]] }, dir: path.join(base, 'model'), ttlS: 3600 })
for (let round = 0; round <= rounds; round++) {
  // Each round starts one further on, so none always runs first; round 0 warms up.
  for (const p of plugins.map((_, i) => plugins[(i + round) % plugins.length])) {
    const dir = path.join(base, `${round}-${p.name.replace(/\W+/g, '-')}`)
    const home = path.join(dir, 'home')
    fs.mkdirSync(home, { recursive: true })
    const debug = path.join(dir, 'debug.log')
    await run(claudeBin(), ['-p', 'hi', '--plugin-dir', p.dir, '--debug-file', debug], { cwd: home, env: engineEnv({ home, modelPort: model.port }), timeoutS: 60 })
    const { scanMs } = scanOf(debugLines(fs.existsSync(debug) ? fs.readFileSync(debug, 'utf8') : ''))
    if (round > 0 && scanMs !== undefined) samples[p.name].push(scanMs)
    fs.rmSync(dir, { recursive: true, force: true })
  }
  process.stderr.write(`  round ${round}/${rounds}\n`)
}
await model.close?.()

const floor = median(samples.floor)
console.log(`The scan of build/register.js (${whole} nodes) cut by share, vendored bundles as stand-ins, ${rounds} rounds, load ${os.loadavg()[0].toFixed(1)}`)
console.log(`  ${'copy'.padEnd(10)} ${'nodes'.padStart(6)} ${'funcs'.padStart(5)} ${'KB'.padStart(4)} ${'scan'.padStart(6)} ${'above'.padStart(6)}   samples (ms)`)
for (const p of plugins) {
  const m = median(samples[p.name])
  const kb = p.bytes === undefined ? '' : (p.bytes / 1024).toFixed(0)
  console.log(`  ${p.name.padEnd(10)} ${String(p.nodes ?? '').padStart(6)} ${String(p.functions ?? '').padStart(5)} ${kb.padStart(4)} ${m.toFixed(1).padStart(6)} ${(p === plugins[0] ? '' : `+${(m - floor).toFixed(1)}`).padStart(6)}   ${samples[p.name].join(' ')}`)
}
const points = plugins.slice(1).map((p) => [p.nodes, median(samples[p.name]) - floor]).filter(([, y]) => Number.isFinite(y))
if (points.length >= 2) {
  const mx = points.reduce((s, [x]) => s + x, 0) / points.length
  const my = points.reduce((s, [, y]) => s + y, 0) / points.length
  const slope = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / points.reduce((s, [x]) => s + (x - mx) ** 2, 0)
  console.log(`  the line through the medians: +${(my - slope * mx).toFixed(1)} ms at no node, ${(slope * 1000).toFixed(2)} µs a node`)
}
process.exit(0)
