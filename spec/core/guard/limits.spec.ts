// The edit guard's caps (core/domain/guard/limits.ts): tsc holds each read and the table to GuardLimits; this holds
// the table to what the code reads (no cap nobody reads), each cap a positive whole number, and the table frozen.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { GUARD_LIMITS } from '../../../core/domain/guard/limits'

const root = join(__dirname, '../../..')
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(join(root, dir, e.name), 'utf8')] : []))

describe('GUARD_LIMITS', () => {
  const read = new Set([...sources('core'), ...sources('adapters')].flatMap((text) => [...text.matchAll(/LIMITS\.([A-Za-z]+)/g)].map((m) => m[1] as string)))

  test('every cap the code reads is in the table, a positive whole number, and the table holds no other', () => {
    expect(read.size).toBeGreaterThan(15)
    expect(Object.keys(GUARD_LIMITS).sort()).toEqual([...read].sort())
    for (const [name, cap] of Object.entries(GUARD_LIMITS)) expect([name, Number.isInteger(cap) && cap > 0]).toEqual([name, true])
  })

  test('is frozen', () => {
    expect(Object.isFrozen(GUARD_LIMITS)).toBe(true)
  })
})
