// What the benches read from a start: the engine's scan from its debug log (e2e/lib/timings.mjs), the median of
// their samples, and the vendored bundles' stand-ins that leave the plugin's own code alone to scan
// (e2e/lib/stand-ins.mjs).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'
// @ts-expect-error: a plain ES module of the benches, without declarations
import { debugLines, median, moduleLoad, scanOf } from '../../e2e/lib/timings.mjs'
// @ts-expect-error: a plain ES module of the benches, without declarations
import { writeStandIns } from '../../e2e/lib/stand-ins.mjs'

type Line = { t: number; text: string }
const lines = (text: string): Line[] => (debugLines as (t: string) => Line[])(text)
const scan = scanOf as (l: Line[]) => { scanMs: number | undefined }
const load = moduleLoad as (l: Line[]) => { scanMs?: number; workerMs?: number } | undefined
const mid = median as (xs: number[]) => number

const FOUND = '2026-12-04T10:00:00.000Z [DEBUG] Found 2 plugins (hark-memory)'
const SPAWNED = '2026-12-04T10:00:00.162Z [DEBUG] hooks worker spawned (one for every plugin)'
const LOADED = '2026-12-04T10:00:00.240Z [DEBUG] hooks module hark-memory@inline loaded (worker, environment 1, tier user); events: session.start'
const FAILED = '2026-12-04T10:00:00.200Z [ERROR] hooks module hark-memory@inline failed to load: no container'

describe('scanOf', () => {
  test('the span from Found N plugins to the worker spawned, whether the module then loads or not', () => {
    expect(scan(lines([FOUND, SPAWNED, LOADED].join('\n'))).scanMs).toBe(162)
    expect(scan(lines([FOUND, SPAWNED, FAILED].join('\n'))).scanMs).toBe(162)
  })
  test('undefined when either line is missing', () => {
    expect(scan(lines(FOUND)).scanMs).toBeUndefined()
    expect(scan(lines(SPAWNED)).scanMs).toBeUndefined()
  })
  test('moduleLoad reads the same scan and the worker part to the loaded line, and nothing for a module that failed', () => {
    expect(load(lines([FOUND, SPAWNED, LOADED].join('\n')))).toMatchObject({ scanMs: 162, workerMs: 78 })
    expect(load(lines([FOUND, SPAWNED, FAILED].join('\n')))).toBeUndefined()
  })
})

describe('median', () => {
  test('the middle value, the mean of the two middle ones for an even count, NaN for none; the input is left as it was', () => {
    const xs = [9, 1, 5]
    expect(mid(xs)).toBe(5)
    expect(xs).toEqual([9, 1, 5])
    expect(mid([4, 1, 3, 2])).toBe(2.5)
    expect(mid([])).toBeNaN()
  })
})

describe('writeStandIns', () => {
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  test('a stand-in per bundle at the same path, with the same export names (a default export too) and nothing behind them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hark-stand-ins-'))
    const source = join(dir, 'source')
    mkdirSync(join(source, 'vendor'), { recursive: true })
    writeFileSync(join(source, 'vendor', 'lib.js'), 'export class Container { get() { return 1 } }\nexport const ContainerModule = 2\nexport default function big() { return 3 }\n')
    await (writeStandIns as (s: string, f: string[], d: string) => Promise<void>)(source, ['vendor/lib.js'], join(dir, 'out'))
    const text = readFileSync(join(dir, 'out', 'vendor', 'lib.js'), 'utf8')
    expect(text).not.toContain('return')
    const standIn = await import(pathToFileURL(join(dir, 'out', 'vendor', 'lib.js')).href)
    expect(Object.keys(standIn).sort()).toEqual(['Container', 'ContainerModule', 'default'])
    expect(new standIn.Container()).toBeInstanceOf(standIn.Container)
  })
})
