/**
 * Items and records as Hark sends them (HARK-API.md). Every value from Hark is untrusted: these
 * functions keep what has the expected type and drop the rest, and never throw.
 */

/** A line of the brief: a decision, a non-goal, a blocker, a next step. */
export interface Item {
  /** The item's words: `title`, else `text`, `summary` or `name`; a plain string item is its own title. */
  readonly title: string
  /** The reason: `why`, else `rationale`. */
  readonly why?: string
}

const MAX_TEXT = 2_000

/** C0 and C1 control characters (terminal escapes) and bidirectional overrides: never shown or sent as Hark wrote them. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** `value` without control characters and bidi overrides (newlines and tabs kept). */
export function withoutControls(value: string): string {
  return value.replace(CONTROLS, '')
}

/** A trimmed, single-spaced, length-capped string without control characters, or `undefined` for anything else or blank. */
export function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined
  const t = withoutControls(value.slice(0, 4 * max)).replace(/\s+/g, ' ').trim()
  if (t === '') return undefined
  return t.length > max ? `${t.slice(0, max - 1)}…` : t
}

/** A plain object (not an array, not null), or `undefined`. */
export function object(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

/** The first of `keys` in `o` that holds a non-blank string. */
export function firstText(o: Record<string, unknown>, keys: readonly string[], max = MAX_TEXT): string | undefined {
  for (const key of keys) {
    const t = text(o[key], max)
    if (t !== undefined) return t
  }
  return undefined
}

/** An Item from a string or an object with `title`/`text`/`summary`/`name` and `why`/`rationale`. */
export function parseItem(value: unknown): Item | undefined {
  const plain = text(value)
  if (plain !== undefined) return { title: plain }
  const o = object(value)
  if (o === undefined) return undefined
  const title = firstText(o, ['title', 'text', 'summary', 'name'])
  if (title === undefined) return undefined
  const why = firstText(o, ['why', 'rationale'])
  return why === undefined ? { title } : { title, why }
}

/** The Items of a list (a lone item counts as a list of one); at most `limit`. */
export function parseItems(value: unknown, limit = 200): Item[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
  const out: Item[] = []
  for (const v of list) {
    const item = parseItem(v)
    if (item !== undefined) out.push(item)
    if (out.length >= limit) break
  }
  return out
}

/** `title — why`, or the title alone. */
export function describeItem(item: Item): string {
  return item.why === undefined ? item.title : `${item.title} — ${item.why}`
}

/** Deepest nesting and most values a payload may have before reading it could stall a hook. */
export const MAX_DEPTH = 64
export const MAX_VALUES = 500_000

/**
 * Whether a parsed JSON value is within MAX_DEPTH and MAX_VALUES. Iterative, and it stops at the
 * first excess, so a hostile value costs at most MAX_VALUES steps.
 */
export function isReasonable(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  let seen = 0
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (++seen > MAX_VALUES || depth > MAX_DEPTH) return false
    if (typeof v !== 'object' || v === null) continue
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1])
      else if (++seen > MAX_VALUES) return false
    }
  }
  return true
}
