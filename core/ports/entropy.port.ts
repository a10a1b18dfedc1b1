import { token, type Token } from './token'
/** Randomness and hashing (the conversation id, record keys, the conversation key). */
export interface Entropy {
  /** `chars` random lower-case hex characters. */
  randomHex(chars: number): string
  /** SHA-256 of the UTF-8 text, as 64 lower-case hex characters. */
  sha256(text: string): Promise<string>
}
export const Entropy: Token<Entropy> = token('Entropy')
