// The test runners' table (core/domain/test-runner-rules.ts) is one string of JSON, which tsc cannot read: this holds
// every row of it to the Rule interface. ROW has one check per field of Rule (tsc fails when the two differ), and
// every row, and every rule under a `sub`, may hold those fields alone, each with a value of its type.
import { describe, expect, test } from 'vitest'
import { RULES_JSON, ruleOf, type Reader, type Rule } from '../../core/domain/test-runner-rules'

const table = JSON.parse(RULES_JSON) as Record<string, unknown>
/** The flag lists (`"@NPX": "-p --package …"`), named in `wrap`. */
const LISTS = Object.keys(table).filter((key) => key.startsWith('@'))

/** Each reader once: tsc holds this to Reader. */
const READERS: Readonly<Record<Reader, true>> = { runner: true, wrapper: true, pm: true, python: true, coverage: true, node: true, script: true, shell: true, eval: true, env: true, nx: true }

/** What is wrong with a value, or nothing. */
type Check = (value: unknown) => string | undefined

const text: Check = (v) => (typeof v === 'string' && v !== '' ? undefined : 'not a string')
const one: Check = (v) => (v === 1 ? undefined : 'not 1')
const words =
  (each: Check = text): Check =>
  (v) =>
    Array.isArray(v) ? v.map(each).find((problem) => problem !== undefined) : 'not a list'
/** A word list's entry: `script`, a word, or `/regex/` that compiles. */
const entry: Check = (v) => {
  if (typeof v !== 'string' || v === '') return 'not a string'
  if (!v.startsWith('/')) return undefined
  try {
    new RegExp(v.slice(1, -1))
    return v.endsWith('/') ? undefined : 'a regex without its closing /'
  } catch {
    return `${v} does not compile`
  }
}
const flagOrList: Check = (v) => (typeof v !== 'string' ? 'not a string' : v.startsWith('@') && !LISTS.includes(v) ? `${v} names no list` : undefined)

/** One check per field of Rule. */
const ROW: { readonly [Field in keyof Rule]-?: Check } = {
  as: text,
  is: (v) => (typeof v === 'string' && Object.hasOwn(READERS, v) ? undefined : `${String(v)} is no reader`),
  sub: (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not an object'
    for (const [word, next] of Object.entries(v)) {
      const problem = typeof next === 'string' ? undefined : problemsOf(next)[0]
      if (problem !== undefined) return `${word}: ${problem}`
    }
    return undefined
  },
  any: words(entry),
  first: words(entry),
  last: text,
  exclude: words(),
  booleans: words(),
  unless: words(),
  wrap: words(flagOrList),
  after: words(),
  skip: (v) => (Number.isInteger(v) && (v as number) > 0 ? undefined : 'not a whole number above 0'),
  assign: one,
  background: one,
  inner: text,
  duration: one,
  never: words(),
  drop: text,
  through: text,
}

/** What is wrong with one rule: fields Rule has not, and values not of their field's type. */
function problemsOf(rule: unknown): string[] {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return ['not an object']
  return Object.entries(rule).flatMap(([field, value]) => {
    if (!Object.hasOwn(ROW, field)) return [`${field} is no field of Rule`]
    const problem = ROW[field as keyof Rule](value)
    return problem === undefined ? [] : [`${field}: ${problem}`]
  })
}

describe('RULES_JSON, held to Rule', () => {
  test('every command row is a Rule, field by field', () => {
    const rows = Object.entries(table).filter(([key]) => !key.startsWith('@'))
    expect(rows.length).toBeGreaterThan(100)
    for (const [name, rule] of rows) expect([name, problemsOf(rule)]).toEqual([name, []])
  })

  test('command names are read in lower case; flag lists are named in capitals, each a line of flags, each named by a rule', () => {
    for (const key of Object.keys(table)) expect([key, /^(?:[a-z0-9][a-z0-9._+-]*|@[A-Z]+)$/.test(key)]).toEqual([key, true])
    const named = new Set(Object.values(table).flatMap((rule) => ((rule as Rule).wrap ?? []).filter((flag) => flag.startsWith('@'))))
    for (const list of LISTS) {
      expect([list, typeof table[list] === 'string' && /^-[^\s]*(?: -[^\s]*)*$/.test(table[list] as string)]).toEqual([list, true])
      expect([list, named.has(list)]).toEqual([list, true])
    }
  })

  test('ruleOf reads the table (a command of each kind)', () => {
    expect(ruleOf('jest')).toEqual({})
    expect(ruleOf('python3.12')?.is).toBe('python')
    expect(ruleOf('npx')?.wrap).toEqual(['@NPX'])
    expect(ruleOf('toString')).toBeUndefined()
  })
})
