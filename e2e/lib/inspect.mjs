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
