/**
 * Every call the plugin makes to its store, bounded in time and never throwing (SPEC.md: What it stores;
 * Limits). A store that is slow or refuses costs one log line for the load, and shortens later waits.
 * What a refused write means is its caller's business: a refused record or claim is a refusal of the
 * conversation (./record-repository, ./claims), a refused brief cache is not (./brief-cache).
 *
 * State: `StoreHealth` lives as long as the plugin load (the store is the same file for every conversation
 * of this process); StoreCalls, built for each hook call over that call's store and clock, is its only writer.
 */
import type { Clock } from '../ports/clock.port'
import type { Host } from '../ports/host.port'
import type { KeyValueStore } from '../ports/store.port'
import { describeError, within, type Timed } from './deadline'
import { EXIT_STORE_WAIT_MS } from '../domain/conversation/handoff-decision'

/** How long a store call may take before the plugin goes on without it (ms). */
export const STORE_WAIT_MS = 1_000
/** How long a claim still going when its wait ended is waited for later (ms) before it counts as refused. */
export const LATE_WRITE_MS = 3_000
/** SPEC.md: at exit, and for prompt.submit, each store write waits at most 150 ms. */
export const STORE_WAIT_EXIT_MS = EXIT_STORE_WAIT_MS

export interface StoreCallOptions {
  readonly waitMs?: number
  /** The time to use instead of asking the clock (epoch ms), where the caller has just read it. */
  readonly at?: number
  /** At exit (SPEC.md, Limits): a write still waiting when its wait ends counts as refused. */
  readonly exit?: boolean
}

/**
 * How a write went: stored; refused (the store said no, or at exit it did not answer in time); or, outside
 * the exit, late: still going when its wait ended, `landed` telling later whether the store took it.
 */
export type Written = 'stored' | 'refused' | { readonly landed: Promise<boolean> }

/** What the load's processes know of the store, read by /hark doctor. */
export interface StoreHealthReads {
  /** The store failed to answer in time once: later calls wait no longer than at exit. */
  readonly slow: boolean
}

/** This process's standing with the store, for the plugin load. Written by StoreCalls alone. */
export class StoreHealth implements StoreHealthReads {
  slow = false
  refused = false
  warned = false
  damageWarned = false
}

export class StoreCalls {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    private readonly host: Host,
    private readonly health: StoreHealth,
  ) {}

  /**
   * One store call, bounded: `options.waitMs` (default STORE_WAIT_MS), and no more than STORE_WAIT_EXIT_MS
   * once the store has failed to answer in time or refused a write in this load, so a slow store costs one
   * wait, not one per call. The work goes on after the wait; only the caller stops waiting for it.
   */
  bounded<T>(work: () => Promise<T>, options: StoreCallOptions = {}): Promise<Timed<T>> {
    const health = this.health
    return within(this.clock, Math.min(options.waitMs ?? STORE_WAIT_MS, health.slow || health.refused ? STORE_WAIT_EXIT_MS : Infinity), work).then((result) => {
      if (!result.done) health.slow ||= result.reason === 'timeout'
      return result
    })
  }

  /** What `work` read, or undefined when the store did not answer in time or failed (one log line at most). */
  private async read<T>(work: () => Promise<T>, options?: StoreCallOptions): Promise<T | undefined> {
    const result = await this.bounded(work, options)
    return result.done ? result.value : this.failed('read', result.error)
  }

  /** Every key of the store, or undefined when the store did not answer (one log line at most). */
  keys(options?: StoreCallOptions): Promise<string[] | undefined> {
    return this.read(() => this.store.keys(), options)
  }

  /** The values stored under `keys` (untrusted), or undefined when the store did not answer. */
  values(keys: readonly string[], options?: StoreCallOptions): Promise<unknown[] | undefined> {
    return this.read(() => Promise.all(keys.map((k) => this.store.get(k))), options)
  }

  /** One value as stored (untrusted), or undefined. */
  get(key: string, options?: StoreCallOptions): Promise<unknown> {
    return this.read(() => this.store.get(key), options)
  }

  /**
   * Stores `value` under `key`, however long the store takes: resolves once the store took it (true) or
   * refused it (false, one log line for the load). Never rejects. Callers bound their own wait (`bounded`).
   */
  write(key: string, value: unknown): Promise<boolean> {
    return this.store.set(key, value).then(
      () => true,
      (error: unknown) => (this.refusedWrite(error), false),
    )
  }

  /** Stores `value` under `key` within the wait (see `Written`). */
  async set(key: string, value: unknown, options: StoreCallOptions = {}): Promise<Written> {
    let writing = Promise.resolve(true)
    const result = await this.bounded(() => (writing = this.write(key, value)), options)
    if (result.done) return result.value ? 'stored' : 'refused'
    if (result.reason === 'timeout' && options.exit !== true) return { landed: writing }
    // At exit a write still waiting counts as refused (SPEC.md, Limits).
    this.refusedWrite(result.error)
    return 'refused'
  }

  /** Removes a key; false when the store did not take it. */
  async delete(key: string, options?: StoreCallOptions): Promise<boolean> {
    return (await this.bounded(() => this.store.delete(key), options)).done
  }

  /** A damaged value of the conversation was left out: true the first time only, for one log line. */
  firstDamage(): boolean {
    return !this.health.damageWarned && (this.health.damageWarned = true)
  }

  private refusedWrite(error: unknown): void {
    this.health.refused = true
    this.failed('write', error)
  }

  private failed(what: 'read' | 'write', error: unknown): undefined {
    if (this.health.warned) return
    this.health.warned = true
    this.host.log(`Hark: the plugin store refused a ${what} (${error === undefined ? 'it did not answer in time' : describeError(error)}); this session keeps its own work and hands it off itself.`)
  }
}
