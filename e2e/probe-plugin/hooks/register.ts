import type { Register } from 'claude-code'

// Logs each tool.call as a hook sees it: the tool, its input, and what next(e) resolved to (Bash whole,
// other tools cut to 1500 characters). Read the lines back from the debug log: grep 'PROBE tool.call'.
// Adds a context block `probe` whose text names this process's load time, and logs it (grep 'PROBE context'):
// which process's block a model request holds (a resumed conversation keeps the first one's).
export const register: Register = (on) => {
  on('tool.call', async ($, e, next) => {
    const out = await next(e)
    const line = JSON.stringify({ e, out })
    $.ui.log(`PROBE tool.call ${e.tool === 'Bash' ? line : line.slice(0, 1500)}`, { to: 'debug' })
    return out
  })
  on('prompt.context', async ($, e, next) => {
    const { blocks } = await next(e)
    const text = `PROBE context ${await $.clock.now()}`
    $.ui.log(text, { to: 'debug' })
    return { blocks: [...blocks.filter((b) => b.name !== 'probe'), { name: 'probe', text }] }
  })
}
