#!/usr/bin/env node
// The layering as a test (docs/architecture.md, Dependencies point inward). Exit 1 when:
//   - a file under core/ imports anything outside core/: adapters/, composition/, vendor/, hooks/, the
//     engine's module `claude-code`, any other package, a Node builtin;
//   - a file under core/domain/ imports from core/ports/ or core/application/;
//   - a file under core/ports/ imports from core/application/.
// Type-only imports count as much as any other.
//
//   node scripts/check-layers.mjs [--root folder]     (the repository by default)
//
// Why not dependency-cruiser: it reads TypeScript through the `typescript` package's JS API, and supports
// typescript >=2 <7. Over our typescript 7.0.2 it finds no parser for .ts, cruises 0 modules and passes
// whatever core/ imports (checked with 17.4.3, the last for Node 20, and 18.7.2, which needs Node 22).
// esbuild erases type-only imports, so it cannot see them either. Instead this reads every file under core/
// with TypeScript 7's own parser (typescript/unstable/sync, the API of the pinned devDependency: no new
// package) and takes each module a file names: import and export ... from (`import type` and
// `export type` included), import x = require(...), import(...) and require(...) calls, import('...') in a
// type, `declare module '...'`, and triple-slash references. Relative specifiers are resolved against the
// file; anything else is a package. It fails closed: a file the parser did not return, a parse error, or an
// import(...) of a computed name is a failure too, and a TypeScript upgrade that changes this API makes
// the step fail loudly, never pass.
import { API } from 'typescript/unstable/sync'
import { SyntaxKind } from 'typescript/unstable/ast'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The layers of core/, innermost first: a file may import its own layer and those before it. */
const LAYERS = ['core/domain', 'core/ports', 'core/application']
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/

const i = process.argv.indexOf('--root')
const root = resolve(i < 0 ? join(dirname(fileURLToPath(import.meta.url)), '..') : process.argv[i + 1])

/** `path` relative to the root, with forward slashes. */
const rel = (path) => relative(root, path).split(sep).join('/')
const layerOf = (path) => LAYERS.findIndex((layer) => path === layer || path.startsWith(`${layer}/`))

/** Every module `sf` names: `{ spec, typeOnly, pos }`, spec undefined when it is computed. */
function modulesNamed(sf) {
  const found = []
  const named = (node, typeOnly) => {
    const literal = node !== undefined && (node.kind === SyntaxKind.StringLiteral || node.kind === SyntaxKind.NoSubstitutionTemplateLiteral)
    found.push({ spec: literal ? node.text : undefined, typeOnly, pos: node === undefined ? 0 : node.getStart(sf) })
  }
  const visit = (node) => {
    switch (node.kind) {
      case SyntaxKind.ImportDeclaration:
      case SyntaxKind.JSDocImportTag:
        named(node.moduleSpecifier, node.importClause?.isTypeOnly === true)
        break
      case SyntaxKind.ExportDeclaration:
        if (node.moduleSpecifier !== undefined) named(node.moduleSpecifier, node.isTypeOnly === true)
        break
      case SyntaxKind.ExternalModuleReference:
        named(node.expression, false)
        break
      case SyntaxKind.ImportType:
        named(node.argument?.kind === SyntaxKind.LiteralType ? node.argument.literal : node.argument, true)
        break
      case SyntaxKind.ModuleDeclaration:
        if (node.name?.kind === SyntaxKind.StringLiteral) named(node.name, true)
        break
      case SyntaxKind.CallExpression: {
        const callee = node.expression
        const isRequire = callee.kind === SyntaxKind.Identifier && callee.text === 'require'
        if (callee.kind === SyntaxKind.ImportKeyword || isRequire) named(node.arguments[0], false)
        break
      }
    }
    node.forEachChild(visit)
  }
  sf.forEachChild(visit)
  // What the compiler itself counts as an import, in case the walk above misses a form.
  for (const node of sf.imports ?? []) if (!found.some((f) => f.pos === node.getStart(sf))) named(node, false)
  // `/// <reference path>` names a file relative to this one; `/// <reference types>` a package.
  for (const ref of sf.referencedFiles ?? []) found.push({ spec: isAbsolute(ref.fileName) ? ref.fileName : `./${ref.fileName}`, typeOnly: true, pos: ref.pos })
  for (const ref of sf.typeReferenceDirectives ?? []) found.push({ spec: ref.fileName, typeOnly: true, pos: ref.pos })
  return found
}

/** Why importing `spec` from `file` breaks the layering, or undefined when it does not. */
function breach(file, spec) {
  const from = layerOf(rel(file))
  if (spec === undefined) return 'a computed module name, which cannot be checked'
  if (!spec.startsWith('.') && !isAbsolute(spec)) return 'a package; core/ imports only core/'
  const target = rel(resolve(dirname(file), spec))
  if (!target.startsWith('core/')) return `${target}, outside core/; core/ imports only core/`
  const to = layerOf(target)
  if (to < 0) return `${target}, in no layer of core/ (${LAYERS.join(', ')})`
  if (to > from) return `${LAYERS[to]}/; ${LAYERS[from]}/ imports only ${LAYERS.slice(0, from + 1).join('/, ')}/`
  return undefined
}

const files = readdirSync(join(root, 'core'), { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && SOURCE.test(d.name))
  .map((d) => join(d.parentPath, d.name))
  .sort()
const problems = []
for (const file of files) if (layerOf(rel(file)) < 0) problems.push(`${rel(file)}: in no layer of core/ (${LAYERS.join(', ')})`)

// A program of exactly these files: no resolution, no lib, so nothing outside core/ is read.
const scratch = mkdtempSync(join(tmpdir(), 'hark-layers-'))
const config = join(scratch, 'tsconfig.json')
writeFileSync(config, JSON.stringify({ compilerOptions: { noResolve: true, noLib: true, types: [], allowJs: true, noEmit: true }, files }))
let edges = 0
let api
try {
  api = new API({ cwd: scratch })
  const program = api.updateSnapshot({ openProjects: [config] }).getProject(config)?.program
  if (program === undefined) throw new Error('TypeScript opened no project')
  for (const file of files) {
    const sf = program.getSourceFile(file)
    if (sf === undefined) {
      problems.push(`${rel(file)}: TypeScript did not parse it`)
      continue
    }
    for (const d of program.getSyntacticDiagnostics(file)) problems.push(`${rel(file)}: does not parse (${d.text.slice(0, 120)})`)
    for (const { spec, typeOnly, pos } of modulesNamed(sf)) {
      edges++
      const why = breach(file, spec)
      if (why === undefined) continue
      const line = sf.getLineAndCharacterOfPosition(pos).line + 1
      problems.push(`${rel(file)}:${line}: ${typeOnly ? 'type-only import' : 'import'} '${spec ?? '?'}' -> ${why}`)
    }
  }
} finally {
  api?.close()
  rmSync(scratch, { recursive: true, force: true })
}

if (files.length === 0) problems.push('no source file under core/')
for (const p of problems) console.error(p)
console.log(`layers: ${files.length} files under core/, ${edges} imports, ${problems.length} problem${problems.length === 1 ? '' : 's'}`)
process.exit(problems.length === 0 ? 0 : 1)
