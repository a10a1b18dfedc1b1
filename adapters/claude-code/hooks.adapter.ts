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

/** A hook call's runner (`hookCall`): undefined after a throw, unless given a `fallback`. */
interface HookRun {
  <T>(work: (uc: UseCases) => T | Promise<T>, started?: boolean): Promise<T | undefined>
  <T>(work: (uc: UseCases) => T | Promise<T>, started: boolean, fallback: T): Promise<T>
}

/**
 * One hook call's runner: `run(work, started, fallback)` runs `work` with the call's use cases, composed
 * the first time a step of the call asks for them and shared by every later step (docs/architecture.md: one
 * call container per hook call), after the plugin's start when `started` (a start begun by session.start is
 * waited for, none begun is begun). A throw becomes one log line naming `event`, and `fallback`.
 */
function hookCall(app: Application, $: EngineInterface, event: string): HookRun {
  let built: UseCases | undefined
  return async <T>(work: (uc: UseCases) => T | Promise<T>, started?: boolean, fallback?: T): Promise<T> => {
    try {
      const uc = (built ??= app.useCases(enginePortsOf($)))
      if (started) await uc.start.ensureStarted()
      return await work(uc)
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      $.ui.log(`Hark: the ${event} hook failed (${why.replace(/\s+/g, ' ').slice(0, 160)}); the session carries on.`)
      return fallback as T
    }
  }
}

export async function onSessionStart(app: Application, $: EngineInterface, e: SessionStartInput, next: Next<'session.start'>) {
  await hookCall(app, $, 'session.start')((uc) => uc.start.onSessionStart(e.cwd))
  return next(e)
}

export async function onPromptContext(app: Application, $: EngineInterface, e: PromptContextInput, next: Next<'prompt.context'>) {
  const below = await next(e)
  // In a background process the first message's context may come before session.start.
  const blocks = await hookCall(app, $, 'prompt.context')((uc) => uc.context.blocks(below.blocks), true, below.blocks)
  return blocks === below.blocks ? below : { ...below, blocks: [...blocks] }
}

export async function onPromptSubmit(app: Application, $: EngineInterface, e: PromptSubmitInput, next: Next<'prompt.submit'>) {
  const brief = await hookCall(app, $, 'prompt.submit')(async (uc) => {
    await uc.start.forPrompt()
    await uc.prompt.run()
    const owed = uc.start.takeOwedBrief()
    return owed && uc.context.briefForFirstTask(owed)
  })
  // The prompt is never changed: the brief goes beside it, as context the person does not see.
  return next(brief ? { ...e, context: [...(e.context ?? []), brief] } : e)
}

export async function onCompact(app: Application, $: EngineInterface, e: SessionCompactInput, next: Next<'session.compact'>) {
  // SPEC.md: main conversation only; not subagents, not precompute passes.
  if (e.agentId !== undefined || e.trigger === 'precompute') return next(e)
  // A compaction that comes while the start is still going waits for it, so it fetches its own brief.
  const run = hookCall(app, $, 'session.compact')
  const fetching = run((uc) => uc.compact.begin(), true)
  const result = await next(e)
  await fetching
  await run((uc) => uc.compact.end(!('skip' in result)))
  return result
}

/** A tool call's continuation, whatever matcher narrowed the call. */
type ToolNext<E> = (e: E) => Promise<ToolCallResult>

/** Whether a hook or a permission refused the tool call. */
const denied = (result: ToolCallResult): boolean => 'deny' in result && result.deny !== undefined

/** Whether the tool ran and did not fail: nothing refused it, and it reported no error. */
const ranClean = (result: ToolCallResult): boolean => !denied(result) && result.isError !== true

/** A tool call's input, its fields as the engine sent them. */
type ToolInput = Readonly<Record<string, unknown>>

/**
 * The fields of a Bash call's result that the report reads, each of any type or missing (read with `?.`:
 * a field that is not an object reads as holding nothing).
 */
interface BashResult {
  readonly stdout?: unknown
  readonly interrupted?: unknown
  readonly timedOutAfterMs?: unknown
  readonly backgroundTaskId?: unknown
  readonly backgroundedByUser?: unknown
  readonly gitOperation?: { readonly commit?: { readonly sha?: unknown }; readonly pr?: { readonly url?: unknown } }
}

export async function onEdit<E extends ToolCallInput>(app: Application, $: EngineInterface, e: E, next: ToolNext<E>): Promise<ToolCallResult> {
  // The file an edit tool changes.
  const input = e as unknown as ToolInput
  const file = input['file_path'] ?? input['notebook_path']
  if (typeof file !== 'string') return next(e)
  // Before and after the edit share one call's use cases: composing them again (a container, GuardEdit and
  // its ports) cost every edit 1–2 ms in the engine's hooks worker.
  const run = hookCall(app, $, 'tool.call')
  const verdict = await run((uc) => uc.guard.before(file), true, { go: true } as const)
  if (!verdict.go) return { deny: verdict.deny }
  const result = await next(e)
  if (ranClean(result)) await run((uc) => uc.guard.after(file, verdict.placed))
  return result
}

/**
 * What the engine reported of a Bash call, as plain data (nothing else of it is kept). A command that
 * ran and failed comes back as an error whose text starts `Exit code N`; an error without one means the
 * command did not run to an exit (refused by a permission or a hook, interrupted, timed out).
 */
function bashReport(e: ToolCallInput, result: ToolCallResult): BashReport | undefined {
  const input = e as unknown as ToolInput
  const command = input['command']
  if (typeof command !== 'string' || denied(result)) return undefined
  const failed = result.isError === true
  const errorText = failed ? `${typeof result.result === 'string' ? result.result : ''}\n${result.text ?? ''}` : ''
  // The error's text when the command did not run to an exit, else '' (never '' for such a failure: it holds a line break).
  const unexited = /(^|\n)(Error: )?Exit code \d+/.test(errorText) ? '' : errorText
  const record = (failed ? undefined : result.result) as BashResult | null | undefined
  const git = record?.gitOperation
  const commit = git?.commit?.sha
  const pr = git?.pr?.url
  const stdout = record?.stdout
  const background = input['run_in_background'] === true || typeof record?.backgroundTaskId === 'string' || record?.backgroundedByUser === true
  const timedOut = typeof record?.timedOutAfterMs === 'number' || /timed out/i.test(unexited)
  const interrupted = record?.interrupted === true || /interrupt/i.test(unexited)
  return {
    command,
    failed,
    interrupted,
    timedOut,
    background,
    refused: unexited !== '' && !timedOut && !interrupted,
    ...(typeof stdout === 'string' && { stdout }),
    ...(typeof commit === 'string' && { commit: { sha: commit } }),
    ...(typeof pr === 'string' && { pullRequestUrl: pr }),
  }
}

export async function onBash<E extends ToolCallInput>(app: Application, $: EngineInterface, e: E, next: ToolNext<E>): Promise<ToolCallResult> {
  const result = await next(e)
  const report = bashReport(e, result)
  if (report) await hookCall(app, $, 'tool.call')((uc) => uc.work.bash(report), true)
  return result
}

/** An end_session call Claude makes through an MCP server whose end_session takes what_i_did. */
export async function onAgentEndSession<E extends ToolCallInput>(app: Application, $: EngineInterface, e: E, next: ToolNext<E>): Promise<ToolCallResult> {
  const result = await next(e)
  if (ranClean(result) && e.agentId === undefined && 'what_i_did' in e) await hookCall(app, $, 'tool.call')((uc) => uc.work.agentHandedOff(), true)
  return result
}

export async function onTurnComplete(app: Application, $: EngineInterface, e: TurnCompleteInput, next: Next<'turn.complete'>) {
  // SPEC.md: interrupted answers and subagents' answers are ignored.
  if (e.agentId === undefined && e.reason === 'answer' && !e.isAborted) await hookCall(app, $, 'turn.complete')((uc) => uc.work.notes(e.answer))
  return next(e)
}

export async function onClassicSessionEnd(app: Application, $: EngineInterface, e: Parameters<Hook<'classic.SessionEnd'>>[1], next: Next<'classic.SessionEnd'>) {
  const path = typeof e.transcript_path === 'string' ? e.transcript_path : undefined
  await hookCall(app, $, 'classic.SessionEnd')(async (uc) => {
    // session.end comes next: its handoff reads the other records and claims now, beside the move check.
    const moveChecked = uc.move.run(path)
    await Promise.all([moveChecked, uc.handOff.prepare(moveChecked)])
  })
  return next(e)
}

export async function onSessionEnd(app: Application, $: EngineInterface, e: SessionEndInput, next: Next<'session.end'>) {
  const window = exitWindow(next)
  const run = hookCall(app, $, 'session.end')
  await run((uc) => uc.handOff.run(window))
  // SPEC.md: after /clear or a resume, the next conversation starts fresh; what the ended one still has
  // running writes and shows nothing more.
  if (e.reason === 'clear' || e.reason === 'resume') {
    await run((uc) => uc.start.end())
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
  const text = await hookCall(app, $, 'command.run')(async (uc) => {
    const unknown = uc.command.unknown(e.args)
    if (unknown) return unknown
    // `/hark doctor` and `/hark preview` only look: a start that is under way is waited for, none begun.
    if (uc.command.startsPlugin(e.args)) await uc.start.forPerson()
    else await uc.start.waitForStart()
    return uc.command.run(e.args)
  }, false, 'Hark: /hark failed; see the log.')
  return { text, isTextDisplayOnly: true as const }
}
