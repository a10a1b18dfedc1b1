/**
 * The user's own access key out of a text (SPEC.md: The handoff, "your own access key"; the key goes only into
 * the Authorization header of the requests to Hark). Not a pattern: the key itself, and any piece of it
 * KEY_PIECE characters long, in any case of its letters, glued to anything. So a key split across lines, cut
 * off by a length cap or written in capitals leaves no piece long enough to matter; a key shorter than
 * KEY_PIECE is matched whole. Pure, total and linear: a text holding none of the key's half-piece blocks is left
 * as it is (a few `includes`: a piece [o, o + n) holds the block that starts at the first multiple of ⌊n/2⌋ from
 * o); otherwise each window of the text is looked up in the key (KEY_PIECE characters against a key's few dozen).
 */
import { REDACTED } from '../markers'
import { fold } from './tokens'

/** A shorter access key is ignored, so a blank or one-letter key can't redact ordinary text. */
export const MIN_ACCESS_KEY_LENGTH = 8
/** A piece of the access key this long (or the whole key, when shorter) is redacted wherever it stands. */
export const KEY_PIECE = 12

/** `text` with every run of it holding a piece of the key (touching and overlapping pieces as one) as `[redacted]`. */
export function redactAccessKey(text: string, accessKey: string | undefined): string {
  const key = typeof accessKey === 'string' ? fold(accessKey.trim()) : ''
  if (typeof text !== 'string' || key.length < MIN_ACCESS_KEY_LENGTH) return text
  const n = Math.min(KEY_PIECE, key.length)
  const lower = fold(text)
  let found = false
  for (let b = n >> 1, k = 0; k + b <= key.length && !found; k += b) found = lower.includes(key.slice(k, k + b))
  let out = '' // the text before `end`, pieces redacted
  let end = -1 // the run of pieces being found ends here
  for (let i = 0; found && i + n <= lower.length; i++) {
    if (!key.includes(lower.slice(i, i + n))) continue
    if (i > end) out += text.slice(Math.max(end, 0), i) + REDACTED
    end = i + n
  }
  return end < 0 ? text : out + text.slice(end)
}
