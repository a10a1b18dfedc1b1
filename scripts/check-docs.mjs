#!/usr/bin/env node
// The docs say what is: the `docs` step of npm test. Prints one line per failure (file:line) and exits 1 when:
//   - a code name docs/architecture.md gives is not in the code. The names read: each span in backticks (one may
//     wrap to the next line) and, in the diagrams (fenced blocks), each camelCase or PascalCase word, dotted name and
//     file name. A name that is
//       a path (a `/` in it, or a .ts .mjs .js .json .md .sh ending) must be a tracked file or folder, the end of a
//         tracked file's path (`redaction/redact.ts`), or text in the code (a package's `typescript/unstable/sync`);
//       a name or a chain `A.b.c()` must be in the code whole (`session.end`, `RecordRepository.save`), or its first
//         name in the code and each member in a file that declares the first (`class A`, `function A`, …), or
//         anywhere in the code when none does; `$.noun.member` is the engine's, found in its declarations
//         (.claude-plugin/types/, laid by npm ci) as well; a snake_case name may be SPEC.md's (`end_session`);
//       a call written out, `f(a, B)`: the callee as above, and the capitalised names among its arguments.
//     Not read: spans holding a placeholder `<…>` (`c:<conversation key>:…`, `$.<noun>.<event>`), a quote or a
//     brace, or a space outside a call's parentheses (`npm test`, `import type`); a slash command (`/clear`); a flag
//     (`--resume`). "The code" is every tracked .ts, .mjs and .json file outside docs/ and build/ (but this
//     check's own spec), without the comments that start a line, so a name only such a comment still mentions fails.
//   - any doc (docs/*.md but reliability.md, which e2e/run-faults.mjs writes; README.md; e2e/README.md) names a
//     commit of this repository: a token of 7 to 40 hex digits that `git cat-file` resolves to a commit. Git holds
//     the history; a doc says what is.
//
//   node scripts/check-docs.mjs [--root folder]     (the repository by default; the folder must be a git checkout)
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const at = process.argv.indexOf('--root')
const root = resolve(at < 0 ? join(dirname(fileURLToPath(import.meta.url)), '..') : process.argv[at + 1])
const failures = []
const fail = (file, line, text) => failures.push(`${file}:${line}: ${text}`)

/** This check's spec, whose made-up names must not count as code. */
const OWN_SPEC = 'spec/scripts/check-docs.spec.ts'
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
const trackedSet = new Set(tracked)

/** Source text without the comments that start a line: `/* … *\/` blocks and `//` lines (a string such as
 * '**\/*.ts' holds `/*` too, so a block is taken only where it starts its line). */
const uncommented = (text) =>
  text
    .replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, '')
    .split('\n')
    .map((line) => (/^\s*\/\//.test(line) ? '' : line))
    .join('\n')

const code = tracked
  .filter((f) => /\.(ts|mjs|json)$/.test(f) && !f.startsWith('docs/') && !f.startsWith('build/') && f !== OWN_SPEC)
  .filter((f) => existsSync(join(root, f)))
  .map((f) => ({ file: f, text: uncommented(readFileSync(join(root, f), 'utf8')) }))
const allCode = code.map((c) => c.text).join('\n')
const read = (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : '')
const spec = read('docs/SPEC.md')
const typesDir = join(root, '.claude-plugin/types')
const engineTypes = existsSync(typesDir)
  ? readdirSync(typesDir, { recursive: true })
      .filter((f) => String(f).endsWith('.d.ts'))
      .map((f) => readFileSync(join(typesDir, String(f)), 'utf8'))
      .join('\n')
  : ''

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const word = (name) => new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`)
const inCode = (name) => word(name).test(allCode)
const declares = (name) =>
  new RegExp(`\\b(?:class|interface|function|const|let|type|enum|namespace)\\s+${escape(name)}(?![\\w$])`)

/** A path names a tracked file or folder, the end of a tracked file's path, or text in the code. */
function pathExists(path) {
  const p = path.replace(/^\.\//, '').replace(/\/$/, '')
  if (trackedSet.has(p) || tracked.some((f) => f.startsWith(`${p}/`))) return true
  if (tracked.some((f) => f.endsWith(`/${p}`))) return true
  return allCode.includes(p)
}

/** `$.noun.member…`: in the code as written, or each name in the engine's declarations under its noun. */
function engineCall(parts) {
  if (inCode(`$.${parts.join('.')}`)) return true
  if (!engineTypes) return inCode(`$.${parts[0]}`)
  const [noun, ...members] = parts
  if (noun && !new RegExp(`\\b${escape(noun)}\\??: \\{`).test(engineTypes)) return false
  return members.every((m) => new RegExp(`\\b${escape(m)}\\??[:(]`).test(engineTypes))
}

/** A dotted chain, calls taken out: `A.b()` is [A, b]. */
function chainExists(chain) {
  const parts = chain.replace(/\([^()]*\)/g, '').split('.').filter(Boolean)
  if (parts.length === 0) return true
  if (parts[0] === '$') return parts.length === 1 || engineCall(parts.slice(1))
  if (parts.every((p) => /^\d+$/.test(p))) return true
  if (inCode(parts.join('.'))) return true
  if (parts.length === 1 && /^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(parts[0]) && spec.includes(parts[0])) return true
  if (!inCode(parts[0])) return false
  const homes = code.filter((c) => declares(parts[0]).test(c.text))
  const within = homes.length > 0 ? homes.map((c) => c.text).join('\n') : allCode
  return parts.slice(1).every((m) => word(m).test(within))
}

const IDENT = /[A-Za-z_$][\w$]*/
const CHAIN = new RegExp(`^${IDENT.source}(?:\\.${IDENT.source})*$`)
const PATHLIKE = /\/|\.(?:ts|mjs|js|json|md|sh)$/

/** Checks one name as the doc wrote it; returns false when it is not in the code. */
function nameExists(name) {
  if (PATHLIKE.test(name) && !/[()$]/.test(name)) return pathExists(name)
  const generic = /^([A-Za-z_$][\w$]*)<[\w$, ]*>$/.exec(name)
  if (generic) return chainExists(generic[1])
  const args = [...name.matchAll(/\(([^()]*)\)/g)].flatMap((m) => m[1].match(/(?<![\w$])[A-Z][\w$]*/g) ?? [])
  const chain = name.replace(/\([^()]*\)/g, '')
  if (!CHAIN.test(chain)) return true
  return chainExists(chain) && args.every((a) => chainExists(a))
}

/** Whether a span in backticks is a code name this check reads (see the top of the file). */
function checked(span) {
  if (/^[\w$.]+\([^'"{}<>`]*\)$/.test(span)) return true
  if (span === '' || /[<>{}'"\s`]/.test(span)) return false
  if (/^\/[\w-]*$/.test(span) || span.startsWith('-')) return false
  return /[A-Za-z_$]/.test(span)
}

function checkArchitecture() {
  const file = 'docs/architecture.md'
  const lines = read(file).split('\n')
  let fence = ''
  let prose = [] // the lines of prose since the last fence, each with its number: a span in backticks may wrap
  const checkProse = () => {
    const text = prose.map((p) => p.text).join('\n')
    const lineAt = (index) => prose[text.slice(0, index).split('\n').length - 1].n
    for (const m of text.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) {
      const span = m[2].replace(/\s*\n\s*/g, ' ').trim()
      if (checked(span) && !nameExists(span)) fail(file, lineAt(m.index), `\`${span}\` is not in the code`)
    }
    prose = []
  }
  lines.forEach((line, i) => {
    const opens = /^\s*```(\w*)/.exec(line)
    if (opens) {
      if (!fence) checkProse()
      fence = fence ? '' : opens[1] || 'text'
      return
    }
    if (!fence) {
      prose.push({ text: line, n: i + 1 })
      return
    }
    if (fence === 'mermaid' && /^\s*sequenceDiagram\s*$/.test(line)) return
    const names = []
    for (const m of line.matchAll(/\$(?:\.[A-Za-z_]\w*)+|[\w-]+(?:\/[\w.-]+)*\.(?:ts|mjs|json)\b|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w*/g)) {
      const t = m[0]
      if (t.startsWith('$') || /\.(ts|mjs|json)$/.test(t) || t.includes('.')) names.push(t)
      else if (t.length >= 4 && (/^[a-z]+[A-Z]/.test(t) || /^[A-Z][a-z0-9]+[A-Z]/.test(t))) names.push(t)
    }
    for (const name of new Set(names)) if (!nameExists(name)) fail(file, i + 1, `\`${name}\` is not in the code`)
  })
  checkProse()
}

function checkCommits() {
  const docs = [
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'reliability.md')
      .map((f) => `docs/${f}`),
    'README.md',
    'e2e/README.md',
  ].filter((f) => existsSync(join(root, f)))
  const seen = []
  for (const file of docs) {
    read(file)
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(/(?<![\w-])[0-9a-fA-F]{7,40}(?![\w-])/g)) seen.push({ file, line: i + 1, token: m[0] })
      })
  }
  if (seen.length === 0) return
  const tokens = [...new Set(seen.map((s) => s.token))]
  const run = spawnSync('git', ['cat-file', '--batch-check'], {
    cwd: root,
    input: tokens.map((t) => `${t}^{commit}`).join('\n') + '\n',
    encoding: 'utf8',
  })
  if (run.status !== 0) {
    fail('.', 0, `git cat-file could not say which tokens are commits: ${run.stderr.trim()}`)
    return
  }
  const answers = run.stdout.split('\n')
  const commits = new Set(tokens.filter((_, i) => / commit \d+$/.test(answers[i] ?? '')))
  for (const s of seen) if (commits.has(s.token)) fail(s.file, s.line, `names the commit ${s.token}: say what is, git holds the history`)
}

checkArchitecture()
checkCommits()
for (const f of failures) console.log(f)
console.log(failures.length === 0 ? 'docs: every name docs/architecture.md gives is in the code, and no doc names a commit' : `docs: ${failures.length} failure(s)`)
process.exit(failures.length === 0 ? 0 : 1)
