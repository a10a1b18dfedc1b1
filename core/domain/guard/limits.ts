/**
 * The edit guard's size caps (SPEC.md: The edit guard; docs/guard.md, Limits and Performance): how
 * much of what Hark sends is kept, what one glob may cost to read and match, and what one compiled
 * guard may hold. Records, the glob reader and the compiled guard each read their own caps here.
 */

/** Size limits: values beyond them are dropped, never an error. */
export interface GuardLimits {
  /** Records kept from one list_journal_entries payload, and from one brief's non-goals. */
  readonly records: number
  /** Records one compiled guard holds (200 decisions and 200 non-goals). */
  readonly compiledRecords: number
  /** Raw entries looked at in one payload (skipped, unsettled ones included). */
  readonly scannedEntries: number
  readonly globsPerRecord: number
  readonly areasPerRecord: number
  readonly globLength: number
  readonly areaLength: number
  /**
   * Glob shapes that could cost too much to match are skipped (docs/guard.md, Limits and Performance).
   * Per name (the text between two slashes): at most 2 `*` runs (`*a*b` has 2; a name with two runs
   * is "costly": its test may try every split of the name) and 16 bracket expressions; a name with a
   * wildcard (`*`, `?`, a bracket expression) at most 64 characters, a bracket expression counting one.
   * Per pattern: 16 names. Per glob: 16 alternatives (braces, ranges, `@( )`, `?( )`), nested at most 4
   * deep, holding at most 32 distinct names with a wildcard, 4 of them costly.
   */
  readonly starRunsPerName: number
  readonly classesPerName: number
  readonly wildcardNameLength: number
  readonly namesPerPattern: number
  readonly alternativesPerGlob: number
  readonly braceDepth: number
  readonly wildcardNamesPerGlob: number
  readonly costlyNamesPerGlob: number
  /**
   * What one compiled guard holds, each cap bounding one cost of a check or of compiling
   * (docs/guard.md, Performance): characters of glob text read (a glob's length times its
   * alternatives); distinct patterns; names standing between two `**` (each may be tried at every
   * name of the path), summed over the patterns; distinct names with a wildcard (plain names are
   * compared as text), and costly ones. A glob that would pass a cap is skipped, in record order.
   */
  readonly globTextPerGuard: number
  readonly patternsPerGuard: number
  readonly innerNamesPerGuard: number
  readonly wildcardNamesPerGuard: number
  readonly costlyNamesPerGuard: number
  /** Longer project-relative paths are not matched (macOS's PATH_MAX; no real project gets near). */
  readonly pathLength: number
  readonly idLength: number
  readonly titleLength: number
  readonly whyLength: number
}

/** The caps (a key GuardLimits lacks, or misses, is a compile error). */
export const GUARD_LIMITS: GuardLimits = Object.freeze({
  records: 200,
  compiledRecords: 400,
  scannedEntries: 2000,
  globsPerRecord: 16,
  areasPerRecord: 16,
  globLength: 256,
  areaLength: 64,
  starRunsPerName: 2,
  classesPerName: 16,
  wildcardNameLength: 64,
  namesPerPattern: 16,
  alternativesPerGlob: 16,
  braceDepth: 4,
  wildcardNamesPerGlob: 32,
  costlyNamesPerGlob: 4,
  globTextPerGuard: 262_144,
  patternsPerGuard: 8192,
  innerNamesPerGuard: 8192,
  wildcardNamesPerGuard: 512,
  costlyNamesPerGuard: 64,
  pathLength: 1024,
  idLength: 200,
  titleLength: 300,
  whyLength: 1000,
})
