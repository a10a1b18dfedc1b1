// The engine binary, resolved from node_modules (never from PATH), and a scratch HOME for it.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The platform binary of @anthropic-ai/claude-code (npm may skip the package's postinstall). */
export function claudeBinary() {
  const platform = `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch}`
  const candidates = [
    join(root, 'node_modules', '@anthropic-ai', `claude-code-${platform}`, process.platform === 'win32' ? 'claude.exe' : 'claude'),
    join(root, 'node_modules', '@anthropic-ai', `claude-code-${platform}-musl`, 'claude'),
  ]
  const found = candidates.find((p) => existsSync(p))
  if (found === undefined) throw new Error(`no Claude Code binary for ${platform} under node_modules/@anthropic-ai: run npm ci`)
  return found
}

/** A fresh, empty HOME, so no earlier plugin or setting leaks into a run. */
export function scratchHome() {
  return mkdtempSync(join(tmpdir(), 'hark-home-'))
}
