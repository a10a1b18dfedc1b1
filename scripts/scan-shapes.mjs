#!/usr/bin/env node
// node scripts/scan-shapes.mjs [rounds]: what the engine's scan of a hooks module (docs/engine.md, "Before the
// worker") costs for the same amount of syntax written in different shapes. Each shape is one generated file of about
// 25,000 syntax nodes (acorn's count) imported by a copy of the pass-through floor (e2e/passthrough-plugin); each
// round starts every copy in turn with a real `claude -p hi` (a scratch HOME, a scripted model, no Hark) and reads
// the scan (`Found N plugins` → `hooks worker spawned`) from its debug log. Prints the medians above the floor and
// the µs a node. Asserts nothing; no test runs it.
//
//   flat     1,500 top-level function declarations
//   nested   1,500 arrow functions inside one function, each reading its parameters (closures)
//   deep     the same split over 30 functions nested in one another, each inner one reading the outermost's names
//   methods  1,500 methods of one class reading `this`
// and the same amount of syntax as one array of one kind of element each (one node an element but members and calls):
//   numbers  25,000 number literals        names    25,000 reads of one declared name
//   members  8,333 reads `a.b`              calls    12,500 calls `a()`
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as acorn from 'acorn'
import { E2E_DIR, claudeBin, engineEnv, run } from '../e2e/lib/session.mjs'
import { startFakeModel } from '../e2e/lib/fake-model.mjs'
import { debugLines, median, moduleLoad } from '../e2e/lib/timings.mjs'

const rounds = Number(process.argv[2] ?? 7)
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node scripts/scan-shapes.mjs [rounds]   (a whole number ≥ 1, default 7)')
  process.exit(2)
}
const N = 1500
const list = (f) => Array.from({ length: N }, (_, i) => f(i))
const SHAPES = {
  flat: list((i) => `export function f${i}(a, b) { const c = a + b; return c * ${i} }`).join('\n'),
  nested: `export function outer(a, b) {\n${list((i) => `  const f${i} = (x, y) => { const c = a + x; return c * b }`).join('\n')}\n  return [${list((i) => `f${i}`).join(',')}]\n}`,
  deep: (() => {
    const depth = 30
    let s = ''
    for (let d = 0; d < depth; d++) s += `function g${d}(a${d}) {\n${Array.from({ length: N / depth }, (_, k) => `  const h${d}_${k} = (x, y) => { const c = a0 + x; return c * a${d} }`).join('\n')}\n`
    return `${s}return 1\n${'}\n'.repeat(depth)}export const top = g0`
  })(),
  methods: `export class K {\n${list((i) => `  m${i}(a, b) { const c = this.a + b; return c * ${i} }`).join('\n')}\n}`,
  numbers: `export const T = [${'1,'.repeat(25000)}]`,
  names: `const a = 1\nexport const T = [${'a,'.repeat(25000)}]`,
  members: `const a = {}\nexport const T = [${'a.b,'.repeat(8333)}]`,
  calls: `const a = () => 1\nexport const T = [${'a(),'.repeat(12500)}]`,
}
const nodes = (code) => {
  let n = 0
  const visit = (x) => {
    if (x === null || typeof x !== 'object' || typeof x.type !== 'string') return
    n++
    for (const k of Object.keys(x)) for (const y of [x[k]].flat()) if (y !== null && typeof y === 'object') visit(y)
  }
  visit(acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module' }))
  return n
}

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-scan-shapes-'))
process.on('exit', () => fs.rmSync(base, { recursive: true, force: true, maxRetries: 5 }))
const floorDir = path.join(E2E_DIR, 'passthrough-plugin')
const plugins = { floor: { dir: floorDir, nodes: 0 } }
for (const [name, code] of Object.entries(SHAPES)) {
  const dir = path.join(base, name)
  fs.cpSync(floorDir, dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'hooks', 'shape.js'), code)
  const register = path.join(dir, 'hooks', 'register.ts')
  fs.writeFileSync(register, fs.readFileSync(register, 'utf8').replace(/^(import type .*\n)/, `$1import * as kept from './shape.js'\nexport const keep = [kept]\n`))
  plugins[name] = { dir, nodes: nodes(code) }
}
const model = await startFakeModel({ scenario: { prompt: 'hi', steps: [[{ type: 'text', text: 'ok' }]] }, dir: path.join(base, 'model'), ttlS: 3600 })
const samples = Object.fromEntries(Object.keys(plugins).map((k) => [k, []]))
const names = Object.keys(plugins)
for (let round = 0; round <= rounds; round++) {
  // Each round starts one further on, so none always runs first; round 0 warms up.
  for (const name of names.map((_, i) => names[(i + round) % names.length])) {
    const dir = path.join(base, `${round}-${name}`)
    const home = path.join(dir, 'home')
    fs.mkdirSync(home, { recursive: true })
    const debug = path.join(dir, 'debug.log')
    await run(claudeBin(), ['-p', 'hi', '--plugin-dir', plugins[name].dir, '--debug-file', debug], { cwd: home, env: engineEnv({ home, modelPort: model.port }), timeoutS: 60 })
    const load = moduleLoad(debugLines(fs.existsSync(debug) ? fs.readFileSync(debug, 'utf8') : ''))
    if (round > 0 && load?.scanMs !== undefined) samples[name].push(load.scanMs)
  }
}
const floor = median(samples.floor)
console.log(`The scan by shape, ${rounds} rounds, load ${os.loadavg()[0].toFixed(1)}: median ms (above the floor), µs a node`)
for (const [name, p] of Object.entries(plugins)) {
  const m = median(samples[name])
  console.log(`  ${name.padEnd(8)} ${String(p.nodes).padStart(6)} nodes  ${String(m).padStart(4)} ms${name === 'floor' ? '' : `  (+${m - floor})  ${((1000 * (m - floor)) / p.nodes).toFixed(1)} µs`}`)
}
await model.close?.()
process.exit(0)
