import { timedBest } from '../support'
import { describe, expect, test } from 'vitest'
import picomatch from '../../vendor/picomatch.js'
import {
  compileGuard,
  GUARD_LIMITS,
  guardQuestion,
  isSettled,
  parseDecisionEntries,
  parseNonGoals,
  prepareGlob,
  scopeOf,
  stopReason,
  type GlobCompiler,
  type GuardRecord,
} from '../../core/domain/decision'
import { GLOB_OPTIONS } from '../../core/domain/glob-options'

/** What the adapter passes: picomatch's POSIX build with the domain's options. */
const compile: GlobCompiler = (g) => picomatch(g, GLOB_OPTIONS)

type ScopeInput = { readonly paths?: readonly string[]; readonly areas?: readonly string[] }

const decision = (scope: ScopeInput, title = 'D', key = `title:${title}`): GuardRecord => ({
  key,
  kind: 'decision',
  title,
  scope: { paths: scope.paths ?? [], areas: scope.areas ?? [] },
})

/** A seeded generator, so every random case is the same on every run. */
const seeded = (seed: number) => (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31

/** Whether one record with this scope covers `path`. */
const covers = (scope: ScopeInput, path: string, compiler: GlobCompiler = compile): boolean =>
  compileGuard([decision(scope)], compiler).match(path).length === 1

describe('settledness (HARK-API.md: only settled records count)', () => {
  const unsettled = ['proposed', 'candidate', 'draft', 'pending', 'rejected', 'superseded', 'retired', 'expired', 'obsolete']

  test.each(unsettled.flatMap((word) => ['status', 'acceptance', 'applicability'].map((field) => [field, word] as const)))(
    '%s: %s is not settled',
    (field, word) => {
      expect(isSettled({ [field]: word })).toBe(false)
      expect(isSettled({ [field]: word.toUpperCase() })).toBe(false)
      expect(isSettled({ [field]: ` ${word[0]!.toUpperCase()}${word.slice(1)} ` })).toBe(false)
    },
  )

  test.each([
    [{}, true],
    [{ status: 'accepted' }, true],
    [{ status: 'Accepted', acceptance: 'accepted' }, true],
    [{ status: 'active' }, true],
    [{ applicability: 'current' }, true],
    [{ accepted: true }, true],
    [{ status: 'accepted', acceptance: 'proposed' }, false], // any one field says so
    [{ status: 'Superseded by D-12' }, false], // a whole word inside a phrase
    [{ status: 'pending_review' }, false],
    [{ status: 'unsuperseded' }, true], // not the word itself
    [{ superseded_by: 'D-12' }, false],
    [{ superseded_by: 12 }, false],
    [{ superseded_by: 0 }, false],
    [{ superseded_by: ['D-12'] }, false],
    [{ superseded_by: { id: 'D-12' } }, false],
    [{ superseded_by: true }, false],
    [{ superseded_by: null }, true],
    [{ superseded_by: '' }, true],
    [{ superseded_by: '   ' }, true],
    [{ superseded_by: [] }, true],
    [{ superseded_by: {} }, true],
    [{ superseded_by: false }, true],
    [{ accepted: false }, false],
    [{ accepted: 'false' }, true], // wrong type: ignored
    [{ accepted: 0 }, true],
    [{ status: 5 }, true],
    [{ status: ['rejected'] }, true], // wrong type: ignored
    [{ status: { value: 'rejected' } }, true],
  ] as const)('%j settled: %s', (record, settled) => {
    expect(isSettled(record as Record<string, unknown>)).toBe(settled)
  })

  test('a non-object is never settled and never throws', () => {
    for (const v of [null, undefined, 'accepted', 3, [], true]) expect(isSettled(v as never)).toBe(false)
  })
})

describe('scope parsing (SPEC.md: scope comes from the structured fields, else the text)', () => {
  const S = (paths: string[], areas: string[] = []) => ({ paths, areas })

  test.each([
    // SPEC.md's structured paths and areas, each field name
    ['scope.paths', { scope: { paths: ['src/db/**', '*.sql'] } }, S(['src/db/**', '*.sql'])],
    ['scope_paths', { scope_paths: ['src/db/**'] }, S(['src/db/**'])],
    ['paths', { paths: ['src/db/**'] }, S(['src/db/**'])],
    ['files', { files: ['src/db/schema.sql'] }, S(['src/db/schema.sql'])],
    ['scope_area', { scope_area: 'billing' }, S([], ['billing'])],
    ['scope_areas', { scope_areas: ['billing', 'payments'] }, S([], ['billing', 'payments'])],
    ['scope.areas', { scope: { areas: ['billing', 'payments'] } }, S([], ['billing', 'payments'])],
    ['scope.area', { scope: { area: 'billing' } }, S([], ['billing'])],
    ['areas', { areas: ['billing'] }, S([], ['billing'])],
    ['area', { area: 'billing' }, S([], ['billing'])],
    ['paths and areas together', { scope: { paths: ['src/pay/**'], areas: ['billing'] } }, S(['src/pay/**'], ['billing'])],
    ['fields combine', { scope_paths: ['a/**'], files: ['b.ts'], area: 'billing' }, S(['a/**', 'b.ts'], ['billing'])],
    // loose values: each value classified (a /, *, ? or . makes a path)
    ['scope as a string (path)', { scope: 'src/db/**' }, S(['src/db/**'])],
    ['scope as a string (area)', { scope: 'billing' }, S([], ['billing'])],
    ['scope as a list', { scope: ['billing', '*.sql', 'src/x', 'a?.ts', 'README.md'] }, S(['*.sql', 'src/x', 'a?.ts', 'README.md'], ['billing'])],
    ['scope as a comma list', { scope: 'billing, src/db/**' }, S(['src/db/**'], ['billing'])],
    ['scopes', { scopes: ['billing', 'src/db/**'] }, S(['src/db/**'], ['billing'])],
    ['applies_to', { applies_to: 'payments; lib/pay/**' }, S(['lib/pay/**'], ['payments'])],
    ['applies_to as scope objects', { applies_to: [{ paths: ['a/**'] }, { area: 'billing' }] }, S(['a/**'], ['billing'])],
    // structured areas may nest folders; structured paths are paths whatever they hold
    ['nested area', { areas: ['billing/api'] }, S([], ['billing/api'])],
    ['a path field holding a bare word', { paths: ['Makefile'] }, S(['Makefile'])],
    // never scopes
    ['scope_version and scope_audience', { scope_version: 'v2', scope_audience: 'internal' }, S([])],
    ['scope object version/audience keys', { scope: { version: 'v2', audience: 'team' } }, S([])],
    // SPEC.md's text conventions
    ['(scope: …) in the title', { title: 'Raw SQL, no ORM (scope: src/db/**)' }, S(['src/db/**'])],
    ['scope: line in the body', { title: 'Deposits settle daily', body: 'Context.\nscope: billing\nMore.' }, S([], ['billing'])],
    ['several values, mixed', { title: 'X (scope: src/db/**, billing; *.sql)' }, S(['src/db/**', '*.sql'], ['billing'])],
    ['space-separated values', { title: 'X', body: 'scope: src/db/** src/sql/**' }, S(['src/db/**', 'src/sql/**'])],
    ['joining words are not areas', { title: 'X', body: 'scope: billing and payments' }, S([], ['billing', 'payments'])],
    ['sentence punctuation', { title: 'X', body: 'Scope: billing.' }, S([], ['billing'])],
    ['markdown bullet and bold', { title: 'X', body: '- **Scope:** `src/db/**`' }, S(['src/db/**'])],
    ['scope: any case', { title: 'X', body: 'SCOPE: Billing' }, S([], ['Billing'])],
    ['two scope lines add up', { title: 'X', body: 'scope: billing\nscope: src/pay/**' }, S(['src/pay/**'], ['billing'])],
    ['marker and body add up', { title: 'X (scope: a/**)', body: 'scope: billing' }, S(['a/**'], ['billing'])],
    ['marker in a text-only record', { text: 'No ORM (scope: src/db/**)' }, S(['src/db/**'])],
    ['braces are one value', { title: 'X (scope: src/{db,billing}/**)' }, S(['src/{db,billing}/**'])],
    ['parentheses inside the marker', { title: 'X (scope: app/(auth)/**)' }, S(['app/(auth)/**'])],
    ['scope_version: line is not a scope line', { title: 'X', body: 'scope_version: 2\nscope_audience: team' }, S([])],
    ['a mention of scope mid-sentence is not a scope line', { title: 'X', body: 'The scope: of this is wide' }, S([])],
    ['words that are neither path nor area', { title: 'X', body: 'scope: (see ADR-4)' }, S([])],
    // structured fields win over the text
    ['structured wins over the marker', { title: 'X (scope: src/db/**)', area: 'billing' }, S([], ['billing'])],
    ['structured wins over the body', { body: 'scope: billing', paths: ['src/**'] }, S(['src/**'])],
    ['empty structured fields fall back to the text', { title: 'X (scope: src/db/**)', paths: [], area: '  ' }, S(['src/db/**'])],
    ['scope_version alone falls back to the text', { title: 'X (scope: billing)', scope_version: 'v2' }, S([], ['billing'])],
    // normalising
    ['Windows separators', { paths: ['src\\db\\**'] }, S(['src/db/**'])],
    ['Windows separators, loose', { scope: 'src\\db' }, S(['src/db'])],
    ['quotes and whitespace', { paths: ['  "src/db/**"  ', "'lib/**'", ' `x/**` '] }, S(['src/db/**', 'lib/**', 'x/**'])],
    ['duplicates once', { paths: ['a/**', 'a/**'], areas: ['billing', 'billing'] }, S(['a/**'], ['billing'])],
    ['unicode area', { areas: ['größe'] }, S([], ['größe'])],
    ['unicode loose word is an area', { scope: 'zahlungsverkehr' }, S([], ['zahlungsverkehr'])],
    ['NFD input is kept as NFC', { areas: ['gro\u0308ße'] }, S([], ['größe'])],
    // empty, whitespace, wrong types
    ['empty strings', { paths: [''], areas: [''], scope: '' }, S([])],
    ['whitespace', { paths: ['   '], area: ' \t\n', scope: '  ,  ; ' }, S([])],
    ['wrong types everywhere', { scope: 42, paths: [1, null, {}, ['x']], areas: { billing: true }, area: false, files: 7, scopes: null, applies_to: true }, S([])],
    ['wrong types mixed with good ones', { paths: [1, 'src/**', null], areas: [{}, 'billing'] }, S(['src/**'], ['billing'])],
    ['control characters', { paths: ['src/\u0000db/**'], areas: ['bil\u001bling'] }, S([])],
    ['no scope at all', { title: 'Use Postgres', why: 'because', body: 'no scope here' }, S([])],
  ] as const)('%s', (_, record, expected) => {
    expect(scopeOf(record as unknown as Record<string, unknown>)).toEqual(expected)
  })

  test('sizes are capped', () => {
    const many = Array.from({ length: 100 }, (_, i) => `dir${i}/**`)
    const s = scopeOf({ paths: many, areas: many.map((_, i) => `area${i}`) })
    expect(s.paths).toHaveLength(GUARD_LIMITS.globsPerRecord)
    expect(s.areas).toHaveLength(GUARD_LIMITS.areasPerRecord)
    expect(scopeOf({ paths: [`${'a/'.repeat(200)}**`] }).paths).toEqual([])
    expect(scopeOf({ areas: ['x'.repeat(GUARD_LIMITS.areaLength + 1)] }).areas).toEqual([])
  })

  test('never throws on odd records', () => {
    for (const v of [null, undefined, 0, 'x', [], [1], { scope: { paths: { length: 5 } } }, Object.create(null)]) {
      expect(() => scopeOf(v as never)).not.toThrow()
    }
  })
})

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
    [{ paths: ['[!a]*.ts'] }, 'b.ts', true], // `[!…]` and `[^…]` negate
    [{ paths: ['[!a]*.ts'] }, 'a.ts', false],
    [{ paths: ['[[:digit:]]*.sql'] }, 'db/001.sql', true],
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
    // paths the lead may still hand over unnormalised
    [{ paths: ['src/db/**'] }, './src/db/x.ts', true],
    [{ paths: ['src/db/**'] }, 'src\\db\\x.ts', true],
    [{ paths: ['src/db/**'] }, 'src/db/../db/./x.ts', true], // `.` and `..` are resolved
    [{ paths: ['src/db/**'] }, 'src/db/../api/x.ts', false],
    [{ paths: ['**'] }, '../outside/x.ts', false], // above the project root: not in the project
  ] as const)('%j covers %s: %s', (scope, path, expected) => {
    expect(covers(scope, path)).toBe(expected)
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
      if (g.includes('bad')) throw new Error('refused')
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
    const recording: GlobCompiler = (g) => (names.push(g), compile(g))
    const guard = compileGuard([decision({ paths: ['src/db/**', 'app/(auth)/**', '**/__tests__/**/*.test.*'] })], recording)
    expect(names).toEqual(['*.test.*'])
    expect(guard.match('app/(auth)/page.tsx')).toHaveLength(1)
    expect(guard.match('SRC/DB/x.sql')).toHaveLength(1)
  })

  test.each([
    // what keeps a glob cheap (docs/guard.md, Limits and Performance)
    ['*.test.*', true], // two `*` runs in a name
    ['*a*a*b', false], // three runs in one name: its regex tries every split (75 ms on a 1,024-letter name)
    ['src/*a*a*b/**', false],
    ['packages/*/src/**/*.ts', true],
    ['**/__tests__/**/*.test.*', true],
    ['**/db/**/*_*.sql', true],
    ['**/a/**/a/**/b', true], // names are matched one by one: any number of `**` costs one pass
    ['**/*a*/**/*a*b', true],
    ['*a*/*a*', true], // was 130 ms as one regex on two 500-letter names; now two separate names
    ['**/*a*/', true],
    ['src/../etc/**', false],
    [`${'a/'.repeat(15)}b`, true], // 16 names
    [`${'a/'.repeat(16)}b`, false], // 17
    [`*${'[a]'.repeat(16)}`, true], // 16 brackets in a name
    [`*${'[a]'.repeat(17)}`, false],
    // extglobs: `@( )` and `?( )` are read as braces; the others are refused
    ['src/@(db|sql)/**', true],
    ['?(a)b', true],
    ['src/!(gen)/**', false],
    ['!(gen)/**', false],
    ['*(a)b', false],
    ['+(a)b', false],
    ['@(|?)'.repeat(32) + '[0-9]', false], // the tester's globs: 2^32 alternatives (27 s per check before)
    ['?(a)'.repeat(40) + 'b', false], // 2^40 (over 10 minutes before)
    // braces: at most 16 alternatives, nested at most 4 deep
    ['{1..16}', true],
    ['{1..17}', false],
    ['{1..1000}', false],
    ['{a..z}/**', true], // a range of single characters is the class `[a-z]`
    ['{a,b}{c,d}{e,f}{g,h}', true],
    ['{a,b}{c,d}{e,f}{g,h}{i,j}', false],
    ['{a,{b,{c,{d,e}}}}', true],
    ['{a,{b,{c,{d,{e,f}}}}}', false],
    // names with a wildcard per glob: at most 32, of which 4 with two `*` runs
    ['{*a*b,*a*c,*a*d,*a*e}', true],
    ['{*a*b,*a*c,*a*d,*a*e,*a*f}', false],
    // bracket expressions a regex can't hold
    ['[z-a]', false],
    ['[[:foo:]]', false],
    ['[\u{1F600}]', false],
  ])('glob %s is kept: %s', (glob, kept) => {
    expect(prepareGlob(glob) !== undefined).toBe(kept)
  })

  test('what the compiler is given: the .gitignore-like rewrite, braces expanded, syntax escaped', () => {
    expect(prepareGlob('src/db/**')).toEqual({ exclude: false, patterns: ['src/db/**'] })
    expect(prepareGlob('*.sql')).toEqual({ exclude: false, patterns: ['**/*.sql', '**/*.sql/**'] })
    expect(prepareGlob('src/db/')).toEqual({ exclude: false, patterns: ['src/db/**/*'] })
    expect(prepareGlob('!src/gen')).toEqual({ exclude: true, patterns: ['src/gen', 'src/gen/**'] })
    expect(prepareGlob('app/(auth)/**')).toEqual({ exclude: false, patterns: ['app/\\(auth\\)/**'] })
    expect(prepareGlob('SRC/DB/**')).toEqual({ exclude: false, patterns: ['src/db/**'] })
    expect(prepareGlob('**')).toEqual({ exclude: false, patterns: ['**'] })
    expect(prepareGlob('   ')).toBeUndefined()
    expect(prepareGlob('src/{api,web}/**')).toEqual({ exclude: false, patterns: ['src/api/**', 'src/web/**'] })
    expect(prepareGlob('{a,b}.ts')!.patterns).toEqual(['**/a.ts', '**/a.ts/**', '**/b.ts', '**/b.ts/**'])
    expect(prepareGlob('v{08..10}/**')!.patterns).toEqual(['v08/**', 'v09/**', 'v10/**'])
    expect(prepareGlob('src/@(db|sql)/**')!.patterns).toEqual(['src/db/**', 'src/sql/**'])
    expect(prepareGlob('x/a+b|c@"$^,!{}/**')!.patterns).toEqual(['x/a\\+b\\|c\\@\\"\\$\\^\\,\\!\\{\\}/**'])
    expect(prepareGlob('app/[...slug]/**')!.patterns).toEqual(['app/[\\x2e\\x2e\\x2eslug]/**'])
    expect(prepareGlob('[!a-c]x/**')!.patterns).toEqual(['[^a-c]x/**'])
    expect(prepareGlob('**/**/a/**/**')!.patterns).toEqual(['**/a/**'])
  })

  test('matching name by name gives the answers picomatch gives on the whole pattern (seeded, 2,000 globs)', () => {
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
      const whole = prepared.patterns.map((p) => picomatch(p, GLOB_OPTIONS))
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

describe('records from Hark (list_journal_entries, the brief)', () => {
  const entry = (extra: Record<string, unknown>) => ({ id: 'd1', title: 'Raw SQL, no ORM', why: 'Reviewable migrations', status: 'accepted', scope: { paths: ['src/db/**'] }, ...extra })

  test('the settled, scoped decisions, with the marker taken out of the title', () => {
    const records = parseDecisionEntries({
      entries: [
        { id: 'd1', title: 'Raw SQL, no ORM (scope: src/db/**)', why: 'Migrations stay reviewable', status: 'accepted' },
        { id: 'd2', title: 'Deposits settle daily', rationale: 'Bank cut-off', body: 'scope: billing' },
        { id: 'd3', title: 'Use Kysely (scope: src/db/**)', status: 'candidate' },
        { id: 'd4', title: 'Use an ORM (scope: src/db/**)', acceptance: 'proposed' },
        { id: 'd5', title: 'Old rule (scope: src/**)', superseded_by: 'd1' },
        { id: 'd6', title: 'Unscoped rule', status: 'accepted' },
        { id: 'd7', title: 'Retired (scope: src/**)', status: 'retired' },
        { id: 'd8', title: 'Declined (scope: src/**)', accepted: false },
      ],
    })
    expect(records).toEqual([
      { key: 'id:d1', kind: 'decision', title: 'Raw SQL, no ORM', why: 'Migrations stay reviewable', scope: { paths: ['src/db/**'], areas: [] } },
      { key: 'id:d2', kind: 'decision', title: 'Deposits settle daily', why: 'Bank cut-off', scope: { paths: [], areas: ['billing'] } },
    ])
  })

  test.each([
    ['an object with entries', { entries: [entry({})] }, 1],
    ['the array itself', [entry({})], 1],
    ['JSON text', JSON.stringify({ entries: [entry({})] }), 1],
    ['text that is not JSON', 'no decisions', 0],
    ['entries of the wrong type', { entries: 'x' }, 0],
    ['no entries', {}, 0],
    ['null', null, 0],
    ['a number', 5, 0],
    ['junk entries', { entries: [null, 5, 'x', [], true] }, 0],
  ] as const)('payload: %s', (_, payload, n) => {
    expect(parseDecisionEntries(payload)).toHaveLength(n)
  })

  test('keys: id, else title; numbers are ids; a non-goal and a decision with the same title differ', () => {
    const d = parseDecisionEntries([entry({ id: undefined }), entry({ id: 42, title: 'Other' })])
    expect(d.map((r) => r.key)).toEqual(['title:Raw SQL, no ORM', 'id:42'])
    const n = parseNonGoals(['Raw SQL, no ORM (scope: src/db/**)', { id: 'ng1', title: 'No mobile app', area: 'mobile' }])
    expect(n.map((r) => r.key)).toEqual(['non-goal:title:Raw SQL, no ORM', 'non-goal:id:ng1'])
    expect(n[0]!.title).toBe(d[0]!.title)
    expect(n[0]!.key).not.toBe(d[0]!.key)
    const guard = compileGuard([...d, ...n], compile)
    expect(guard.match('src/db/x.sql').map((r) => r.key)).toEqual(['title:Raw SQL, no ORM', 'id:42', 'non-goal:title:Raw SQL, no ORM'])
  })

  test('the key does not move when the scope marker changes', () => {
    const a = parseDecisionEntries([{ title: 'Raw SQL (scope: src/db/**)' }])
    const b = parseDecisionEntries([{ title: 'Raw SQL (scope: src/db/**, *.sql)' }])
    expect(a[0]!.key).toBe(b[0]!.key)
  })

  test('a repeated id is kept once; blank and odd ids fall back to the title', () => {
    expect(parseDecisionEntries([entry({}), entry({ title: 'Again' })])).toHaveLength(1)
    expect(parseDecisionEntries([entry({ id: '  ' })])[0]!.key).toBe('title:Raw SQL, no ORM')
    expect(parseDecisionEntries([entry({ id: { x: 1 } })])[0]!.key).toBe('title:Raw SQL, no ORM')
    expect(parseDecisionEntries([entry({ id: 'x'.repeat(500) })])[0]!.key).toBe('title:Raw SQL, no ORM')
  })

  test('titles: text/summary/name when there is no title; a bare marker gets a placeholder; punctuation stays tidy', () => {
    expect(parseDecisionEntries([{ summary: 'Summary words', paths: ['a/**'] }])[0]!.title).toBe('Summary words')
    expect(parseDecisionEntries([{ name: 'Named', paths: ['a/**'] }])[0]!.title).toBe('Named')
    expect(parseDecisionEntries([{ title: '(scope: a/**)' }])[0]).toMatchObject({ title: 'Untitled decision', key: 'title:Untitled decision' })
    expect(parseDecisionEntries([{ paths: ['a/**'] }])[0]!.title).toBe('Untitled decision')
    expect(parseDecisionEntries([{ title: 'Raw SQL (scope: src/db/**), no ORM' }])[0]!.title).toBe('Raw SQL, no ORM')
    expect(parseDecisionEntries([{ title: 'Raw SQL (scope: src/db/**) for migrations' }])[0]!.title).toBe('Raw SQL for migrations')
    expect(parseDecisionEntries([{ title: 'A\u001b[31m red\u202e title', paths: ['a/**'] }])[0]!.title).toBe('A [31m red title')
  })

  test('200 records at most, even from a longer list with skipped entries in it', () => {
    const entries = Array.from({ length: 600 }, (_, i) => ({ id: `d${i}`, title: `D${i}`, paths: [`m${i}/**`], status: i % 3 === 0 ? 'rejected' : 'accepted' }))
    const records = parseDecisionEntries({ entries })
    expect(records).toHaveLength(200)
    expect(records.every((r) => !/^id:d\d*[0369]$/.test(r.key) || Number(r.key.slice(4)) % 3 !== 0)).toBe(true)
    expect(records[0]!.key).toBe('id:d1')
  })

  test('non-goals: strings and objects, settled and scoped ones only', () => {
    const n = parseNonGoals([
      'No mobile app (scope: mobile)',
      'No new payment providers\nscope: billing',
      'Unscoped non-goal',
      { title: 'No GraphQL', why: 'REST is enough', scope: { paths: ['src/api/**'] } },
      { text: 'No Redis (scope: src/cache/**)' },
      { title: 'Proposed non-goal (scope: x/**)', status: 'proposed' },
      42,
      null,
      { why: 'no words' },
    ])
    expect(n).toEqual([
      { key: 'non-goal:title:No mobile app', kind: 'non-goal', title: 'No mobile app', scope: { paths: [], areas: ['mobile'] } },
      { key: 'non-goal:title:No new payment providers', kind: 'non-goal', title: 'No new payment providers', scope: { paths: [], areas: ['billing'] } },
      { key: 'non-goal:title:No GraphQL', kind: 'non-goal', title: 'No GraphQL', why: 'REST is enough', scope: { paths: ['src/api/**'], areas: [] } },
      { key: 'non-goal:title:No Redis', kind: 'non-goal', title: 'No Redis', scope: { paths: ['src/cache/**'], areas: [] } },
    ])
    expect(parseNonGoals(null as never)).toEqual([])
    expect(parseNonGoals('x' as never)).toEqual([])
    expect(parseNonGoals(Array.from({ length: 300 }, (_, i) => `NG${i} (scope: m${i})`))).toHaveLength(200)
  })

  test('random junk never throws', () => {
    let seed = 7
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const atoms = [null, undefined, true, false, 0, -1, NaN, '', ' ', 'billing', 'src/**', '*', '(scope: x/**)', 'scope: a\nb', '\u0000', [], {}]
    const keys = ['title', 'text', 'why', 'body', 'scope', 'scope_paths', 'paths', 'files', 'areas', 'area', 'scope_area', 'scopes', 'applies_to', 'status', 'superseded_by', 'id', 'accepted']
    const junk = (depth: number): unknown => {
      const r = rand()
      if (depth > 2 || r < 0.4) return atoms[Math.floor(rand() * atoms.length)]
      if (r < 0.7) return Array.from({ length: Math.floor(rand() * 4) }, () => junk(depth + 1))
      return Object.fromEntries(keys.filter(() => rand() < 0.4).map((k) => [k, junk(depth + 1)]))
    }
    for (let i = 0; i < 500; i++) {
      const payload = junk(0)
      expect(() => {
        const records = [...parseDecisionEntries(payload), ...parseNonGoals(Array.isArray(payload) ? payload : [payload])]
        const guard = compileGuard(records, compile)
        const m = guard.match('src/billing/x.ts')
        guardQuestion('src/billing/x.ts', m)
        stopReason('src/billing/x.ts', m)
      }).not.toThrow()
    }
  })
})

describe('the question and the deny text (SPEC.md: the question lists every matching record\'s title and why)', () => {
  const raw = decision({ paths: ['src/db/**'] }, 'Raw SQL, no ORM', 'id:d1')
  const rawWithWhy: GuardRecord = { ...raw, why: 'Migrations stay reviewable' }
  const billing: GuardRecord = { key: 'non-goal:title:No new providers', kind: 'non-goal', title: 'No new providers', why: 'Stripe only', scope: { paths: [], areas: ['billing'] } }

  test('the question: the file, every title and why, what Allow and Stop do; it ends in a question mark', () => {
    const q = guardQuestion('src/db/x.sql', [rawWithWhy, billing])
    expect(q).toBe(
      [
        'src/db/x.sql is covered by a Hark decision and a non-goal:',
        '',
        '• Decision: Raw SQL, no ORM',
        '  Why: Migrations stay reviewable',
        '• Non-goal (billing): No new providers',
        '  Why: Stripe only',
        '',
        'Allow is remembered for these records for the rest of this conversation; Stop refuses this edit.',
        'Allow this edit of src/db/x.sql?',
      ].join('\n'),
    )
    expect(guardQuestion('a.ts', [raw])).toContain('a Hark decision:\n\n• Decision: Raw SQL, no ORM\n\nAllow is remembered for this record')
    expect(guardQuestion('a.ts', [billing, billing])).toMatch(/^a\.ts is covered by 2 Hark non-goals:/)
  })

  test('bounded: at most 10 records listed, long titles, whys and paths cut', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...raw, key: `id:${i}`, title: `T${i} ${'x'.repeat(500)}`, why: 'y'.repeat(5_000) }))
    const longPath = `${'deep/'.repeat(100)}file.ts`
    const q = guardQuestion(longPath, many)
    expect(q.match(/^• Decision/gm)).toHaveLength(10)
    expect(q).toContain('• …and 15 more')
    expect(q).toContain('25 Hark decisions')
    expect(q.length).toBeLessThan(4_500)
    expect(q).toMatch(/^…\/deep\/deep\/.*\/deep\/file\.ts is covered by/)
    expect(q.endsWith('?')).toBe(true)
    const s = stopReason(longPath, many)
    expect(s.match(/^- Decision "/gm)).toHaveLength(10)
    expect(s).toContain('- …and 15 more')
    expect(s.length).toBeLessThan(4_500)
  })

  test('control and bidi characters never reach the dialog', () => {
    const evil: GuardRecord = { ...raw, title: 'Ti\u001b]8;;http://x\u0007tle\u202e', why: 'line1\nline2\r\u0000' }
    const q = guardQuestion('src/\u001b[2Jx.ts', [evil])
    expect(q).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect(q).toContain('Why: line1 line2')
  })

  test('the deny text: why, and that Claude must ask the user rather than retry', () => {
    const s = stopReason('src/db/x.sql', [rawWithWhy, billing])
    expect(s).toBe(
      [
        "The user chose Stop in Hark's edit guard: this edit of src/db/x.sql is covered by a Hark decision and a non-goal:",
        '- Decision "Raw SQL, no ORM" (why: Migrations stay reviewable)',
        '- Non-goal (billing) "No new providers" (why: Stripe only)',
        'Do not retry this edit, and do not make the same change another way (another tool, a shell command or another file).',
        'Ask the user how they want to proceed.',
      ].join('\n'),
    )
  })

  test('odd input still gives readable text', () => {
    expect(guardQuestion('', [])).toBe(
      'this file is covered by no Hark record:\n\n\nAllow is remembered for these records for the rest of this conversation; Stop refuses this edit.\nAllow this edit of this file?',
    )
    expect(() => stopReason(null as never, [null, 5, {}] as never)).not.toThrow()
    expect(guardQuestion('a.ts', [{ ...raw, scope: null } as never])).toContain('• Decision: Raw SQL, no ORM')
  })
})

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

  test("the tester's globs are refused when read, so a check of any path costs nothing", () => {
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
