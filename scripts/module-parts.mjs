#!/usr/bin/env node
// What each part of the hooks module gives Claude Code to read at every start (docs/performance.md, "What
// each part costs"). The engine's scan of the module before the worker follows the number of syntax nodes
// (docs/engine.md, "Before the worker"), so this counts them, the way the engine's parser sees them (acorn):
//   - the files as shipped: build/register.js and each vendor/*.js it imports;
//   - build/register.js by source file: the same entry bundled by esbuild without minifying whitespace,
//     which marks each source file with a `// path` comment, split there and parsed part by part (the
//     counts come out a little above the shipped file's, which the generator then trims: see
//     scripts/fewer-nodes.mjs), largest first, with their functions, declarators and regex literals.
// Prints figures. With --check it prints only the shipped files' total against the budget kept in
// budget.json (`moduleNodes`: the count when it was set, plus 3 %) and exits 1 when the total is above it,
// as `npm test` runs it. Raising the budget is a commit of its own that says what the nodes buy.
//
//   node scripts/module-parts.mjs [--top N] [--json] [--check]
import { parse } from 'acorn'
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: opt } = parseArgs({ options: { top: { type: 'string', default: '25' }, json: { type: 'boolean', default: false }, check: { type: 'boolean', default: false } } })

/** Syntax nodes, functions, variable declarators and regex literals of a piece of JavaScript. */
function count(text) {
  const c = { nodes: 0, functions: 0, declarators: 0, regexes: 0, bytes: Buffer.byteLength(text) }
  const stack = [parse(text, { ecmaVersion: 'latest', sourceType: 'module', allowReturnOutsideFunction: true, allowImportExportEverywhere: true })]
  while (stack.length > 0) {
    const node = stack.pop()
    c.nodes++
    if (/Function/.test(node.type)) c.functions++
    if (node.type === 'VariableDeclarator') c.declarators++
    if (node.type === 'Literal' && node.regex !== undefined) c.regexes++
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) for (const x of v) if (typeof x?.type === 'string') stack.push(x)
      if (typeof v?.type === 'string') stack.push(v)
    }
  }
  return c
}

const shipped = ['build/register.js', ...new Set([...readFileSync(join(root, 'build/register.js'), 'utf8').matchAll(/from\s*"\.\.\/(vendor\/[\w.-]+\.js)"/g)].map((m) => m[1]))]
const files = shipped.map((file) => ({ file, ...count(readFileSync(join(root, file), 'utf8')) }))
const shippedNodes = files.reduce((t, f) => t + f.nodes, 0)

if (opt.check) {
  const budget = JSON.parse(readFileSync(join(root, 'budget.json'), 'utf8')).moduleNodes
  if (!Number.isInteger(budget)) {
    console.error('budget.json: moduleNodes must be a whole number')
    process.exit(1)
  }
  const within = shippedNodes <= budget
  console.log(`${files.map((f) => `${f.file} ${f.nodes}`).join(' + ')} = ${shippedNodes} syntax nodes; budget ${budget} (budget.json): ${within ? `within, ${budget - shippedNodes} to spare` : `OVER by ${shippedNodes - budget}`}`)
  process.exit(within ? 0 : 1)
}

const bundled = await build({
  absWorkingDir: root,
  entryPoints: ['hooks/register.ts'],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  minifySyntax: true,
  write: false,
  logLevel: 'error',
  plugins: [{ name: 'external', setup: (b) => b.onResolve({ filter: /^claude-code$|[\\/]vendor[\\/]/ }, (a) => ({ path: a.path, external: true })) }],
})
const pieces = bundled.outputFiles[0].text.split(/^\/\/ (\S+\.tsx?)$/m)
const parts = []
for (let i = 1; i < pieces.length; i += 2) parts.push({ file: pieces[i], ...count(pieces[i + 1]) })
parts.sort((a, b) => b.nodes - a.nodes)
const total = parts.reduce((t, p) => t + p.nodes, 0)
const byFolder = {}
for (const p of parts) {
  const folder = p.file.split('/').slice(0, p.file.startsWith('core/') ? 2 : 1).join('/')
  byFolder[folder] = (byFolder[folder] ?? 0) + p.nodes
}

if (opt.json) {
  console.log(JSON.stringify({ files, parts, byFolder }, null, 2))
} else {
  const pad = (x, n) => String(x).padStart(n)
  console.log('Shipped files (what the engine reads at every start): syntax nodes, functions, declarators, regex literals, bytes')
  for (const f of files) console.log(`  ${f.file.padEnd(24)} ${pad(f.nodes, 7)} ${pad(f.functions, 6)} ${pad(f.declarators, 6)} ${pad(f.regexes, 5)} ${pad(f.bytes, 8)}`)
  console.log(`  ${'all'.padEnd(24)} ${pad(shippedNodes, 7)}`)
  console.log(`\nbuild/register.js by folder (${total} nodes before the generator's last trim)`)
  for (const [folder, n] of Object.entries(byFolder).sort((a, b) => b[1] - a[1])) console.log(`  ${folder.padEnd(24)} ${pad(n, 7)}  ${pad(((100 * n) / total).toFixed(1), 5)}%`)
  console.log(`\nbuild/register.js by source file, the ${opt.top} largest: nodes, share, functions, declarators, regex literals`)
  for (const p of parts.slice(0, Number(opt.top))) console.log(`  ${p.file.padEnd(48)} ${pad(p.nodes, 6)} ${pad(((100 * p.nodes) / total).toFixed(1), 5)}% ${pad(p.functions, 4)} ${pad(p.declarators, 4)} ${pad(p.regexes, 4)}`)
}
