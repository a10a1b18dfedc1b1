/**
 * Whether a conversation moved to a background process (SPEC.md: classic.SessionEnd; HARK-API.md:
 * a move leaves a `continued-in` row, and an `assistant` row after it means the conversation came
 * back). Only the transcript's tail is read, and nothing of it is kept.
 */

/** SPEC.md: the transcript is read through the engine's file API, which reads files up to 4 MiB. */
export const TRANSCRIPT_READ_LIMIT = 4 * 1024 * 1024
/** SPEC.md: only its last 64 KB are looked at. */
export const TRANSCRIPT_TAIL_BYTES = 64 * 1024

/**
 * Whether the transcript's tail (JSON Lines; the first line may be cut) ends with a move to a
 * background process: a `continued-in` row with no `assistant` row after it.
 */
export function endsWithMove(tail: string): boolean {
  let moved = false
  for (const line of tail.split('\n')) {
    const type = rowType(line)
    if (type === 'continued-in') moved = true
    else if (type === 'assistant') moved = false
  }
  return moved
}

function rowType(line: string): string | undefined {
  const t = line.trim()
  if (!t.startsWith('{')) return undefined
  try {
    const row: unknown = JSON.parse(t)
    const type = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)['type'] : undefined
    return typeof type === 'string' ? type : undefined
  } catch {
    return undefined
  }
}
