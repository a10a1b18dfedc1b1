/**
 * The exit's time (SPEC.md: session.end; Limits): every exit hook shares one window of about 1.5 s; each
 * request stops waiting 0.4 s before it ends, and each store write there waits at most 150 ms. `ExitBudget`
 * is that window and what is left of it, with the handoff's own shares; outside the exit (/hark handoff) it
 * is a request's usual 3 s and a store call's usual wait.
 */
import { STORE_WAIT_EXIT_MS, STORE_WAIT_MS, type StoreCallOptions } from './store-calls'

/**
 * The exit window: `left()` is what is left of it now, in ms (never below 0), read fresh on each call and
 * without a call to the engine.
 */
export interface ExitWindow {
  left(): number
}

/** SPEC.md: each request at exit stops waiting 0.4 seconds before the exit window ends. */
export const EXIT_MARGIN_MS = 400
/** At exit, what waiting for the start and its brief leaves for the handoff's store calls and request (ms). */
export const EXIT_RESERVE_MS = 300
/** At exit, what the store steps leave for the request itself (ms). */
export const EXIT_REQUEST_MS = 200
/** A request's wait outside the exit (ms). */
const REQUEST_MS = 3_000

export class ExitBudget {
  constructor(private readonly window: ExitWindow | undefined) {}

  /**
   * A store call's options before the request: at exit 150 ms at most, and no more than leaves the request
   * its share (`step`), a write still waiting then counting as refused; elsewhere the usual wait.
   */
  get store(): StoreCallOptions {
    return this.window === undefined ? { waitMs: STORE_WAIT_MS } : { waitMs: Math.max(0, Math.min(STORE_WAIT_EXIT_MS, this.step())), exit: true }
  }

  /** A store call's options after the requests (keeping a handoff for later): at exit 150 ms, never past the window's end. */
  get keepStore(): StoreCallOptions {
    return this.window === undefined ? { waitMs: STORE_WAIT_MS } : { waitMs: Math.min(STORE_WAIT_EXIT_MS, this.window.left()), exit: true }
  }

  /** What is left of the exit window (ms), or undefined outside the exit. */
  windowLeft(): number | undefined {
    return this.window?.left()
  }

  get exiting(): boolean {
    return this.window !== undefined
  }

  /** ms a request may wait: 3 s normally; at exit, the rest of the window minus 0.4 s. */
  request(): number {
    return this.window === undefined ? REQUEST_MS : this.window.left() - EXIT_MARGIN_MS
  }

  /** ms the start, its brief and its housekeeping may still be waited for: the request's share but the handoff's reserve. */
  reserve(): number {
    return this.request() - EXIT_RESERVE_MS
  }

  /** ms a store step may wait at exit, leaving the request its share. */
  step(): number {
    return this.request() - EXIT_REQUEST_MS
  }
}
