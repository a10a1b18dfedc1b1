#!/usr/bin/env node
// The interactive end-to-end test: the real `claude` from node_modules in a terminal (tmux), driven with keys
// and read from the screen, as a person uses it. The scripted model plays scenarios/interactive.json, the fake
// Hark serves fixtures/venture.json behind the TLS proxy, the HOME is a scratch one with the first-run questions
// answered (lib/scratch-home.mjs). Every wait is bounded and polls the screen or a log; a failure prints the
// screen it saw. Prints PASS/FAIL lines and "tty: N passed, N failed"; exits 0 only when all pass.
//
//   node e2e/tty.mjs [--plugin-dir DIR] [--keep]
//
// What it checks, in one conversation: the status row; /hark with an unknown command, /hark, /hark needs,
// /hark open and /hark handoff print what SPEC.md says; the guard's question lists both decisions with their
// why; Stop leaves the file unchanged and the next model request carries the refusal; text typed into
// "Type something." goes with the refusal; Allow lets the edit through and covers the next edit of the file
// (no question) and a new file the same decisions cover; /hark doctor shows Hark's last answers; /exit sends
// end_session naming the edited file.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createCA } from './lib/certs.mjs'
import { startFakeHark } from './lib/fake-hark.mjs'
import { startTlsProxy } from './lib/tls-proxy.mjs'
import { loadScenario, startFakeModel } from './lib/fake-model.mjs'
import { ACCESS_KEY, E2E_DIR, FIXTURE, REPO_DIR, claudeBin, engineEnv, makeProject } from './lib/session.mjs'
import { prepareHome } from './lib/scratch-home.mjs'
import { hasTmux, startTerminal, waitForFile } from './lib/tty.mjs'

const { values: opt } = parseArgs({
  options: {
    'plugin-dir': { type: 'string', default: REPO_DIR },
    keep: { type: 'boolean', default: false },
  },
})
if (!hasTmux()) {
  console.log('FAIL tty: tmux is not installed (Debian: apt-get install tmux; .ci/run installs it)')
  process.exit(1)
}

const started = performance.now()
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-tty-'))
const files = { home: path.join(dir, 'home'), project: path.join(dir, 'project'), ca: path.join(dir, 'ca.pem'), hark: path.join(dir, 'hark.jsonl'), model: path.join(dir, 'model.jsonl'), debug: path.join(dir, 'debug.log'), script: path.join(dir, 'run.sh') }
const schema = path.join(files.project, 'src', 'db', 'schema.sql')
const readJsonl = (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l))
const harkTools = () => readJsonl(files.hark).map((r) => r.tool)
const mainRequests = () => readJsonl(files.model).filter((r) => r.main)
const asked = () => (fs.existsSync(files.debug) ? fs.readFileSync(files.debug, 'utf8').match(/\$\.tool\.call \(hark-memory\): AskUserQuestion \(/g) ?? [] : []).length

fs.mkdirSync(files.home, { recursive: true })
fs.mkdirSync(files.project, { recursive: true })
makeProject(files.project, { home: files.home })
const original = fs.readFileSync(schema, 'utf8')
const ca = createCA()
fs.writeFileSync(files.ca, ca.certPem)
const ttlS = 300
const hark = await startFakeHark({ fixture: FIXTURE, key: ACCESS_KEY, logFile: files.hark, ttlS })
const proxy = await startTlsProxy({ ca, targetPort: hark.port, log: () => {}, ttlS })
const model = await startFakeModel({ scenario: loadScenario(path.join(E2E_DIR, 'scenarios', 'interactive.json'), { PROJECT_DIR: files.project }), dir, ttlS })

const env = { ...engineEnv({ home: files.home, modelPort: model.port, proxyPort: proxy.port, caFile: files.ca }), TERM: 'xterm-256color' }
prepareHome({ home: files.home, projectDir: files.project, apiKey: env.ANTHROPIC_API_KEY, accessKey: ACCESS_KEY })
const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`
const argv = [claudeBin(), '--plugin-dir', path.resolve(opt['plugin-dir']), '--permission-mode', 'bypassPermissions', '--debug-file', files.debug]
fs.writeFileSync(files.script, [
  `cd ${quote(files.project)} || exit 1`,
  `env -i ${Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ')} ${argv.map(quote).join(' ')}`,
  'echo "[claude exited with status $?]"',
  'exec cat', // keeps the window, so the last screen can still be read
].join('\n') + '\n')

const term = startTerminal({ script: files.script, cols: 120, rows: 50 })
const checks = []
let failure

/** One check: runs `body`; a throw fails it and stops the run (later checks would only repeat the failure). */
async function check(name, body) {
  if (failure) return
  try {
    const detail = await body()
    checks.push({ name, ok: true, detail })
  } catch (e) {
    failure = e
    checks.push({ name, ok: false, detail: e.message })
  }
}
const expect = (ok, what) => {
  if (!ok) throw new Error(what)
}

/** The prompt row: the last line after a rule (─) that starts with ❯ ('' when none shows). */
function promptRow() {
  const lines = term.visible().split('\n')
  for (let i = lines.length - 1; i > 0; i--) if (/^\s*❯/.test(lines[i]) && lines[i - 1].trimStart().startsWith('─')) return lines[i]
  return ''
}

/**
 * Types a slash command or a prompt, waits until the prompt row shows it, then presses Enter. Text typed in one
 * burst reads as a paste, and an Enter right behind it can be taken into the paste: when the row still holds
 * the text a moment later, Enter is pressed again (three times at most).
 */
async function submit(text) {
  term.type(text)
  const inRow = () => promptRow().includes(text)
  await term.waitUntil(inRow, `"${text}" in the prompt row`, 10)
  for (let attempt = 1; ; attempt++) {
    term.keys('Enter')
    try {
      await term.waitUntil(() => !inRow(), `"${text}" to leave the prompt row`, attempt < 3 ? 1.5 : 10)
      return
    } catch (e) {
      if (attempt >= 3) throw e
    }
  }
}

/**
 * Presses `keys` until `done()` holds (three tries, 1.5 s each): a dialog drops the keys pressed just as it
 * appears (they are not queued), so a key that changed nothing is pressed again.
 */
async function press(keys, done, label) {
  for (let attempt = 1; ; attempt++) {
    term.keys(...keys)
    try {
      return await term.waitUntil(done, label, attempt < 3 ? 1.5 : 10)
    } catch (e) {
      if (attempt >= 3) throw e
    }
  }
}
const showsQuestion = () => term.visible().includes('Allow this edit of src/db/schema.sql?')

/** The guard's question for src/db/schema.sql: waits for it and checks both decisions and their why. */
async function question() {
  const screen = await term.waitUntil(() => {
    const v = term.visible()
    return v.includes('Allow this edit of src/db/schema.sql?') && v.includes('3. Type something.') ? v : undefined
  }, 'the guard\'s question (Allow / Stop / Type something.)', 20)
  for (const text of [
    'src/db/schema.sql is covered by 2 Hark decisions',
    'Decision: Raw SQL, no ORM',
    'Why: Queries stay readable in review; the ORM prototype hid two N+1 bugs.',
    'Decision: Schema changes are plain .sql files',
    'Why: One format the whole team reads, applied in file order.',
    '1. Allow',
    '2. Stop',
  ]) expect(screen.includes(text), `the question lacks "${text}":\n${screen}`)
}

/** The model request that follows step `step`'s tool call: its tool result. */
const resultAfter = (step, label) => waitForFile(files.model, () => mainRequests().find((r) => r.step === step + 1)?.toolResults?.[0], label, 20)
/** The whole tool result as the model received it (the log keeps 300 characters). */
const fullResult = (step) => {
  const request = mainRequests().find((r) => r.step === step + 1)
  const body = JSON.parse(fs.readFileSync(path.join(dir, 'bodies', request.body), 'utf8'))
  const block = body.messages.at(-1).content.find((c) => c.type === 'tool_result')
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content)
}

try {
  await check('the status row shows "Hark V-012 · Open · 2 need you"', async () => {
    await term.waitFor('Hark V-012 · Open · 2 need you', 'the status row', 30)
  })
  await check('/hark frobnicate prints the usage', async () => {
    await submit('/hark frobnicate')
    await term.waitFor('Unknown /hark command "frobnicate". Usage: /hark [', 'the usage line')
  })
  await check('/hark prints the brief', async () => {
    await submit('/hark')
    const screen = await term.waitFor('Handoff: Open; 2 proposals wait for a person.', 'the end of the brief')
    expect(screen.includes('Hark brief for V-012:') && screen.includes('Raw SQL, no ORM (scope: src/db/**)'), 'the brief lacks its title or the decision')
  })
  await check('/hark needs lists the two proposals', async () => {
    await submit('/hark needs')
    const screen = await term.waitFor('2 proposals wait for a person in V-012:', '/hark needs\'s list')
    await term.waitFor('No CSV import in v1', 'the second proposal')
    expect(screen.includes('Row-level security per tenant'), 'the first proposal is missing')
  })
  await check('/hark open prints the project\'s link', async () => {
    await submit('/hark open')
    await term.waitFor('V-012 on Hark: https://harkstudio.io/ventures/0b6f3c2e-5d4a-4e8b-9f21-7a3c5e9d1b40', 'the link')
  })
  await check('/hark handoff with no work yet closes the Hark session (close_session)', async () => {
    await submit('/hark handoff')
    await term.waitFor('No edits, commits or test runs to hand off: closed the Hark session.', '/hark handoff\'s answer')
    await waitForFile(files.hark, () => harkTools().includes('close_session'), 'close_session')
  })

  await check('the guard asks about src/db/schema.sql, listing both decisions with their why', async () => {
    await submit('Add a users table to the schema.')
    await question()
  })
  await check('Stop: the file is unchanged and the next model request carries the refusal', async () => {
    await press(['Down'], () => term.visible().includes('❯ 2. Stop'), 'the cursor on Stop')
    await press(['Enter'], () => !showsQuestion(), 'the question to close')
    const result = await resultAfter(1, 'the model request after Stop')
    await term.waitFor('tty-first-turn-done', 'the end of the first turn')
    expect(result.isError, `the Edit's result is not an error: ${result.content}`)
    const text = fullResult(1)
    expect(text.includes('The user chose Stop') && text.includes('Raw SQL, no ORM') && text.includes('Do not retry this edit'), `the refusal lacks the choice, the decision or "do not retry": ${text}`)
    expect(fs.readFileSync(schema, 'utf8') === original, 'src/db/schema.sql changed')
  })
  await check('"Type something.": the typed text goes with the refusal', async () => {
    await submit('Try again, please.')
    await question()
    await press(['Down'], () => term.visible().includes('❯ 2. Stop'), 'the cursor on Stop')
    // The field takes keys once it has focus; its hint line then offers the editor.
    await press(['Down'], () => { const v = term.visible(); return v.includes('❯ 3. Type something.') && v.includes('ctrl+g to edit') }, 'the cursor in Type something.')
    // Typed text the field drops (as a dialog drops keys) leaves it empty: typed again, never on top of some.
    const answer = 'use a migration file instead'
    for (let attempt = 1; ; attempt++) {
      term.type(answer)
      try {
        await term.waitFor(`❯ 3. ${answer}`, 'the typed answer', attempt < 3 ? 1.5 : 5)
        break
      } catch (e) {
        if (attempt >= 3 || !term.visible().includes('❯ 3. Type something.')) throw e
      }
    }
    await press(['Enter'], () => !showsQuestion(), 'the question to close')
    await resultAfter(3, 'the model request after the typed answer')
    await term.waitFor('tty-second-turn-done', 'the end of the second turn')
    const text = fullResult(3)
    expect(text.includes('The user answered: use a migration file instead'), `the refusal lacks the typed text: ${text}`)
    expect(fs.readFileSync(schema, 'utf8') === original, 'src/db/schema.sql changed')
  })
  await check('Allow: the edit goes through, and a new file the same decisions cover (src/db/seed.sql) is not asked about', async () => {
    await submit('Go ahead this time.')
    await question()
    await press(['Enter'], () => !showsQuestion(), 'the question to close') // 1. Allow is selected
    await term.waitFor('tty-third-turn-done', 'the end of the third turn', 20)
    const text = fs.readFileSync(schema, 'utf8')
    expect(text.includes('-- tty-users-marker'), `src/db/schema.sql lacks the allowed edit:\n${text}`)
    const seed = path.join(files.project, 'src', 'db', 'seed.sql')
    expect(fs.existsSync(seed) && fs.readFileSync(seed, 'utf8').includes('tty-seed-marker'), 'src/db/seed.sql was not written')
    expect(asked() === 3, `the guard asked ${asked()} times, not 3 (the write after Allow was asked about)`)
    const results = mainRequests().filter((r) => r.step === 6 || r.step === 7).map((r) => r.toolResults[0])
    expect(results.length === 2 && results.every((r) => r && !r.isError), `an allowed edit failed: ${JSON.stringify(results)}`)
  })
  await check('/hark doctor: the project file, the key set, Hark\'s last answers, the store, the versions', async () => {
    await submit('/hark doctor')
    const screen = await term.waitFor(/Versions: hark-memory \S+, Claude Code 2\.1\.332/, 'the end of /hark doctor')
    for (const text of [`Project file: ${files.project}/.hark/project (project V-012)`, 'Access key: set', 'No write refused this session.']) expect(screen.includes(text), `/hark doctor lacks "${text}"`)
    for (const tool of ['get_agent_brief', 'list_journal_entries', 'list_candidates', 'get_venture', 'close_session']) expect(new RegExp(`${tool}\\s+ok \\(HTTP 200\\)`).test(screen), `/hark doctor lacks "${tool}  ok (HTTP 200)"`)
    expect(!screen.includes(ACCESS_KEY.slice(-8)), '/hark doctor shows part of the key')
  })
  await check('/exit sends end_session naming src/db/schema.sql', async () => {
    await submit('/exit')
    const end = await waitForFile(files.hark, () => readJsonl(files.hark).find((r) => r.tool === 'end_session'), 'end_session', 20)
    expect(end.outcome === 'ok', `end_session's outcome: ${end.outcome}`)
    expect(JSON.stringify(end.arguments.what_changed).includes('src/db/schema.sql'), `what_changed: ${JSON.stringify(end.arguments.what_changed)}`)
    await term.waitFor('[claude exited with status 0]', 'claude to exit', 15)
  })
} finally {
  term.close()
  await Promise.all([hark.close(), proxy.close(), model.close()])
}

let passed = 0
for (const c of checks) {
  if (c.ok) passed++
  console.log(`${c.ok ? 'PASS' : 'FAIL'} tty: ${c.name}${c.ok ? '' : `\n     ${c.detail.replace(/\n/g, '\n     ')}`}`)
}
const failed = checks.length - passed
console.log(`tty: ${passed} passed, ${failed} failed (${((performance.now() - started) / 1000).toFixed(1)} s)`)
if (failed === 0 && !opt.keep) fs.rmSync(dir, { recursive: true, force: true })
else console.log(`artefacts kept in ${dir} (run.sh, debug.log, hark.jsonl, model.jsonl, bodies/, project/, home/)`)
process.exitCode = failed === 0 ? 0 : 1
