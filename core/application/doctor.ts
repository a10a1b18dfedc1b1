/**
 * /hark doctor (SPEC.md: /hark): one screen diagnosing the set-up from what the plugin already
 * knows, with no request of its own: the project file (or every place looked), whether a key is set (never
 * any part of it), Hark's last answer per tool with the fix for each failure, the store (its file's name,
 * entries, size, a refused write), handoffs waiting for delivery, the versions, and where to see the install's scope.
 *
 * State: none of its own; it reads StartState, HarkAnswers (written by the MCP gateway), and what StoreSurvey
 * counts in the store.
 */
import { pathRules } from '../domain/paths'
import { projectFileCandidates } from '../domain/project'
import type { Clock } from '../ports/clock.port'
import type { SessionInfo } from '../ports/session.port'
import { quiet } from './deadline'
import type { HarkAnswer, HarkAnswersReads } from './hark-answers'
import type { Settings } from './settings'
import type { StartReads } from './start-session'
import type { StoreFacts, StoreSurvey } from './store-survey'

/** The store's file, as the engine names it (SPEC.md, What it stores); the plugin is not told which is its own. */
export const STORE_FILES = 'hark-memory_hark-aae3fede4df5.json (installed from this repository), hark-memory_synced-1aada258dc33.json (the Claude directory), hark-memory_inline-b2086a409123.json (--plugin-dir)'
/**
 * Where the plugin loads. The plugin is not told its install's scope, and finding it would mean reading settings,
 * which SPEC.md does not list among what it reads: the report says where to look instead.
 */
export const SCOPE_HELP = 'Where it loads: installed at user scope, in every folder; at project scope, only where Claude Code starts in the project\'s own folder; at local scope, there and in its subfolders when that folder is a git repository\'s top. /plugin shows the scope; the README\'s Install section compares them.'

/** Places listed at most when no project file was found (two per folder up to the root). */
const MAX_PLACES = 40

const CONFIGURE = '/plugin configure hark-memory@hark'

/** Everything the report shows, gathered (plain data, so the text is a pure function of it). */
export interface DoctorFacts {
  readonly project?: { readonly file: string; readonly venture: string } | undefined
  /** The files looked for, nearest first, when no project file was found. */
  readonly looked: readonly string[]
  readonly idleReason?: string | undefined
  readonly keySet: boolean
  readonly answers: readonly HarkAnswer[]
  readonly now: number
  readonly store: StoreFacts
  readonly waiting: number
  readonly pluginVersion?: string | undefined
  readonly engineVersion?: string | undefined
}

/** Each outcome of a request as the report words it, and its fix ('' for none): one JSON string, literal data. */
const OUTCOMES: Readonly<Record<HarkAnswer['outcome'], readonly [word: string, fix: string]>> = JSON.parse(`{
  "ok": ["ok", ""],
  "key-refused": ["key refused", "Hark refused the access key: set a new one with ${CONFIGURE}, then restart Claude Code."],
  "unreachable": ["unreachable", "No connection to harkstudio.io: check the network, or the proxy (HTTPS_PROXY) and its certificate (NODE_EXTRA_CA_CERTS)."],
  "broken": ["connection broke", "The connection broke after the request went out: the network or a proxy dropped it; Hark may have got it."],
  "timeout": ["timed out", "No answer within the limit: Hark or the network is slow; a proxy may be holding the request."],
  "refused": ["error", "Hark answered with an error: try again later; if it stays, tell Hark's support the tool and the time."]
}`)

/** The fix for a failed answer, or '' for an answer that needs none. */
export function fixFor(answer: HarkAnswer): string {
  return OUTCOMES[answer.outcome][1]
}

/** `06:12:03 UTC, 40 s ago` (the clock's epoch ms); `?` for a part that no clock reading gives. */
function when(at: number, now: number): string {
  // (A time past what a Date holds, ±8.64e15 ms, gives an invalid Date; past year 9999 the ISO text's year is
  // longer, so the time is read after its `T`.)
  const date = new Date(at)
  const clock = Number.isNaN(date.getTime()) ? '?' : (/T(\d\d:\d\d:\d\d)/.exec(date.toISOString()) as RegExpExecArray)[1]
  const ago = Math.max(0, Math.round((now - at) / 1000))
  return `${clock} UTC, ${clock === '?' || !Number.isFinite(now) ? '?' : ago < 120 ? `${ago} s` : `${Math.round(ago / 60)} min`} ago`
}

/** The report's text. Pure: the same facts give the same screen. */
export function renderDoctor(f: DoctorFacts): string {
  const { looked, answers, store: s, project, waiting } = f
  const width = Math.max(...answers.map((a) => a.tool.length))
  const size = s.bytes === undefined ? '' : `, about ${s.bytes < 10_240 ? `${s.bytes} bytes` : `${Math.round(s.bytes / 1024)} KB`} of data`
  return [
    'Hark doctor (from what this session already knows; it sends nothing)',
    '',
    ...(project
      ? [`Project file: ${project.file} (project ${project.venture})`]
      : f.idleReason === 'unplaced-folder'
        ? ['Project file: none looked for: the session runs in a network share or a device path, which the plugin does not read.']
        : [
            'Project file: none found. Looked for, nearest first:',
            ...looked.slice(0, MAX_PLACES).map((place) => `  ${place}`),
            ...(looked.length > MAX_PLACES ? [`  and ${looked.length - MAX_PLACES} more up to the root`] : []),
            '  Fix: mkdir -p .hark && echo V-012 > .hark/project (your project\'s code), or run `hark init`.',
          ]),
    f.keySet ? 'Access key: set' : `Access key: not set. Fix: ${CONFIGURE}`,
    '',
    answers.length === 0 ? 'Hark\'s answers: none yet (no request since the plugin loaded).' : 'Hark\'s last answer per tool:',
    ...answers.flatMap((a) => {
      const [word, fix] = OUTCOMES[a.outcome]
      const line = `  ${a.tool.padEnd(width)}  ${word}${a.status !== undefined ? ` (HTTP ${a.status})` : ''}, ${when(a.at, f.now)}`
      return fix === '' ? [line] : [line, `  ${' '.repeat(width)}  Fix: ${fix}`]
    }),
    '',
    `Store: one file under ~/.claude/plugins/store/, named after how the plugin was installed: ${STORE_FILES}`,
    s.entries === undefined
      ? '  Its entries could not be read in time.'
      : `  ${s.entries} entr${s.entries === 1 ? 'y' : 'ies'}${size}: ${s.records ?? 0} process record(s), ${s.briefs ?? 0} cached brief(s), ${s.claims ?? 0} handoff claim(s), ${s.undelivered ?? 0} undelivered handoff(s)`,
    s.refusedWrite
      ? '  A write was refused this session: this process hands off its own work. Fix: check the disk (space, permissions) under ~/.claude/plugins/store/.'
      : '  No write refused this session.',
    ...(s.slow ? ['  The store was slow to answer once; later calls wait less.'] : []),
    ...(waiting > 0 ? [`Handoffs waiting for delivery: ${waiting} (the next session start in this project sends ${waiting === 1 ? 'it' : 'them'}).`] : []),
    '',
    `Versions: hark-memory ${f.pluginVersion ?? '(unknown)'}, Claude Code ${f.engineVersion ?? '(unknown)'}`,
    SCOPE_HELP,
  ].join('\n')
}

export class Doctor {
  constructor(
    private readonly start: StartReads,
    private readonly settings: Settings,
    private readonly session: SessionInfo,
    private readonly answers: HarkAnswersReads,
    private readonly survey: StoreSurvey,
    private readonly clock: Clock,
  ) {}

  /** The report for `/hark doctor`. Sends nothing; never throws (a fact that can't be read shows as unknown). */
  async report(): Promise<string> {
    const { project, activeProject } = this.start
    const [now, looked, { store, waiting }, pluginVersion, engineVersion] = await Promise.all([
      this.clock.now(),
      project ? [] : this.places(),
      this.survey.survey(activeProject?.venture),
      quiet(this.session.pluginVersion()),
      quiet(this.session.engineVersion()),
    ])
    return renderDoctor({
      project,
      looked,
      idleReason: this.start.idleReason,
      keySet: this.settings.accessKey !== undefined,
      answers: this.answers.last,
      now,
      store,
      waiting,
      pluginVersion,
      engineVersion,
    })
  }

  /** The files the start looks for (SPEC.md, Setup 1), recomputed from the session's folder. */
  private async places(): Promise<string[]> {
    try {
      const [cwd, platform] = await Promise.all([this.session.cwd(), quiet(this.session.platform())])
      return projectFileCandidates(cwd, pathRules(platform, cwd)).map((c) => c.path)
    } catch {
      return []
    }
  }
}
