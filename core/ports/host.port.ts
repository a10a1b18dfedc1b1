import { token, type Token } from './token'
/** What the plugin shows in, and asks of, Claude Code's interface. */
export interface Host {
  /** The plugin's one status line; `undefined` clears it. */
  status(text: string | undefined): void
  /** One dim log line (SPEC.md: "it logs one dim line and the session carries on"). */
  log(line: string): void
  /**
   * Asks the person in Claude Code's question dialog; resolves the label picked. Rejects when the
   * question can't be shown (dismissed, or a headless `-p` run).
   */
  ask(question: string, options: readonly string[]): Promise<string>
  /** Registers `/name` (idempotent). */
  registerCommand(name: string, description: string, argumentHint: string): Promise<void>
  /** Has the engine build the first message's context again (after a compaction). */
  refreshContext(): void
}
export const Host: Token<Host> = token('Host')
