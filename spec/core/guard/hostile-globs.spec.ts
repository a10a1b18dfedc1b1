import { timedBest } from '../../support'
import { describe, expect, test } from 'vitest'
import { compileGuard } from '../../../core/domain/guard/compiled-guard'
import { prepareGlob } from '../../../core/domain/guard/glob'
import { GUARD_LIMITS } from '../../../core/domain/guard/limits'
import { compile, decision, seeded } from './fixtures'

describe('hostile globs (docs/guard.md, Performance): nothing Hark sends makes one check slow', () => {
  /**
   * The bound asserted on one compile and one check. A safety net only: a case over it is measured
   * again twice, so a garbage-collection pause is not a failure; the real figures come from
   * scripts/bench-guard.mjs (a hostile glob costs at most about 1 ms there).
   */
  const BOUND_MS = 50
  const timed = (run: () => void): number => timedBest(run, BOUND_MS)

  // Every picomatch feature, and the shapes that made its regexes backtrack: extglobs, nested and
  // repeated braces, ranges, POSIX classes, negation, `**` chains, `?` runs, regex syntax.
  const ATOMS = [
    'a', 'a', 'b', '.', '-', '_', '/', '/', '//', './', '../', '*', '*', '**', '***', '?', '??????',
    '[a]', '[ab]', '[a-z]', '[!a]', '[^a]', '[[:alpha:]]', '[[:punct:]]', '[]a]', '[a-]', '[', ']', '[/]',
    '{a,b}', '{,a}', '{a,aa}', '{*,a}', '{**,a}', '{1..9}', '{a..z}', '{1..1000}', '{01..10..2}', '{', '}', ',',
    '{a,{b,{c,d}}}', '{a/b,c}', '@(a|b)', '?(a)', '?(*)', '@(|?)', '*(a)', '+(a)', '!(a)', '@(a|@(b|c))',
    '(', ')', '|', '+', '$', '^', '"', '\\', '(?=a)', '{2}', '{2,}', '.*', '(a+)+', '*a', 'a*', '?a', 'a?',
  ]

  function hostileGlob(rand: () => number): string {
    const pick = (): string => ATOMS[Math.floor(rand() * ATOMS.length)] as string
    const unit = Array.from({ length: 1 + Math.floor(rand() * 4) }, pick).join('')
    const repeats = rand() < 0.5 ? 1 + Math.floor(rand() * 6) : Math.floor(rand() * 80)
    const glob = `${rand() < 0.3 ? pick() : ''}${unit.repeat(Math.max(1, repeats))}${rand() < 0.5 ? pick() : ''}`
    return glob.slice(0, GUARD_LIMITS.globLength)
  }

  /** Long, repetitive, near-miss paths at the 1,024-character limit, built from the glob's own text. */
  function hostilePaths(glob: string): string[] {
    const n = GUARD_LIMITS.pathLength
    const text = glob.toLowerCase().replace(/[^a-z0-9._-]/g, '') || 'a'
    const fill = (unit: string, tail: string): string => `${unit.repeat(Math.ceil(n / unit.length)).slice(0, n - tail.length)}${tail}`
    return [
      'src/authenticationservicehandler.ts',
      fill('a', 'y'),
      fill('a/', 'y'),
      fill('aa/', 'y'),
      fill(`${'a'.repeat(20)}/`, 'y'),
      fill(`${'a'.repeat(60)}/`, `${text.slice(0, 40)}y`),
      fill(text, 'y'),
      fill(`${text}/`, 'y'),
      fill(text.slice(0, 1), `${text}y`),
      fill(`${text.slice(0, 1)}/`, text),
      fill('a/', '../y'),
      `${'a/'.repeat(200)}${fill('a', `${text}y`).slice(0, n - 400)}`,
    ]
  }

  test('3,000 seeded hostile globs × 12 hostile paths: each compile and each check under 50 ms', () => {
    const rand = seeded(20_240_611)
    let kept = 0
    let worst = { ms: 0, glob: '', path: '' }
    for (let k = 0; k < 3_000; k++) {
      const glob = hostileGlob(rand)
      if (prepareGlob(glob) !== undefined) kept++
      let guard = compileGuard([decision({ paths: [glob] })], compile)
      const compileMs = timed(() => (guard = compileGuard([decision({ paths: [glob] })], compile)))
      if (compileMs > worst.ms) worst = { ms: compileMs, glob, path: '(compile)' }
      for (const path of hostilePaths(glob)) {
        const ms = timed(() => guard.match(path))
        if (ms > worst.ms) worst = { ms, glob, path }
      }
    }
    expect(worst.ms, `slowest: ${JSON.stringify(worst)}`).toBeLessThan(BOUND_MS)
    expect(kept).toBeGreaterThan(300) // the generator reaches the matcher, not only the refusals
  }, 120_000)

  test('reading a glob is never slow either: nested, unclosed and repeated groups', () => {
    const shapes = ['{['.repeat(128), '[{'.repeat(128), '{a,['.repeat(64), '@(['.repeat(85), '{'.repeat(256), '[[:'.repeat(85), '['.repeat(256), '{,'.repeat(128), '{a,b}'.repeat(51), '@(a|'.repeat(51), '{[(@(|,'.repeat(36), '{a}'.repeat(85), `${'[a-'.repeat(85)}]`]
    for (const glob of shapes) {
      expect([glob, timed(() => prepareGlob(glob)) < BOUND_MS]).toEqual([glob, true])
      expect([glob, timed(() => compileGuard([decision({ paths: [glob] })], compile).match(`${'a/'.repeat(500)}y`)) < BOUND_MS]).toEqual([glob, true])
    }
  }, 30_000)

  test("the backtracking globs are refused when read, so a check of any path costs nothing", () => {
    for (const glob of ['@(|?)'.repeat(32) + '[0-9]', '@(|?)'.repeat(36) + '[0-9]', '?(a)'.repeat(40) + 'b']) {
      expect(prepareGlob(glob)).toBeUndefined()
      const guard = compileGuard([decision({ paths: [glob] })], compile)
      for (const path of ['src/authenticationservicehandler.ts', ...hostilePaths(glob)]) {
        expect(timed(() => guard.match(path))).toBeLessThan(BOUND_MS)
        expect(guard.match(path)).toEqual([])
      }
    }
  })

  test('a whole guard filling every cap (400 records × 16 globs) compiles and checks within the hook budget', () => {
    const globs: string[] = []
    for (let k = 0; k < GUARD_LIMITS.costlyNamesPerGuard; k++) globs.push(`*a*${'[b]'.repeat(1 + (k % 8))}${'?'.repeat(Math.floor(k / 8))}`)
    for (let k = 0; k < GUARD_LIMITS.wildcardNamesPerGuard - GUARD_LIMITS.costlyNamesPerGuard; k++) globs.push(`[!b]${'?'.repeat(1 + (k % 48))}${'[a]'.repeat(Math.floor(k / 48))}`)
    for (let a = 1; a <= 13; a++) for (let j = 1; j <= 48; j++) globs.push(`**/${'a/'.repeat(a)}${'?'.repeat(j)}b/**`)
    for (let k = 0; globs.length < 6_400; k++) globs.push(`**/a${k}/**`)
    const records = Array.from({ length: GUARD_LIMITS.compiledRecords }, (_, i) => decision({ paths: globs.slice(i * 16, i * 16 + 16) }, `F${i}`))
    let guard = compileGuard([], compile)
    const compileMs = timed(() => (guard = compileGuard(records, compile)))
    const n = GUARD_LIMITS.pathLength
    const paths = [`${'a'.repeat(n - 2)}by`, `${'a/'.repeat(n / 2 - 1)}by`, `${'aa/'.repeat(340)}by`, `${'a/'.repeat(200)}${'a'.repeat(n - 402)}by`]
    const checkMs = Math.max(...paths.map((p) => timed(() => guard.match(p))))
    // bench-guard.mjs: about 250 ms to compile and 90 ms for a first check on this machine class.
    expect(compileMs + checkMs).toBeLessThan(2_500)
  }, 30_000)
})
