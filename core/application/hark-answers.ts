/**
 * The last answer Hark gave each tool in this plugin load, for /hark doctor (SPEC.md: /hark).
 *
 * State: lives as long as the plugin load (bound in the root container); the MCP gateway alone writes
 * it, through `record`, once per request; /hark doctor reads it. It holds no argument, no reply and no
 * part of the key: a tool's name, how the request ended, an HTTP status, and when.
 */
import type { HarkFailureKind } from '../ports/hark.port'

/** How one request ended: Hark answered it (`ok`), or one of the gateway's failures. */
export type HarkAnswerOutcome = 'ok' | HarkFailureKind

export interface HarkAnswer {
  /** The MCP tool, e.g. `get_agent_brief`. */
  readonly tool: string
  readonly outcome: HarkAnswerOutcome
  /** The HTTP status, when an answer came (none when unreachable or timed out). */
  readonly status?: number
  /** When the request ended (epoch ms). */
  readonly at: number
}

/** Tools past this many are not kept (the gateway calls seven; a cap keeps a bug from growing it). */
const MAX_TOOLS = 16

/** What /hark doctor reads. */
export interface HarkAnswersReads {
  /** The last answer per tool, in the order each tool was first called. */
  readonly last: readonly HarkAnswer[]
}

export class HarkAnswers implements HarkAnswersReads {
  private readonly byTool = new Map<string, { readonly answer: HarkAnswer; readonly order: number }>()

  /**
   * The gateway's own write: `answer` replaces the tool's previous one unless that one's request came
   * later. `order` grows with each request (the gateway notes an answer once the clock has said when, so two
   * notes may land out of order; a clock set back must not hide the newer one).
   */
  record(answer: HarkAnswer, order: number): void {
    const kept = this.byTool.get(answer.tool)
    if (kept === undefined && this.byTool.size >= MAX_TOOLS) return
    if (kept !== undefined && kept.order > order) return
    this.byTool.set(answer.tool, { answer, order })
  }

  get last(): readonly HarkAnswer[] {
    return [...this.byTool.values()].map((k) => k.answer)
  }
}
