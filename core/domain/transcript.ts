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
    const row = line.trim()
    // A row is a JSON object; anything else (the cut first line, a damaged one) is passed over.
    if (!row.startsWith('{')) continue
    try {
      const type: unknown = JSON.parse(row).type
      if (type === 'continued-in') moved = true
      else if (type === 'assistant') moved = false
    } catch {
      // Not JSON: not a row.
    }
  }
  return moved
}
