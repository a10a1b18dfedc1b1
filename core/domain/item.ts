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

/** A trimmed, single-spaced, length-capped string, or `undefined` for anything else or blank. */
export function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined
  const t = value.replace(/\s+/g, ' ').trim()
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
