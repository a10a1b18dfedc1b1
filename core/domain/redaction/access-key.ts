/**
 * The user's own access key out of a text (SPEC.md: The handoff, "your own access key"; the key goes only into
 * the Authorization header of the requests to Hark). Not a pattern: the key itself, and any piece of it
 * KEY_PIECE characters long, in any case of its letters, glued to anything. So a key split across lines, cut
 * off by a length cap or written in capitals leaves no piece long enough to matter; a key shorter than
 * KEY_PIECE is matched whole. Pure, total and linear: a text holding none of the key's half-piece blocks is left
 * as it is (a few `includes`); otherwise each window of the text is hashed as it moves (a rolling hash), and only a
 * window whose hash a piece has is compared.
 */
import { REDACTED } from '../markers'
import { fold } from './tokens'

/** A shorter access key is ignored, so a blank or one-letter key can't redact ordinary text. */
export const MIN_ACCESS_KEY_LENGTH = 8
/** A piece of the access key this long (or the whole key, when shorter) is redacted wherever it stands. */
export const KEY_PIECE = 12

/** Calls `visit(i, hash)` for each window [i, i + n) of `s`: a polynomial hash modulo 2^32, moved one character at a time. */
function windows(s: string, n: number, visit: (i: number, hash: number) => void): void {
  let out = 1 // 31^n: what the character leaving the window weighed
  for (let i = 0; i < n; i++) out = Math.imul(out, 31)
  for (let i = 0, h = 0; i < s.length; i++) {
    h = (Math.imul(h, 31) + s.charCodeAt(i) - (i >= n ? Math.imul(s.charCodeAt(i - n), out) : 0)) | 0
    if (i >= n - 1) visit(i - n + 1, h)
  }
}

/** `text` with every run of it holding a piece of the key (touching and overlapping pieces as one) as `[redacted]`. */
export function redactAccessKey(text: string, accessKey: string | undefined): string {
  if (typeof text !== 'string' || typeof accessKey !== 'string' || accessKey.trim().length < MIN_ACCESS_KEY_LENGTH) return text
  const { n, pieces, hashes, blocks } = keyPieces(accessKey)
  const lower = fold(text)
  if (!blocks.some((b) => lower.includes(b))) return text
  let out = '' // the text before `end`, pieces redacted
  let end = -1 // the run of pieces being found ends here
  windows(lower, n, (i, h) => {
    if (hashes[h & 4095] !== 1 || !pieces.has(lower.slice(i, i + n))) return
    if (i > end) out += text.slice(Math.max(end, 0), i) + REDACTED
    end = i + n
  })
  return end < 0 ? text : out + text.slice(end)
}

let last: { readonly key: string; readonly n: number; readonly pieces: Set<string>; readonly hashes: Uint8Array; readonly blocks: readonly string[] } | undefined
/** The key's pieces and their hashes (low 12 bits), kept for the last key asked: a process has one. */
function keyPieces(accessKey: string): NonNullable<typeof last> {
  if (last?.key === accessKey) return last
  const key = fold(accessKey.trim())
  const n = Math.min(KEY_PIECE, key.length)
  const pieces = new Set<string>()
  const hashes = new Uint8Array(4096)
  windows(key, n, (i, h) => {
    pieces.add(key.slice(i, i + n))
    hashes[h & 4095] = 1
  })
  // The key cut into blocks of half a piece, at every multiple of that length: a piece [o, o + n) holds the block
  // starting at the first multiple from o (it ends by o + 2·⌊n/2⌋ − 1 < o + n), so a text holding none of the blocks
  // holds no piece, and is not hashed at all.
  const b = Math.floor(n / 2)
  const blocks = Array.from({ length: Math.floor(key.length / b) }, (_, k) => key.slice(k * b, k * b + b))
  return (last = { key: accessKey, n, pieces, hashes, blocks })
}
