// What the guard's specs share: the compiler the adapter passes, a record with a given scope, and a
// seeded generator.
import picomatch from '../../../vendor/picomatch.js'
import type { GlobCompiler } from '../../../core/domain/guard/glob'
import { GLOB_OPTIONS } from '../../../core/domain/guard/glob-options'
import type { GuardRecord } from '../../../core/domain/guard/records'

/** What the adapter passes: picomatch's POSIX build with the domain's options. */
export const compile: GlobCompiler = (g) => picomatch(g, GLOB_OPTIONS)

export type ScopeInput = { readonly paths?: readonly string[]; readonly areas?: readonly string[] }

export const decision = (scope: ScopeInput, title = 'D', key = `title:${title}`): GuardRecord => ({
  key,
  kind: 'decision',
  title,
  scope: { paths: scope.paths ?? [], areas: scope.areas ?? [] },
})

/** A seeded generator, so every random case is the same on every run. */
export const seeded = (seed: number) => (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
