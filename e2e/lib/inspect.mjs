// Reading a finished run: what the model was sent, what the plugin said, what Hark received. Plus the checks
// the demo's verdict and the e2e tests share. Everything here reads artefacts only; nothing is assumed.
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import picomatch from 'picomatch'
import { ACCESS_KEY, FIXTURE, REPO_DIR } from './session.mjs'

export const PLUGIN = 'hark-memory'
export const SECRET = 'abc123secretvalue' // written by the scripted model in its answer (scenarios/session.json)
// Text the scripted model wrote with Write/Edit, and the code in its answer: none of it may reach Hark.
export const FILE_TEXT = ['e2e-edit-marker-5c1d', 'e2e-write-marker-9b7e', 'CREATE TABLE users', "SELECT id, email FROM users", 'e2e-code-marker-3a44']

export const GUARDED_FILE = 'src/db/schema.sql' // the file the scripted model edits (scenarios/session.json)

const asText = (v) => (Array.isArray(v) ? v.join('\n') : typeof v === 'string' ? v : JSON.stringify(v ?? ''))

/** The first <hark-brief …>…</hark-brief> block in what the model was sent, or undefined. */
export function briefBlock(run) {
  for (const req of run.modelLog.filter((r) => r.main)) {
    const found = JSON.stringify(run.modelBody(req.body)).match(/<hark-brief[^>]*>[\s\S]*?<\/hark-brief>/)
    if (found) return JSON.parse(`"${found[0]}"`) // undo the JSON string escaping
  }
  return undefined
}

/** The plugin's own lines in the debug log: $.ui.log text, $.ui.status text. */
export function pluginLog(run, plugin = PLUGIN) {
  const lines = run.debug.split('\n')
  const pick = (re) => lines.map((l) => l.match(re)?.[1]).filter((x) => x !== undefined)
  return {
    logs: pick(new RegExp(`\\[${plugin}\\] \\$\\.ui\\.log: (.*)$`)),
    statuses: pick(new RegExp(`\\$\\.ui\\.status \\(${plugin}\\): (.*)$`)),
  }
}

/** Status lines as stream-json reports them on stdout ({type: system, subtype: ui_status}). */
export function statusLines(run, plugin = PLUGIN) {
  return run.events.filter((e) => e.type === 'system' && e.subtype === 'ui_status' && e.plugin === plugin).map((e) => e.text)
}

/** Debug-log lines that say the plugin did not load, or one of its hooks failed or was skipped. */
export function pluginFailures(run, plugin = PLUGIN) {
  const bad = /failed to load|did not load|hook skipped|hook was skipped|hook failed|wrong shape|lingering/i
  return run.debug.split('\n').filter((l) => l.includes(plugin) && bad.test(l))
}

/** Whether the engine logged the plugin's module as loaded (as hark-memory@inline or @hark). */
export function moduleLoaded(run, plugin = PLUGIN) {
  return new RegExp(`hooks module ${plugin}@\\S+ loaded`).test(run.debug)
}

/** The plugin's log line about the guarded edit (it names the file), or undefined. */
export const guardLine = (run, file = GUARDED_FILE) => pluginLog(run).logs.find((l) => l.includes(file))

/** A record's title without its `(scope: …)` marker: how the plugin quotes it. */
const bareTitle = (title) => title.replace(/\s*\(\s*scopes?\s*:[^)]*\)/gi, '').trim()

/**
 * The fixture's records (journal decisions, the brief's non-goals) whose scope covers `file`, read
 * independently of the plugin, for the fixture's shapes only: scope.paths / scope.areas, a `(scope: …)`
 * marker in the title, a `scope:` line in the body; a glob without a slash matches at any depth; an area
 * covers files under a folder of that name. Each: { kind, title, name, scope, from, status, settled }.
 */
export function recordsOver(file, fixture = FIXTURE) {
  const f = JSON.parse(fs.readFileSync(fixture, 'utf8'))
  const records = [
    ...(f.journal ?? []).filter((r) => r.kind === 'decision').map((r) => ({ kind: 'decision', r })),
    ...(f.brief?.build_state?.non_goals ?? []).filter((r) => typeof r === 'object').map((r) => ({ kind: 'non-goal', r })),
  ]
  const folders = file.toLowerCase().split('/').slice(0, -1)
  const covers = (glob) => picomatch(glob.includes('/') ? glob : `**/${glob}`, { dot: true, nocase: true })(file)
  const out = []
  for (const { kind, r } of records) {
    let paths = r.scope?.paths ?? []
    let areas = r.scope?.areas ?? []
    let from = paths.length ? 'scope.paths' : 'scope.areas'
    if (paths.length === 0 && areas.length === 0) {
      const text = [...(r.title ?? '').matchAll(/\(\s*scopes?\s*:\s*([^)]*)\)/gi)].map((m) => m[1])
      const body = [...(r.body ?? '').matchAll(/^\s*scopes?\s*:\s*(.+)$/gim)].map((m) => m[1])
      const values = [...text, ...body].flatMap((v) => v.split(/[,\s]+/)).filter(Boolean)
      paths = values.filter((v) => /[/*?.]/.test(v))
      areas = values.filter((v) => !/[/*?.]/.test(v))
      from = text.length ? 'in the title' : 'in the body'
    }
    const hit = paths.length ? paths.some(covers) : areas.some((a) => folders.includes(a.toLowerCase()))
    if (!hit) continue
    const status = kind === 'non-goal' ? 'in the brief' : r.acceptance === 'proposed' ? 'proposed' : r.status ?? 'accepted'
    out.push({ kind, title: r.title, name: bareTitle(r.title), scope: [...paths, ...areas].join(', '), from, status, settled: !/^(candidate|proposed|rejected|superseded|retired)$/.test(status) })
  }
  return out
}

/** The store file of a --plugin-dir copy (SPEC.md, What it stores). */
export const STORE_FILE = 'hark-memory_inline-b2086a409123.json'

/** The plugin's store after the run: { key: value }, or undefined when it is missing or unreadable. */
export function storeOf(run) {
  try {
    return JSON.parse(fs.readFileSync(path.join(run.files.home, '.claude', 'plugins', 'store', STORE_FILE), 'utf8'))
  } catch {
    return undefined
  }
}

export const callsTo = (run, tool) => run.harkLog.filter((h) => h.tool === tool)
export const lastAnswer = (run) => run.events.filter((e) => e.type === 'result').at(-1)?.result ?? ''

/** The fields of a handoff as one text each (a field may come as a text or a list of lines). */
export function handoffText(args = {}) {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, asText(v)]))
}

export function engineVersion() {
  const require = createRequire(path.join(REPO_DIR, 'package.json'))
  return require(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`).version
}

export function pluginVersion(pluginDir) {
  return JSON.parse(fs.readFileSync(path.join(pluginDir, '.claude-plugin', 'plugin.json'), 'utf8')).version
}

/** The commit the scripted session made in the throwaway project: { sha, subject } (or undefined). */
export function sessionCommit(run) {
  try {
    const out = execFileSync('git', ['log', '-1', '--format=%h%x09%s'], { cwd: run.files.project, encoding: 'utf8' }).trim()
    const [sha, subject] = out.split('\t')
    return subject === 'Initial commit' ? undefined : { sha, subject }
  } catch {
    return undefined
  }
}

/** Whether the scripted Edit of the guarded file happened. */
export function editWentAhead(run) {
  const f = path.join(run.files.project, GUARDED_FILE)
  return fs.existsSync(f) && fs.readFileSync(f, 'utf8').includes('CREATE TABLE users')
}

/**
 * The checks on a session whose Hark fails (run.fail: http500, rpc-error, tool-error, hang), from what SPEC.md
 * promises then: the session carries on and completes; one log line per failure; the status line says
 * offline; end_session is attempted, and session_stopped after it when end_session failed other than by
 * timing out (hang: neither session_stopped nor a retry); nothing of the plugin skipped or failed to load.
 */
export function faultChecks(run, { fail = run.fail } = {}) {
  const out = []
  const check = (name, ok, detail = '') => out.push({ name, ok: !!ok, detail })
  const outcome = { http500: 'http500', 'rpc-error': 'rpc-error', 'tool-error': 'isError', hang: 'hang' }[fail]
  const calls = run.harkLog.map((r) => `#${r.n} ${r.tool ?? r.method ?? r.http} ${r.outcome}`).join(', ') || 'none'
  const briefs = callsTo(run, 'get_agent_brief')
  const journals = callsTo(run, 'list_journal_entries')
  const ends = callsTo(run, 'end_session')
  const stopped = callsTo(run, 'session_stopped')
  const { logs } = pluginLog(run)

  check('the session completed to its final answer', run.rc === 0 && lastAnswer(run).includes('## Next steps'), `claude rc=${run.rc}`)
  check('the plugin module loaded', moduleLoaded(run), 'no "hooks module hark-memory@… loaded" line in the debug log')
  const failures = pluginFailures(run)
  check('nothing of the plugin failed to load or was skipped', failures.length === 0, failures.slice(0, 3).join(' | '))
  check('nothing was blocked: the edit and the commit went ahead', editWentAhead(run) && !!sessionCommit(run), `edit ${editWentAhead(run) ? 'done' : 'missing'}, commit ${sessionCommit(run)?.sha ?? 'missing'}`)
  check(`Hark was asked for the brief and for the decisions, once each, and failed them (${fail})`,
    briefs.length === 1 && journals.length === 1 && [...briefs, ...journals].every((r) => r.outcome === outcome), calls)

  // Each failed request is named by a plugin log line (the brief, the decisions, end_session,
  // session_stopped); one line may tell of several (end_session failed, and so did session_stopped),
  // and no line is about anything else.
  const says = { get_agent_brief: /\bbrief\b/i, list_journal_entries: /\bdecisions\b/i, end_session: /\bend_session\b/, session_stopped: /\bsession_stopped\b/, close_session: /\bclose_session\b/ }
  const failed = run.harkLog.filter((r) => r.outcome === outcome)
  const silent = failed.filter((r) => !logs.some((l) => says[r.tool]?.test(l)))
  const unmatched = logs.filter((l) => !failed.some((r) => says[r.tool]?.test(l)))
  check(`every failed request is told in a plugin log line, at most one line each (${failed.length} failed, ${logs.length} ${logs.length === 1 ? 'line' : 'lines'})`, failed.length > 0 && silent.length === 0 && unmatched.length === 0 && logs.length <= failed.length,
    [silent.length ? `no line for: ${silent.map((r) => r.tool).join(', ')}` : '', unmatched.length ? `lines for no failed request: ${unmatched.join(' | ')}` : ''].filter(Boolean).join('; '))

  const statuses = statusLines(run)
  check('the status line says offline (Hark V-012 · offline)', statuses.at(-1) === 'Hark V-012 · offline', JSON.stringify(statuses))
  check('end_session was attempted once, and failed', ends.length === 1 && ends[0].outcome === outcome, calls)
  if (fail === 'hang') {
    check('no answer in time: no session_stopped and no retry (one end_session, nothing after it)',
      stopped.length === 0 && ends.length === 1 && run.harkLog.every((r) => r.n <= ends[0].n), calls)
    const settle = Number(run.debug.match(/hooks module hark-memory@\S+ session\.start settled in ([\d.]+)ms/)?.[1])
    check('the session start waited for Hark no longer than the plugin\'s 3 s limit (plus the hook\'s own time; under 5 s)', settle > 0 && settle < 5000, `session.start settled in ${settle} ms`)
  } else {
    check('session_stopped was attempted once, after end_session failed', stopped.length === 1 && ends.length === 1 && stopped[0].n > ends[0].n, calls)
  }
  check('no other Hark call (close_session, …)', run.harkLog.every((r) => ['get_agent_brief', 'list_journal_entries', 'end_session', 'session_stopped'].includes(r.tool)), calls)
  return out
}

/**
 * The checks on a normal scripted session (scenarios/session.json): [{ name, ok, detail }].
 * `pluginDir` is where the plugin under test was read from (for the version in its User-Agent).
 */
export function sessionChecks(run, { pluginDir }) {
  const out = []
  const check = (name, ok, detail = '') => out.push({ name, ok: !!ok, detail })
  const hark = run.harkLog
  const briefs = callsTo(run, 'get_agent_brief')
  const journals = callsTo(run, 'list_journal_entries')
  const ends = callsTo(run, 'end_session')

  check('the session ran to its final answer', run.rc === 0 && lastAnswer(run).includes('## Next steps'), `claude rc=${run.rc}`)
  check('the plugin module loaded', moduleLoaded(run), 'no "hooks module hark-memory@… loaded" line in the debug log')
  const failures = pluginFailures(run)
  check('no hooks-module load failure or skipped hook for hark-memory', failures.length === 0, failures.slice(0, 3).join(' | '))

  check('Hark got exactly one get_agent_brief', briefs.length === 1, `${briefs.length} calls`)
  check('get_agent_brief asked for V-012, compact', briefs[0]?.arguments?.venture === 'V-012' && briefs[0]?.arguments?.depth === 'compact', JSON.stringify(briefs[0]?.arguments))
  check('Hark got exactly one list_journal_entries', journals.length === 1, `${journals.length} calls`)
  check('list_journal_entries asked for decisions, limit 200', journals[0]?.arguments?.kind === 'decision' && journals[0]?.arguments?.limit === 200, JSON.stringify(journals[0]?.arguments))
  check('Hark got exactly one end_session, and answered it', ends.length === 1 && ends[0].outcome === 'ok', ends.map((e) => `${e.outcome}: ${e.reply?.slice(0, 160)}`).join(' | ') || 'none')
  const unexpected = hark.filter((h) => !['get_agent_brief', 'list_journal_entries', 'end_session'].includes(h.tool))
  check('no other Hark call (no session_stopped, close_session, …)', unexpected.length === 0, unexpected.map((h) => h.tool ?? h.method).join(', '))

  const brief = briefBlock(run)
  check('the model received a <hark-brief project="V-012"> block', brief?.startsWith('<hark-brief project="V-012"') && brief.includes('Ledgerline'), brief ? brief.slice(0, 80) : 'no block')

  const statuses = statusLines(run)
  check('a status line "Hark V-012 · …" reached stdout', statuses.some((s) => s.startsWith('Hark V-012 · ')), JSON.stringify(statuses))

  const covering = recordsOver(GUARDED_FILE, run.fixture)
  const settled = covering.filter((r) => r.settled)
  const line = guardLine(run)
  check(`guard: the covered edit went ahead (headless) and the plugin's one line names every settled record over it (${settled.map((r) => r.name).join('; ')})`,
    editWentAhead(run) && line && settled.every((r) => line.includes(`"${r.name}"`)) && pluginLog(run).logs.filter((l) => l.includes(GUARDED_FILE)).length === 1,
    line ?? `plugin log lines: ${JSON.stringify(pluginLog(run).logs).slice(0, 300)}`)
  const unsettled = covering.filter((r) => !r.settled)
  const named = pluginLog(run).logs.filter((l) => unsettled.some((r) => l.includes(r.name)))
  check(`guard: no unsettled record named (${unsettled.map((r) => `${r.name}: ${r.status}`).join('; ')})`, named.length === 0, named[0] ?? '')

  const h = handoffText(ends[0]?.arguments)
  const all = Object.values(h).join('\n')
  const commit = sessionCommit(run)
  check('end_session names both edited files', all.includes('src/db/schema.sql') && all.includes('src/app.js'), JSON.stringify(h.what_changed ?? '').slice(0, 200))
  check('end_session what_i_did has "npm test: passed"', (h.what_i_did ?? '').includes('npm test: passed'), JSON.stringify(h.what_i_did ?? '').slice(0, 300))
  check('end_session what_changed has the commit (short sha + "Add users table")',
    !!commit && (h.what_changed ?? '').split('\n').some((l) => l.includes(commit.sha) && l.includes('Add users table')),
    `commit ${commit?.sha ?? '?'}; what_changed=${JSON.stringify(h.what_changed ?? '').slice(0, 200)}`)
  check('end_session whats_next comes from the "Next steps" section', (h.whats_next ?? '').includes('Add an index on'), JSON.stringify(h.whats_next ?? '').slice(0, 200))

  // Every request: the headers, the bearer token, the body's frame and _meta.
  const ua = `hark-mod/${pluginVersion(pluginDir)} (claude-code/${engineVersion()})`
  const bad = []
  const conversations = new Set()
  for (const r of hark) {
    const hd = r.headers ?? {}
    const wrong = []
    if (hd['content-type'] !== 'application/json') wrong.push(`content-type=${hd['content-type']}`)
    if (hd.accept !== 'application/json, text/event-stream') wrong.push(`accept=${hd.accept}`)
    if (hd.authorization !== `Bearer ${ACCESS_KEY}`) wrong.push('authorization is not "Bearer <the configured key>"')
    if (hd['user-agent'] !== ua) wrong.push(`user-agent=${hd['user-agent']} (want ${ua})`)
    if (hd['x-hark-client'] !== 'claude-code-mod') wrong.push(`x-hark-client=${hd['x-hark-client']}`)
    let body = {}
    try { body = JSON.parse(r.body) } catch { wrong.push('body is not JSON') }
    if (body.jsonrpc !== '2.0' || body.id === undefined || body.method !== 'tools/call') wrong.push(`frame ${JSON.stringify({ jsonrpc: body.jsonrpc, id: body.id, method: body.method })}`)
    if (body.params?._meta?.client !== 'claude-code-mod') wrong.push(`_meta.client=${body.params?._meta?.client}`)
    if (!/^[0-9a-f]{32}$/.test(body.params?._meta?.conversation ?? '')) wrong.push(`_meta.conversation=${body.params?._meta?.conversation}`)
    conversations.add(body.params?._meta?.conversation)
    if (wrong.length) bad.push(`#${r.n} ${r.tool}: ${wrong.join(', ')}`)
  }
  check('Hark received at least one request', hark.length > 0, `${hark.length}`)
  check('every request: headers, bearer token, JSON-RPC tools/call frame, _meta {client, 32-hex conversation}', bad.length === 0, bad.slice(0, 3).join(' | '))
  check('every request carries the same conversation id', conversations.size === 1, [...conversations].join(', '))
  check('every request reached the SDK and was not refused (401/4xx, bad arguments, unknown tool)', hark.every((r) => r.outcome === 'ok'), hark.filter((r) => r.outcome !== 'ok').map((r) => `${r.tool}: ${r.outcome} ${r.reply?.slice(0, 160)}`).join(' | '))

  // Privacy: what never leaves the machine.
  const leaks = []
  for (const r of hark) {
    let parsed = ''
    try { parsed = JSON.stringify(JSON.parse(r.body)) } catch {}
    const seen = (t) => r.body.includes(t) || parsed.includes(t)
    if (seen(SECRET)) leaks.push(`#${r.n} ${r.tool}: the secret ${SECRET}`)
    if (seen(ACCESS_KEY)) leaks.push(`#${r.n} ${r.tool}: the access key in the body`)
    for (const [k, v] of Object.entries(r.headers ?? {})) if (k !== 'authorization' && String(v).includes(ACCESS_KEY)) leaks.push(`#${r.n}: the access key in header ${k}`)
    for (const t of FILE_TEXT) if (seen(t)) leaks.push(`#${r.n} ${r.tool}: file/code text "${t}"`)
  }
  check('no secret, no access key outside Authorization, no file content or code in any request', leaks.length === 0, leaks.slice(0, 4).join(' | '))
  const storeDir = path.join(run.files.home, '.claude', 'plugins', 'store')
  const stores = fs.existsSync(storeDir) ? fs.readdirSync(storeDir).map((f) => fs.readFileSync(path.join(storeDir, f), 'utf8')) : []
  const keyFound = [['debug log', run.debug], ['stdout', JSON.stringify(run.events)], ['stderr', run.stderr], ['plugin store', stores.join('\n')]]
    .filter(([, text]) => text.includes(ACCESS_KEY)).map(([where]) => where)
  check('the access key is in no log and no store (debug log, stdout, stderr, ~/.claude/plugins/store)', keyFound.length === 0, keyFound.join(', '))
  check('the session saw the secret and the code (so the privacy check means something)', lastAnswer(run).includes(SECRET) && lastAnswer(run).includes('e2e-code-marker-3a44'), '')
  return out
}

/** The session id a stream-json run printed in its system/init event. */
const initSession = (events) => events.find((e) => e.type === 'system' && e.subtype === 'init')?.session_id

/**
 * The checks on one conversation carried by two processes (scenarios/resume.json, runSession's `resume`): the
 * first edits src/db/schema.sql, runs npm test and commits; the second, `claude -p --resume <its session id>`,
 * writes src/app.js. SPEC.md, One conversation, several processes; What it stores; The handoff. `stale`: the
 * store was aged past 30 minutes between the two, so the second process fetches the brief again. `fork`: the
 * second ran with --fork-session, so under a session id of its own (SPEC.md, Limits: a fork shares the state).
 */
export function resumeChecks(run, { stale = false, fork = false } = {}) {
  const out = []
  const check = (name, ok, detail = '', todo) => out.push({ name, ok: !!ok, detail, ...(todo && { todo }) })
  const second = run.resumed
  // Each process's requests, by when they reached the fake: the first had exited before the second started.
  const within = (t, p) => t >= p.startedAt && t <= p.endedAt
  const procs = [
    { name: 'first', run, hark: run.harkLog.filter((h) => within(h.receivedAt, run)), model: run.modelLog.filter((m) => m.main && within(m.receivedAt, run)) },
    { name: 'second', run: second, hark: run.harkLog.filter((h) => within(h.receivedAt, second)), model: run.modelLog.filter((m) => m.main && within(m.receivedAt, second)) },
  ]
  const [first, resumed] = procs
  const list = (rs) => rs.map((r) => `#${r.n} ${r.tool ?? r.method ?? r.http} ${r.outcome}`).join(', ') || 'none'
  const stray = run.harkLog.filter((h) => !within(h.receivedAt, run) && !within(h.receivedAt, second))
  check('every Hark request came while one of the two processes ran', stray.length === 0, list(stray))

  const answers = ['resume-first-done', 'resume-second-done']
  for (const [i, p] of procs.entries()) {
    check(`the ${p.name} process ran to its final answer`, p.run.rc === 0 && lastAnswer(p.run).includes(answers[i]), `claude rc=${p.run.rc}; answer ${JSON.stringify(lastAnswer(p.run).slice(0, 120))}`)
    const failures = pluginFailures(p.run)
    check(`the ${p.name} process loaded the plugin, with no load failure or skipped hook`, moduleLoaded(p.run) && failures.length === 0, failures.slice(0, 3).join(' | ') || 'no "hooks module hark-memory@… loaded" line')
  }
  // The second process carried the first one's conversation: its first model request holds the first prompt and answer.
  const firstBody = resumed.model[0] ? JSON.stringify(run.modelBody(resumed.model[0].body)) : ''
  check('the second process resumed the first one\'s conversation (its first model request holds the first prompt and answer)',
    firstBody.includes('Add a users table to the schema, run the tests') && firstBody.includes('resume-first-done'), `${resumed.model.length} main model requests in the second process`)
  const ids = procs.map((p) => initSession(p.run.events))
  if (fork) check('claude --resume --fork-session gave the second process a session id of its own (system/init of both)', ids[0] !== undefined && ids[1] !== undefined && ids[0] !== ids[1], ids.join(' then '))
  else check('claude --resume kept the session id (system/init of both processes)', ids[0] !== undefined && ids[0] === ids[1], ids.join(' then '))

  // 1. One conversation: the same _meta.conversation on every request of both processes.
  const convs = new Set(run.harkLog.map((h) => h.meta?.conversation))
  const [conv] = convs
  check('both processes sent requests to Hark', first.hark.length > 0 && resumed.hark.length > 0, `first: ${list(first.hark)}; second: ${list(resumed.hark)}`)
  check('every request of both processes carries one and the same _meta.conversation (32 hex)', convs.size === 1 && /^[0-9a-f]{32}$/.test(conv ?? ''),
    procs.map((p) => `${p.name}: ${[...new Set(p.hark.map((h) => h.meta?.conversation))].join(', ')}`).join('; '))

  // 2. The brief: fetched by the first; the second reuses it within 30 minutes (SPEC.md: session.start).
  const briefs = procs.map((p) => p.hark.filter((h) => h.tool === 'get_agent_brief'))
  check('the first process fetched the brief once (get_agent_brief)', briefs[0].length === 1 && briefs[0][0].outcome === 'ok', list(briefs[0]))
  if (stale) {
    check('the second process, past 30 minutes of the first one\'s saved state, fetched the brief again, once', briefs[1].length === 1 && briefs[1][0].outcome === 'ok', list(briefs[1]))
  } else {
    const gapMin = briefs[0][0] ? (Date.parse(second.endedAt) - Date.parse(briefs[0][0].receivedAt)) / 60_000 : NaN
    check(`no get_agent_brief from the second process, which ran within 30 minutes of the first one's brief (${gapMin.toFixed(2)} min)`, briefs[1].length === 0 && gapMin < 30, list(briefs[1]))
  }
  const blocks = (firstBody.match(/<hark-brief[^>]*>[\s\S]*?<\/hark-brief>/g) ?? []).map((b) => JSON.parse(`"${b}"`))
  if (stale) {
    // The fake Hark's brief says handoff "clean" once it has taken an end_session: the first process's brief
    // said "open", the one the second fetched says "clean".
    const says = blocks.map((b) => b.match(/"handoff":\s*\{\s*"status":\s*"(\w+)"/)?.[1] ?? '?')
    check('the brief the second process fetched reached its model (a <hark-brief> whose handoff is "clean")', says.includes('clean'),
      `the request holds ${blocks.length} <hark-brief> ${blocks.length === 1 ? 'block' : 'blocks'}, handoff ${says.join(', ') || 'none'}; the status lines say ${JSON.stringify(statusLines(second))}`)
  } else {
    check('the second process\'s first model request holds the brief block once (the first process\'s, from the resumed history)', blocks.length === 1, `${blocks.length} <hark-brief> blocks`)
  }

  // 3. Each process's handoff names its own work only.
  const ends = procs.map((p) => p.hark.filter((h) => h.tool === 'end_session'))
  const commit = sessionCommit(run)
  for (const [i, p] of procs.entries()) {
    check(`the ${p.name} process sent one end_session, and Hark took it`, ends[i].length === 1 && ends[i][0].outcome === 'ok', list(p.hark))
    const others = p.hark.filter((h) => ['session_stopped', 'close_session', 'get_venture', 'list_candidates'].includes(h.tool))
    check(`the ${p.name} process sent no session_stopped, close_session or other call`, others.length === 0, list(others))
  }
  const [h1, h2] = ends.map((e) => handoffText(e[0]?.arguments))
  const all1 = Object.values(h1).join('\n')
  const all2 = Object.values(h2).join('\n')
  check('the first handoff names src/db/schema.sql, npm test: passed and the commit', (h1.what_changed ?? '').includes('edited src/db/schema.sql') && (h1.what_i_did ?? '').includes('npm test: passed') && !!commit && (h1.what_changed ?? '').includes(`commit ${commit.sha} Add users table`),
    `commit ${commit?.sha ?? 'missing'}; ${JSON.stringify({ what_i_did: h1.what_i_did, what_changed: h1.what_changed }).slice(0, 400)}`)
  check('the first handoff does not name src/app.js (the second process\'s file)', all1.length > 0 && !all1.includes('src/app.js'), JSON.stringify(h1).slice(0, 400))
  check('the second handoff names src/app.js', (h2.what_changed ?? '').includes('edited src/app.js'), JSON.stringify(h2.what_changed ?? '').slice(0, 200))
  const carried = ['src/db/schema.sql', 'npm test', 'Add users table', commit?.sha].filter((t) => t && all2.includes(t))
  check('the second handoff names none of the first process\'s work (src/db/schema.sql, the test run, the commit)', all2.length > 0 && carried.length === 0, carried.length ? `names ${carried.join(', ')}: ${JSON.stringify(h2).slice(0, 400)}` : JSON.stringify(h2).slice(0, 300))

  // 4. The store: one conversation, one record per process, both handoffs claimed, nothing left pending.
  const store = storeOf(run)
  check('the plugin store is readable after both processes', store !== undefined, path.join(run.files.home, '.claude', 'plugins', 'store', STORE_FILE))
  const records = Object.entries(store ?? {}).filter(([k]) => k.startsWith('c:')).map(([key, r]) => {
    const [, conversationKey, load] = key.split(':')
    return { key, conversationKey, load: new Date(Number(load)).toISOString(), r }
  })
  const keys = new Set(records.map((x) => x.conversationKey))
  check('the store holds one conversation (one conversation key over all its records)', keys.size === 1, [...keys].join(', '))
  check('every record holds the conversation id sent to Hark', records.length > 0 && records.every((x) => x.r.conversationId === conv), records.map((x) => x.r.conversationId).join(', '))
  const claims = Object.keys(store ?? {}).filter((k) => k.startsWith('handoff:'))
  // Stale, the second process's start folds the first one's idle record into its own under a claim of the
  // segment (SPEC.md, How long it keeps things), so its handoff is the next segment's.
  const segments = stale ? '0,1,2' : '0,1'
  check(`the handoff claims of that conversation: segments ${segments}${stale ? ' (1: the fold of the idle record)' : ''}`,
    claims.every((k) => keys.has(k.split(':')[1])) && claims.map((k) => k.split(':')[2]).sort().join() === segments, claims.join(', '))
  const newest = records.at(-1)?.r
  const pending = records.filter((x) => (newest?.cursors?.[x.key] ?? 0) < x.r.seq)
  check('nothing is left to hand off: the last record\'s cursors cover every record\'s work', records.length > 0 && pending.length === 0, pending.map((x) => `${x.key}: seq ${x.r.seq}, cursor ${newest?.cursors?.[x.key]}`).join(' | '))
  const own = procs.map((p) => records.filter((x) => within(x.load, p.run)))
  if (stale) {
    check('the first process\'s record, idle past 30 minutes, was folded into the second one\'s and removed; the session id is kept',
      records.length === 1 && own[1].length === 1 && own[1][0].r.sessions.includes(ids[1]) && own[1][0].r.active?.session === ids[1], `${records.length} records: ${records.map((x) => `${x.load} ${JSON.stringify(x.r.sessions)}`).join(' | ')}`)
  } else {
    check('one record per process (loaded while it ran)', records.length === 2 && own.every((o) => o.length === 1), procs.map((p, i) => `${p.name}: ${own[i].length}`).join(', ') + `; ${records.length} records`)
    check('each process\'s session id is recorded in its own record (sessions, and the active one)',
      own.every((o, i) => o.length === 1 && o[0].r.sessions.includes(ids[i]) && o[0].r.active?.session === ids[i]), own.map((o) => JSON.stringify(o[0]?.r.sessions)).join(' / '))
    if (fork) check('the second record lists both session ids as the conversation\'s', own[1].length === 1 && ids.every((id) => own[1][0].r.sessions.includes(id)), JSON.stringify(own[1][0]?.r.sessions))
    check('the second record reused the first one\'s brief (same briefAt, the cached brief\'s fetchedAt)',
      own.every((o) => o.length === 1) && own[1][0].r.briefAt === own[0][0].r.briefAt && store?.['brief:V-012']?.fetchedAt === own[0][0].r.briefAt,
      `briefAt ${own.map((o) => o[0]?.r.briefAt).join(' / ')}, cached ${store?.['brief:V-012']?.fetchedAt}`)
  }
  return out
}
