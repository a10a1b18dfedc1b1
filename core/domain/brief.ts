/**
 * The project's brief (SPEC.md: session.start, prompt.context; HARK-API.md: get_agent_brief).
 * Parsed from what `get_agent_brief {venture, depth: "compact"}` answers, rendered as the
 * `<hark-brief>` block of the first message and, after a compaction, as the `<hark-recap>` block.
 */
import { describeItem, isReasonable, object, parseItems, text, withoutControls, type Item } from './item'

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
 * brief, with no lists). Returns `undefined` for anything else (a number, an empty string, null).
 */
export function parseBrief(payload: unknown): Brief | undefined {
  const whole = typeof payload === 'string' ? payload.trim() : undefined
  const o = whole === undefined ? object(payload) : {}
  if (whole === '' || o === undefined || !isReasonable(payload)) return undefined
  const build = object(o['build_state']) ?? {}
  const count = o['open_candidates'] as number
  const unreviewed = object(o['unreviewed'])?.['items']
  return {
    text: cap(whole ?? asText(payload)),
    // identity, phase and summary only where they hold text
    ...Object.fromEntries(
      [
        ['identity', text(o['identity'], 300)],
        ['phase', text(build['current_phase'], 300)],
        ['summary', text(build['summary'], 2_000)],
      ].filter(([, t]) => t),
    ),
    decisions: parseItems(o['recent_decisions']),
    nonGoals: Array.isArray(build['non_goals']) ? build['non_goals'].slice(0, 200) : [],
    blockers: parseItems(build['blockers']),
    nextUp: parseItems(build['next_up']),
    handoffState: handoffStateOf(o['handoff']),
    // `open_candidates` when it is a count, else the proposals listed; at most 9,999
    openCandidates: Math.min(Math.floor(Number.isFinite(count) && count >= 0 ? count : Array.isArray(unreviewed) ? unreviewed.length : 0), 9_999),
  }
}

/** The brief again from its stored text (the store keeps `Brief.text`). */
export function briefFromText(stored: string): Brief | undefined {
  const t = stored.trim()
  if (t.startsWith('{')) {
    try {
      const parsed = parseBrief(JSON.parse(t))
      if (parsed) return { ...parsed, text: cap(t) }
    } catch {
      // Not JSON after all: a text brief that starts with a brace.
    }
  }
  return parseBrief(t)
}

/** HARK-API.md: Draft when `draft` is truthy; Clean when `status` reads clean, closed, ended or confirmed; else Open. */
export function handoffStateOf(value: unknown): HandoffState {
  const h = object(value) ?? {}
  if (![undefined, null, false, '', 0].includes(h['draft'] as never)) return 'Draft'
  return typeof h['status'] === 'string' && /^(clean|closed|ended|confirmed)$/.test(h['status'].trim().toLowerCase()) ? 'Clean' : 'Open'
}

/** JSON text of the brief: indented for reading, unless that would be large (then compact). */
function asText(payload: unknown): string {
  const compact = JSON.stringify(payload)
  return compact.length > MAX_BRIEF_TEXT ? compact : JSON.stringify(payload, null, 2)
}

/** `raw` without control characters, cut at MAX_BRIEF_TEXT characters with a marker. */
function cap(raw: string): string {
  const t = withoutControls(raw.slice(0, 2 * MAX_BRIEF_TEXT))
  return t.length > MAX_BRIEF_TEXT ? `${t.slice(0, MAX_BRIEF_TEXT)}\n[brief cut at ${MAX_BRIEF_TEXT} characters]` : t
}

/**
 * `<tag project="V-012">\nbody\n</tag>`, the project code made safe for an attribute, and the body kept
 * from opening or closing a frame around it: our own block's tag, the other block's, and the
 * `<system-reminder>` the engine wraps context blocks in.
 */
function block(tag: string, venture: string, body: string): string {
  const safe = body.replace(/<(\/?)\s*(hark-brief|hark-recap|system-reminder)\b/gi, (_m, slash: string, name: string) => `<${slash === '' ? '' : '\\/'}\u200b${name}`)
  return `<${tag} project="${venture.replace(/[^A-Za-z0-9._-]/g, '')}">\n${safe}\n</${tag}>`
}

/** The first message's block (SPEC.md, prompt.context): `<hark-brief project="V-012">…</hark-brief>`. */
export function renderBriefBlock(venture: string, brief: Brief): string {
  return block('hark-brief', venture, brief.text)
}

/** The brief's lists under `headings` (`,` between them): decisions, non-goals, blockers, next up, in that order. */
function sections(brief: Brief, headings: string): [string, readonly Item[]][] {
  const lists = [brief.decisions, parseItems(brief.nonGoals), brief.blockers, brief.nextUp]
  return headings.split(',').map((heading, i) => [heading, lists[i]!])
}

/**
 * The block after a compaction (SPEC.md: session.compact; HARK-API.md): accepted decisions,
 * non-goals, blockers and the next action, from the same brief.
 */
export function renderRecapBlock(venture: string, brief: Brief): string {
  const lines = brief.identity === undefined ? [] : [brief.identity, '']
  for (const [heading, items] of sections(brief, 'Accepted decisions,Non-goals,Blockers')) lines.push(`${heading}:`, ...(items.length ? itemLines(items) : ['- none']))
  const next = brief.nextUp[0]
  lines.push(`Next action: ${next ? describeItem(next) : 'none recorded'}`)
  // No list at all (none of the non-goals as sent either): the brief's own text, shortened.
  if (brief.decisions.length + brief.nonGoals.length + brief.blockers.length + brief.nextUp.length === 0) lines.push('', text(brief.text, 4_000) ?? '')
  return block('hark-recap', venture, cap(lines.join('\n').trimEnd()))
}

/**
 * The brief for a person (/hark brief): the project, its phase and summary, decisions, non-goals,
 * blockers, what is next, and the handoff state. A brief Hark sent as plain text is printed as sent.
 */
export function renderBriefText(brief: Brief): string {
  const lines = [brief.identity, brief.phase === undefined ? undefined : `Phase: ${brief.phase}`, brief.summary].filter((l): l is string => l !== undefined)
  for (const [heading, items] of sections(brief, 'Decisions,Non-goals,Blockers,Next up')) if (items.length) lines.push('', `${heading}:`, ...itemLines(items))
  // Nothing of the above, and no non-goals as sent (none of them may read as an item): a brief Hark sent as text.
  if (!(lines.length || brief.nonGoals.length)) return brief.text
  const n = brief.openCandidates
  lines.push('', `Handoff: ${brief.handoffState}; ${n || 'no'} proposal${n === 1 ? ' waits' : 's wait'} for a person.`)
  return lines.join('\n').trim()
}

/** A `- ` line for each of the first RECAP_ITEMS items, then `- and N more`. */
function itemLines(items: readonly Item[]): string[] {
  const lines = items.slice(0, RECAP_ITEMS).map((item) => `- ${describeItem(item)}`)
  if (items.length > RECAP_ITEMS) lines.push(`- and ${items.length - RECAP_ITEMS} more`)
  return lines
}
