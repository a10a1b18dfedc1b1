// hark-memory's hooks module: which Claude Code event goes to which use case (SPEC.md: What this
// mod does, per hook). The composition root builds the application; the hooks adapter turns each
// event into use-case calls and never throws.
import type { Register } from 'claude-code'
import { compose } from '../composition/container'
import {
  onAgentEndSession,
  onBash,
  onClassicSessionEnd,
  onCompact,
  onEdit,
  onHarkCommand,
  onPromptContext,
  onPromptSubmit,
  onSessionEnd,
  onSessionStart,
  onTurnComplete,
} from '../adapters/claude-code/hooks.adapter'

export const register: Register = (on, options) => {
  const app = compose(options)
  on('session.start', ($, e, next) => onSessionStart(app, $, e, next))
  on('prompt.context', ($, e, next) => onPromptContext(app, $, e, next))
  on('prompt.submit', ($, e, next) => onPromptSubmit(app, $, e, next))
  on('session.compact', ($, e, next) => onCompact(app, $, e, next))
  on('tool.call', { tool: /^(Edit|Write|MultiEdit|NotebookEdit)$/ }, ($, e, next) => onEdit(app, $, e, next))
  on('tool.call', { tool: 'Bash' }, ($, e, next) => onBash(app, $, e, next))
  on('tool.call', { tool: /^mcp__.+__end_session$/ }, ($, e, next) => onAgentEndSession(app, $, e, next))
  on('turn.complete', ($, e, next) => onTurnComplete(app, $, e, next))
  on('classic.SessionEnd', ($, e, next) => onClassicSessionEnd(app, $, e, next))
  on('session.end', ($, e, next) => onSessionEnd(app, $, e, next))
  on('command.run', { command: 'hark' }, ($, e) => onHarkCommand(app, $, e))
}
