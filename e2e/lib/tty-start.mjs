// One interactive Claude Code start, timed from the screen, for scripts/bench-load.mjs: the real `claude` from
// node_modules in a tmux pane of a fixed size, on a tmux server of its own, with a scratch HOME whose first-run
// questions are answered (lib/scratch-home.mjs), one --plugin-dir plugin (or a plugin the caller installs in that
// HOME, or none), the scripted model on loopback, and an empty working folder (no Hark project in it, so the
// plugin asks Hark for nothing).
//
// The pane runs a shell script that waits on a FIFO, then execs `env -i … claude`: the clock starts when the FIFO
// is written, so tmux's own start is outside the figures. The times, from there:
//   promptMs  the prompt row visible on screen: the pane captured every 10 ms (`tmux capture-pane -p`) until a
//             line starting with ❯ stands right below a rule (─), as e2e/tty.mjs reads the prompt row;
//   typedMs   `hi`, typed as soon as the row shows, showing in the row (the row is painted before the input
//             takes keys; the keys wait, and are typed again if the row is still empty a second later);
//   modelMs   the first prompt at the model: Enter once the row holds `hi` (again when it still holds it a
//             second later), until the scripted model logs its first request of the main loop: that request's
//             `receivedAt` (Date.now() in this process, the clock the spawn was read on).
// The captures run as child processes, so this process's event loop (the scripted model's server) never waits
// on them. When a start is over (or fails), claude is ended by its pid (SIGTERM, SIGKILL after 3 s), then its
// tmux server, whose socket is a file in the start's folder; killTerminals() does both at once for every start
// still running (the bench calls it on ^C and on exit).
import { execFile, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { ACCESS_KEY, claudeBin, engineEnv } from './session.mjs'
import { startFakeModel } from './fake-model.mjs'
import { prepareHome } from './scratch-home.mjs'
import { debugLines, moduleLoad } from './timings.mjs'

export const POLL_MS = 10
const sockets = new Map() // socket path (-S, inside each start's folder) → the file claude's pid is written to
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`

/** Ends every claude and tmux server this process started and has not closed yet (synchronous, for exit handlers). */
export function killTerminals() {
  for (const [socket, pidFile] of sockets) {
    try {
      const pid = Number(fs.readFileSync(pidFile, 'utf8'))
      if (pid > 0) process.kill(pid, 'SIGKILL')
    } catch {
      // not started, or gone
    }
    try {
      execFileSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' })
    } catch {
      // already gone
    }
    fs.rmSync(socket, { force: true })
    sockets.delete(socket)
  }
}

/** The prompt row of a captured screen: the last line starting with ❯ right below a rule; undefined if none. */
export function promptRow(screen) {
  const lines = screen.split('\n')
  for (let i = lines.length - 1; i > 0; i--) if (/^\s*❯/.test(lines[i]) && lines[i - 1].trimStart().startsWith('─')) return lines[i]
  return undefined
}

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/**
 * One start of `pluginDir` (given with --plugin-dir; none when undefined) in `dir` (made fresh; left for the caller
 * to keep or remove). `prepare({ home, project, env })`, when given, is awaited once the home is ready and before
 * the spawn, outside the figures: to install a plugin as a person does. Resolves { promptMs, typedMs, modelMs,
 * types, enters, loaded, scanMs, workerMs } (ms from the spawn), or throws with the last screen when the prompt
 * row or the request does not come within `timeoutS`.
 */
export async function interactiveStart({ pluginDir, prepare, dir, cols = 120, rows = 40, text = 'hi', timeoutS = 30 }) {
  fs.rmSync(dir, { recursive: true, force: true })
  const files = { home: path.join(dir, 'home'), project: path.join(dir, 'project'), fifo: path.join(dir, 'go'), pid: path.join(dir, 'pid'), script: path.join(dir, 'run.sh'), debug: path.join(dir, 'debug.log'), model: path.join(dir, 'model.jsonl') }
  fs.mkdirSync(files.home, { recursive: true })
  fs.mkdirSync(files.project, { recursive: true })
  const model = await startFakeModel({ scenario: { prompt: text, steps: [[{ type: 'text', text: 'ok' }]] }, dir, ttlS: timeoutS + 30 })
  const socket = path.join(dir, 'tmux.sock') // tmux leaves its socket file behind: here it goes with the folder
  let pid
  try {
    const env = { ...engineEnv({ home: files.home, modelPort: model.port }), TERM: 'xterm-256color' }
    prepareHome({ home: files.home, projectDir: files.project, apiKey: env.ANTHROPIC_API_KEY, accessKey: ACCESS_KEY })
    await prepare?.({ home: files.home, project: files.project, env })
    execFileSync('mkfifo', [files.fifo])
    const argv = [claudeBin(), ...(pluginDir === undefined ? [] : ['--plugin-dir', path.resolve(pluginDir)]), '--debug-file', files.debug]
    fs.writeFileSync(files.script, [
      `cd ${quote(files.project)} || exit 1`,
      `read go < ${quote(files.fifo)}`,
      `echo $$ > ${quote(files.pid)}`, // exec keeps the pid: this is claude's
      `exec env -i ${Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ')} ${argv.map(quote).join(' ')}`,
    ].join('\n') + '\n')
    sockets.set(socket, files.pid)
    const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'bench', '-x', String(cols), '-y', String(rows), `sh ${quote(files.script)}`)
    tmux('set-option', '-t', 'bench', 'remain-on-exit', 'on') // a claude that exits early leaves its last screen
    const capture = () => new Promise((resolve) => {
      execFile('tmux', ['-S', socket, 'capture-pane', '-p', '-t', 'bench'], { encoding: 'utf8' }, (error, stdout) => resolve(error ? '' : stdout))
    })
    const keys = (...args) => tmux('send-keys', '-t', 'bench', ...args)

    // The shell has opened the FIFO for reading once a non-blocking open for writing succeeds.
    const ready = Date.now() + 10_000
    let fd
    while (fd === undefined) {
      try {
        fd = fs.openSync(files.fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)
      } catch (error) {
        if (error.code !== 'ENXIO' || Date.now() > ready) throw new Error(`the pane's shell never read ${files.fifo}: ${error.message}`)
        await pause(5)
      }
    }
    const spawned = Date.now()
    fs.writeSync(fd, 'go\n')
    fs.closeSync(fd)
    const deadline = spawned + timeoutS * 1000
    let screen = ''
    /** Captures every POLL_MS until `check(screen)` holds; resolves the time the capture that saw it returned. */
    const until = async (check, what, stopAt = deadline) => {
      for (;;) {
        const asked = Date.now()
        screen = await capture()
        const at = Date.now()
        if (check(screen)) return at
        if (at > stopAt) {
          if (stopAt === deadline) throw new Error(`no ${what} within ${timeoutS} s of the spawn; the screen:\n${screen.split('\n').map((l) => l.trimEnd()).join('\n').trim()}`)
          return undefined
        }
        await pause(Math.max(0, POLL_MS - (at - asked)))
      }
    }

    const prompted = await until((s) => promptRow(s) !== undefined, 'prompt row')
    try {
      pid = Number(fs.readFileSync(files.pid, 'utf8'))
    } catch {
      pid = undefined
    }
    const holds = (s) => promptRow(s)?.includes(text)
    let types = 0
    let typed
    while (typed === undefined) {
      keys('-l', text)
      types++
      typed = await until(holds, `"${text}" in the prompt row`, types < 3 ? Date.now() + 1000 : deadline)
      if (typed === undefined && (promptRow(screen) ?? '').replace(/^\s*❯/, '').trim() !== '') typed = await until(holds, `"${text}" in the prompt row`)
    }
    const first = () => {
      const lines = fs.existsSync(files.model) ? fs.readFileSync(files.model, 'utf8').split('\n').filter(Boolean) : []
      return lines.map((l) => JSON.parse(l)).find((r) => r.main)
    }
    let enters = 0
    let request
    while (request === undefined) {
      keys('Enter')
      enters++
      const next = Date.now() + 1000
      for (;;) {
        request = first()
        if (request !== undefined || Date.now() > deadline) break
        if (Date.now() > next && holds(await capture())) break // the Enter was taken into the text: press again
        await pause(POLL_MS)
      }
      if (request === undefined && Date.now() > deadline) throw new Error(`the typed prompt never reached the model within ${timeoutS} s; the screen:\n${(await capture()).trim()}`)
    }
    const load = moduleLoad(debugLines(fs.existsSync(files.debug) ? fs.readFileSync(files.debug, 'utf8') : ''))
    return {
      promptMs: prompted - spawned,
      typedMs: typed - spawned,
      modelMs: Date.parse(request.receivedAt) - spawned,
      types,
      enters,
      loaded: load !== undefined,
      scanMs: load?.scanMs,
      workerMs: load?.workerMs,
    }
  } finally {
    if (pid === undefined) {
      try {
        pid = Number(fs.readFileSync(files.pid, 'utf8'))
      } catch {
        pid = undefined
      }
    }
    // The figures are taken: claude is asked to end (SIGTERM), then made to (SIGKILL), then its pane goes.
    if (pid > 0 && alive(pid)) {
      const t = Date.now()
      try {
        process.kill(pid, 'SIGTERM')
      } catch {
        // exited just now
      }
      while (alive(pid) && Date.now() - t < 3000) await pause(20)
      if (alive(pid)) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // exited just now
        }
      }
    }
    try {
      execFileSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' })
    } catch {
      // gone already
    }
    fs.rmSync(socket, { force: true })
    sockets.delete(socket)
    await model.close().catch(() => undefined)
  }
}
