import type { Register } from 'claude-code'

// Logs each tool.call as a hook sees it: the tool, its input, and what next(e) resolved to (Bash whole,
// other tools cut to 1500 characters). Read the lines back from the debug log: grep 'PROBE tool.call'.
export const register: Register = (on) => {
  on('tool.call', async ($, e, next) => {
    const out = await next(e)
    const line = JSON.stringify({ e, out })
    $.ui.log(`PROBE tool.call ${e.tool === 'Bash' ? line : line.slice(0, 1500)}`, { to: 'debug' })
    return out
  })
}
