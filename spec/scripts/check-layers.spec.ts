// The layering check (scripts/check-layers.mjs, the `layers` step of npm test) can fail: it is run over
// small trees in a temp folder, one clean and one per kind of breach, type-only imports included.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'

const script = join(dirname(fileURLToPath(import.meta.url)), '../../scripts/check-layers.mjs')

/** A tree whose core/ is clean: each layer imports its own and inner layers, by value and by type. */
const CLEAN: Record<string, string> = {
  'core/domain/item.ts': "export interface Item { id: string }\nexport const none = 0\n",
  'core/domain/rules.ts': "import type { Item } from './item'\nimport { none } from './item'\nexport const count = (items: Item[]) => items.length + none\n",
  'core/ports/store.port.ts': "import type { Item } from '../domain/item'\nexport interface Store { get(): Promise<Item> }\nexport const Store = Symbol('Store')\n",
  'core/application/use.ts':
    "import type { Store } from '../ports/store.port'\nimport { count } from '../domain/rules'\nexport { type Item } from '../domain/item'\nexport class Use { constructor(readonly store: Store) {}\n  n = count([])\n}\n",
  'adapters/store.ts': "import type { Store } from '../core/ports/store.port'\nexport const store: Partial<Store> = {}\n",
  'composition/container.ts': "import { Use } from '../core/application/use'\nimport inversify from 'inversify'\nexport const use = [Use, inversify]\n",
}

const trees: string[] = []
afterEach(() => {
  for (const t of trees.splice(0)) rmSync(t, { recursive: true, force: true })
})

/** Runs the check over CLEAN with `extra` files added (or replaced). */
function check(extra: Record<string, string> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'hark-layers-spec-'))
  trees.push(root)
  for (const [path, text] of Object.entries({ ...CLEAN, ...extra })) {
    mkdirSync(join(root, dirname(path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const run = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' })
  return { status: run.status, out: `${run.stdout}${run.stderr}` }
}

describe('scripts/check-layers.mjs', () => {
  test('passes a clean tree', { timeout: 30_000 }, () => {
    const r = check()
    expect(r.out).toContain('0 problems')
    expect(r.status).toBe(0)
  })

  test.each([
    ['the domain imports a type from the application', 'core/domain/bad.ts', "import type { Use } from '../application/use'\nexport type U = Use\n", 'core/domain/bad.ts:1: type-only import'],
    ['the domain imports a port', 'core/domain/bad.ts', "import { Store } from '../ports/store.port'\nexport const s = Store\n", 'core/domain/bad.ts:1: import'],
    ['the domain re-exports a port type', 'core/domain/bad.ts', "export type { Store } from '../ports/store.port'\n", 'core/domain/bad.ts:1: type-only import'],
    ['a port imports a type from the application', 'core/ports/bad.port.ts', "import type { Use } from '../application/use'\nexport interface Bad { use: Use }\n", 'core/ports/bad.port.ts:1: type-only import'],
    ['a port names the application in a type', 'core/ports/bad.port.ts', "export type Bad = import('../application/use').Use\n", 'core/ports/bad.port.ts:1: type-only import'],
    ['the application imports an adapter', 'core/application/bad.ts', "import { store } from '../../adapters/store'\nexport const s = store\n", 'core/application/bad.ts:1: import'],
    ['the application imports a type from the composition root', 'core/application/bad.ts', "import type { use } from '../../composition/container'\nexport type U = typeof use\n", 'core/application/bad.ts:1: type-only import'],
    ['the domain imports vendor/', 'core/domain/bad.ts', "import { Container } from '../../vendor/inversify.js'\nexport const c = Container\n", 'core/domain/bad.ts:1: import'],
    ['a port imports hooks/', 'core/ports/bad.port.ts', "\nimport { register } from '../../hooks/register'\nexport const r = register\n", 'core/ports/bad.port.ts:2: import'],
    ['the domain imports the engine module by type', 'core/domain/bad.ts', "import type { EngineInterface } from 'claude-code'\nexport type E = EngineInterface\n", 'core/domain/bad.ts:1: type-only import'],
    ['the application imports an npm package', 'core/application/bad.ts', "import picomatch from 'picomatch'\nexport const p = picomatch\n", 'core/application/bad.ts:1: import'],
    ['the application imports a package lazily', 'core/application/bad.ts', "export const p = () => import('zod')\n", 'core/application/bad.ts:1: import'],
  ])('fails when %s', { timeout: 30_000 }, (_, path, text, reported) => {
    const r = check({ [path]: text })
    expect(r.status).toBe(1)
    expect(r.out).toContain(reported)
    expect(r.out).toContain('1 problem\n')
  })

  test('is not fooled by an import in a comment or a string', { timeout: 30_000 }, () => {
    const r = check({ 'core/domain/quiet.ts': "// import x from '../../adapters/store'\nexport const s = \"import x from '../application/use'\"\n" })
    expect(r.status).toBe(0)
  })
})
