#!/usr/bin/env node
// What each hook call costs the plugin, and what composition costs within it: compose(options) once a
// plugin load, useCases(ports) once a hook call, and a short session hook by hook (session.start,
// prompt.submit, prompt.context, a guarded and an unguarded edit, a Bash `npm test`, turn.complete,
// classic.SessionEnd, session.end after /clear), over Node-side ports: a real clock, store and Hark in
// memory answering at once. Prints figures; asserts nothing.
//
//   node scripts/bench-hooks.mjs [--against <git-ref>] [--calls] [runs]   (runs: sessions per build, 100 by default;
//                                                                        --calls lists each hook's engine calls)
//
// With --against, the ref is checked out with `git worktree add --detach` in a temp folder (node_modules
// linked to this one's) and the same entry, scripts/bench/hooks-entry.ts from the working tree, is bundled
// in both trees, so both columns run the same driver over each tree's composition root and use cases. The
// two bundles load in this one process, and every measurement alternates between them (A B, B A, A B, ...:
// which goes first flips each round, as a fixed order cost the first column about 7% in useCases), with a full
// collection before each block, so a busy machine slows both columns alike. Compare the columns of one run:
// with two builds loaded every figure reads higher than in a run of one.
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = 'scripts/bench/hooks-entry.ts'
const args = process.argv.slice(2)
const at = args.indexOf('--against')
const against = at < 0 ? undefined : args[at + 1]
if (at >= 0 && (against === undefined || against.startsWith('-'))) throw new Error('--against needs a git ref')
const opts = { calls: args.includes('--calls') }
const rest = (at < 0 ? args : args.filter((_, i) => i !== at && i !== at + 1)).filter((a) => a !== '--calls')
const runs = Number(rest[0] ?? 100)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a positive whole number, not ${rest[0]}`)

// A full collection before each measured block, so one build's garbage is not collected in the other's time.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')

const scratch = mkdtempSync(join(tmpdir(), 'hark-bench-hooks-'))
const git = (...argv) => execFileSync('git', ['-C', root, ...argv], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

let other
/** Removes the temp worktree (the node_modules link first, so nothing follows it) and the temp folder. */
function cleanUp() {
  if (other !== undefined && existsSync(other)) {
    const link = join(other, 'node_modules')
    if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() === true) unlinkSync(link)
    try {
      git('worktree', 'remove', '--force', other)
    } catch (error) {
      console.error(`could not remove the worktree ${other}: ${error.message}`)
    }
  }
  rmSync(scratch, { recursive: true, force: true })
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUp()
    process.exit(130)
  })
}

/** Bundles the working tree's entry inside `tree` and imports it. */
async function load(tree, name) {
  if (tree !== root) {
    mkdirSync(join(tree, dirname(ENTRY)), { recursive: true })
    copyFileSync(join(root, ENTRY), join(tree, ENTRY))
  }
  const out = await build({ entryPoints: [join(tree, ENTRY)], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'error' })
  const file = join(scratch, `${name}.mjs`)
  writeFileSync(file, out.outputFiles[0].text)
  return import(pathToFileURL(file).href)
}

const builds = []
try {
  const dirty = git('status', '--porcelain', '--untracked-files=no') === '' ? '' : ', changed'
  builds.push({ label: `working tree (${git('rev-parse', '--short', 'HEAD')}${dirty})`, entry: await load(root, 'a') })
  if (against !== undefined) {
    let commit
    try {
      commit = git('rev-parse', '--verify', '--quiet', `${against}^{commit}`)
    } catch {
      throw new Error(`${against} names no commit`)
    }
    other = join(scratch, 'tree')
    git('worktree', 'add', '--detach', other, commit)
    symlinkSync(realpathSync(join(root, 'node_modules')), join(other, 'node_modules'))
    builds.push({ label: `${against} (${commit.slice(0, 7)})`, entry: await load(other, 'b') })
  }

  const compose = builds.map(() => [])
  const useCases = builds.map(() => [])
  const sessions = builds.map(() => [])
  const last = []
  // Warm up each build (the JIT, the first module-level work), then measure in alternation. Which build
  // goes first flips every round (A B, B A, A B, ...), so neither always runs right after a collection.
  for (const b of builds) {
    b.entry.composeTimes(50)
    b.entry.useCasesTimes(500)
    for (let i = 0; i < 3; i++) await b.entry.sessionOnce()
  }
  const inTurn = (round) => (round % 2 === 0 ? [...builds.entries()] : [...builds.entries()].reverse())
  for (let round = 0; round < 20; round++) {
    for (const [i, b] of inTurn(round)) {
      gc()
      compose[i].push(...b.entry.composeTimes(10))
      gc()
      useCases[i].push(...b.entry.useCasesTimes(100))
    }
  }
  for (let run = 0; run < runs; run++) {
    for (const [i, b] of inTurn(run)) {
      gc()
      last[i] = await b.entry.sessionOnce()
      sessions[i].push(last[i].hooks)
    }
  }

  const quantile = (xs, q) => {
    const s = [...xs].sort((a, b) => a - b)
    return s[Math.min(s.length - 1, Math.floor(q * s.length))]
  }
  const width = 44
  const col = 26
  const row = (name, cells) => console.log(`${name.padEnd(width)}${cells.map((c) => c.padStart(col)).join('')}`)
  const us = (xs) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)} µs`
  const ms = (xs) => `${quantile(xs, 0.5).toFixed(3)} ms`

  console.log(`hook cost (node ${process.version}, ${cpus().length} cpus): ${runs} sessions per build, builds alternating`)
  row('', builds.map((b) => b.label))
  row('compose(options), once a load: median / p95', compose.map(us))
  row('useCases(ports), once a hook call: med / p95', useCases.map(us))
  row(`session, all hooks: median of ${runs}`, sessions.map((s) => ms(s.map((hooks) => hooks.reduce((sum, [, t]) => sum + t, 0)))))
  const names = sessions[0][0].map(([name]) => name)
  for (const [h, name] of names.entries()) row(`  ${name}`, sessions.map((s) => ms(s.map((hooks) => hooks[h][1]))))
  // Each engine call is a hop from the hooks worker to the engine and back (docs/performance.md): count
  // those a hook waits through, per hook, and those its background work makes after it settled.
  // Counted once more with each engine call answering a macrotask later, as in the engine.
  if (opts.calls) for (const [i, b] of builds.entries()) last[i] = await b.entry.sessionOnce(true)
  if (last.every((l) => l.calls !== undefined)) {
    const total = (m) => [...m.values()].reduce((a, b) => a + b, 0)
    const detail = (m) => [...m].map(([k, n]) => `${k.replace(/^(\w)\w*\./, '$1.')}×${n}`).join(' ')
    console.log('engine calls per hook: made before the hook settled (after it, by work left running)')
    for (const [h, [name]] of last[0].calls.entries()) row(`  ${name}`, last.map((l) => `${total(l.calls[h][1])} (${total(l.calls[h][2])})`))
    if (opts.calls) for (const [i, b] of builds.entries()) for (const [name, inside, after] of last[i].calls) console.log(`${b.label} ${name}: ${detail(inside)}${after.size > 0 ? ` | after: ${detail(after)}` : ''}`)
  }
  for (const [i, b] of builds.entries()) {
    const { sent, asked, logged } = last[i]
    console.log(`${b.label}: Hark was sent ${sent.join(', ')}; the guard asked ${asked}; ${logged.length} log line${logged.length === 1 ? '' : 's'}${logged.length > 0 ? `: ${logged[0]}` : ''}`)
  }
} catch (error) {
  console.error(`bench-hooks: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  cleanUp()
}
process.exit()
