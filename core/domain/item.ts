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
  return replaced(value, CONTROLS, '')
}

/**
 * `s.replace(re, by)`, tested first. In the engine's hooks worker (frozen built-ins) a regex replace
 * takes the generic path, a microsecond or more even when nothing matches, and a test a fraction of that;
 * the edit guard reads hundreds of values at once. `re` may be global: a test that finds something is
 * always followed by the replace, which starts from the beginning and leaves `lastIndex` at 0.
 */
export function replaced(s: string, re: RegExp, by: string): string {
  return re.test(s) ? s.replace(re, by) : s
}

/** White space other than single spaces: what `text` replaces. */
const SPACING = /\s\s|[^\S ]/

/** A trimmed, single-spaced, length-capped string without control characters, or `undefined` for anything else or blank. */
export function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined
  const kept = replaced(value.slice(0, 4 * max), CONTROLS, '')
  // Tested first: in the engine's hooks worker (frozen built-ins) a global replace costs a call per match,
  // one per word here, and the edit guard reads up to 400 titles and whys at once.
  const t = (SPACING.test(kept) ? kept.replace(/\s+/g, ' ') : kept).trim()
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
    if (t) return t
  }
  return undefined
}

/** An Item from a string or an object with `title`/`text`/`summary`/`name` and `why`/`rationale`. */
export function parseItem(value: unknown): Item | undefined {
  const plain = text(value)
  if (plain) return { title: plain }
  const o = object(value) ?? {}
  const title = firstText(o, ['title', 'text', 'summary', 'name'])
  if (!title) return undefined
  const why = firstText(o, ['why', 'rationale'])
  return { title, ...(why && { why }) }
}

/** The Items of a list (a lone item counts as a list of one, and undefined or null as no item); at most `limit`. */
export function parseItems(value: unknown, limit = 200): Item[] {
  const list = Array.isArray(value) ? value : [value]
  const out: Item[] = []
  for (const v of list) {
    const item = parseItem(v)
    if (item) out.push(item)
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
  // Two stacks and indexed loops, no pairs to take apart: the edit guard walks the 200 decisions of a
  // list_journal_entries reply in the engine's hooks worker, where `for…of` and destructuring are slow.
  const stack: unknown[] = [value]
  const depths: number[] = [0]
  let seen = 0
  while (stack.length) {
    const v = stack.pop()
    const depth = depths.pop() as number
    if (++seen > MAX_VALUES || depth > MAX_DEPTH) return false
    if (typeof v !== 'object' || v === null) continue
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v)
    for (let i = 0; i < children.length; i++) {
      const child = children[i]
      if (typeof child === 'object' && child !== null) {
        stack.push(child)
        depths.push(depth + 1)
      } else if (++seen > MAX_VALUES) return false
    }
  }
  return true
}
