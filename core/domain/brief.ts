/**
 * The project's brief (SPEC.md: session.start, prompt.context; HARK-API.md: get_agent_brief).
 * Parsed from what `get_agent_brief {venture, depth: "compact"}` answers, rendered as the
 * `<hark-brief>` block of the first message and, after a compaction, as the `<hark-recap>` block.
 */
import { describeItem, firstText, isReasonable, object, parseItems, text, withoutControls, type Item } from './item'

/** The handoff state the status line shows (HARK-API.md: `handoff`). */
export type HandoffState = 'Clean' | 'Draft' | 'Open'

export interface Brief {
  /** The brief as Hark sent it: its text, or JSON text for an object. What `<hark-brief>` carries. */
  readonly text: string
  readonly identity?: string
  /** `build_state.current_phase` and `build_state.summary`. */
  readonly phase?: string
  readonly summary?: string
  /** Accepted decisions (`recent_decisions`). */
  readonly decisions: readonly Item[]
  /** Non-goals (`build_state.non_goals`), each as Hark sent it, for the edit guard's scopes. */
  readonly nonGoals: readonly unknown[]
  readonly blockers: readonly Item[]
  /** `build_state.next_up`; its first item is the next action. */
  readonly nextUp: readonly Item[]
  readonly handoffState: HandoffState
  /** Proposals waiting for a person: `open_candidates`, else the length of `unreviewed.items`. */
  readonly openCandidates: number
}

/** Longest brief or recap text kept (characters); a longer one is cut, with a marker. */
export const MAX_BRIEF_TEXT = 60_000
/** Items listed per section of the recap and of the brief for a person. */
export const RECAP_ITEMS = 50

/**
 * A Brief from a `get_agent_brief` payload: an object (the usual case) or a string (the whole
 * brief). Returns `undefined` for anything else (a number, an empty string, null).
 */
export function parseBrief(payload: unknown): Brief | undefined {
  if (typeof payload === 'string') {
    const t = payload.trim()
    if (t === '') return undefined
    return { text: cap(t), decisions: [], nonGoals: [], blockers: [], nextUp: [], handoffState: 'Open', openCandidates: 0 }
  }
  const o = object(payload)
  if (o === undefined || !isReasonable(payload)) return undefined
  const build = object(o['build_state']) ?? {}
  const nonGoals = Array.isArray(build['non_goals']) ? (build['non_goals'] as unknown[]).slice(0, 200) : []
  const identity = text(o['identity'], 300)
  const phase = text(build['current_phase'], 300)
  const summary = text(build['summary'], 2_000)
  return {
    text: cap(asText(payload)),
    ...(identity === undefined ? {} : { identity }),
    ...(phase === undefined ? {} : { phase }),
    ...(summary === undefined ? {} : { summary }),
    decisions: parseItems(o['recent_decisions']),
    nonGoals,
    blockers: parseItems(build['blockers']),
    nextUp: parseItems(build['next_up']),
    handoffState: handoffStateOf(o['handoff']),
    openCandidates: openCandidatesOf(o),
  }
}

/** The brief again from its stored text (the store keeps `Brief.text`). */
export function briefFromText(stored: string): Brief | undefined {
  const t = stored.trim()
  if (t.startsWith('{')) {
    try {
      const parsed = parseBrief(JSON.parse(t))
      if (parsed !== undefined) return { ...parsed, text: cap(t) }
    } catch {
      // Not JSON after all: a text brief that starts with a brace.
    }
  }
  return parseBrief(t)
}

/** HARK-API.md: Draft when `draft` is truthy; Clean when `status` reads clean, closed, ended or confirmed; else Open. */
export function handoffStateOf(value: unknown): HandoffState {
  const h = object(value)
  if (h === undefined) return 'Open'
  if (![undefined, null, false, '', 0].includes(h['draft'] as never)) return 'Draft'
  const status = typeof h['status'] === 'string' ? h['status'].trim().toLowerCase() : ''
  return ['clean', 'closed', 'ended', 'confirmed'].includes(status) ? 'Clean' : 'Open'
}

function openCandidatesOf(o: Record<string, unknown>): number {
  const n = o['open_candidates']
  if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return Math.min(Math.floor(n), 9_999)
  const items = object(o['unreviewed'])?.['items']
  return Array.isArray(items) ? Math.min(items.length, 9_999) : 0
}

/** JSON text of the brief: indented for reading, unless that would be large (then compact). */
function asText(payload: unknown): string {
  const compact = JSON.stringify(payload)
  return compact.length > MAX_BRIEF_TEXT ? compact : JSON.stringify(payload, null, 2)
}

function cap(raw: string): string {
  const t = withoutControls(raw.length > 2 * MAX_BRIEF_TEXT ? raw.slice(0, 2 * MAX_BRIEF_TEXT) : raw)
  return t.length > MAX_BRIEF_TEXT ? `${t.slice(0, MAX_BRIEF_TEXT)}\n[brief cut at ${MAX_BRIEF_TEXT} characters]` : t
}

/** `project="…"` with the value made safe for an attribute. */
function projectAttribute(venture: string): string {
  return `project="${venture.replace(/[^A-Za-z0-9._-]/g, '')}"`
}

/**
 * Keeps Hark's text from opening or closing a frame around it: our own block's tag, the other
 * block's, and the `<system-reminder>` the engine wraps context blocks in.
 */
function framed(body: string): string {
  return body.replace(/<(\/?)\s*(hark-brief|hark-recap|system-reminder)\b/gi, (_m, slash: string, tag: string) => `<${slash === '' ? '' : '\\/'}\u200b${tag}`)
}

/** The first message's block (SPEC.md, prompt.context): `<hark-brief project="V-012">…</hark-brief>`. */
export function renderBriefBlock(venture: string, brief: Brief): string {
  return `<hark-brief ${projectAttribute(venture)}>\n${framed(brief.text)}\n</hark-brief>`
}

/**
 * The block after a compaction (SPEC.md: session.compact; HARK-API.md): accepted decisions,
 * non-goals, blockers and the next action, from the same brief.
 */
export function renderRecapBlock(venture: string, brief: Brief): string {
  const lines: string[] = []
  const section = (heading: string, items: readonly Item[]) => lines.push(`${heading}:`, ...(items.length === 0 ? ['- none'] : itemLines(items)))
  if (brief.identity !== undefined) lines.push(brief.identity, '')
  section('Accepted decisions', brief.decisions)
  section('Non-goals', parseItems(brief.nonGoals))
  section('Blockers', brief.blockers)
  const next = brief.nextUp[0]
  lines.push(`Next action: ${next === undefined ? 'none recorded' : describeItem(next)}`)
  if (brief.decisions.length === 0 && brief.nonGoals.length === 0 && brief.blockers.length === 0 && next === undefined) {
    lines.push('', firstText({ t: brief.text }, ['t'], 4_000) ?? '')
  }
  return `<hark-recap ${projectAttribute(venture)}>\n${framed(cap(lines.join('\n').trimEnd()))}\n</hark-recap>`
}

/**
 * The brief for a person (/hark brief): the project, its phase and summary, decisions, non-goals,
 * blockers, what is next, and the handoff state. A brief Hark sent as plain text is printed as sent.
 */
export function renderBriefText(brief: Brief): string {
  const lines = [brief.identity, brief.phase === undefined ? undefined : `Phase: ${brief.phase}`, brief.summary].filter((l): l is string => l !== undefined)
  const section = (heading: string, items: readonly Item[]) => items.length > 0 && lines.push('', `${heading}:`, ...itemLines(items))
  section('Decisions', brief.decisions)
  section('Non-goals', parseItems(brief.nonGoals))
  section('Blockers', brief.blockers)
  section('Next up', brief.nextUp)
  // Nothing of the above, and no non-goals as sent (none of them may read as an item): a brief Hark sent as text.
  if (lines.length === 0 && brief.nonGoals.length === 0) return brief.text
  const waiting = brief.openCandidates === 0 ? 'no proposals wait for a person' : `${brief.openCandidates} proposal${brief.openCandidates === 1 ? '' : 's'} wait${brief.openCandidates === 1 ? 's' : ''} for a person`
  lines.push('', `Handoff: ${brief.handoffState}; ${waiting}.`)
  return lines.join('\n').trim()
}

/** A `- ` line for each of the first RECAP_ITEMS items, then `- and N more`. */
function itemLines(items: readonly Item[]): string[] {
  const lines = items.slice(0, RECAP_ITEMS).map((item) => `- ${describeItem(item)}`)
  if (items.length > RECAP_ITEMS) lines.push(`- and ${items.length - RECAP_ITEMS} more`)
  return lines
}
