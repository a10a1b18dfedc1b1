// What the benches' command lines share.

/** `text` as a whole number of at least `min`; otherwise one line naming `name` on stderr, and exit 2. */
export function whole(name, text, min) {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min) {
    console.error(`${name} must be a whole number ≥ ${min}, not ${text}`)
    process.exit(2)
  }
  return n
}
