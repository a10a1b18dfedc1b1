// The docs check (scripts/check-docs.mjs, the `docs` step of npm test) can fail: it is run over small git
// repositories in a temp folder, one whose docs say what is and one per kind of drift.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'

const script = join(dirname(fileURLToPath(import.meta.url)), '../../scripts/check-docs.mjs')

const ARCHITECTURE =
  '# Architecture\n\n```\n hooks/register.ts   HandOff, decideHandoff\n```\n\n' +
  '`HandOff.prepare()` runs at `session.end`, from `hooks/register.ts` and `hand-off.ts`; it may send\n' +
  '`end_session`, each port spelled `$.<noun>.<event>(...)`. Not names: `npm test`, `/clear`, `c:<key>:<time>`.\n'

/** A repository whose docs name only what its code has. */
const CLEAN: Record<string, string> = {
  'core/application/hand-off.ts':
    '/** The exit (docs/architecture.md). */\nexport class HandOff {\n  prepare(): void {}\n}\nexport function decideHandoff(): void {}\n',
  'hooks/register.ts': "export const events = ['session.end']\n",
  'docs/SPEC.md': 'The plugin calls end_session.\n',
  'docs/architecture.md': ARCHITECTURE,
  'docs/reliability.md': 'written by the fault matrix\n',
  'README.md': '# hark\n',
}

const repos: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) rmSync(r, { recursive: true, force: true })
})

const git = (root: string, ...args: string[]) =>
  spawnSync('git', ['-c', 'user.name=spec', '-c', 'user.email=spec@example.com', ...args], { cwd: root, encoding: 'utf8' })

/** Writes CLEAN (with `extra` added or replaced) into a new repository, commits it, and runs the check over it. */
function check(extra: (head: string) => Record<string, string> = () => ({})) {
  const root = mkdtempSync(join(tmpdir(), 'hark-docs-spec-'))
  repos.push(root)
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, dirname(path)), { recursive: true })
      writeFileSync(join(root, path), text)
    }
  }
  write(CLEAN)
  git(root, 'init', '-q')
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', 'the tree')
  const head = git(root, 'rev-parse', 'HEAD').stdout.trim()
  write(extra(head))
  git(root, 'add', '-A')
  const run = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' })
  return { status: run.status, out: `${run.stdout}${run.stderr}` }
}

describe('scripts/check-docs.mjs', () => {
  test('passes docs that name only what is', { timeout: 30_000 }, () => {
    const r = check()
    expect(r.out).toContain('no doc names a commit')
    expect(r.status).toBe(0)
  })

  test.each([
    ['a class the code does not have', 'See `NoSuchAhead`.\n', '`NoSuchAhead` is not in the code'],
    ['a method its class does not have', 'See `HandOff.claimNowhere()`.\n', '`HandOff.claimNowhere()` is not in the code'],
    ['a file that is not there', 'See `core/application/no-such-file.ts`.\n', '`core/application/no-such-file.ts` is not in the code'],
    ['a call that wraps to the next line', 'Bound by `decideHandoff(bind,\nNoSuchQueue)`.\n', 'docs/architecture.md:9: `decideHandoff(bind, NoSuchQueue)`'],
    ['a name only a comment still has', 'The `architecture` check.\n', '`architecture` is not in the code'],
    ['an engine call the engine does not have', 'It calls `$.nowhere.go()`.\n', '`$.nowhere.go()` is not in the code'],
    ['a tool SPEC.md does not name', 'It calls `end_nowhere`.\n', '`end_nowhere` is not in the code'],
    ['a name on a later line', 'See `HandOff.prepare`, then\n`noSuchCall`.\n', 'docs/architecture.md:10: `noSuchCall`'],
  ])('fails on %s', { timeout: 30_000 }, (_, line, reported) => {
    const r = check(() => ({ 'docs/architecture.md': `${ARCHITECTURE}${line}` }))
    expect(r.status).toBe(1)
    expect(r.out).toContain(reported)
  })

  test('fails on a class a diagram names that the code does not have', { timeout: 30_000 }, () => {
    const r = check(() => ({ 'docs/architecture.md': ARCHITECTURE.replace('decideHandoff', 'NoSuchQueue') }))
    expect(r.status).toBe(1)
    expect(r.out).toContain('docs/architecture.md:4: `NoSuchQueue` is not in the code')
  })

  test.each(['docs/guard.md', 'README.md', 'e2e/README.md'])('fails when %s names a commit', { timeout: 30_000 }, (doc) => {
    const r = check((head) => ({ [doc]: `# Doc\n\nMeasured at ${head.slice(0, 7)}.\n` }))
    expect(r.status).toBe(1)
    expect(r.out).toMatch(new RegExp(`${doc}:3: names the commit [0-9a-f]{7}`))
  })

  test('leaves hex that is no commit, and reliability.md, alone', { timeout: 30_000 }, () => {
    const r = check((head) => ({
      'docs/guard.md': '# Guard\n\nA git SHA such as 3f2a9c1 or deadbeefcafe is only hex.\n',
      'docs/reliability.md': `at ${head.slice(0, 7)}\n`,
    }))
    expect(r.status).toBe(0)
  })
})
