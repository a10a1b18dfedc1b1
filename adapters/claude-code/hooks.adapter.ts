/**
 * Claude Code's events → the use cases (SPEC.md: What this mod does, per hook). One function per
 * event; each builds the call's ports from `$`, runs its use case, and never throws: a failure is
 * one log line and the event goes on as if the plugin were not there. The plugin never blocks a
 * prompt, an edit or an exit.
 */
import type {
  CommandRunInput,
  EngineInterface,
  Hook,
  Next,
  PromptContextInput,
  PromptSubmitInput,
  SessionCompactInput,
  SessionEndInput,
  SessionStartInput,
  ToolCallInput,
  ToolCallResult,
  TurnCompleteInput,
} from 'claude-code'
import type { BashReport } from '../../core/domain/bash-report'
import type { ExitWindow } from '../../core/application/exit-budget'
import type { Application, UseCases } from './application'
import { enginePortsOf } from './engine-ports'

/**
 * The use cases of one hook call, composed the first time a step of the call asks for them and shared by
 * every later step (docs/architecture.md: one call container per hook call).
 */
function callOf(app: Application, $: EngineInterface): () => UseCases {
  let built: UseCases | undefined
  return () => (built ??= app.useCases(enginePortsOf($)))
}

/**
 * Runs `work` with the call's use cases, after the plugin's start when `started` (a start begun by
 * session.start is waited for, none begun is begun); a throw becomes one log line and `fallback`.
 */
async function guarded<T>($: EngineInterface, useCases: () => UseCases, event: string, fallback: T, work: (uc: UseCases) => T | Promise<T>, started?: true): Promise<T> {
  try {
    const uc = useCases()
    if (started) await uc.start.ensureStarted()
    return await work(uc)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    $.ui.log(`Hark: the ${event} hook failed (${why.replace(/\s+/g, ' ').slice(0, 160)}); the session carries on.`)
    return fallback
  }
}

export async function onSessionStart(app: Application, $: EngineInterface, e: SessionStartInput, next: Next<'session.start'>) {
  await guarded($, callOf(app, $), 'session.start', undefined, (uc) => uc.start.onSessionStart(e.cwd))
  return next(e)
}

export async function onPromptContext(app: Application, $: EngineInterface, e: PromptContextInput, next: Next<'prompt.context'>) {
  const below = await next(e)
  // In a background process the first message's context may come before session.start.
  const blocks = await guarded($, callOf(app, $), 'prompt.context', below.blocks, (uc) => uc.context.blocks(below.blocks), true)
  return blocks === below.blocks ? below : { ...below, blocks: [...blocks] }
}

export async function onPromptSubmit(app: Application, $: EngineInterface, e: PromptSubmitInput, next: Next<'prompt.submit'>) {
  const brief = await guarded($, callOf(app, $), 'prompt.submit', undefined, async (uc) => {
    await uc.start.forPrompt()
    await uc.prompt.run()
    const owed = uc.start.takeOwedBrief()
    return owed === undefined ? undefined : uc.context.briefForFirstTask(owed)
  })
  // The prompt is never changed: the brief goes beside it, as context the person does not see.
  return brief === undefined ? next(e) : next({ ...e, context: [...(e.context ?? []), brief] })
}

export async function onCompact(app: Application, $: EngineInterface, e: SessionCompactInput, next: Next<'session.compact'>) {
  // SPEC.md: main conversation only; not subagents, not precompute passes.
  if (e.agentId !== undefined || e.trigger === 'precompute') return next(e)
  // A compaction that comes while the start is still going waits for it, so it fetches its own brief.
  const call = callOf(app, $)
  const fetching = guarded($, call, 'session.compact', undefined, (uc) => uc.compact.begin(), true)
  const result = await next(e)
  await fetching
  await guarded($, call, 'session.compact', undefined, (uc) => uc.compact.end(!('skip' in result)))
  return result
}

/** A tool call's continuation, whatever matcher narrowed the call. */
type ToolNext<E> = (e: E) => Promise<ToolCallResult>

/** Whether a hook or a permission refused the tool call. */
const denied = (result: ToolCallResult): boolean => 'deny' in result && result.deny !== undefined

/** `value` when it is an object (its fields to read), else an empty one. */
const fieldsOf = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {})

/** The file an edit tool changes. */
function editedFile(e: ToolCallInput): string | undefined {
  const input = e as unknown as Record<string, unknown>
  const path = input['file_path'] ?? input['notebook_path']
  return typeof path === 'string' ? path : undefined
}

export async function onEdit<E extends ToolCallInput>(app: Application, $: EngineInterface, e: E, next: ToolNext<E>): Promise<ToolCallResult> {
  const file = editedFile(e)
  if (file === undefined) return next(e)
  // Before and after the edit share one call's use cases: composing them again (a container, GuardEdit and
  // its ports) cost every edit 1–2 ms in the engine's hooks worker.
  const call = callOf(app, $)
  const verdict = await guarded($, call, 'tool.call', { go: true } as const, (uc) => uc.guard.before(file), true)
  if (!verdict.go) return { deny: verdict.deny }
  const result = await next(e)
  if (!denied(result) && result.isError !== true) {
    await guarded($, call, 'tool.call', undefined, (uc) => uc.guard.after(file, verdict.placed))
  }
  return result
}

/**
 * What the engine reported of a Bash call, as plain data (nothing else of it is kept). A command that
 * ran and failed comes back as an error whose text starts `Exit code N`; an error without one means the
 * command did not run to an exit (refused by a permission or a hook, interrupted, timed out).
 */
function bashReport(e: ToolCallInput, result: ToolCallResult): BashReport | undefined {
  const input = e as unknown as Record<string, unknown>
  const command = input['command']
  if (typeof command !== 'string' || denied(result)) return undefined
  const failed = result.isError === true
  const errorText = failed ? `${typeof result.result === 'string' ? result.result : ''}\n${result.text ?? ''}` : ''
  const exited = /(^|\n)(Error: )?Exit code \d+/.test(errorText)
  const record = fieldsOf(failed ? undefined : result.result)
  const git = fieldsOf(record['gitOperation'])
  const commit = fieldsOf(git['commit'])['sha']
  const pr = fieldsOf(git['pr'])['url']
  const background = input['run_in_background'] === true || typeof record['backgroundTaskId'] === 'string' || record['backgroundedByUser'] === true
  const timedOut = typeof record['timedOutAfterMs'] === 'number' || (failed && !exited && /timed out/i.test(errorText))
  const interrupted = record['interrupted'] === true || (failed && !exited && /interrupt/i.test(errorText))
  return {
    command,
    failed,
    interrupted,
    timedOut,
    background,
    refused: failed && !exited && !timedOut && !interrupted,
    ...(typeof record['stdout'] === 'string' && { stdout: record['stdout'] }),
    ...(typeof commit === 'string' && { commit: { sha: commit } }),
    ...(typeof pr === 'string' && { pullRequestUrl: pr }),
  }
}

export async function onBash<E extends ToolCallInput>(app: Application, $: EngineInterface, e: E, next: ToolNext<E>): Promise<ToolCallResult> {
  const result = await next(e)
  const report = bashReport(e, result)
  if (report !== undefined) {
    await guarded($, callOf(app, $), 'tool.call', undefined, (uc) => uc.work.bash(report), true)
  }
  return result
}

/** An end_session call Claude makes through an MCP server whose end_session takes what_i_did. */
export async function onAgentEndSession<E extends ToolCallInput>(app: Application, $: EngineInterface, e: E, next: ToolNext<E>): Promise<ToolCallResult> {
  const result = await next(e)
  const input = e as unknown as Record<string, unknown>
  if (!denied(result) && result.isError !== true && e.agentId === undefined && 'what_i_did' in input) {
    await guarded($, callOf(app, $), 'tool.call', undefined, (uc) => uc.work.agentHandedOff(), true)
  }
  return result
}

export async function onTurnComplete(app: Application, $: EngineInterface, e: TurnCompleteInput, next: Next<'turn.complete'>) {
  // SPEC.md: interrupted answers and subagents' answers are ignored.
  if (e.agentId === undefined && e.reason === 'answer' && !e.isAborted) {
    await guarded($, callOf(app, $), 'turn.complete', undefined, (uc) => uc.work.notes(e.answer))
  }
  return next(e)
}

export async function onClassicSessionEnd(app: Application, $: EngineInterface, e: Parameters<Hook<'classic.SessionEnd'>>[1], next: Next<'classic.SessionEnd'>) {
  const path = typeof e.transcript_path === 'string' ? e.transcript_path : undefined
  await guarded($, callOf(app, $), 'classic.SessionEnd', undefined, async (uc) => {
    await uc.move.run(path)
    // session.end comes next: its handoff claims now, while the other records are read.
    await uc.handOff.claimAhead()
  })
  return next(e)
}

export async function onSessionEnd(app: Application, $: EngineInterface, e: SessionEndInput, next: Next<'session.end'>) {
  const window = exitWindow(next)
  const call = callOf(app, $)
  await guarded($, call, 'session.end', undefined, (uc) => uc.handOff.run(window))
  // SPEC.md: after /clear or a resume, the next conversation starts fresh; what the ended one still has
  // running writes and shows nothing more.
  if (e.reason === 'clear' || e.reason === 'resume') {
    await guarded($, call, 'session.end', undefined, (uc) => uc.start.end())
    app.endConversation()
  }
  return next(e)
}

/**
 * SPEC.md: every exit hook shares one window (about 1.5 s); the plugin keeps inside it. At session.end the
 * engine's budget is that window, its clock never stopping, read fresh on each access (no call to the
 * engine, so the handoff's request is not held up asking the time). No budget reported: SPEC's 1.5 s from
 * now; a budget already spent leaves no time, not a fresh window.
 */
export function exitWindow(next: Next<'session.end'>): ExitWindow {
  const reported = Number.isFinite(next.budget.remainingMs)
  const start = performance.now()
  return { left: () => Math.max(0, reported ? next.budget.remainingMs : 1_500 - (performance.now() - start)) }
}

export async function onHarkCommand(app: Application, $: EngineInterface, e: CommandRunInput) {
  const text = await guarded($, callOf(app, $), 'command.run', 'Hark: /hark failed; see the log.', async (uc) => {
    const unknown = uc.command.unknown(e.args)
    if (unknown !== undefined) return unknown
    // `/hark doctor` and `/hark preview` only look: a start that is under way is waited for, none begun.
    if (uc.command.startsPlugin(e.args)) await uc.start.forPerson()
    else await uc.start.waitForStart()
    return uc.command.run(e.args)
  })
  return { text, isTextDisplayOnly: true as const }
}
