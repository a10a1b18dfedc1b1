/**
 * The plugin's settings, from its options (SPEC.md, Setup step 2): the access key comes only from
 * the plugin's `access_key` option, declared sensitive; nothing else supplies it.
 */
export interface Settings {
  /** The Hark access key, or undefined when not set (the plugin then stays idle). */
  readonly accessKey?: string
}
export const Settings = Symbol('Settings')

/** Settings from the engine's option values (untrusted: anything but a non-blank string is no key). */
export function settingsFrom(options: Readonly<Record<string, unknown>>): Settings {
  const key = options['access_key']
  return typeof key === 'string' && key.trim() !== '' ? { accessKey: key.trim() } : {}
}

/** How to set the plugin up, for `/hark` and the log line (SPEC.md: /hark says how to set up). */
export const SETUP_HELP = [
  'Hark is not set up for this session.',
  '1. Project: run `hark init` in the project (it writes the project code, e.g. V-012, to .hark/project), or write the code there yourself.',
  '2. Access key: run /plugin configure hark-memory@hark (hark-memory@synced if you added it from the Claude directory), or from a shell: claude plugin configure hark-memory@hark --values-stdin with {"access_key": "…"} on stdin.',
  'Get a personal access token at https://harkstudio.io/connections.',
].join('\n')
