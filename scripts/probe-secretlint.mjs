#!/usr/bin/env node
// Why secretlint's recommended preset is not bundled (docs/engine.md, "secretlint in the engine"): builds
// the preset with @secretlint/core the way scripts/build-vendor.mjs builds inversify, a step further each
// time, loads each build in the engine through a scratch plugin, and prints what fails; then times the
// last build in node. Prints findings only; nothing here is a test.
//
//   node scripts/probe-secretlint.mjs
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const claude = join(root, 'node_modules/@anthropic-ai/claude-code-linux-x64/claude')
const work = mkdtempSync(join(tmpdir(), 'secretlint-probe-'))
const entry = join(work, 'entry.mjs')
writeFileSync(entry, "export { lintSource } from '@secretlint/core'\nexport { creator } from '@secretlint/secretlint-rule-preset-recommend'\n")

const nodePath = { name: 'node-path', setup(b) {
  b.onResolve({ filter: /^node:path$/ }, (a) => ({ path: a.path, namespace: 'shim' }))
  b.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({ contents: 'export default { basename: (p) => String(p).split("/").pop() }', loader: 'js' }))
} }
const noDynamicImport = { name: 'no-dynamic-import', setup(b) {
  b.onLoad({ filter: /secretlint-rule-preset-recommend[\\/]module[\\/]index\.js$/ }, (a) => ({
    contents: readFileSync(a.path, 'utf8').replace(/await import\((['"])node:[a-z]+\1\)/g, '(() => { throw new Error("no node") })()'),
    loader: 'js',
  }))
} }
const stubProfiler = { name: 'stub-profiler', setup(b) {
  b.onLoad({ filter: /profiler[\\/]module[\\/]browser\.js$/ }, (a) => ({
    contents: 'import { SecretLintProfiler } from "./index.js"; export { SecretLintProfiler }; export const secretLintProfiler = new SecretLintProfiler({ perf: { mark() {}, measure() {}, now: () => 0 }, PerformanceObserver: class { observe() {} disconnect() {} }, enabled: false });',
    loader: 'js',
    resolveDir: dirname(a.path),
  }))
} }

async function bundle(platform, plugins, mainFields) {
  const out = join(work, `bundle-${plugins.length}.js`)
  try {
    await build({ absWorkingDir: root, nodePaths: [join(root, 'node_modules')], entryPoints: [entry], bundle: true, format: 'esm', platform, ...(mainFields === undefined ? {} : { mainFields }), target: 'es2022', minify: true, outfile: out, logLevel: 'silent', plugins })
    return { out, bytes: readFileSync(out).length }
  } catch (e) {
    return { error: e.errors.map((x) => x.text).filter((t, i, all) => all.indexOf(t) === i).join('; ') }
  }
}

/** Loads the bundle in the engine: a scratch plugin whose prompt.context hook lints a sentence holding a GitHub token. */
function inEngine(bundleFile) {
  const dir = join(work, 'plugin')
  rmSync(dir, { recursive: true, force: true })
  for (const d of ['hooks', 'vendor', 'tests', '.claude-plugin']) mkdirSync(join(dir, d), { recursive: true })
  writeFileSync(join(dir, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'secretlint-probe', version: '0.0.1', description: 'probe' }))
  writeFileSync(join(dir, 'hooks/hooks.json'), JSON.stringify({ modules: ['./register.ts'] }))
  writeFileSync(join(dir, 'vendor/secretlint.js'), readFileSync(bundleFile))
  const token = ['gh', 'p_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('')
  writeFileSync(join(dir, 'hooks/register.ts'), `import type { Register } from 'claude-code'
// @ts-ignore
import { lintSource, creator } from '../vendor/secretlint.js'
export const register: Register = (on) => {
  on('prompt.context', async (_$, e, next) => {
    const below = await next(e)
    let text = ''
    try {
      const r = await lintSource({ source: { content: 'token ${token} here', filePath: '/x.txt', ext: '.txt', contentType: 'text' }, options: { config: { rules: [{ id: 'preset', rule: creator }] }, noPhysicFilePath: true } })
      text = 'found ' + JSON.stringify(r.messages.map((m: any) => [m.ruleId, m.range]))
    } catch (err) { text = 'threw: ' + String(err) }
    return { ...below, blocks: [...below.blocks, { name: 'probe', text }] }
  })
}
`)
  writeFileSync(join(dir, 'tests/probe.test.ts'), `import { expect, test } from 'claude-code/testing'
test('probe', { timeoutMs: 30_000 }, async ($, on) => {
  on('prompt.context', (_$, e) => e as never)
  const out = (await $.prompt.context({ blocks: [], instructionFiles: [] } as never)) as { blocks: { name: string; text: string }[] }
  expect(out.blocks.find((b) => b.name === 'probe')?.text).toBe('(the result)')
})
`)
  let text = ''
  try {
    text = execFileSync(claude, ['plugin', 'test', dir], { env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'home-')) }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (e) {
    text = `${e.stdout ?? ''}${e.stderr ?? ''}`
  }
  const line = text.split('\n').find((l) => /did not load|Received:|HooksError/.test(l)) ?? text.trim().split('\n').slice(-3).join(' ')
  return line.trim().replace(dir, '<plugin>')
}

console.log('1. platform neutral, as scripts/build-vendor.mjs:')
const neutral = await bundle('neutral', [], ['module', 'main'])
console.log(`   ${neutral.error ?? `built, ${neutral.bytes} bytes`}`)
const steps = [
  ['2. platform browser, node:path replaced by a basename', [nodePath]],
  ['3. and its dynamic import("node:crypto"/"node:fs") replaced by a throw', [nodePath, noDynamicImport]],
  ['4. and a stub profiler (no PerformanceObserver)', [nodePath, noDynamicImport, stubProfiler]],
]
let last
for (const [title, plugins] of steps) {
  const b = await bundle('browser', plugins)
  console.log(`${title}:`)
  if (b.error) {
    console.log(`   ${b.error}`)
    continue
  }
  console.log(`   built, ${b.bytes} bytes; in the engine: ${inEngine(b.out)}`)
  last = b.out
}

// The last build, timed in node.
const started = performance.now()
const { lintSource, creator } = await import(pathToFileURL(last).href)
const importMs = performance.now() - started
const lint = (content) => lintSource({ source: { content, filePath: '/x.txt', ext: '.txt', contentType: 'text' }, options: { config: { rules: [{ id: 'preset', rule: creator }] }, noPhysicFilePath: true } })
const prose = 'Finished the refactor of the session store; tests pass. Next steps: wire the preview command and update docs. '
const fill = (n) => prose.repeat(Math.ceil(n / prose.length)).slice(0, n)
const median = async (text, rounds) => {
  for (let i = 0; i < 20; i++) await lint(text)
  const xs = []
  for (let i = 0; i < rounds; i++) {
    const a = performance.now()
    await lint(text)
    xs.push(performance.now() - a)
  }
  return xs.sort((a, b) => a - b)[Math.floor(rounds / 2)]
}
console.log(`5. in node ${process.version}: import ${importMs.toFixed(1)} ms; lintSource (async only) on 2 KB of prose ${((await median(fill(2048), 200)) * 1000).toFixed(0)} µs median, on 64 KB ${(await median(fill(65536), 20)).toFixed(2)} ms`)

// The last build over the redaction corpus (spec/fixtures/redaction-corpus.ts): what it would catch.
const corpus = await build({ entryPoints: [join(root, 'spec/fixtures/redaction-corpus.ts')], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning' })
const c = await import(`data:text/javascript;base64,${Buffer.from(corpus.outputFiles[0].text).toString('base64')}`)
const found = async (text) => (await lint(text)).messages.map((m) => text.slice(m.range[0], m.range[1]))
const caught = async (text, token) => (await found(text)).some((f) => f.includes(token.slice(-10)))
let inProse = 0
let settings = 0
for (const [i, s] of c.TOKEN_SAMPLES.entries()) {
  if (await caught(c.inProse(s, i), s.token)) inProse++
  if (await caught(c.inSettings(s, i), s.token)) settings++
}
let fired = 0
for (const [, s] of c.LOOK_ALIKES) if ((await found(s)).length > 0) fired++
let changed = 0
for (const s of c.ORDINARY_PROSE) if ((await found(s)).length > 0) changed++
const n = c.TOKEN_SAMPLES.length
console.log(`6. over the redaction corpus: ${inProse} of ${n} token samples found in prose (${((100 * inProse) / n).toFixed(0)}%), ${settings} of ${n} in settings lines; reports on ${fired} of ${c.LOOK_ALIKES.length} look-alikes and ${changed} of ${c.ORDINARY_PROSE.length} ordinary sentences`)
rmSync(work, { recursive: true, force: true })
