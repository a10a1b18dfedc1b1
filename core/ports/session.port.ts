import type { Platform } from '../domain/paths'
import { token, type Token } from './token'
/** Facts about the running Claude Code session. Each call may reject; callers handle it. */
export interface SessionInfo {
  /** The session id (the transcript file's name). */
  id(): Promise<string>
  /** The working directory, absolute. */
  cwd(): Promise<string>
  /** When the conversation was first launched (epoch ms); kept by a background move and `--resume`. */
  startedAt(): Promise<number>
  /** How many prompts the person has sent in this session. */
  turns(): Promise<number>
  /** The engine's version, e.g. `2.1.332`. */
  engineVersion(): Promise<string>
  /** The plugin's own version from its plugin.json. */
  pluginVersion(): Promise<string | undefined>
  /** The operating system the engine runs on (`$.session.info().platform`), or `undefined` when not said. */
  platform(): Promise<Platform | undefined>
  /** Whether this is the agent view's empty "new session" placeholder (CLAUDE_BG_SOURCE=spare). */
  isPlaceholderSource(): Promise<boolean>
}
export const SessionInfo: Token<SessionInfo> = token('SessionInfo')
