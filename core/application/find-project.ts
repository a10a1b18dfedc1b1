/**
 * Where a session runs and the Hark project it is in (SPEC.md: session.start; Setup 1, the project file):
 * whether it is the agent view's placeholder, the session's folder and its path rules (a network share or a
 * device path is not read: docs/guard.md), the nearest project file, and whether an access key is set.
 */
import { withoutControls } from '../domain/item'
import { pathRules, placePath, type PathRules } from '../domain/paths'
import { parseProjectFile, projectFileCandidates, projectRef, type ProjectRef } from '../domain/project'
import type { Files } from '../ports/files.port'
import { quiet } from './deadline'
import type { Host } from '../ports/host.port'
import type { SessionInfo } from '../ports/session.port'
import type { Settings } from './settings'
import type { PluginLoadReads } from './start-session'

/** The session's folder, as the engine reports it, and the path rules of its platform. */
export interface Place {
  readonly folder: string
  readonly rules: PathRules
}

export class FindProject {
  constructor(
    private readonly session: SessionInfo,
    private readonly files: Files,
    private readonly host: Host,
    private readonly settings: Settings,
    private readonly load: PluginLoadReads,
  ) {}

  /** The agent view's placeholder; the session's place; or undefined for a folder the plugin does not read (one log line). */
  async place(cwd?: string): Promise<Place | 'placeholder' | undefined> {
    // Independent look-ups go out together: each `$` call is a round trip to the engine.
    const [placeholder, platform, folder] = await Promise.all([
      !this.load.placeholderReleased && this.isPlaceholder(),
      quiet(this.session.platform()),
      cwd ?? this.session.cwd(),
    ])
    if (placeholder) return 'placeholder'
    const rules = pathRules(platform, folder)
    if (placePath(folder, '/', rules)) return { folder, rules }
    this.host.log(`Hark: the session folder ${withoutControls(folder).slice(0, 200)} is a network share or a device path, which the plugin does not read, so nothing is sent. Open the project through a drive letter to use Hark.`)
    return undefined
  }

  private async isPlaceholder(): Promise<boolean> {
    try {
      return (await this.session.isPlaceholderSource()) && (await this.session.turns()) === 0
    } catch {
      return false
    }
  }

  /**
   * SPEC.md, Setup 1: `.hark/project` or `.hark`, in the session's folder, then each parent; the nearest
   * that names a project wins. Every candidate is asked for at once (each read is a round trip to the engine,
   * and a folder ten levels deep that holds no project, like most folders Claude Code starts in, has twenty),
   * and the answers are taken nearest first: the start goes on once the nearest project file and every
   * nearer place have answered, whatever a slower folder further up (a network mount) still does.
   */
  async project({ folder, rules }: Place): Promise<ProjectRef | undefined> {
    const candidates = projectFileCandidates(folder, rules)
    const reads = candidates.map((candidate) => this.files.readText(candidate.path))
    for (const [i, candidate] of candidates.entries()) {
      const text = await reads[i]
      if (text === undefined) continue
      const venture = parseProjectFile(candidate.kind, text)
      if (venture !== undefined) return projectRef(candidate, venture)
      if (candidate.kind === 'project') this.host.log(`Hark: ${candidate.path} names no project code; looking further up.`)
    }
    return undefined
  }

  /** Whether an access key is set; without one, one log line says how to add it. */
  keySet(project: ProjectRef): boolean {
    if (this.settings.accessKey !== undefined) return true
    this.host.log(`Hark: project ${project.venture} found, but no access key is set, so nothing is sent. Run /plugin configure hark-memory@hark to add it.`)
    return false
  }
}
