#!/usr/bin/env node
// `npm test`: every check the project has, in order, each with a scratch HOME where the engine runs.
// Exit 1 when any fails. Steps: the vendored bundles are fresh; build/register.js (the module the engine
// loads) is what the sources build to; its syntax nodes are within budget.json; the engine's declarations are laid;
// the layering (scripts/check-layers.mjs); the docs (scripts/check-docs.mjs); tsc; tsc over the specs; the privacy check; claude plugin
// validate --strict; vitest; claude plugin test; end to end, headless; end to end in a terminal (tmux); the fault matrix.
//
//   node scripts/test.mjs [--only name,name] [--skip name,name]
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { claudeBinary, scratchHome } from './engine.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const arg = (name) => {
  const i = process.argv.indexOf(name)
  return i < 0 ? [] : (process.argv[i + 1] ?? '').split(',').filter(Boolean)
}
const only = arg('--only')
const skip = arg('--skip')
const claude = claudeBinary()
const bin = (name) => join(root, 'node_modules', '.bin', name)

const steps = [
  ['vendor', 'vendored bundles match the pinned packages', ['node', 'scripts/build-vendor.mjs', '--check']],
  ['build', 'build/register.js, the module the engine loads, is what the sources build to (rebuilt if not)', ['node', 'scripts/build-module.mjs', '--check']],
  ['budget', "the module's syntax nodes within budget.json (the engine's scan at every start follows them)", ['node', 'scripts/module-parts.mjs', '--check']],
  ['types', "the engine's declarations are laid", ['node', 'scripts/engine-types.mjs']],
  ['layers', 'dependencies point inward (core/ imports only core/, domain < ports < application)', ['node', 'scripts/check-layers.mjs']],
  ['docs', 'the docs say what is: every name docs/architecture.md gives is in the code, no doc names a commit', ['node', 'scripts/check-docs.mjs']],
  ['tsc', 'tsc --noEmit under strict', [bin('tsc'), '-p', 'tsconfig.json']],
  ['tsc-spec', 'tsc over the specs', [bin('tsc'), '-p', 'spec/tsconfig.json']],
  ['privacy', 'the privacy check', ['bash', 'scripts/privacy-check.sh']],
  ['validate', 'claude plugin validate --strict', [claude, 'plugin', 'validate', '--strict', '.']],
  ['validate-marketplace', 'claude plugin validate --strict (marketplace)', [claude, 'plugin', 'validate', '--strict', '.claude-plugin/marketplace.json']],
  ['vitest', 'vitest: domain and adapter specs', [bin('vitest'), 'run']],
  ['engine', 'claude plugin test: the plugin in the engine', [claude, 'plugin', 'test', '.']],
  ['e2e', 'end to end: a real headless session', ['node', 'e2e/run-e2e.mjs']],
  ['tty', 'end to end: an interactive session in a terminal (tmux)', ['node', 'e2e/tty.mjs']],
  ['faults', 'the fault matrix: Hark and the machine failing in real sessions (writes docs/reliability.md)', ['node', 'e2e/run-faults.mjs']],
]

const results = []
for (const [name, title, argv] of steps) {
  if ((only.length > 0 && !only.includes(name)) || skip.includes(name)) continue
  if (name === 'e2e' && !existsSync(join(root, 'e2e/run-e2e.mjs'))) continue
  console.log(`\n=== ${title} (${name})`)
  const started = Date.now()
  const home = scratchHome()
  const run = spawnSync(argv[0], argv.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', NO_COLOR: '1' },
  })
  rmSync(home, { recursive: true, force: true })
  const ok = run.status === 0
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) })
  console.log(`=== ${ok ? 'PASS' : 'FAIL'} ${name} (${results.at(-1).seconds} s)`)
}
console.log('\nSummary:')
for (const r of results) console.log(`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  ${r.seconds} s`)
process.exit(results.every((r) => r.ok) ? 0 : 1)
