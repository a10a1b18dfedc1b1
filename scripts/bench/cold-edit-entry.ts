// The domain work of a session's first guarded edit, for scripts/bench/cold-edit.mjs: the MCP reply of
// list_journal_entries read as adapters/hark/mcp-reply.ts reads it, its entries turned into the decisions'
// records (core/domain/guard/records.ts), the guard compiled (compiled-guard.ts) and one path matched, each
// step timed with the `jsc` shell's preciseTime().
//
// cold-edit.mjs bundles this one file against each tree it compares (esbuild, an IIFE whose global is
// `harkColdEdit`), so it asks little of a tree: it imports the three modules' namespaces and picks the
// functions under the names a tree has given them, and reads the decisions the way the gateway does
// (adapters/hark/mcp-hark.gateway.ts, listDecisions).
import * as reply from '../../adapters/hark/mcp-reply'
import * as guard from '../../core/domain/guard/compiled-guard'
import * as records from '../../core/domain/guard/records'

declare const preciseTime: () => number

type ReadReply = (reply: { status: number; ok: boolean; headers: Record<string, string>; text: string }, id: number) => { ok: boolean; payload?: unknown }
type ReadRecords = (entries: unknown) => readonly { key: string }[]
type Compile = (records: readonly unknown[]) => { match(path: string): readonly { key: string }[] }

/** The first of `names` that `module` exports as a function. */
function pick<T>(module: object, names: readonly string[]): T {
  const exports = module as Record<string, unknown>
  const found = names.find((name) => typeof exports[name] === 'function')
  if (found === undefined) throw new Error(`this tree exports none of ${names.join(', ')}`)
  return exports[found] as T
}

/** The JSON-RPC id the reply answers. */
export const ID = 7

/** Reads `text` (the reply's SSE body) and checks `path`, as the first guarded edit does: each step's ms, and what it found. */
export function coldEdit(text: string, path: string) {
  const readReply = pick<ReadReply>(reply, ['readMcpReply'])
  const readRecords = pick<ReadRecords>(records, ['parseDecisionEntries', 'parseDecisions'])
  const compile = pick<Compile>(guard, ['compileGuard'])

  const t0 = preciseTime()
  const outcome = readReply({ status: 200, ok: true, headers: { 'content-type': 'text/event-stream' }, text }, ID)
  const payload = outcome.ok ? outcome.payload : undefined
  const entries = Array.isArray(payload) ? payload : (payload as { entries?: unknown } | undefined)?.entries
  const t1 = preciseTime()
  const list = Array.isArray(entries) ? readRecords(entries) : []
  const t2 = preciseTime()
  const compiled = compile(list)
  const t3 = preciseTime()
  const matched = compiled.match(path)
  const t4 = preciseTime()
  const ms = (from: number, to: number) => (to - from) * 1000
  return {
    replyMs: ms(t0, t1),
    recordsMs: ms(t1, t2),
    compileMs: ms(t2, t3),
    matchMs: ms(t3, t4),
    totalMs: ms(t0, t4),
    records: list.length,
    matched: matched.map((r) => r.key),
  }
}
