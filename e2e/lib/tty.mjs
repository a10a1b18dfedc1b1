// A terminal a test can drive: one tmux server of its own (`tmux -L <socket>`, never the person's), one window
// running a shell script, keys sent with `send-keys`, the screen read with `capture-pane`. Every wait polls the
// screen (or a file) until a condition holds or a bounded time runs out, and then throws with what it saw.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'

const POLL_MS = 100

/** A screen for a message: trailing blanks cut, runs of empty lines folded into one. */
export const tidy = (text) => text.split('\n').map((l) => l.trimEnd()).join('\n').replace(/\n{3,}/g, '\n\n').trim()

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether Debian's tmux (or any tmux) is on PATH. */
export function hasTmux() {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'pipe' })
    return true
  } catch {
    return false
  }
}

/**
 * Starts `script` (a file run with sh) in a detached tmux window of `cols` × `rows`, on a tmux server of its
 * own. Resolves a handle: keys(...), type(text), screen(), waitFor(what, label, timeoutS), waitUntil(...), close().
 */
export function startTerminal({ script, cols = 120, rows = 50, history = 5000 }) {
  const socket = `hark-tty-${process.pid}-${Date.now().toString(36)}`
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'tty', '-x', String(cols), '-y', String(rows), `sh ${script}`)
  tmux('set-option', '-t', 'tty', 'history-limit', String(history))
  let closed = false

  /** The whole screen and its scrollback, wrapped lines joined. '' once the window is gone. */
  const screen = () => {
    try {
      return tmux('capture-pane', '-p', '-J', '-t', 'tty', '-S', `-${history}`)
    } catch {
      return ''
    }
  }
  /** The visible screen alone. */
  const visible = () => {
    try {
      return tmux('capture-pane', '-p', '-J', '-t', 'tty')
    } catch {
      return ''
    }
  }

  /**
   * Polls `check()` every 100 ms until it returns a truthy value, which it resolves; after `timeoutS` it throws
   * "timed out after N s waiting for <label>" with the visible screen.
   */
  async function waitUntil(check, label, timeoutS = 20) {
    const deadline = Date.now() + timeoutS * 1000
    for (;;) {
      const value = check()
      if (value) return value
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutS} s waiting for ${label}; the screen:\n${tidy(visible())}`)
      }
      await pause(POLL_MS)
    }
  }

  return {
    socket,
    screen,
    visible,
    waitUntil,
    /** Waits until the screen (with scrollback) holds `what` (a string or a RegExp); resolves the screen. */
    waitFor: (what, label = String(what), timeoutS = 20) =>
      waitUntil(() => {
        const text = screen()
        return (typeof what === 'string' ? text.includes(what) : what.test(text)) ? text : undefined
      }, label, timeoutS),
    /** Named keys as tmux spells them: Enter, Down, Escape, C-c... */
    keys: (...names) => tmux('send-keys', '-t', 'tty', ...names),
    /** Literal text, no key names read into it. */
    type: (text) => tmux('send-keys', '-t', 'tty', '-l', text),
    close: () => {
      if (closed) return
      closed = true
      try {
        tmux('kill-server')
      } catch {
        // already gone
      }
    },
  }
}

/** Polls a file until `check(text)` returns a truthy value (resolved), or throws after `timeoutS`. */
export async function waitForFile(file, check, label, timeoutS = 20) {
  const deadline = Date.now() + timeoutS * 1000
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
    const value = check(text)
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutS} s waiting for ${label} in ${file}`)
    await pause(POLL_MS)
  }
}
