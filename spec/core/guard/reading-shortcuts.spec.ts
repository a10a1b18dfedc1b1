// The shortcuts the edit guard's reading keeps for the cold first guarded edit (docs/engine.md, "Shapes the cold
// first edit keeps") give what the plain forms gave. Each property holds a shortcut to the form it replaced,
// written out here as it was.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { display, isSettled, parseDecisionEntries, scopeOf } from '../../../core/domain/guard/records'
import { isReasonable, MAX_DEPTH, replaced, text } from '../../../core/domain/item'

const RUNS = { numRuns: 1_000 }

/** Characters that stress the shortcuts: every kind of white space, line ends, controls, bidi, astral, case pairs. */
const tricky = fc.constantFrom(
  ' ', '  ', '\t', '\n', '\r', '\r\n', '\u000b', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff',
  '\u0000', '\u001b', '\u007f', '\u0085', '\u200e', '\u202e', '\u2066', '😀', '𝔘', 'é', 'e\u0301', 'ß', 'İ', 'K', 'ſ',
  'a', 'Z', '.', ',', ';', ':', '(', ')', '[', ']', '{', '}', '`', "'", '"', '/', '\\', '*', '?', '…', '-', '_',
)
const trickyText = (maxLength: number) => fc.array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength }).map((parts) => parts.join(''))

describe('replaced: a test, then the replace only when it finds something', () => {
  test('gives what the replace gives, and leaves a global regex ready for the next use (fast-check)', () => {
    const regexes = [/\s+/g, /[.,;:]+$/, /^\/+|\/+$/g, /[\p{Cc}\p{Cf}\u2028\u2029]/gu, /a/g, /(?:)/g, /x|$/g]
    fc.assert(
      fc.property(trickyText(12), fc.constantFrom(...regexes), fc.constantFrom('', ' ', '\\$&', '$1'), (s, re, by) => {
        expect(replaced(s, re, by)).toBe(s.replace(new RegExp(re.source, re.flags), by))
        expect(re.lastIndex).toBe(0)
      }),
      RUNS,
    )
  })
})

describe('text and display', () => {
  const MAX_TEXT = 2_000
  const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
  const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu
  const textBefore = (value: unknown, max = MAX_TEXT): string | undefined => {
    if (typeof value !== 'string') return undefined
    const t = value.slice(0, 4 * max).replace(CONTROLS, '').replace(/\s+/g, ' ').trim()
    if (t === '') return undefined
    return t.length > max ? `${t.slice(0, max - 1)}…` : t
  }
  const displayBefore = (v: unknown, max: number): string => {
    if (typeof v !== 'string') return ''
    const t = textBefore(v.replace(UNPRINTABLE, ' '), Number.MAX_SAFE_INTEGER) ?? ''
    const chars = Array.from(t)
    return chars.length <= max ? t : `${chars.slice(0, max - 1).join('').trimEnd()}…`
  }

  test('text gives what it gave (fast-check)', () => {
    fc.assert(
      fc.property(trickyText(30), fc.integer({ min: 1, max: 40 }), (s, max) => {
        expect(text(s, max)).toBe(textBefore(s, max))
        expect(text(s)).toBe(textBefore(s))
      }),
      RUNS,
    )
  })

  test('display counts code points only when the text may be too long, and gives what it gave (fast-check)', () => {
    fc.assert(
      fc.property(trickyText(30), fc.integer({ min: 1, max: 40 }), (s, max) => {
        expect(display(s, max)).toBe(displayBefore(s, max))
      }),
      RUNS,
    )
    // Printable ASCII, with and without two spaces in a row, is read by its own shortcut.
    const ascii = fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(' ', '  ', '   ')), { maxLength: 12 }).map((p) => p.join(''))
    fc.assert(
      fc.property(ascii, fc.integer({ min: 1, max: 60 }), (s, max) => {
        expect(display(s, max)).toBe(displayBefore(s, max))
      }),
      RUNS,
    )
    // Astral characters count once: 10 of them fit in 10, though they are 20 UTF-16 units.
    expect(display('😀'.repeat(10), 10)).toBe('😀'.repeat(10))
    expect(display('😀'.repeat(11), 10)).toBe(`${'😀'.repeat(9)}…`)
  })
})

describe('settledness: one test of each field for the unsettled words', () => {
  const WORDS = new Set(['proposed', 'candidate', 'draft', 'pending', 'rejected', 'superseded', 'retired', 'expired', 'obsolete'])
  const before = (o: Record<string, unknown>): boolean => {
    for (const field of ['status', 'acceptance', 'applicability']) {
      const v = o[field]
      if (typeof v !== 'string') continue
      for (const word of v.toLowerCase().split(/[^a-z]+/)) if (WORDS.has(word)) return false
    }
    return true
  }
  const status = fc
    .array(fc.oneof(fc.constantFrom(...WORDS, 'accepted', 'active', 'Superseded', 'PENDING', 'un', 's', 'd'), tricky, fc.constantFrom('-', '_', '1', 'K', 'İ')), { maxLength: 6 })
    .map((p) => p.join(''))

  test('gives what the split into words gave (fast-check)', () => {
    fc.assert(
      fc.property(status, status, fc.option(status), (s, a, ap) => {
        const o = { status: s, acceptance: a, ...(ap === null ? {} : { applicability: ap }) }
        expect(isSettled(o)).toBe(before(o))
      }),
      RUNS,
    )
  })
})

describe('scope text split at line ends and list separators without a regex', () => {
  test('a title or body read in lines: \\r\\n, \\r and \\n end a line alike (fast-check)', () => {
    const line = fc.oneof(
      fc.constantFrom('scope: billing', '- Scope: src/db/**', '**Scope:** *.sql, docs/**', 'Context.', 'scope_version: 2', '', '  '),
      trickyText(6),
    )
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.constantFrom('\r\n', '\r'), (lines, end) => {
        const lf = { title: lines.join('\n'), body: lines.join('\n') }
        const other = { title: lines.join(end), body: lines.join(end) }
        expect(scopeOf(other)).toEqual(scopeOf(lf))
        expect(parseDecisionEntries([other])).toEqual(parseDecisionEntries([lf]))
      }),
      RUNS,
    )
  })

  test.each([
    ['separators at the ends', ' , ;billing;; payments , ', { paths: [], areas: ['billing', 'payments'] }],
    ['Unicode white space separates', 'billing\u00a0payments\u3000auth\u2028jobs', { paths: [], areas: ['billing', 'payments', 'auth', 'jobs'] }],
    ['an unclosed group runs to the end', 'src/{db, api/** docs', { paths: ['src/{db, api/** docs'], areas: [] }],
    ['a stray closer is text, not a separator', 'a) b', { paths: [], areas: ['b'] }],
    ['joiners and punctuation', 'billing and payments.', { paths: [], areas: ['billing', 'payments'] }],
    ['repeats kept once, in order', 'src/a/**, src/b/**, src/a/**', { paths: ['src/a/**', 'src/b/**'], areas: [] }],
  ])('%s', (_name, scope, expected) => {
    expect(scopeOf({ scope })).toEqual(expected)
  })

  // A title or body without the word `scope` (any case) is not read for markers and scope lines: the same
  // text behind an empty marker (the title) or an empty scope line (the body), which add nothing, is read whole.
  test('a text without the word scope gives what the whole reading of it gives (fast-check)', () => {
    const piece = fc.oneof(
      trickyText(4),
      fc.constantFrom('(scope: src/db/**)', '(Scopes: billing, api)', '\nscope: *.sql', '\n- Scope: docs/**', '\n**SCOPE:** billing', 'scope_version: 2', '(scope:', 'sco', 'pe:', 'billing', 'src/**', '\n'),
    )
    // At most six pieces: the empty marker takes one of a title's eight.
    const words = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''))
    fc.assert(
      fc.property(words.filter((t) => t.trim() !== ''), words, (title, body) => {
        expect(scopeOf({ title, body })).toEqual(scopeOf({ title: `(scope:) ${title}`, body: `scope:\n${body}` }))
      }),
      RUNS,
    )
  })

  test('a structured list keeps each value once, in order; areas too', () => {
    expect(scopeOf({ scope: { paths: ['b/**', 'a/**', 'b/**', ' a/** '], areas: ['x', 'y', 'x'] }, areas: ['y', 'z'] })).toEqual({ paths: ['b/**', 'a/**'], areas: ['x', 'y', 'z'] })
  })

  test('a one-line title without a marker is its own headline, as read line by line (fast-check)', () => {
    const title = trickyText(12).filter((t) => !/[(\r\n]/.test(t))
    fc.assert(
      fc.property(title, (t) => {
        // A line end after it sends the same title through the marker and line reading.
        const [short, long] = [t, `${t}\n`].map((x) => parseDecisionEntries([{ id: 'a', title: x, scope: 'x/**' }])[0]?.title)
        expect(short).toBe(long)
      }),
      RUNS,
    )
  })

  test('a title without a marker is shown whole; one with markers without them', () => {
    const [plain, marked] = parseDecisionEntries([
      { id: 'a', title: 'Deposits (daily) settle at noon', scope: { paths: ['x/**'] } },
      { id: 'b', title: 'Raw SQL (scope: src/db/**), no ORM (Scope: *.sql)' },
    ])
    expect(plain?.title).toBe('Deposits (daily) settle at noon')
    expect(marked).toMatchObject({ title: 'Raw SQL, no ORM', scope: { paths: ['src/db/**', '*.sql'], areas: [] } })
  })

  test('a blank why falls back to the rationale; neither leaves no why', () => {
    const [a, b] = parseDecisionEntries([
      { id: 'a', title: 'A', why: ' \n ', rationale: 'Because.', scope: 'x/**' },
      { id: 'b', title: 'B', why: '', scope: 'x/**' },
    ])
    expect(a?.why).toBe('Because.')
    expect(b !== undefined && 'why' in b).toBe(false)
  })
})

describe('isReasonable with two stacks', () => {
  const MAX_VALUES = 500_000
  const before = (value: unknown): boolean => {
    const stack: [unknown, number][] = [[value, 0]]
    let seen = 0
    while (stack.length > 0) {
      const [v, depth] = stack.pop()!
      if (++seen > MAX_VALUES || depth > MAX_DEPTH) return false
      if (typeof v !== 'object' || v === null) continue
      for (const child of Array.isArray(v) ? v : Object.values(v)) {
        if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
        else if (++seen > MAX_VALUES) return false
      }
    }
    return true
  }
  const nested = (depth: number, inner: unknown): unknown => (depth === 0 ? inner : depth % 2 === 0 ? [nested(depth - 1, inner)] : { a: nested(depth - 1, inner) })

  test('gives what the walk over pairs gave (fast-check), and stops at the same depth', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        expect(isReasonable(v)).toBe(before(v))
      }),
      RUNS,
    )
    // `depth` containers, one in the other: the innermost stands at depth - 1.
    for (let depth = MAX_DEPTH - 1; depth <= MAX_DEPTH + 3; depth++) expect(isReasonable(nested(depth, 1))).toBe(before(nested(depth, 1)))
    expect(isReasonable(nested(MAX_DEPTH + 1, 1))).toBe(true)
    expect(isReasonable(nested(MAX_DEPTH + 2, 1))).toBe(false)
  })
})
