#!/usr/bin/env node
// The edit guard's cost (docs/guard.md, Performance): checking one edit against 200 scoped records,
// compiled once as the plugin does, and compiling them. Prints figures only; nothing here is a test.
//
//   node scripts/bench-guard.mjs
//
// core/domain/guard/ is bundled on the fly with esbuild and imported from a data: URL, and compiles
// each glob's names with its own matcher, as in the plugin.
import { build } from 'esbuild'
import { availableParallelism, cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

const bundled = await build({
  stdin: {
    contents: [
      "export { parseDecisionEntries } from './core/domain/guard/records.ts'",
      "export { prepareGlob } from './core/domain/guard/glob.ts'",
      "export { compileGuard } from './core/domain/guard/compiled-guard.ts'",
      "export { GUARD_LIMITS } from './core/domain/guard/limits.ts'",
    ].join('\n'),
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
const { compileGuard, parseDecisionEntries } = domain

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
for (let i = 0; i < 20; i++) compileGuard(records).match(editPaths[i % editPaths.length])

console.log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, nproc ${availableParallelism()}, node ${process.version}, ${process.platform}/${process.arch}`)
console.log(`records: ${records.length} settled, scoped decisions (${records.reduce((n, r) => n + r.scope.paths.length, 0)} globs, ${records.reduce((n, r) => n + r.scope.areas.length, 0)} areas)`)
console.log('')

line('parse a 200-entry list_journal_entries payload', time(() => parseDecisionEntries(payload), 300))
line('compile 200 records (once per fetch)', time(() => compileGuard(records), 300))
const guard = compileGuard(records)
line('check one edit against 200 compiled records', time((i) => guard.match(editPaths[i % editPaths.length]), 50_000))
line('  of which: a file no record covers', time((i) => guard.match(misses[i % misses.length]), 50_000))
line('  of which: a file a record covers', time((i) => guard.match(hits[i % hits.length]), 50_000))
console.log(`  (records matched per path: misses ${misses.map((p) => guard.match(p).length).join(' ')}; hits ${hits.map((p) => guard.match(p).length).join(' ')})`)
console.log('')

// Upper bound of a plausible guard: every record at the glob cap (folders, extensions in a folder,
// extensions anywhere, braces, a route group), within every cap of GUARD_LIMITS.
const wideGlob = (i, j) => [`src/m${i}/p${j}/**`, `m${i}/*.e${j}`, `*.x${i % 64}`, `lib/{a,b}${i}/**`][j % 4]
const wide = Array.from({ length: 200 }, (_, i) => ({
  key: `id:w${i}`, kind: 'decision', title: `W${i}`,
  scope: { paths: Array.from({ length: 16 }, (_, j) => wideGlob(i, j)), areas: [] },
}))
{
  const names = new Set(wide.flatMap((r) => r.scope.paths.flatMap((g) => domain.prepareGlob(g).patterns.flatMap((p) => p.split('/')))))
  const wild = [...names].filter((n) => /[*?[]/.test(n) && n !== '**').length
  console.log(`200 records × 16 globs: ${wide.length * 16} globs, ${wild} distinct wildcard names (cap ${domain.GUARD_LIMITS.wildcardNamesPerGuard})`)
}
line('compile 200 records × 16 globs (the per-record cap)', time(() => compileGuard(wide), 30))
const wideGuard = compileGuard(wide)
line('check one edit against 200 records × 16 globs', time((i) => wideGuard.match(editPaths[i % editPaths.length]), 5_000))

// ---------------------------------------------------------------------------------------------
// Worst cases (docs/guard.md, Performance): what a hostile Hark could send, against paths built to
// make it slow. Each row times compiling and one check cold (the first run, as a hook would meet it),
// then the check warm. No real project looks like this; it bounds what one could cost.

const { GUARD_LIMITS, prepareGlob } = domain
const N = GUARD_LIMITS.pathLength
const decisionWith = (key, paths) => ({ key, kind: 'decision', title: key, scope: { paths, areas: [] } })

function worst(label, records, paths) {
  let t = performance.now()
  const guard = compileGuard(records)
  const compileMs = performance.now() - t
  let cold = 0
  for (const p of paths) {
    t = performance.now()
    guard.match(p)
    cold = Math.max(cold, performance.now() - t)
  }
  const warm = paths.map((p) => time(() => guard.match(p), 20))
  const slowest = warm.reduce((a, b) => (b.median > a.median ? b : a))
  console.log(`${label.padEnd(66)} compile ${fmt(compileMs).padStart(9)}   check cold ${fmt(cold).padStart(9)}   warm median ${fmt(slowest.median).padStart(9)}   max ${fmt(slowest.max).padStart(9)}`)
}

// Paths at the 1,024-character limit: one long name, many one-letter names, names of 2, 20 and 60
// letters, each ending in letters no glob below expects where it stands.
const hostilePaths = (tail = 'y') => [
  `${'a'.repeat(N - tail.length)}${tail}`,
  `${'a/'.repeat((N - tail.length) / 2)}${tail}`.slice(0, N),
  `${'aa/'.repeat(Math.floor((N - tail.length) / 3))}${tail}`,
  `${`${'a'.repeat(20)}/`.repeat(Math.floor((N - tail.length) / 21))}${tail}`,
  `${`${'a'.repeat(60)}/`.repeat(Math.floor((N - tail.length) / 61))}${tail}`,
  `${'a/'.repeat(200)}${'a'.repeat(N - 400 - tail.length)}${tail}`,
]

// The backtracking globs (extglobs that backtracked for 27 s and over 10 minutes): now refused when read.
const backtracking = ['@(|?)'.repeat(32) + '[0-9]', '@(|?)'.repeat(36) + '[0-9]', '?(a)'.repeat(40) + 'b']
console.log(`the backtracking globs are ${backtracking.map((g) => (prepareGlob(g) === undefined ? 'refused' : 'KEPT')).join(', ')}`)
worst("the backtracking globs, vs src/authenticationservicehandler.ts", [decisionWith('t', backtracking)], ['src/authenticationservicehandler.ts', ...hostilePaths()])

// The slowest single globs found (spec/core/guard/hostile-globs.spec.ts fuzzes thousands more): four
// names with two `*` runs (the per-glob cap), each tried on a 1,000-letter name; sixteen wildcard names
// between two `**`, each tried at every name of the path; a long run of names between two `**`.
const singles = [
  ['4 costly names, each vs a 1,000-letter name', '{*a*[b],*a*[b]?,*a*[b]??,*a*[b]???}', 'y'],
  ['16 wildcard names between `**`, vs 512 names', '**/{?a,a?}{?,??,???,????,?????,??????,???????,????????}/**', 'y'],
  ['15 names between `**`, 16 ways', `**/${'a/'.repeat(13)}{b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q}/**`, 'by'],
  ['16 brackets after a `*`, 16 ways', `**/*${'[a]'.repeat(16)}{b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q}/**`, 'bcdefghijklmnopqy'],
]
for (const [label, glob, tail] of singles) worst(`worst single glob: ${label}`, [decisionWith('s', [glob])], hostilePaths(tail))

// A whole guard built to fill the caps, in the order that costs most: 400 records (200 decisions, 200
// non-goals) of 16 globs. The costly names first (each tried on the long name), then wildcard names
// that fail on every short name (each tried at every name, between two `**`), then runs of up to 14
// names between two `**` that fail at their last name, then plain globs up to 6,400.
const globs = []
for (let k = 0; k < GUARD_LIMITS.costlyNamesPerGuard; k++) globs.push(`*a*${'[b]'.repeat(1 + (k % 8))}${'?'.repeat(Math.floor(k / 8))}`)
for (let k = 0; k < GUARD_LIMITS.wildcardNamesPerGuard - GUARD_LIMITS.costlyNamesPerGuard; k++) globs.push(`[!b]${'?'.repeat(1 + (k % 48))}${'[a]'.repeat(Math.floor(k / 48))}`)
for (let a = 1; a <= 13; a++) for (let j = 1; j <= 48; j++) globs.push(`**/${'a/'.repeat(a)}${'?'.repeat(j)}b/**`)
for (let k = 0; globs.length < 6_400; k++) globs.push(`**/a${k}/**`)
const filled = Array.from({ length: GUARD_LIMITS.compiledRecords }, (_, i) => ({
  ...decisionWith(`f${i}`, globs.slice(i * 16, i * 16 + 16)),
  kind: i < 200 ? 'decision' : 'non-goal',
}))
worst('worst guard: 400 records × 16 globs filling every cap', filled, hostilePaths('by'))
