// The other tree of a bench's --against: a folder (another checkout of the plugin), or a git ref of this
// repository, checked out with `git worktree add --detach` into a temp folder, its node_modules a link to this
// checkout's. The engine loads that commit's committed hooks/hooks.json, build/register.js and vendor/, so
// nothing is built there. The worktree is removed by `cleanUp()`, which the bench calls when it ends, fails or
// is interrupted (see onExit); `git worktree prune` then forgets it.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { REPO_DIR } from './session.mjs'

const git = (cwd, ...args) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** A git command that takes the repository's lock, tried again for a few seconds while another holds it. */
function gitLocked(cwd, ...args) {
  for (let attempt = 1; ; attempt++) {
    try {
      return git(cwd, ...args)
    } catch (error) {
      const text = `${error.stderr ?? ''}${error.message}`
      if (attempt >= 10 || !/\.lock\b|another git process/i.test(text)) throw error
      pause(1000)
    }
  }
}

/**
 * `spec` as a tree: { dir, label, ref?, commit?, worktree, cleanUp() }. A folder that exists is taken as it
 * is; anything else must name a commit of this repository (HEAD, HEAD~1, a branch, a short sha). Throws with
 * a message for the bench's usage when it is neither.
 */
export function otherTree(spec) {
  const asDir = path.resolve(spec)
  if (fs.existsSync(asDir) && fs.statSync(asDir).isDirectory()) {
    let commit
    try {
      commit = git(asDir, 'rev-parse', '--short', 'HEAD')
    } catch {
      commit = undefined
    }
    return { dir: asDir, label: path.basename(asDir), commit, worktree: false, cleanUp: () => {} }
  }
  let commit
  try {
    commit = git(REPO_DIR, 'rev-parse', '--verify', '--quiet', `${spec}^{commit}`)
  } catch {
    throw new Error(`--against ${spec}: neither a folder nor a commit of this repository`)
  }
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-bench-tree-'))
  const dir = path.join(base, 'tree')
  let removed = false
  const cleanUp = () => {
    if (removed) return
    removed = true
    const link = path.join(dir, 'node_modules')
    try {
      if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(link) // nothing follows it
    } catch {
      // gone already
    }
    try {
      if (fs.existsSync(dir)) gitLocked(REPO_DIR, 'worktree', 'remove', '--force', dir)
    } catch (error) {
      process.stderr.write(`could not remove the worktree ${dir}: ${error.message}\n`)
    }
    fs.rmSync(base, { recursive: true, force: true })
    try {
      gitLocked(REPO_DIR, 'worktree', 'prune')
    } catch {
      // a stale entry is harmless; the next prune takes it
    }
  }
  try {
    gitLocked(REPO_DIR, 'worktree', 'add', '--detach', dir, commit)
    const modules = path.join(REPO_DIR, 'node_modules')
    if (!fs.existsSync(path.join(dir, 'node_modules')) && fs.existsSync(modules)) fs.symlinkSync(fs.realpathSync(modules), path.join(dir, 'node_modules'))
  } catch (error) {
    cleanUp()
    throw new Error(`--against ${spec}: could not check out ${commit.slice(0, 7)}: ${error.message}`)
  }
  return { dir, label: spec, ref: spec, commit: commit.slice(0, 7), worktree: true, cleanUp }
}

/**
 * A bench's `--against` tree: `otherTree(spec)`, removed when the process exits (`onExit`). When `spec` names no
 * tree, its message (and `usage`, when given) on stderr, and exit 2.
 */
export function againstTree(spec, usage) {
  let tree
  try {
    tree = otherTree(spec)
  } catch (error) {
    console.error(usage === undefined ? error.message : `${error.message}\n${usage}`)
    process.exit(2)
  }
  onExit(tree.cleanUp)
  return tree
}

const atExit = []
let installed = false

/**
 * Runs `fn` (synchronous: it may only remove files and end processes) once, when the process exits for any
 * reason, or on ^C, SIGTERM or SIGHUP (then exits 130, 143 or 129); the functions registered run last first,
 * each whatever the others do. Returns a function that runs `fn` now (and not again).
 */
export function onExit(fn) {
  let done = false
  const once = () => {
    if (done) return
    done = true
    fn()
  }
  atExit.push(once)
  if (!installed) {
    installed = true
    const all = () => {
      for (const f of [...atExit].reverse()) {
        try {
          f()
        } catch (error) {
          process.stderr.write(`clean-up failed: ${error.message}\n`)
        }
      }
    }
    for (const [signal, code] of Object.entries({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 })) {
      process.once(signal, () => {
        process.stderr.write(`\n${signal}: cleaning up\n`)
        all()
        process.exit(code)
      })
    }
    process.once('exit', all)
  }
  return once
}
