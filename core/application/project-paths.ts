/**
 * Where an edited file is in the project (SPEC.md: The edit guard, "a file inside the project"; The
 * handoff, `what_changed`), on every platform: the spelling the engine reports is placed first (no
 * file-system call); a path that does not land inside by its spelling is resolved through the file
 * system, folder by folder, so a file reached through a symbolic link (macOS's `/tmp` → `/private/tmp`,
 * a symlinked checkout) counts where it lands. One file in the project has one path in a conversation:
 * in NFC, and where case is ignored in the spelling first seen.
 *
 * State: `PathState` lives as long as the conversation (the project's place and the folders resolved
 * for it); ProjectPaths alone changes it.
 */
import { childOf, formatPath, pathKey, placePath, relativePath, type AbsolutePath, type PathRules } from '../domain/paths'
import type { Files } from '../ports/files.port'
import type { SessionInfo } from '../ports/session.port'

/** How many folders up a path is resolved when its own folder is not there yet (a Write creating folders). */
export const LINK_SEARCH_DEPTH = 4
/** Folders resolved, and spellings kept, per conversation at most (then the oldest are let go). */
export const PATH_CACHE_LIMIT = 2_000

/** Where the project is, as found and as it lands. */
export interface ProjectPlace {
  readonly rules: PathRules
  /** The folder the project file was found in, as spelled from the session folder. */
  readonly root: AbsolutePath
  /** Where that folder lands, every symbolic link followed, when the file system says. */
  readonly real?: AbsolutePath | undefined
}

/** The conversation's memory of paths. */
export class PathState {
  /** The project's place, once the start settled it. */
  place: ProjectPlace | undefined
  /** Where folders land, or the look-up in flight (shared by edits running in parallel). */
  private readonly folders = new Map<string, Promise<AbsolutePath | undefined>>()
  private readonly spellings = new Map<string, string>()

  /**
   * Where a folder lands, asked through `look` once per conversation; a folder that leads
   * nowhere is asked again next time (a Write may have made it since).
   */
  landing(key: string, look: () => Promise<AbsolutePath | undefined>): Promise<AbsolutePath | undefined> {
    return remembered(this.folders, key, () =>
      look().then((real) => {
        if (real === undefined) this.folders.delete(key)
        return real
      }),
    )
  }
  /** The spelling of `path` first seen in this conversation (case ignored where the rules say). */
  spellingOf(path: string, rules: PathRules): string {
    return remembered(this.spellings, pathKey(path, rules), () => path)
  }
}

export class ProjectPaths {
  constructor(
    private readonly state: PathState,
    private readonly files: Files,
    private readonly session: SessionInfo,
  ) {}

  /** The project's place, once the start settled it. */
  get place(): ProjectPlace | undefined {
    return this.state.place
  }

  /**
   * At the start: the project's root as found and where it lands (one file-system call). Resolves to the
   * root spelled for the conversation key: the same for every spelling of the same folder (NFC; case
   * folded where case is ignored; through symbolic links when the file system says).
   */
  async settle(root: string, rules: PathRules): Promise<string> {
    const found = placePath(root, '/', rules)
    if (found === undefined) throw new Error('the project folder cannot be placed')
    const landed = await this.files.realPath(formatPath(found))
    const real = landed === undefined ? undefined : placePath(landed, '/', rules)
    this.state.place = { rules, root: found, real }
    return pathKey(formatPath(real ?? found), rules)
  }

  /**
   * `filePath` (absolute, or relative to the session folder) relative to the project, with `/`; undefined
   * when it lies outside the project or can't be placed. Never throws, never logs.
   */
  async relative(filePath: string): Promise<string | undefined> {
    const place = this.state.place
    if (!place) return undefined
    // An absolute path (what the engine's edit tools give) is placed without the session folder: asking
    // for it is a round trip to the engine, which every edit would wait for.
    const target =
      placePath(filePath, '', place.rules) ?? placePath(filePath, await this.session.cwd().catch(() => formatPath(place.root)), place.rules)
    if (!target) return undefined
    const path = inside(place, target) ?? (await this.throughLinks(place, target))
    return path === undefined ? undefined : this.state.spellingOf(path, place.rules)
  }

  /**
   * Where the file lands: its nearest folder the file system can resolve (each asked once per
   * conversation), with the rest of the path after it. A Write may create folders, so up to
   * LINK_SEARCH_DEPTH folders are tried, nearest first; most paths cost one call.
   */
  private async throughLinks(place: ProjectPlace, target: AbsolutePath): Promise<string | undefined> {
    for (let up = 1; up <= Math.min(LINK_SEARCH_DEPTH, target.names.length); up++) {
      const real = await this.landing({ root: target.root, names: target.names.slice(0, -up) }, place.rules)
      if (real !== undefined) return inside(place, childOf(real, target.names.slice(-up).join('/')))
    }
    return undefined
  }

  /** Where `folder` lands (undefined: nowhere, or not said). */
  private landing(folder: AbsolutePath, rules: PathRules): Promise<AbsolutePath | undefined> {
    const spelled = formatPath(folder)
    return this.state.landing(pathKey(spelled, rules), async () => {
      const landed = await this.files.realPath(spelled)
      return landed === undefined ? undefined : placePath(landed, '/', rules)
    })
  }
}

/** `target` relative to the project's root as found, or as it lands. */
function inside(place: ProjectPlace, target: AbsolutePath): string | undefined {
  const { rules, root, real } = place
  return relativePath(root, target, rules) ?? (real === undefined ? undefined : relativePath(real, target, rules))
}

/** What `map` holds for `key`, else `make()`'s answer, kept (the oldest let go past PATH_CACHE_LIMIT). */
function remembered<V>(map: Map<string, V>, key: string, make: () => V): V {
  const known = map.get(key)
  if (known !== undefined) return known
  const value = make()
  if (map.size >= PATH_CACHE_LIMIT) map.delete(map.keys().next().value as string)
  map.set(key, value)
  return value
}
