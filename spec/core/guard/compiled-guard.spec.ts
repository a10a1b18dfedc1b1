import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { compileGuard } from '../../../core/domain/guard/compiled-guard'
import { fold, prepareGlob, readScopeGlob, type GlobCompiler, type Name } from '../../../core/domain/guard/glob'
import { GUARD_LIMITS } from '../../../core/domain/guard/limits'
import { compile, decision, oracle, picomatchPattern, seeded, type ScopeInput } from './fixtures'

/** Whether one record with this scope covers `path`. */
const covers = (scope: ScopeInput, path: string, compiler: GlobCompiler = compile): boolean =>
  compileGuard([decision(scope)], compiler).match(path).length === 1

describe('matching (SPEC.md: paths by glob, areas by folder)', () => {
  test.each([
    // SPEC.md's examples
    [{ paths: ['src/db/**'] }, 'src/db/x.sql', true],
    [{ paths: ['src/db/**'] }, 'src/db/a/b/c.ts', true],
    [{ paths: ['src/db/**'] }, 'src/dbx/a.ts', false],
    [{ paths: ['src/db/**'] }, 'lib/src/db/a.ts', false], // a glob with a slash is anchored at the root
    [{ paths: ['*.sql'] }, 'schema.sql', true],
    [{ paths: ['*.sql'] }, 'src/db/migrations/001.sql', true], // a slash-less glob matches at any depth
    [{ paths: ['*.sql'] }, 'src/db/x.ts', false],
    [{ areas: ['billing'] }, 'src/billing/deposit.ts', true],
    [{ areas: ['billing'] }, 'billing/x.ts', true],
    [{ areas: ['billing'] }, 'lib/billing.ts', false], // a file, not a folder
    [{ areas: ['billing'] }, 'src/billing', false], // a file named billing
    [{ areas: ['billing'] }, 'src/billing-service/x.ts', false],
    [{ areas: ['billing'] }, 'src/rebilling/x.ts', false],
    [{ areas: ['Billing'] }, 'src/BILLING/x.ts', true], // case is ignored
    [{ areas: ['billing'] }, 'src/Billing/x.ts', true],
    [{ areas: ['billing/api'] }, 'svc/billing/api/x.ts', true],
    [{ areas: ['billing/api'] }, 'svc/billing/x/api/y.ts', false],
    // areas only label a record's paths: they do not widen the match
    [{ paths: ['src/pay/**'], areas: ['billing'] }, 'src/billing/x.ts', false],
    [{ paths: ['src/pay/**'], areas: ['billing'] }, 'src/pay/x.ts', true],
    // trailing slashes, ./ and / prefixes, bare folders
    [{ paths: ['src/db/'] }, 'src/db/x.sql', true],
    [{ paths: ['src/db/'] }, 'src/db', false], // a trailing slash means the folder, not a file of that name
    [{ paths: ['src/db'] }, 'src/db/a/b.ts', true], // a glob covers what is under it
    [{ paths: ['src/db'] }, 'src/db', true],
    [{ paths: ['./src/db/**'] }, 'src/db/x.ts', true],
    [{ paths: ['/src/db/**'] }, 'src/db/x.ts', true],
    [{ paths: ['src//db/./**'] }, 'src/db/x.ts', true],
    [{ paths: ['./*.sql'] }, 'schema.sql', true], // ./ and / anchor a slash-less glob at the root
    [{ paths: ['./*.sql'] }, 'db/schema.sql', false],
    [{ paths: ['/*.sql'] }, 'db/schema.sql', false],
    [{ paths: ['db/'] }, 'src/db/x.ts', true], // like .gitignore: a folder name alone, at any depth
    [{ paths: ['db/'] }, 'scripts/db', false],
    [{ paths: ['db'] }, 'scripts/db', true],
    [{ paths: ['src/*'] }, 'src/a/b/c.ts', true], // everything under src's children, as .gitignore
    [{ paths: ['src/*.ts'] }, 'src/a.ts', true],
    [{ paths: ['src/*.ts'] }, 'src/a/b.ts', false],
    [{ paths: ['src/**/*.sql'] }, 'src/a/b/c.sql', true],
    [{ paths: ['src/**/*.sql'] }, 'src/c.sql', true],
    [{ paths: ['**.sql'] }, 'a/b.sql', true], // `**` inside a name is a plain `*`
    // Windows separators in a record
    [{ paths: ['src\\db\\**'] }, 'src/db/x.sql', true],
    [{ paths: ['src\\db'] }, 'src/db/x.sql', true],
    // a glob that is only ** (or *) covers every file
    [{ paths: ['**'] }, 'a.ts', true],
    [{ paths: ['**'] }, 'deep/down/.env', true],
    [{ paths: ['*'] }, 'deep/down/x', true],
    [{ paths: ['.'] }, 'x/y.ts', true],
    // dotfiles and dot-folders are covered
    [{ paths: ['src/config/**'] }, 'src/config/.env.local', true],
    [{ paths: ['.github/**'] }, '.github/workflows/ci.yml', true],
    [{ paths: ['.env*'] }, 'apps/web/.env.production', true],
    // case is ignored for globs as well
    [{ paths: ['src/DB/**'] }, 'src/db/x.ts', true],
    [{ paths: ['*.SQL'] }, 'a/B.sql', true],
    // unicode folder names, NFC or NFD, any case
    [{ paths: ['src/zahlungsverkehr/**'] }, 'src/zahlungsverkehr/größe.ts', true],
    [{ areas: ['größe'] }, 'src/größe/x.ts', true],
    [{ areas: ['größe'] }, 'src/GRÖSSE/x.ts', true], // ß folds like SS
    [{ areas: ['größe'] }, 'src/gro\u0308ße/x.ts', true], // NFD path (macOS)
    [{ areas: ['gro\u0308ße'] }, 'src/größe/x.ts', true],
    [{ paths: ['**/größe/**'] }, 'a/GRÖSSE/x.ts', true],
    [{ areas: ['zahlungsverkehr'] }, 'src/zahlungsverkehr/größe.ts', true],
    [{ areas: ['größe'] }, 'src/zahlungsverkehr/größe.ts', false], // a file name is not a folder
    [{ areas: ['日本'] }, 'src/日本/x.ts', true],
    // literal folder names that look like glob syntax (Next.js route groups and segments)
    [{ paths: ['app/(marketing)/**'] }, 'app/(marketing)/page.tsx', true],
    [{ paths: ['app/(marketing)/**'] }, 'app/marketing/page.tsx', false],
    [{ paths: ['app/[slug]/**'] }, 'app/[slug]/page.tsx', true],
    [{ paths: ['src/a|b'] }, 'b', false], // `|` is not a regex alternation
    [{ paths: ['src/a|b'] }, 'src/a|b', true],
    [{ paths: ['app/[...slug]/**'] }, 'app/[...slug]/page.tsx', true], // catch-all routes too
    [{ paths: ['app/[[...slug]]/**'] }, 'app/[[...slug]]/page.tsx', true],
    [{ paths: ['docs/[a-z]/**'] }, 'docs/[a-z]/x.md', true], // a name spelled as the glob's own text, as picomatch reads it
    [{ paths: ['docs/[0-9]/**'] }, 'docs/[0-9]/x.md', true],
    [{ paths: ['[!a]*.ts'] }, 'b.ts', true], // `[!…]` and `[^…]` negate
    [{ paths: ['[!a]*.ts'] }, 'a.ts', false],
    [{ paths: ['[[:digit:]]*.sql'] }, 'db/001.sql', true],
    // a class name every object has is no POSIX class: the glob is refused, the record's other glob still guards
    [{ paths: ['[[:constructor:]]*.sql', 'db/**'] }, 'db/001.sql', true],
    [{ paths: ['[[:toString:]]', 'db/**'] }, 'toString', false],
    [{ paths: ['src/{db,billing}/**'] }, 'src/billing/x.ts', true], // braces expand
    [{ paths: ['*.{ts,tsx}'] }, 'src/a.tsx', true],
    [{ paths: ['{src/db,*.sql}'] }, 'lib/x.sql', true], // each alternative read on its own
    [{ paths: ['{src/db,*.sql}'] }, 'lib/src/db/x.ts', false],
    [{ paths: ['v{1..3}/**'] }, 'v2/x.ts', true], // ranges
    [{ paths: ['v{1..3}/**'] }, 'v4/x.ts', false],
    [{ paths: ['v{0..9}/**'] }, 'v7/x.ts', true],
    [{ paths: ['{a..z}?/**'] }, 'q1/x.ts', true],
    [{ paths: ['src/@(db|sql)/**'] }, 'src/sql/x.ts', true], // `@(a|b)` is `{a,b}`
    [{ paths: ['src/?(legacy-)db/**'] }, 'src/legacy-db/x.ts', true], // `?(a)` is `{,a}`
    [{ paths: ['src/?(legacy-)db/**'] }, 'src/db/x.ts', true],
    [{ paths: ['src/!(gen)/**'] }, 'src/app/x.ts', false], // `!( )` is refused: the glob is skipped
    [{ paths: ['a+b/**', '@x/**', 'a,b/**'] }, 'a+b/x', true], // other syntax characters are literal
    [{ paths: ['a+b/**'] }, 'aab/x', false],
    [{ paths: ['**/a/**/a/**/b'] }, 'x/a/y/a/z/b', true], // any number of `**`
    // exclusions
    [{ paths: ['src/**', '!src/gen/**'] }, 'src/gen/x.ts', false],
    [{ paths: ['src/**', '!src/gen/**'] }, 'src/app/x.ts', true],
    [{ paths: ['src/**', '!src/gen'] }, 'src/gen/deep/x.ts', false],
    [{ paths: ['!vendor/**'] }, 'src/x.ts', true], // exclusions alone subtract from everything
    [{ paths: ['!vendor/**'] }, 'vendor/x.js', false],
    // paths a caller may still hand over unnormalised
    [{ paths: ['src/db/**'] }, './src/db/x.ts', true],
    [{ paths: ['src/db/**'] }, 'src\\db\\x.ts', true],
    [{ paths: ['src/db/**'] }, 'src/db/../db/./x.ts', true], // `.` and `..` are resolved
    [{ paths: ['src/db/**'] }, 'src/db/../api/x.ts', false],
    [{ paths: ['**'] }, '../outside/x.ts', false], // above the project root: not in the project
  ] as const)('%j covers %s: %s', (scope, path, expected) => {
    expect(covers(scope, path)).toBe(expected)
    expect(covers(scope, path, oracle)).toBe(expected) // picomatch, name by name, agrees
  })

  test('only the path is matched: a record scoped to billing ignores what the edit says', () => {
    const guard = compileGuard([decision({ areas: ['billing'] })], compile)
    expect(guard.match('src/booking/x.ts')).toEqual([])
    expect(guard.match('docs/billing-notes.md')).toEqual([])
  })

  test('records without a usable scope never trigger', () => {
    const guard = compileGuard([decision({}), decision({ paths: ['../x/**'] }, 'E'), decision({ paths: [''] }, 'F')], compile)
    for (const p of ['a.ts', 'x/y.ts', 'billing/x.ts']) expect(guard.match(p)).toEqual([])
  })

  test('a glob the compiler refuses is skipped; the record still matches by its other globs', () => {
    const refusing: GlobCompiler = (g) => {
      if (g.source.includes('bad')) throw new Error('refused')
      return compile(g)
    }
    const guard = compileGuard([decision({ paths: ['bad*/**', 'src/db/**'] })], refusing)
    expect(guard.match('src/db/x.ts')).toHaveLength(1)
    expect(guard.match('bad/x.ts')).toEqual([])
  })

  test('a record whose every glob is refused falls back to its areas, or never triggers', () => {
    const refusing: GlobCompiler = () => {
      throw new Error('refused')
    }
    expect(compileGuard([decision({ paths: ['a*/**'], areas: ['billing'] })], refusing).match('src/billing/x.ts')).toHaveLength(1)
    expect(compileGuard([decision({ paths: ['a*/**'] })], refusing).match('a/x.ts')).toEqual([])
  })

  test('a compiler that returns junk, or whose matcher throws, never throws out of the guard', () => {
    const junk = (() => 'nope') as unknown as GlobCompiler
    expect(compileGuard([decision({ paths: ['a*/**'] })], junk).match('a/x.ts')).toEqual([])
    const throwing: GlobCompiler = () => () => {
      throw new Error('boom')
    }
    const guard = compileGuard([decision({ paths: ['a*/**'] }), decision({ areas: ['a'] }, 'E')], throwing)
    expect(guard.match('a/x.ts').map((r) => r.title)).toEqual(['E'])
  })

  test('plain names never reach the compiler: they are compared as text', () => {
    const names: string[] = []
    const recording: GlobCompiler = (g) => (names.push(g.source), compile(g))
    const guard = compileGuard([decision({ paths: ['src/db/**', 'app/(auth)/**', '**/__tests__/**/*.test.*'] })], recording)
    expect(names).toEqual(['*.test.*'])
    expect(guard.match('app/(auth)/page.tsx')).toHaveLength(1)
    expect(guard.match('SRC/DB/x.sql')).toHaveLength(1)
  })

  test('the guard gives the answers picomatch gives on the whole pattern (seeded, 2,000 globs)', () => {
    const rand = seeded(11)
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T
    const atoms = ['a', 'b', '.', '-', '/', '/', '/', '*', '*', '**', '?', '[ab]', '[a-c]', '[!a]', '{a,b}', '{,a}', '{a,b/c}', '@(a|b)', '?(a)', '(', ')', '|', '+', '{1..3}', '!', '@', '[', ']', '**/', '/**', 'x.ts', '.env', '[slug]', '[...slug]']
    const names = ['a', 'b', 'ab', 'ba', '.a', 'x.ts', 'a.b', '[slug]', '[...slug]', '(a)', 'a|b', 'a+b', '1', '2', 'c', '.env', '.env.local', '!a', '@a', '{a}', 'a,b', 'b-a', 'aa', 'bb']
    let compared = 0
    for (let k = 0; k < 2_000; k++) {
      let glob = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => pick(atoms)).join('')
      if (rand() < 0.15) glob = `!${glob}`
      const prepared = prepareGlob(glob)
      if (prepared === undefined) continue
      const guard = compileGuard([decision({ paths: [glob] })], compile)
      const whole = prepared.patterns.map(picomatchPattern)
      for (let t = 0; t < 10; t++) {
        const path = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(names)).join('/')
        const direct = whole.some((m) => m(path)) !== prepared.exclude // an exclusion alone subtracts from every path
        expect([glob, path, guard.match(path).length === 1]).toEqual([glob, path, direct])
        compared++
      }
    }
    expect(compared).toBeGreaterThan(10_000)
  }, 60_000)

  test('a name several records share is compiled once and tested once per name of the path', () => {
    let compiled = 0
    let tested = 0
    const counting: GlobCompiler = (g) => {
      compiled++
      const m = compile(g)
      return (p) => (tested++, m(p))
    }
    const guard = compileGuard(Array.from({ length: 50 }, (_, i) => decision({ paths: ['src/db/*.sql', `src/*.sql`] }, `D${i}`)), counting)
    expect(compiled).toBe(1) // `*.sql`; `src` and `db` are plain
    expect(guard.match('src/db/x.sql')).toHaveLength(50)
    expect(tested).toBe(1) // `*.sql` against `x.sql` once, for both patterns and all 50 records
    expect(guard.match('lib/x.sql')).toHaveLength(0)
    expect(tested).toBe(1) // `lib/x.sql` lacks the text `src`: no name is tested
  })

  test('matches come back in the order given, each record once', () => {
    const a = decision({ paths: ['src/**'] }, 'A')
    const b = { ...decision({ areas: ['db'] }, 'B'), kind: 'non-goal' as const, key: 'non-goal:title:B' }
    const c = decision({ paths: ['*.ts'] }, 'C')
    const guard = compileGuard([c, a, b, a], compile)
    expect(guard.match('src/db/x.ts').map((r) => r.title)).toEqual(['C', 'A', 'B'])
    expect(guard.match('src/db/x.ts')[0]).toBe(c)
  })

  test('odd paths match nothing and never throw', () => {
    const guard = compileGuard([decision({ paths: ['**'] }), decision({ areas: ['x'] }, 'E')], compile)
    for (const p of ['', '.', './', '/', 'x'.repeat(GUARD_LIMITS.pathLength + 1), null, undefined, 5, {}, ['a']]) {
      expect(guard.match(p as never)).toEqual([])
    }
  })

  test('odd record lists compile to a guard that matches nothing, and never throw', () => {
    for (const list of [null, undefined, 'x', 5, {}, [null, 5, 'x', {}, { key: 1 }, { key: 'k', title: 'T', scope: null }]]) {
      expect(compileGuard(list as never, compile).match('a/b.ts')).toEqual([])
    }
  })

  test('200 records: every one can match, and the compiled guard is reused', () => {
    const records = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0 ? decision({ paths: [`src/mod${i}/**`, `*.mod${i}`] }, `P${i}`) : decision({ areas: [`area${i}`] }, `A${i}`),
    )
    const guard = compileGuard(records, compile)
    expect(guard.match('src/mod0/x.ts').map((r) => r.title)).toEqual(['P0'])
    expect(guard.match('src/mod198/x.ts').map((r) => r.title)).toEqual(['P198'])
    expect(guard.match('lib/area199/x.ts').map((r) => r.title)).toEqual(['A199'])
    expect(guard.match('deep/x.mod100').map((r) => r.title)).toEqual(['P100'])
    expect(guard.match('src/other/x.ts')).toEqual([])
    expect(compileGuard([...records, decision({ paths: ['**'] }, 'all')], compile).match('x.ts').map((r) => r.title)).toEqual(['all'])
  })
})

describe("the guard's own name matcher, with picomatch as its oracle (fast-check)", () => {
  // Glob atoms: every picomatch feature, the shapes that made its regexes backtrack, regex syntax,
  // Next.js route names, non-ASCII letters (folded: ß, İ, K, ﬁ) and characters a regex treats specially.
  const GLOB_ATOMS = [
    'a', 'b', 'ab', 'x.ts', '.', '-', '_', ' ', '/', '/', '//', './', '*', '*', '**', '***', '?', '???',
    '[ab]', '[a-c]', '[!a]', '[^a]', '[[:alpha:]]', '[[:punct:]]', '[[:digit:]]', '[]a]', '[a-]', '[', ']', '[.]', '[-]',
    '{a,b}', '{,a}', '{a,aa}', '{*,a}', '{1..3}', '{a..c}', '{01..10..3}', '{', '}', ',', '@(a|b)', '?(a)', '?(*)',
    '(', ')', '|', '+', '$', '^', '"', '\\', '.*', '(a+)+', '{2}', 'ß', 'SS', 'İ', 'K', 'ﬁ', 'é', 'e\u0301', '日本',
    '[slug]', '[...slug]', '(auth)', '!', '@', '%', '#', '&', '=', "'",
  ]
  const NAME_ATOMS = ['a', 'b', 'aa', 'ab', 'ba', 'x', '.', '..', '.ts', 'x.ts', '-', '_', ' ', '1', '05', '[', ']', '(', ')', '|', '+', '$', '^', '*', '?', '{', '}', ',', '\\', '"', 'ß', 'ss', 'SS', 'İ', 'i̇', 'K', 'k', 'ﬁ', 'fi', 'é', 'e\u0301', '日本', 'slug', '...', '!', '@', '%', '\u00a0']
  const globArb = fc.tuple(fc.boolean(), fc.array(fc.constantFrom(...GLOB_ATOMS), { minLength: 1, maxLength: 10 })).map(([neg, atoms]) => `${neg ? '!' : ''}${atoms.join('')}`)
  // A path's names are never empty, `.` or `..` once the guard has normalised it.
  const nameArb = fc.array(fc.constantFrom(...NAME_ATOMS), { minLength: 1, maxLength: 8 }).map((atoms) => atoms.join('')).filter((n) => n !== '.' && n !== '..')
  const pathArb = fc.array(nameArb, { minLength: 1, maxLength: 6 }).map((names) => names.join('/'))

  /**
   * A path as the guard reads it before matching (`\\` a separator, empty names dropped, case folded), or
   * `undefined` for one with `.` or `..` names (the guard resolves them; picomatch does not).
   */
  const asGuardReads = (path: string): string | undefined => {
    const names = path.replace(/\\/g, '/').split('/').filter((n) => n !== '')
    return names.some((n) => n === '.' || n === '..') ? undefined : fold(names.join('/'))
  }

  /** The wildcard names of a glob's patterns (plain names are compared as text and never compiled). */
  const wildcardNames = (glob: string): Name[] =>
    (readScopeGlob(glob)?.patterns ?? []).flatMap((p) => p.segments).filter((s): s is Name => s !== 'globstar' && s.plain === undefined)

  test('each name of a pattern: the same answer as picomatch on any folded name', () => {
    let compared = 0
    fc.assert(
      fc.property(globArb, fc.array(nameArb, { minLength: 1, maxLength: 8 }), (glob, names) => {
        for (const name of wildcardNames(glob)) {
          const ours = compile(name)
          const theirs = oracle(name)
          for (const text of names.map(fold)) {
            expect([glob, name.source, text, ours(text)]).toEqual([glob, name.source, text, theirs(text)])
            compared++
          }
        }
      }),
      { numRuns: 3_000, seed: 20_261_201 },
    )
    expect(compared).toBeGreaterThan(5_000) // the generator reaches the matcher, not only the refusals
  })

  test('a whole guard: the same records as picomatch name by name and picomatch on the whole pattern', () => {
    fc.assert(
      fc.property(globArb, fc.array(pathArb, { minLength: 1, maxLength: 6 }), (glob, paths) => {
        const prepared = prepareGlob(glob)
        const ours = compileGuard([decision({ paths: [glob] })])
        const byName = compileGuard([decision({ paths: [glob] })], oracle)
        const whole = prepared?.patterns.map(picomatchPattern) ?? []
        for (const path of paths) {
          const hit = ours.match(path).length === 1
          expect([glob, path, 'by name', hit]).toEqual([glob, path, 'by name', byName.match(path).length === 1])
          const read = asGuardReads(path)
          if (prepared !== undefined && read !== undefined) expect([glob, path, 'whole', hit]).toEqual([glob, path, 'whole', whole.some((m) => m(read)) !== prepared.exclude])
        }
      }),
      { numRuns: 3_000, seed: 1_024 },
    )
  })

  test('hostile names: the compiled regex of a name at the caps stays linear enough (no nested quantifier)', () => {
    for (const name of wildcardNames(`*${'a'.repeat(30)}*${'b'.repeat(30)}`)) expect(name.regex).not.toMatch(/\)[*+]|\*[*+]/)
  })
})

describe('a glob many records share is read once, and costs what reading it again would', () => {
  test('the glob-text cap counts every use of a glob, read or not (docs/guard.md, Limits)', () => {
    // 256 characters: 1,024 uses fill the 262,144 characters one guard may read.
    const glob = `${'a'.repeat(253)}/**`
    expect(GUARD_LIMITS.globTextPerGuard / glob.length).toBe(1_024)
    const records = Array.from({ length: 65 }, (_, i) => decision({ paths: Array(16).fill(glob), areas: ['zone'] }, `R${i}`))
    const guard = compileGuard(records, compile)
    // The first 64 records (1,024 uses) keep the glob; the 65th has none left, so its area matches by folder.
    expect(guard.match(`${'a'.repeat(253)}/x.ts`).map((r) => r.title)).toEqual(records.slice(0, 64).map((r) => r.title))
    expect(guard.match('q/zone/x.ts').map((r) => r.title)).toEqual(['R64'])
  })

  test('a skipped glob stays skipped for every record that names it; an exclusion stays an exclusion', () => {
    const records = [
      decision({ paths: ['src/!(gen)/**'], areas: ['db'] }, 'A'),
      decision({ paths: ['src/**', '!src/gen/**'] }, 'B'),
      decision({ paths: ['src/!(gen)/**'], areas: ['db'] }, 'C'),
      decision({ paths: ['!src/gen/**'] }, 'D'),
    ]
    const guard = compileGuard(records, compile)
    expect(guard.match('src/db/x.ts').map((r) => r.title)).toEqual(['A', 'B', 'C', 'D'])
    expect(guard.match('src/gen/x.ts').map((r) => r.title)).toEqual([])
    expect(guard.match('lib/x.ts').map((r) => r.title)).toEqual(['D'])
  })

  test('shared globs match as the same globs read apart (fast-check against the oracle)', () => {
    const globs = ['src/db/**', '*.sql', '{lib,src}/**/index.ts', 'src/**/*.test.ts', '!src/gen/**', 'app/(auth)/**', 'docs/', 'src/*']
    const paths = ['src/db/x.sql', 'lib/a/index.ts', 'src/gen/a.test.ts', 'app/(auth)/p.tsx', 'docs/a.md', 'src/a.ts', 'x.sql']
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...globs), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), (scopes) => {
        const records = scopes.map((paths, i) => decision({ paths }, `R${i}`))
        const guard = compileGuard(records, compile)
        for (const path of paths) {
          const apart = records.filter((r) => compileGuard([r], compile).match(path).length === 1).map((r) => r.title)
          expect(guard.match(path).map((r) => r.title)).toEqual(apart)
        }
      }),
      { numRuns: 200 },
    )
  })
})
