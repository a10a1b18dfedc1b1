/**
 * The picomatch options for the edit guard's scope globs (docs/guard.md, "Glob semantics").
 * Plain data: the adapter passes them to `vendor/picomatch.js` (`picomatch(glob, GLOB_OPTIONS)`), and
 * the specs use the same object, so what the specs prove is what the plugin matches.
 *
 * - `dot`: `*` and `**` also cover dotfiles and dot-folders (`src/config/**` covers
 *   `src/config/.env.local`); a guard that missed them would be a silent hole.
 * - `nocase`: case is ignored, as SPEC.md says for areas; the domain also folds case itself
 *   (`glob.ts`, `compiled-guard.ts`), so this only keeps picomatch from disagreeing.
 * - `basename: false`: picomatch's basename mode tests the file name alone even for globs with a
 *   slash (with it, `src/db/**` no longer covers `src/db/x.sql`), so the domain gives a slash-less glob
 *   its .gitignore meaning itself (`*.sql` becomes `**` + `/*.sql`).
 * - `noextglob`: picomatch compiles extglobs (`@(a|b)`, `?(a)`, `*(a)`, `+(a)`, `!(a)`) to nested regex
 *   groups, and a hostile one backtracks for minutes on an ordinary path. The domain reads braces and
 *   the two bounded extglobs (`@( )`, `?( )`) itself, refuses the others, escapes every other special
 *   character, and hands picomatch one name at a time (`glob.ts` prepareGlob, `compiled-guard.ts`
 *   PatternTable); this option is the second lock.
 */
export const GLOB_OPTIONS: Readonly<{ dot: boolean; nocase: boolean; basename: boolean; noextglob: boolean }> = Object.freeze({
  dot: true,
  nocase: true,
  basename: false,
  noextglob: true,
})
