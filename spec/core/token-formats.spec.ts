// The token table (core/domain/redaction/token-table.ts), its string of rows checked row by row against their typed
// shape, and its matcher (core/domain/redaction/tokens.ts): where a keyword token's value may stand around its name,
// what a shape alone is enough for, and the parts whose speed rests on keeping state, checked against the plain
// definitions they replace.
import fc from 'fast-check'
import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import { ALPHABETS, TABLE, VALUE_MIN } from '../../core/domain/redaction/token-table'
import { ENTROPY_LIMIT, KEYWORD_WINDOW, entropy, findTokens, tokenFormats, tokenMatcher, type TokenFormat } from '../../core/domain/redaction/tokens'

describe('entropy', () => {
  test.each([
    ['one character repeated', 'aaaaaaaa', 0],
    ['four characters once each', 'abcd', 2],
    ['sixteen characters once each', 'abcdefghijklmnop', 4],
    ['characters past ASCII count as one', 'éü漢字', 0],
    ['only the first ENTROPY_LIMIT characters', `${'ab'.repeat(ENTROPY_LIMIT / 2)}${'cdefghij'.repeat(20)}`, 1],
    ['nothing', '', 0],
  ])('%s', (_what, text, bits) => {
    expect(entropy(text, 0, text.length + 5)).toBeCloseTo(bits, 9)
  })

  test('an entropy of exactly a threshold reads as the threshold: a GitLab token of exactly 3 bits is redacted', () => {
    const body = 's1zxxxqxxxxyxrqxxyxx2zxxxzyxyyzrrqzz3yyxyx'
    expect(entropy(`glpat-${body}`, 0, 64)).toBe(3)
    expect(findTokens(`I rotated glpat-${body} yesterday.`)).toHaveLength(1)
  })

  test('of a window inside the text: from its start, at most its end', () => {
    expect(entropy('xxabcdyy', 2, 6)).toBeCloseTo(2, 9)
    expect(entropy('xxabcdyy', 6, 2)).toBe(0)
  })
})

describe('findTokens', () => {
  const pieces = ['ghp_', 'sk-ant-', 'glpat-', 'xoxb-', 'AKIA', 'eyJ', '-', '.', ' ', '\n', 'Datadog key ', ' (Datadog) ', 'twitter ', '=', 'commit ', 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC1', '0123456789abcdef', 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0', '1234567:A', '12345678901234567-']

  test('the remembered runs and keyword looks find what a matcher made afresh at each position finds', () => {
    const afresh = (text: string) => {
      const spans = []
      for (let p = 0, covered = 0; p < text.length; p++) {
        const span = p < covered ? undefined : tokenMatcher(text)(p)
        if (span !== undefined && span.start >= covered) spans.push(span)
        if (span !== undefined && span.start >= covered) covered = span.end
      }
      return spans
    }
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('')
        expect(findTokens(text)).toEqual(afresh(text))
      }),
      { numRuns: 200 },
    )
  })

  test('spans are in order and never overlap', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
        const spans = findTokens(parts.join(''))
        for (let i = 0; i < spans.length; i++) {
          const span = spans[i]!
          expect(span.start).toBeLessThan(span.end)
          if (i > 0) expect(span.start).toBeGreaterThanOrEqual(spans[i - 1]!.end)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('a value before its provider\'s name', () => {
  const found = (text: string) => findTokens(text).map((s) => text.slice(s.start, s.end))
  const value = `${'d'.repeat(20)}4${'e'.repeat(19)}`
  test(`starting up to KEYWORD_WINDOW (${KEYWORD_WINDOW}) characters before the name, on its line, is found`, () => {
    expect(found(`I tested it with ${value} (Datadog).`)).toEqual([value])
    expect(found(`The key is ${value}. It belongs to the staging account on Datadog.`)).toEqual([value])
    expect(found(`${value}${' '.repeat(KEYWORD_WINDOW - value.length)}datadog`)).toEqual([value])
    expect(found(`${value}${' '.repeat(KEYWORD_WINDOW - value.length + 1)}datadog`)).toEqual([])
    expect(found(`${value}\nDatadog is set up.`)).toEqual([])
  })
  test('each character around repeated names is looked at once: a value among them is found', () => {
    const text = `${'datadog '.repeat(2000)}${value}${' datadog'.repeat(2000)}`
    expect(found(text)).toEqual([value])
  })
})

describe('what is not a keyword token\'s value', () => {
  const found = (text: string) => findTokens(text).map((s) => text.slice(s.start, s.end))
  const hex = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0'
  test('a value said to be a hash or an id', () => {
    for (const text of [`Sourcegraph indexed the repository at commit ${hex} overnight.`, `Heroku logged request id 8c2d3f4a-1b2c-4d5e-8f90-a1b2c3d4e5f6 for it.`, `The Sentry release has the sha256 ${hex}${hex.slice(0, 24)} as its name.`])
      expect(found(text)).toEqual([])
    expect(found(`The Sourcegraph token is ${hex}.`)).toEqual([hex])
  })
  test('a value that reads as words: two of four letters or more between its separators', () => {
    expect(found('Adafruit IO feeds are named like greenhouse-humidity-sensor-west2 now.')).toEqual([])
    expect(found('Adafruit IO key: yomqvdrq4kvopz46l8dzmwt-6d3kwdql')).toEqual(['yomqvdrq4kvopz46l8dzmwt-6d3kwdql'])
  })
})

describe('a token whose shape is enough, with no name', () => {
  const found = (text: string) => findTokens(text).map((s) => text.slice(s.start, s.end))
  const body = 'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'
  test('a lead as long as its row allows: a Telegram bot id of 5 to 16 digits', () => {
    for (const id of ['12345', '110201543', '1234567890123456']) expect(found(`The bot runs as ${id}:${body} now.`)).toEqual([`${id}:${body}`])
    for (const id of ['1234', '12345678901234567']) expect(found(`The bot runs as ${id}:${body} now.`)).toEqual([])
  })
  test('a numeric id and a body (Twitter, Facebook), a run of A (a Twitter bearer token), a fixed start and a body (Mapbox, Lob, Yandex, Okta)', () => {
    for (const token of [
      `1234567890123456789-${'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0'}`,
      `123456789012345|${'ab3de5gh7jk9mn1pq2rs4tu6vw8xy0z'}`,
      `${'A'.repeat(22)}${'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC1'.repeat(3)}`,
      `pk.${'ab3de5gh7jk9mn1pq2rs4tu6vw8xy0'.repeat(2)}.${'ab3de5gh7jk9mn1pq2rs4t'}`,
      `test_${'0123456789abcdef'.repeat(2)}abc`,
      `AQVN${'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC1_-x'}`,
      `00${'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC1_-xyzwv'}`,
    ])
      expect(found(`I tested it with ${token} and it worked.`)).toEqual([token])
  })
  test('SPEC.md names sk-: a key as short as 16 characters after it goes, hyphenated words stay', () => {
    expect(found('The key sk-abc123def456ghi789 is revoked.')).toEqual(['sk-abc123def456ghi789'])
    expect(found('The key sk-abcdefghijklmnopqrstuv is revoked.')).toEqual(['sk-abcdefghijklmnopqrstuv'])
    expect(found('We use sk-learn-intelex-extension and sk-learn-helpers in the notebook.')).toEqual([])
  })
})

describe('a provider named on another line', () => {
  const value = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0'
  test('a provider named on one line does not hide its value on the next', () => {
    for (const text of [`Set up datadog.\ndatadog ${value}`, `Set up datadog.\nDatadog: ${value}`, `datadog\n\ndatadog ${value}`]) {
      expect(findTokens(text).map((s) => text.slice(s.start, s.end))).toEqual([value])
    }
  })
})

describe('a value after a provider\'s name', () => {
  // Datadog's value: 40 of A-Za-z0-9, holding a digit and a letter (token-table.ts).
  const found = (text: string) => findTokens(text).map((s) => text.slice(s.start, s.end))
  test('starting at the window\'s last character, its only digit at its end, is found', () => {
    const value = `${'a'.repeat(39)}1`
    expect(found(`datadog${' '.repeat(KEYWORD_WINDOW - 1)}${value}`)).toEqual([value])
    expect(found(`datadog${' '.repeat(KEYWORD_WINDOW)}${value}`)).toEqual([])
  })
  test('a digit past every value\'s reach, or none, leaves the words after the name as they are', () => {
    for (const text of [`the datadog dashboards ${'x'.repeat(300)} 7`, 'the datadog dashboards show nothing', `datadog ${'a'.repeat(40)} 1`]) expect(found(text)).toEqual([])
  })
  test('each name of a repeated one is looked after once: a later value is found', () => {
    const value = `${'b'.repeat(20)}2${'c'.repeat(19)}`
    const text = `${'datadog '.repeat(2000)}${value}`
    expect(found(text)).toEqual([value])
  })
})

/**
 * A row as TABLE writes it: a TokenFormat whose regexes are `/…/flags` strings and whose alphabets are ALPHABETS' names
 * or character classes (tokenFormats reads them into RegExp and classes).
 */
type Written<T> = T extends RegExp ? string : T extends readonly (infer E)[] ? Written<E>[] : T extends object ? { -readonly [K in keyof T]: Written<T[K]> } : T

/** The typed shape of a row: every field its kind has, of its type, and nothing else (a misspelt field is no field). */
const alphabet = z.string().refine((a) => a in ALPHABETS || (/^[\x21-\x7e]+$/.test(a) && new RegExp(`^[${a}]+$`) instanceof RegExp), 'an alphabet: a name of ALPHABETS or a character class')
const regex = z.string().refine((r) => /^\/.+\/[a-z]*$/.test(r) && new RegExp(r.slice(1, r.lastIndexOf('/')), r.slice(r.lastIndexOf('/') + 1)) instanceof RegExp, 'a regex literal')
const count = z.int().min(0)
const named = { provider: z.string().trim().min(1), source: z.string().regex(/^(?:gitleaks |secretlint |hark-memory \()/) }
const word = z.string().min(2).refine((w) => !(w in ALPHABETS) && !w.startsWith('/'), 'neither an alphabet nor a regex (the table is read in one step)')
const PREFIXED = z.strictObject({
  kind: z.literal('prefixed'),
  ...named,
  prefixes: z.array(word).min(1),
  anyCase: z.boolean().optional(),
  body: alphabet,
  min: count,
  max: count,
  open: z.boolean().optional(),
  keep: z.boolean().optional(),
  shape: regex.optional(),
  entropy: z.number().positive().optional(),
  allow: regex.optional(),
  lead: z.strictObject({ min: count, max: count, body: alphabet }).refine((l) => l.min <= l.max, 'min <= max').optional(),
}).refine((f) => f.min <= f.max, 'min <= max')
const KEYWORD = z.strictObject({
  kind: z.literal('keyword'),
  ...named,
  keywords: z.array(word.refine((k) => k === k.toLowerCase(), 'in lower case')).min(1),
  values: z.array(z.strictObject({ body: alphabet, min: count, max: count, shape: regex.optional() }).refine((v) => v.min <= v.max, 'min <= max')).min(1),
})
const ROW = z.discriminatedUnion('kind', [PREFIXED, KEYWORD])

describe('the token table, its string of rows', () => {
  const lines = TABLE.split('\n').filter((line) => line !== '' && !line.startsWith('//'))

  test('the typed shape is the formats as written', () => {
    expectTypeOf<z.output<typeof ROW>>().toEqualTypeOf<Written<TokenFormat>>()
  })

  test.each(lines.map((line) => [(JSON.parse(line) as { provider?: string }).provider ?? line, line] as const))('%s: a row of the typed shape', (_name, line) => {
    const parsed = ROW.safeParse(JSON.parse(line))
    expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([])
  })

  test('is read once, a format a row: the same formats on every call', () => {
    expect(tokenFormats()).toBe(tokenFormats())
    expect(tokenFormats()).toHaveLength(lines.length)
  })

  test('no keyword token\'s value is shorter than VALUE_MIN: a shorter run is never read', () => {
    const keywordRows = tokenFormats().filter((f) => f.kind === 'keyword')
    expect(keywordRows.flatMap((f) => f.values.filter((v) => v.min < VALUE_MIN).map(() => f.provider))).toEqual([])
  })

  test('no two rows share a provider', () => {
    expect(new Set(tokenFormats().map((f) => f.provider)).size).toBe(lines.length)
  })
})
