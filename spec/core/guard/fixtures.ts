// What the guard's specs share: the plugin's name matcher and picomatch as its oracle, a record with a
// given scope, and a seeded generator.
import picomatch from 'picomatch/posix'
import { compileName, type GlobCompiler } from '../../../core/domain/guard/glob'
import type { GuardRecord } from '../../../core/domain/guard/records'

/** The plugin's own name matcher, as compileGuard uses it. */
export const compile: GlobCompiler = compileName

/**
 * The options under which picomatch means what the guard means (docs/guard.md, Glob semantics): `dot`,
 * `*` and `**` cover dotfiles and dot-folders; `nocase`, case is ignored (both sides are folded too);
 * `basename: false`, a slash-less glob gets its any-depth meaning from glob.ts, not from picomatch's
 * basename mode (which would test `src/db/**` against the file name alone); `noextglob`, extglobs are
 * read by glob.ts or refused, never compiled to nested groups.
 */
export const GLOB_OPTIONS = Object.freeze({ dot: true, nocase: true, basename: false, noextglob: true })

/** picomatch, given a name in its own syntax: the oracle. */
export const oracle: GlobCompiler = (name) => picomatch(name.source, GLOB_OPTIONS)

/** picomatch over a whole pattern (`src/**` + `/*.sql`). */
export const picomatchPattern = (pattern: string): ((path: string) => boolean) => picomatch(pattern, GLOB_OPTIONS)

export type ScopeInput = { readonly paths?: readonly string[]; readonly areas?: readonly string[] }

export const decision = (scope: ScopeInput, title = 'D', key = `title:${title}`): GuardRecord => ({
  key,
  kind: 'decision',
  title,
  scope: { paths: scope.paths ?? [], areas: scope.areas ?? [] },
})

/** A seeded generator, so every random case is the same on every run. */
export const seeded = (seed: number) => (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
