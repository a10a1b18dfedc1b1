#!/usr/bin/env node
// The edit guard's cost (docs/guard.md, Performance): checking one edit against 200 scoped records,
// compiled once as the plugin does, and compiling them. Prints figures only; nothing here is a test.
//
//   node scripts/bench-guard.mjs
//
// core/domain/decision.ts is bundled on the fly with esbuild and imported from a data: URL; globs go
// through vendor/picomatch.js with GLOB_OPTIONS, as in the plugin.
import { build } from 'esbuild'
import { availableParallelism, cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

const bundled = await build({
  stdin: {
    contents: "export * from './core/domain/decision.ts'\nexport { GLOB_OPTIONS } from './core/domain/glob-options.ts'\n",
    resolveDir: root,
    sourcefile: 'bench-entry.ts',
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
})
const domain = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`)
const { default: picomatch } = await import(pathToFileURL(join(root, 'vendor/picomatch.js')).href)
const { compileGuard, parseDecisionEntries, GLOB_OPTIONS } = domain
const compile = (g) => picomatch(g, GLOB_OPTIONS)

// ---------------------------------------------------------------------------------------------
// Data: 200 settled decisions as Hark sends them, scoped the ways SPEC.md allows.

let seed = 42
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = (list) => list[Math.floor(rand() * list.length)]
const words = ['billing', 'auth', 'db', 'api', 'ui', 'search', 'payments', 'mobile', 'infra', 'reports', 'admin', 'mail']

function realisticEntry(i) {
  const w = pick(words)
  const base = { id: `D-${i}`, title: `Decision ${i} about ${w}`, why: 'Because the team agreed.', status: 'accepted' }
  switch (i % 6) {
    case 0: return { ...base, scope: { paths: [`src/${w}${i}/**`] } }
    case 1: return { ...base, scope_paths: [`src/${w}${i}/**/*.ts`, `*.${w}${i}`], scope_area: w }
    case 2: return { ...base, title: `${base.title} (scope: lib/${w}${i}/, docs/${w}${i}.md)` }
    case 3: return { ...base, body: `Context.\nscope: ${w}${i}` }
    case 4: return { ...base, areas: [`${w}${i}`, `svc/${w}${i}`] }
    default: return { ...base, paths: [`app/(${w}${i})/**`, `packages/*/src/${w}${i}/**`, `!packages/legacy/**`] }
  }
}

const payload = { entries: Array.from({ length: 200 }, (_, i) => realisticEntry(i)) }
const records = parseDecisionEntries(payload)
if (records.length !== 200) throw new Error(`expected 200 records, parsed ${records.length}`)

// Edits: files no record covers (the common case), and one file each record kind covers.
const misses = [
  'src/components/Button.tsx', 'README.md', 'package.json', 'src/index.ts', 'tests/unit/a.spec.ts',
  'docs/guide/getting-started.md', 'packages/web/src/pages/index.tsx', 'src/deeply/nested/folder/structure/with/many/levels/file.ts',
]
const word = (i) => /about (\w+)$/.exec(payload.entries[i].title.replace(/ \(scope:.*$/, ''))[1] + i
const hits = [
  `src/${word(0)}/deposit.ts`, `src/${word(1)}/a/b.ts`, `lib/${word(2)}/x.md`, `x/${word(3)}/y.ts`,
  `svc/${word(4)}/handler.ts`, `app/(${word(5)})/page.tsx`,
]
const editPaths = [...misses, ...hits]

// ---------------------------------------------------------------------------------------------
// Timing

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b)
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))]
  return { median: at(0.5), p95: at(0.95), max: s[s.length - 1], n: s.length }
}

function time(fn, runs) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    fn(i)
    samples.push(performance.now() - t)
  }
  return stats(samples)
}

const fmt = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`)
const line = (label, s) => console.log(`${label.padEnd(66)} median ${fmt(s.median).padStart(9)}   p95 ${fmt(s.p95).padStart(9)}   max ${fmt(s.max).padStart(9)}   (n=${s.n})`)

// Warm up the JIT the way a long session would, then measure.
for (let i = 0; i < 20; i++) compileGuard(records, compile).match(editPaths[i % editPaths.length])

console.log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, nproc ${availableParallelism()}, node ${process.version}, ${process.platform}/${process.arch}`)
console.log(`records: ${records.length} settled, scoped decisions (${records.reduce((n, r) => n + r.scope.paths.length, 0)} globs, ${records.reduce((n, r) => n + r.scope.areas.length, 0)} areas)`)
console.log('')

line('parse a 200-entry list_journal_entries payload', time(() => parseDecisionEntries(payload), 300))
line('compile 200 records (once per fetch)', time(() => compileGuard(records, compile), 300))
const guard = compileGuard(records, compile)
line('check one edit against 200 compiled records', time((i) => guard.match(editPaths[i % editPaths.length]), 50_000))
line('  of which: a file no record covers', time((i) => guard.match(misses[i % misses.length]), 50_000))
line('  of which: a file a record covers', time((i) => guard.match(hits[i % hits.length]), 50_000))
console.log(`  (records matched per path: misses ${misses.map((p) => guard.match(p).length).join(' ')}; hits ${hits.map((p) => guard.match(p).length).join(' ')})`)
console.log('')

// Upper bounds: every record at the glob cap, and globs at the complexity cap against a hostile name.
const wide = Array.from({ length: 200 }, (_, i) => ({
  key: `id:w${i}`, kind: 'decision', title: `W${i}`,
  scope: { paths: Array.from({ length: 16 }, (_, j) => (j % 2 ? `src/m${i}/p${j}/**` : `*.e${i}x${j}`)), areas: [] },
}))
line('compile 200 records × 16 globs (the per-record cap)', time(() => compileGuard(wide, compile), 30))
const wideGuard = compileGuard(wide, compile)
line('check one edit against 200 records × 16 globs', time((i) => wideGuard.match(editPaths[i % editPaths.length]), 5_000))

// The slowest globs the limits let through (GUARD_LIMITS), all different (so none is shared) and
// made only of text the path holds (so the plain-text check lets every one reach its regex), on
// paths built to make them backtrack. No real project looks like this; it bounds what one could cost.
const shapes = [(j, k) => `**/*${'a'.repeat(j)}*/**/${'a'.repeat(k)}`, (j, k) => `**/${'a'.repeat(j)}*/**/*${'a'.repeat(k)}b`]
const hostile = Array.from({ length: 200 }, (_, i) => ({
  key: `id:h${i}`, kind: 'decision', title: `H${i}`,
  scope: { paths: Array.from({ length: 16 }, (_, j) => shapes[j % 2](1 + (i % 40), 1 + ((i * 16 + j) % 50))), areas: [] },
}))
const hostileGuard = compileGuard(hostile, compile)
const hostilePaths = [`${'a/'.repeat(511)}y`, `${'a'.repeat(60)}/`.repeat(16) + 'y', `${'a'.repeat(20)}/`.repeat(48) + 'ab/y']
for (const p of hostilePaths) hostileGuard.match(p)
const hostileLabels = ['one-letter folders', '16 folders of 60 letters', '48 folders of 20 letters']
hostilePaths.forEach((p, n) => line(`worst case: 200 × 16 hostile globs, ${hostileLabels[n]}`, time(() => hostileGuard.match(p), 5)))
