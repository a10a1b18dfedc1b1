/** Entropy from the engine's Web Crypto (`crypto.getRandomValues`, `crypto.subtle.digest`). */
import type { Entropy } from '../../core/ports/entropy.port'

export function webCryptoEntropy(): Entropy {
  return {
    randomHex(chars: number): string {
      const bytes = new Uint8Array(Math.ceil(chars / 2))
      crypto.getRandomValues(bytes)
      return hex(bytes).slice(0, chars)
    },
    async sha256(text: string): Promise<string> {
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
      return hex(new Uint8Array(digest))
    },
  }
}

function hex(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += b.toString(16).padStart(2, '0')
  return out
}
