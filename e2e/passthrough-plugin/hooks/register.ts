import type { Register } from 'claude-code'

// The floor of `npm run bench`: the events and matchers of hooks/register.ts, each hook only passing the
// event on. Named hark-memory, with the same userConfig, so it loads under the same pluginConfigs and its
// debug lines read `hooks module hark-memory@inline … settled in …` as the plugin's do. Keep the list in
// step with hooks/register.ts.
export const register: Register = (on) => {
  on('session.start', ($, e, next) => next(e))
  on('prompt.context', ($, e, next) => next(e))
  on('prompt.submit', ($, e, next) => next(e))
  on('session.compact', ($, e, next) => next(e))
  on('tool.call', { tool: /^(Edit|Write|MultiEdit|NotebookEdit)$/ }, ($, e, next) => next(e))
  on('tool.call', { tool: 'Bash' }, ($, e, next) => next(e))
  on('tool.call', { tool: /^mcp__.+__end_session$/ }, ($, e, next) => next(e))
  on('turn.complete', ($, e, next) => next(e))
  on('classic.SessionEnd', ($, e, next) => next(e))
  on('session.end', ($, e, next) => next(e))
  on('command.run', { command: 'hark' }, ($, e, next) => next(e))
}
