#!/usr/bin/env node
// How long the exit hooks take (classic.SessionEnd's check, then session.end's handoff), with Hark
// answering in 100 ms and with Hark hung, and with a slow store. Prints figures; asserts nothing.
// The use cases run in Node over ports like the engine's (real clock, store and Hark in memory).
//
//   node scripts/bench-exit.mjs [runs]
import { build } from 'esbuild'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir, cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const runs = Number(process.argv[2] ?? 30)
const out = await build({ entryPoints: [join(root, 'scripts/bench/exit-entry.ts')], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'error' })
const file = join(mkdtempSync(join(tmpdir(), 'hark-bench-')), 'exit.mjs')
writeFileSync(file, out.outputFiles[0].text)
const { exitOnce } = await import(pathToFileURL(file).href)
const sleep = (ms) => new Promise((done) => setTimeout(done, ms))

const scenarios = [
  ['Hark answers in 100 ms', { harkDelayMs: 100, storeDelayMs: 0 }],
  ['Hark hung', { harkDelayMs: 'hang', storeDelayMs: 0 }],
  ['Hark answers in 100 ms, store 50 ms a call', { harkDelayMs: 100, storeDelayMs: 50 }],
  ['Hark hung, store hung past 150 ms a call', { harkDelayMs: 'hang', storeDelayMs: 1_000 }],
]
console.log(`exit hook, ${runs} runs each (node ${process.version}, ${cpus().length} cpus); window 1500 ms`)
for (const [name, scenario] of scenarios) {
  const times = []
  let sent = []
  const n = scenario.storeDelayMs >= 1_000 ? Math.min(runs, 5) : runs
  for (let i = 0; i < n; i++) {
    const r = await exitOnce(scenario, sleep)
    times.push(r.ms)
    sent = r.sent
  }
  times.sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]
  console.log(`${name.padEnd(44)} median ${median.toFixed(1).padStart(7)} ms   max ${times.at(-1).toFixed(1).padStart(7)} ms   sent: ${sent.join(', ')}   (${n} runs)`)
}
process.exit(0)
