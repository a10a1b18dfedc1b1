// The plugin installed for one project (`--scope project`, the team's .claude/settings.json) or for one person in
// one project (`--scope local`, .claude/settings.local.json), proven in the real binary: it loads, and Hark hears
// from it, only where Claude Code reads that settings file. The README's Install section stands on these checks.
//
// One scratch HOME; a team project (a git repository with .hark/project = V-012 and a subfolder packages/api, as a
// monorepo package); another Hark project beside it (`elsewhere`, also V-012, so a plugin loaded there would ask
// Hark for its brief); one fake Hark behind the TLS proxy and one scripted model (`hi` → `ok`) for every start.
// The marketplace is a fresh clone of the repository's committed HEAD, added and installed from the team project
// with `--scope <scope>`, the key set with `plugin configure --values-stdin`. Then `claude -p hi` starts, one after
// another, each judged by the lines it added to the debug log, Hark's log and the model's log:
//   in the project   the module loads as hark-memory@hark, nothing of it fails, the brief reaches the model, and
//                    the exit sends close_session for the Hark session the brief opened
//   elsewhere        no hark-memory module, and Hark receives nothing (no request, no CONNECT to harkstudio.io)
//   in packages/api  project scope: as elsewhere (2.1.332 reads .claude/settings.json in the start folder only);
//                    local scope: as in the project (it reads .claude/settings.local.json at the git root too)
//   in the parent    the folder holding the project: no hark-memory module (no settings are read from above)
// Project scope, a teammate besides (a second HOME, the team project cloned after .claude/settings.json was
// committed): a start before any command loads nothing (`claude -p` does not add a marketplace the project's
// settings declare), then the same two commands from the clone leave the committed file's entries as they were
// (2.1.332's install may write them in another order: git then shows the file changed), and the next start loads
// the plugin with the teammate's own key.
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { createCA } from './certs.mjs'
import { startFakeHark } from './fake-hark.mjs'
import { startTlsProxy } from './tls-proxy.mjs'
import { startFakeModel } from './fake-model.mjs'
import { ACCESS_KEY, FIXTURE, REPO_DIR, claudeBin, engineEnv, installFromMarketplace, makeProject, run } from './session.mjs'
import { briefBlock, pluginFailures } from './inspect.mjs'

export const SETTINGS_FILE = { project: 'settings.json', local: 'settings.local.json' }
const MODULE_LINE = /hooks module hark-memory@\S+ loaded/

const readText = (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '')
const readJson = (f) => {
  try {
    return JSON.parse(readText(f))
  } catch {
    return undefined
  }
}
/** JSON text with every object's keys sorted: two settings files with the same entries in another order read alike. */
const sorted = (v) => JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x))
const linesOf = (f) => readText(f).split('\n').filter(Boolean).map((l) => JSON.parse(l))

/**
 * Runs the checks for `scope` ('project' or 'local') in `dir` (made fresh). Resolves { dir, checks }.
 */
export async function scopeTest({ scope, dir, repo = REPO_DIR }) {
  fs.rmSync(dir, { recursive: true, force: true })
  const home = path.join(dir, 'home')
  const team = path.join(dir, 'project')
  const sub = path.join(team, 'packages', 'api')
  const elsewhere = path.join(dir, 'elsewhere')
  for (const d of [home, team, elsewhere]) fs.mkdirSync(d, { recursive: true })
  makeProject(team, { home })
  fs.mkdirSync(sub, { recursive: true })
  makeProject(elsewhere, { home })
  const files = { hark: path.join(dir, 'hark.jsonl'), proxy: path.join(dir, 'proxy.jsonl'), model: path.join(dir, 'model.jsonl'), ca: path.join(dir, 'ca.pem') }
  const ca = createCA()
  fs.writeFileSync(files.ca, ca.certPem)

  const stops = []
  const checks = []
  try {
    const hark = await startFakeHark({ fixture: FIXTURE, key: ACCESS_KEY, logFile: files.hark, ttlS: 300 })
    stops.push(hark.close)
    const proxy = await startTlsProxy({ ca, targetPort: hark.port, ttlS: 300, log: (e) => fs.appendFileSync(files.proxy, JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n') })
    stops.push(proxy.close)
    const model = await startFakeModel({ scenario: { prompt: 'hi', steps: [[{ type: 'text', text: 'ok' }]] }, dir, ttlS: 300 })
    stops.push(model.close)
    const envOf = (h) => engineEnv({ home: h, modelPort: model.port, proxyPort: proxy.port, caFile: files.ca })

    /** One `claude -p hi` in `cwd` with HOME `h`: what it added to each log. */
    const start = async (name, cwd, h = home) => {
      const mark = { hark: linesOf(files.hark).length, proxy: linesOf(files.proxy).length, model: linesOf(files.model).length }
      const debugFile = path.join(dir, `debug-${name}.log`)
      const r = await run(claudeBin(), ['-p', 'hi', '--permission-mode', 'bypassPermissions', '--output-format', 'stream-json', '--verbose', '--debug-file', debugFile], { cwd, env: envOf(h), timeoutS: 90 })
      await new Promise((resolve) => setTimeout(resolve, 20)) // the listeners' last log lines
      const debug = readText(debugFile)
      return {
        name,
        rc: r.rc,
        debug,
        harkLog: linesOf(files.hark).slice(mark.hark),
        proxyLog: linesOf(files.proxy).slice(mark.proxy),
        modelLog: linesOf(files.model).slice(mark.model),
        modelBody: (body) => readJson(path.join(dir, 'bodies', body)) ?? {},
        found: debug.match(/Found \d+ plugins[^\n]*/)?.[0] ?? 'no "Found N plugins" line',
      }
    }
    const where = (s) => `${s.found}; debug-${s.name}.log`
    /**
     * The plugin loaded, none of it failed, the model's first request carried the brief Hark sent, and the exit handed
     * off: `close_session` for the Hark session the brief opened (`hi` records no work).
     */
    const loads = (s, label) => {
      const brief = briefBlock(s)
      const tools = s.harkLog.map((r) => r.tool)
      checks.push(
        { name: `${label}: the engine loads the module as hark-memory@hark`, ok: /hooks module hark-memory@hark loaded/.test(s.debug), detail: where(s) },
        { name: `${label}: nothing of the plugin failed or was skipped`, ok: pluginFailures(s).length === 0, detail: pluginFailures(s).join('\n') },
        { name: `${label}: Hark is asked for V-012's brief, and the model receives it as <hark-brief project="V-012">`, ok: tools.includes('get_agent_brief') && brief?.startsWith('<hark-brief project="V-012">') === true, detail: `Hark got: ${tools.join(', ') || 'nothing'}; brief: ${brief?.slice(0, 60) ?? 'none'}` },
        { name: `${label}: the exit hands off: close_session, once, for the session the brief opened (no work was recorded)`, ok: tools.filter((t) => t === 'close_session').length === 1 && !tools.includes('end_session'), detail: `Hark got: ${tools.join(', ') || 'nothing'}` },
      )
    }
    /** No hark-memory module, and not one byte for Hark. */
    const idle = (s, label) => checks.push(
      { name: `${label}: no hark-memory module is loaded`, ok: s.rc === 0 && !MODULE_LINE.test(s.debug) && s.modelLog.some((r) => r.main), detail: `rc ${s.rc}; ${where(s)}` },
      { name: `${label}: Hark receives nothing (no request, no CONNECT)`, ok: s.harkLog.length === 0 && s.proxyLog.length === 0, detail: `Hark got: ${s.harkLog.map((r) => r.tool).join(', ')}; proxy: ${s.proxyLog.length} lines` },
    )

    const env = envOf(home)
    await installFromMarketplace({ dir, env, repo, key: ACCESS_KEY, scope, cwd: team })
    const file = path.join(team, '.claude', SETTINGS_FILE[scope])
    const settings = readJson(file)
    const user = readJson(path.join(home, '.claude', 'settings.json'))
    checks.push({
      name: `--scope ${scope} writes the marketplace and the plugin to the project's .claude/${SETTINGS_FILE[scope]}, and nothing to ~/.claude/settings.json`,
      ok: settings?.enabledPlugins?.['hark-memory@hark'] === true && settings?.extraKnownMarketplaces?.hark !== undefined && user?.enabledPlugins?.['hark-memory@hark'] === undefined,
      detail: `${SETTINGS_FILE[scope]}: ${JSON.stringify(settings)}; ~/.claude/settings.json: ${JSON.stringify(user)}`,
    })
    const holding = [file, path.join(home, '.claude', 'settings.json'), path.join(team, '.claude', 'settings.json')].filter((f) => readText(f).includes(ACCESS_KEY))
    checks.push({ name: 'the access key is in no settings file (configure keeps it in the person\'s own credential store)', ok: holding.length === 0, detail: holding.join(', ') })
    if (scope === 'local') {
      const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: team, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' })
      checks.push({ name: 'git status does not list .claude/settings.local.json (the install adds it to the user\'s git ignore)', ok: !status.includes('settings.local.json'), detail: `${status.trim() || '(clean)'}; ~/.config/git/ignore: ${readText(path.join(home, '.config', 'git', 'ignore')).trim() || 'none'}` })
    }

    loads(await start('project', team), 'a start in the project')
    idle(await start('elsewhere', elsewhere), 'a start in another Hark project')
    const inSub = await start('subfolder', sub)
    if (scope === 'project') idle(inSub, 'a start in the project\'s subfolder packages/api')
    else loads(inSub, 'a start in the project\'s subfolder packages/api (a git repository: its root\'s settings.local.json is read)')
    idle(await start('parent', dir), 'a start in the project\'s parent folder')

    if (scope === 'project') {
      const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8', stdio: 'pipe' })
      git(team, 'add', '.claude/settings.json')
      git(team, 'commit', '-q', '-m', 'Hark for the team: the marketplace and the plugin at project scope')
      const mateHome = path.join(dir, 'teammate-home')
      const mate = path.join(dir, 'teammate-project')
      fs.mkdirSync(mateHome, { recursive: true })
      git(dir, 'clone', '-q', team, mate)
      idle(await start('teammate-first', mate, mateHome), 'a teammate\'s clone, before any command')
      const committed = readJson(path.join(mate, '.claude', 'settings.json'))
      await installFromMarketplace({ dir, env: envOf(mateHome), key: ACCESS_KEY, scope, cwd: mate, marketplace: path.join(dir, 'marketplace-clone') })
      const status = git(mate, 'status', '--porcelain', '--untracked-files=all').trim()
      const after = readJson(path.join(mate, '.claude', 'settings.json'))
      checks.push({
        name: 'the teammate\'s marketplace add and install --scope project leave the committed .claude/settings.json\'s entries as they were (in whatever order the engine writes them), and no other file of the clone changed',
        ok: sorted(after) === sorted(committed) && status.split('\n').every((l) => l === '' || /^ ?M \.claude\/settings\.json$/.test(l)),
        detail: `git status: ${status || '(clean)'}; before: ${JSON.stringify(committed)}; after: ${JSON.stringify(after)}`,
      })
      loads(await start('teammate', mate, mateHome), 'the teammate\'s next start')
    }
  } catch (e) {
    checks.push({ name: `the ${scope}-scope starts ran`, ok: false, detail: e.stack })
  } finally {
    for (const stop of stops.reverse()) await stop()
  }
  return { dir, checks }
}
