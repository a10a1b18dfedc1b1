import { describe, expect, test } from 'vitest'
import { prepareGlob } from '../../../core/domain/guard/glob'

describe('reading a glob before picomatch (docs/guard.md, Glob semantics and Performance)', () => {
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
    ['@(|?)'.repeat(32) + '[0-9]', false], // a backtracking glob: 2^32 alternatives (27 s per check before)
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
    ['[[:constructor:]]', false],
    ['[[:__proto__:]]x', false],
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
})
