#!/usr/bin/env node
// Lays the engine's TypeScript declarations in .claude-plugin/types/ (git-ignored), for tsc and
// editors. The Claude Code binary carries them as zstd frames (the same text it writes beside a
// plugin an interactive session loads); this finds the frames whose text starts with the known
// headers and unpacks them with fzstd. Skips the work when the files are already there for this
// engine version.
//
//   node scripts/engine-types.mjs [--force]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Decompress } from 'fzstd'
import { claudeBinary } from './engine.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, '.claude-plugin', 'types')
const binary = claudeBinary()
const version = JSON.parse(readFileSync(join(root, 'node_modules/@anthropic-ai/claude-code/package.json'), 'utf8')).version
const stamp = join(out, '.engine-version')

const wanted = new Map([
  ['// Claude Code function hooks: the plugin API', 'claude-code/index.d.ts'],
  ['// The inputs of the built-in tools this build has', 'claude-code-tools/index.d.ts'],
])

if (!process.argv.includes('--force') && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version &&
  [...wanted.values()].every((f) => existsSync(join(out, f)))) {
  process.exit(0)
}

const data = readFileSync(binary)
const magic = Buffer.from([0x28, 0xb5, 0x2f, 0xfd])
const found = new Map()

/** Unpacks the frame at `offset`, giving up early when its text does not start like a wanted file. */
function unpack(offset) {
  const chunks = []
  let head = ''
  let refused = false
  const stream = new Decompress((chunk) => {
    if (refused) return
    if (head.length < 64) {
      head += Buffer.from(chunk.subarray(0, 64)).toString('utf8')
      if (![...wanted.keys()].some((h) => head.startsWith(h) || h.startsWith(head))) refused = true
    }
    chunks.push(chunk)
  })
  const step = 1 << 16
  try {
    for (let at = offset; at < Math.min(data.length, offset + 8_000_000) && !refused; at += step) {
      stream.push(data.subarray(at, Math.min(data.length, at + step)))
    }
  } catch (error) {
    // The bytes after a frame are not zstd: fzstd complains once the frame has ended. Keep what
    // the frame gave, if it started like a wanted file; otherwise this was no frame at all.
    if (chunks.length === 0) throw error
  }
  if (refused) return undefined
  return Buffer.concat(chunks.map((c) => Buffer.from(c))).toString('utf8')
}

for (let i = data.indexOf(magic); i >= 0 && found.size < wanted.size; i = data.indexOf(magic, i + 1)) {
  let text
  try {
    text = unpack(i)
  } catch {
    continue // not a frame, or the end of one: the unpacker stops at the frame's end
  }
  if (text === undefined) continue
  for (const [head, file] of wanted) if (text.startsWith(head) && !found.has(file)) found.set(file, text)
}

const missing = [...wanted.values()].filter((f) => !found.has(f))
if (missing.length > 0) {
  console.error(`engine-types: not found in ${binary}: ${missing.join(', ')}`)
  process.exit(1)
}
for (const [file, text] of found) {
  mkdirSync(dirname(join(out, file)), { recursive: true })
  writeFileSync(join(out, file), text)
}
writeFileSync(join(out, '.gitignore'), '*\n')
writeFileSync(stamp, `${version}\n`)
console.log(`engine-types: laid ${[...found.keys()].join(', ')} for Claude Code ${version}`)
