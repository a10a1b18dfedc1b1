import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { compileGuard } from '../../../core/domain/guard/compiled-guard'
import { GUARD_LIMITS } from '../../../core/domain/guard/limits'
import { guardQuestion, stopReason } from '../../../core/domain/guard/question'
import { isArea, isSettled, parseDecisionEntries, parseNonGoals, scopeOf } from '../../../core/domain/guard/records'
import { compile } from './fixtures'

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

describe('an area\'s folder names (docs/guard.md: letters, marks, digits, _ - . @ + and inner spaces, not dots alone)', () => {
  /** The rule read name by name, a character at a time: the oracle for the plugin's two expressions. */
  const oracle = (a: string) =>
    a.split('/').every((name) => {
      const chars = [...name]
      return chars.length > 0 && !chars.every((c) => c === '.') && chars.every((c) => /^[\p{L}\p{M}\p{N}_\-.@+ ]$/u.test(c)) && chars[0] !== ' ' && chars.at(-1) !== ' '
    })
  const unit = fc.oneof(
    fc.constantFrom('a', 'Z', '7', '_', '-', '.', '@', '+', ' ', '/', '\\', '*', '!', '\t', '\u0000', '\u007f'),
    fc.constantFrom('é', 'e\u0301', '\u0301', '日', '٣', '𝒜', 'ß', '\u00a0', '\u200b', '\ud800', '\udc00', '€'),
    fc.string({ maxLength: 1, unit: 'binary' }),
  )

  test('ASCII and other text read by the rule (generated names)', () => {
    fc.assert(fc.property(fc.array(unit, { maxLength: 24 }).map((parts) => parts.join('')), (a) => {
      expect(isArea(a)).toBe(oracle(a))
    }), { numRuns: 20_000 })
  })

  test.each(['billing', 'billing/api', 'a.b', '@scope', 'billing v2', 'fakturering', 'facturación', '会計', 'e\u0301'])('%s is an area', (a) => {
    expect(isArea(a)).toBe(true)
  })
  test.each(['', '.', '..', 'a/', '/a', 'a//b', ' a', 'a ', 'a/ b', 'a*b', 'a\tb', 'a\\b', '\u0301'.slice(1), 'a\u00a0b', 'a\u200bb'])('%j is not', (a) => {
    expect(isArea(a)).toBe(false)
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
