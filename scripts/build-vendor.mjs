#!/usr/bin/env node
// Bundles the npm libraries the plugin uses into vendor/, as ES modules the engine can load
// (it imports no npm package, only the plugin's own files by relative path).
//
//   node scripts/build-vendor.mjs           write vendor/*.js
//   node scripts/build-vendor.mjs --check   exit 1 when a committed bundle differs from a fresh build
import { parse } from 'acorn'
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { wordsForLiterals } from './fewer-nodes.mjs'
import { bodies as NEW_BODIES, members as LEFT_OUT_MEMBERS, notInBundle, stub as LEFT_OUT_MODULES } from './vendor-src/inversify-surface.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const versionOf = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version

const bundles = [
  { out: 'vendor/inversify.js', entry: 'scripts/vendor-src/inversify.mjs', packages: ['inversify'], },
]

// inversify imports 'reflect-metadata/lite' for its side effect of patching the global Reflect,
// which the engine has frozen, and uses WeakRef, which the engine lacks. The bundle gets an empty
// module for that import, and each inversify file that names Reflect or WeakRef imports a
// module-local one (scripts/vendor-src/), which shadows the global in that file alone: the local
// Reflect keeps the own metadata inversify reads and writes, so reflect-metadata is not bundled.
const leftOutModule = join(root, 'scripts/vendor-src/left-out.mjs')
const localGlobals = {
  Reflect: join(root, 'scripts/vendor-src/reflect.mjs'),
  WeakRef: join(root, 'scripts/vendor-src/weak-ref.mjs'),
}
// What the composition root does not reach is left out of the bundle (scripts/vendor-src/inversify-surface.mjs).
const packagePath = (file) => file.split('\\').join('/').split('/node_modules/').at(-1)
const leftOut = new Set([...Object.keys(LEFT_OUT_MEMBERS), ...Object.keys(NEW_BODIES), ...LEFT_OUT_MODULES])
const seen = new Set()

/** A module whose every export is a function or a class that throws when reached. */
function stubModule(text, file) {
  const out = []
  for (const node of parse(text, { ecmaVersion: 'latest', sourceType: 'module' }).body) {
    if (!node.type.startsWith('Export')) continue // imports and module-local declarations go with the module
    const d = node.type === 'ExportNamedDeclaration' ? node.declaration : undefined
    if (d?.type === 'FunctionDeclaration') out.push(`export function ${d.id.name}() { ${notInBundle(d.id.name)} }`)
    else if (d?.type === 'ClassDeclaration') out.push(`export class ${d.id.name} { constructor() { ${notInBundle(d.id.name)} } }`)
    else throw new Error(`build-vendor: ${file} exports something other than a function or a class; it cannot be stubbed`)
  }
  return out.join('\n')
}

const memberName = (m) => (m.key.type === 'PrivateIdentifier' ? `#${m.key.name}` : m.key.name)

/**
 * `text` with the listed class members left out: a private method or field goes; a public method goes from the
 * class and comes back, throwing, from scripts/vendor-src/left-out.mjs, called after the class.
 */
function pruneMembers(text, file, classes) {
  const edits = []
  for (const node of parse(text, { ecmaVersion: 'latest', sourceType: 'module' }).body) {
    const cls = node.type === 'ExportNamedDeclaration' ? node.declaration : node
    const names = cls?.type === 'ClassDeclaration' ? classes[cls.id.name] : undefined
    if (names === undefined) continue
    for (const name of names) {
      const member = cls.body.body.find((m) => (m.type === 'MethodDefinition' || (m.type === 'PropertyDefinition' && name.startsWith('#'))) && !m.static && memberName(m) === name)
      if (member === undefined) throw new Error(`build-vendor: ${file} has no ${cls.id.name}.${name} (scripts/vendor-src/inversify-surface.mjs)`)
      edits.push([member.start, member.end, ''])
    }
    const publics = names.filter((name) => !name.startsWith('#'))
    // `class X {…}` becomes `const X = leftOut(class X {…}, …)`, marked pure, so a class nothing uses still goes.
    if (publics.length > 0) {
      edits.push([cls.start, cls.start, `const ${cls.id.name} = /* @__PURE__ */ leftOut(`])
      edits.push([cls.end, cls.end, `, ${JSON.stringify(cls.id.name)}, ${JSON.stringify(publics.join(' '))});`])
    }
    delete classes[cls.id.name]
  }
  const missing = Object.keys(classes)
  if (missing.length > 0) throw new Error(`build-vendor: ${file} has no class ${missing.join(', ')}`)
  for (const [start, end, by] of edits.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + by + text.slice(end)
  return text.includes(' leftOut(class ') ? `import { leftOut } from ${JSON.stringify(leftOutModule)};\n${text}` : text
}

/** `text` with the listed bodies (`Class.member` or a top-level function's name) written anew. */
function rewriteBodies(text, file, bodies) {
  const top = parse(text, { ecmaVersion: 'latest', sourceType: 'module' }).body.map((n) => (n.type === 'ExportNamedDeclaration' ? n.declaration : n))
  const edits = Object.entries(bodies).map(([path, body]) => {
    const [outer, inner] = path.split('.')
    const found = top.filter((n) => (n?.type === 'FunctionDeclaration' || n?.type === 'ClassDeclaration') && n.id.name === outer)
    const fn = inner === undefined ? found.find((n) => n.type === 'FunctionDeclaration') : found[0]?.body.body.find((m) => m.type === 'MethodDefinition' && memberName(m) === inner)?.value
    if (fn === undefined) throw new Error(`build-vendor: ${file} has no ${path} (scripts/vendor-src/inversify-surface.mjs)`)
    return [fn.body.start, fn.body.end, body]
  })
  for (const [start, end, by] of edits.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + by + text.slice(end)
  return text
}

const engineSafe = {
  name: 'engine-safe-globals',
  setup(b) {
    b.onResolve({ filter: /^reflect-metadata(\/lite)?$/ }, (args) => ({ path: args.path, namespace: 'empty' }))
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '', loader: 'js' }))
    b.onLoad({ filter: /[\\/]node_modules[\\/](inversify|@inversifyjs)[\\/].*\.js$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8')
      const name = packagePath(args.path)
      if (leftOut.has(name)) seen.add(name)
      if (LEFT_OUT_MODULES.includes(name)) return { contents: stubModule(text, name), loader: 'js', resolveDir: dirname(args.path) }
      if (NEW_BODIES[name] !== undefined) text = rewriteBodies(text, name, NEW_BODIES[name])
      if (LEFT_OUT_MEMBERS[name] !== undefined) text = pruneMembers(text, name, { ...LEFT_OUT_MEMBERS[name] })
      const imports = Object.entries(localGlobals)
        .filter(([name]) => new RegExp(`\\b${name}\\b`).test(text))
        .map(([name, file]) => `import { ${name} } from ${JSON.stringify(file)};\n`)
      return { contents: imports.join('') + text, loader: 'js', resolveDir: dirname(args.path) }
    })
  },
}

async function bundle({ entry, packages }) {
  const banner = `// Generated by scripts/build-vendor.mjs from ${packages.map((p) => `${p}@${versionOf(p)}`).join(', ')}. Do not edit.`
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    plugins: [engineSafe],
    minify: true,
    legalComments: 'inline',
    banner: { js: banner },
    write: false,
    logLevel: 'warning',
  })
  if (packages.includes('inversify')) {
    const unseen = [...leftOut].filter((f) => !seen.has(f))
    if (unseen.length > 0) throw new Error(`build-vendor: the bundle never loaded ${unseen.join(', ')} (scripts/vendor-src/inversify-surface.mjs)`)
  }
  return wordsForLiterals(result.outputFiles[0].text, entry)
}

const check = process.argv.includes('--check')
let stale = 0
for (const b of bundles) {
  const text = await bundle(b)
  const path = join(root, b.out)
  if (check) {
    let committed = ''
    try { committed = readFileSync(path, 'utf8') } catch {}
    if (committed !== text) { stale++; console.error(`${b.out} is stale: run npm run vendor and commit it`) }
  } else {
    await writeFile(path, text)
    console.log(`${b.out}: ${text.length} bytes`)
  }
}
if (stale) process.exit(1)
