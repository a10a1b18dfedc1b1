import { token, type Token } from './token'
/** Read-only file access (SPEC.md: the plugin writes no files). */
export interface Files {
  /** The whole text of a small file, or `undefined` when it is missing or unreadable. */
  readText(path: string): Promise<string | undefined>
  /** The size in bytes of a regular file, or `undefined`. */
  size(path: string): Promise<number | undefined>
  /**
   * Where a path lands, every symbolic link followed (absolute, in the platform's own spelling), or
   * `undefined` when it leads nowhere, can't be resolved, or the engine withholds it. One file-system call.
   */
  realPath(path: string): Promise<string | undefined>
  /** `length` bytes from `offset`, as text (a cut character becomes U+FFFD), or `undefined`. */
  readRange(path: string, offset: number, length: number): Promise<string | undefined>
}
export const Files: Token<Files> = token('Files')
