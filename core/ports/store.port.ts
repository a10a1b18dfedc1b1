import { token, type Token } from './token'
/**
 * The plugin's own key-value store (SPEC.md: What it stores), shared by every process of the
 * plugin. Values are JSON data; what comes back is untrusted. Each call may reject (a damaged
 * file, a lock not granted in time, the 4 MiB cap).
 */
export interface KeyValueStore {
  get(key: string): Promise<unknown>
  set(key: string, value: unknown): Promise<void>
  delete(key: string): Promise<void>
  /** Every key, in the order it was first set. */
  keys(): Promise<string[]>
}
export const KeyValueStore: Token<KeyValueStore> = token('KeyValueStore')
