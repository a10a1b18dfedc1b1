/**
 * The project file and where to look for it (SPEC.md, Setup step 1).
 *
 * A project is named by `.hark/project`, holding a project code (`V-012`) or a project id (a UUID),
 * or by a `.hark` file holding `venture=V-012` (what Hark's own hook installer writes). The folder
 * Claude Code starts in is searched first, then each parent folder; file paths are later taken
 * relative to the folder where the file was found.
 */
import { ancestors, childOf, formatPath, pathRules, placePath, relativePath, type PathRules } from './paths'

declare const brand: unique symbol

/**
 * A project as Hark names it: the code (`V-012`) or the id, exactly as the project file holds it. A
 * type of its own, as the only identifier of ours Hark's tools take, so nothing else (the conversation
 * key above all, which never leaves the machine) can be sent in its place.
 */
export type Venture = string & { readonly [brand]: 'Venture' }

/** A Hark project as the project file names it. */
export interface ProjectRef {
  /** What is sent as `venture`. */
  readonly venture: Venture
  /** The project's id (a UUID) when the file holds one; otherwise unknown until `get_venture`. */
  readonly id?: string
  /** Absolute folder where the project file was found; edited paths are taken relative to it. */
  readonly root: string
  /** Absolute path of the project file itself. */
  readonly file: string
}

/** One place to look, in order. */
export interface ProjectFileCandidate {
  readonly path: string
  readonly kind: 'project' | 'hark'
  readonly root: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** A project code (`V-012`) or a project id (a UUID). */
const VENTURE = /^([A-Za-z][A-Za-z0-9]*-[A-Za-z0-9]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i

/** Whether `value` is a project id (a UUID) rather than a code. */
export function isProjectId(value: string): boolean {
  return UUID.test(value)
}

/**
 * The files to try, nearest first: for each folder from `cwd` up to its root (the drive's on Windows,
 * the file system's elsewhere), `<folder>/.hark/project`, then `<folder>/.hark`, spelled with `/`. None
 * when `cwd` can't be placed (a network share, a device path).
 */
export function projectFileCandidates(cwd: string, rules: PathRules = pathRules(undefined, cwd)): ProjectFileCandidate[] {
  const start = placePath(cwd, '/', rules)
  return (start ? ancestors(start) : []).flatMap((folder) =>
    (['project', 'hark'] as const).map((kind) => ({ path: formatPath(childOf(folder, kind === 'project' ? '.hark/project' : '.hark')), kind, root: formatPath(folder) })),
  )
}

/**
 * Reads a project file's text. Returns the venture it names, or `undefined` when the text names
 * none (empty, a comment only, or a value that is neither a code nor a UUID).
 * - `.hark/project`: the first non-empty, non-`#` line is the code or the id (`venture=` allowed too).
 * - `.hark`: a `venture=V-012` line (`key = value`, quotes allowed).
 */
export function parseProjectFile(kind: 'project' | 'hark', text: string): Venture | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'))
  for (const line of lines) {
    const value = unquote(/^venture\s*[=:]\s*(.*)$/i.exec(line)?.[1] ?? (kind === 'project' ? line : ''))
    if (VENTURE.test(value) && value.length <= 64) return value as Venture
    if (kind === 'project') return undefined
  }
  return undefined
}

/** The `ProjectRef` for a venture found in `candidate`. */
export function projectRef(candidate: ProjectFileCandidate, venture: Venture): ProjectRef {
  return { venture, ...(isProjectId(venture) && { id: venture.toLowerCase() }), root: candidate.root, file: candidate.path }
}

/**
 * `file` relative to the project root, with `/` separators, or `undefined` when it lies outside
 * the project or can't be placed (SPEC.md: files outside the project are neither guarded nor reported).
 * `file` may be absolute or relative to `cwd`. By spelling alone: symbolic links are the caller's
 * (core/application/project-paths.ts).
 */
export function relativeToProject(root: string, file: string, cwd: string = root, rules: PathRules = pathRules(undefined, root)): string | undefined {
  const base = placePath(root, '/', rules)
  const target = placePath(file, cwd, rules)
  return base && target && relativePath(base, target, rules)
}

/**
 * Whether `path` reads as a path inside the project, relative to its root, as the plugin records
 * them: not absolute, no `.` or `..` segment, no backslash. Values read back from the
 * store are checked with it, since any program can write the store. (A name with a control
 * character is legal; what shows or sends a path turns those into spaces.)
 */
export function isProjectRelative(path: string): boolean {
  // A part empty, `.` or `..` (an empty path, or one starting or ending with `/`, has an empty part).
  return path.length <= 1_000 && !/\\|^[A-Za-z]:|(^|\/)\.{0,2}(\/|$)/.test(path)
}

function unquote(value: string): string {
  const v = value.trim()
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1).trim() : v
}
