/**
 * The plugin's settings, from its options (SPEC.md, Setup step 2): the access key comes only from
 * the plugin's `access_key` option, declared sensitive; nothing else supplies it.
 */
import { token, type Token } from '../ports/token'

export interface Settings {
  /** The Hark access key, or undefined when not set (the plugin then stays idle). */
  readonly accessKey?: string
}
export const Settings: Token<Settings> = token('Settings')

/** Settings from the engine's option values (untrusted: anything but a non-blank string is no key). */
export function settingsFrom(options: Readonly<Record<string, unknown>>): Settings {
  const key = options['access_key']
  return typeof key === 'string' && key.trim() !== '' ? { accessKey: key.trim() } : {}
}

/** How to name the project (SPEC.md, Setup 1), for /hark. */
export const PROJECT_HELP = [
  'Name the Hark project: run `hark init` in the project (Hark\'s command-line tool writes the project code, e.g. V-012, to .hark/project),',
  'or write the code yourself: mkdir -p .hark && echo V-012 > .hark/project. A .hark file holding venture=V-012 works too.',
  'The plugin looks in the folder Claude Code starts in, then in each parent folder.',
].join('\n')

/** How to give the plugin its access key (SPEC.md, Setup 2), for /hark and the missing-key log line. */
export const KEY_HELP = [
  'Set the access key (a personal access token from https://harkstudio.io/connections):',
  'run /plugin configure hark-memory@hark (hark-memory@synced if you added it from the Claude directory),',
  'or from a shell pipe {"access_key": "…"} into: claude plugin configure hark-memory@hark --values-stdin',
].join('\n')

/** Both steps, when neither is known to be done. */
export const SETUP_HELP = `Hark is not set up for this session.\n${PROJECT_HELP}\n${KEY_HELP}`
