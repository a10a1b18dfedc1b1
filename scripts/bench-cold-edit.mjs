#!/usr/bin/env node
// The first guarded edit of a session, cold in JavaScriptCore, alone (the same figures `npm run bench` prints
// beside the Edit's own time): the domain work of that edit over the session bench's decisions (the MCP reply
// read, the records, the guard compiled, one match), in Debian's `jsc` shell, a fresh process each run.
// scripts/bench/cold-edit.mjs says how. Prints figures; asserts nothing.
//
//   node scripts/bench-cold-edit.mjs [runs] [--against DIR|COMMIT] [--decisions N] [--json]
//
//   runs            runs of each tree (default 21), after one round not counted
//   --against DIR   also run the tree in DIR (another checkout), the two taking turns, and print the ratio of
//                   the medians (this ÷ other)
//   --against COMMIT  the same for a git ref of this repository, checked out in a temp worktree (removed at the end)
//   --decisions N   the fixture's decisions (default 200, as `npm run bench` serves; e2e/lib/decisions.mjs)
//   --json          the results as JSON
//
// Without /usr/bin/jsc it says how to install it and exits 0.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { decisionFixture } from '../e2e/lib/decisions.mjs'
import { againstTree, onExit } from '../e2e/lib/other-tree.mjs'
import { REPO_DIR } from '../e2e/lib/session.mjs'
import { coldEdit, coldEditLines } from './bench/cold-edit.mjs'
import { whole } from './bench/args.mjs'

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: { against: { type: 'string' }, decisions: { type: 'string', default: '200' }, json: { type: 'boolean', default: false } },
})
const runs = whole('runs', positionals[0] ?? '21', 1)
const decisions = whole('--decisions', opt.decisions, 1)

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-cold-edit-'))
onExit(() => fs.rmSync(scratch, { recursive: true, force: true }))
const trees = [{ label: 'this tree', dir: REPO_DIR }]
if (opt.against !== undefined) {
  const other = againstTree(opt.against)
  const named = other.commit === undefined || other.commit.startsWith(other.label)
  trees.push({ label: named ? other.label : `${other.label} (${other.commit})`, dir: other.dir })
}

const { fixture } = decisionFixture(decisions)
const result = await coldEdit({ trees, runs, journal: fixture.journal, scratch, say: (line) => console.log(line) })
if (result !== undefined) console.log(opt.json ? JSON.stringify(result, null, 2) : coldEditLines(result).join('\n'))
