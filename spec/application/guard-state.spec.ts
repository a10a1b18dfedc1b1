// GuardState's decision to fetch (SPEC.md: The edit guard, "fetched on the first edit … tries again a minute
// later"), and when that decision needs the time: only while a failed fetch's minute may be running, so the
// first guarded edit of a session does not wait for a clock reading before its request (docs/performance.md).
import { describe, expect, test } from 'vitest'
import { DECISION_RETRY_MS, GuardState } from '../../core/application/guard-state'

const records = { records: [] }

describe('GuardState: whether to fetch the decisions, and whether that needs the clock', () => {
  test('a new conversation fetches without asking the time', () => {
    const state = new GuardState()
    expect(state.needsClock).toBe(false)
    expect(state.needsFetch(undefined)).toBe(true)
  })

  test('after a good fetch: nothing to fetch, no clock; after a compaction: fetch again, still no clock', () => {
    const state = new GuardState()
    state.fetchedNow(records)
    expect(state.needsClock).toBe(false)
    expect(state.needsFetch(undefined)).toBe(false)
    state.compacted()
    expect(state.needsClock).toBe(false)
    expect(state.needsFetch(undefined)).toBe(true)
  })

  test('after a failure: the clock decides, and a minute must pass', () => {
    const state = new GuardState()
    expect(state.fetchFailed(1_000)).toBe(true)
    expect(state.needsClock).toBe(true)
    expect(state.needsFetch(1_000 + DECISION_RETRY_MS - 1)).toBe(false)
    expect(state.needsFetch(1_000 + DECISION_RETRY_MS)).toBe(true)
    // Without a reading while a failure is on record, it does not fetch (never a request on every edit).
    expect(state.needsFetch(undefined)).toBe(false)
    expect(state.fetchFailed(70_000)).toBe(false)
  })

  test('a failure after a good fetch keeps the decisions: fresh ones need no clock, stale ones do', () => {
    const state = new GuardState()
    state.fetchedNow(records)
    state.compacted()
    state.fetchFailed(5_000)
    expect(state.needsClock).toBe(true)
    expect(state.needsFetch(5_000 + DECISION_RETRY_MS)).toBe(true)
    state.fetchedNow(records)
    expect(state.needsClock).toBe(false)
    expect(state.needsFetch(undefined)).toBe(false)
  })

  test('a failure the clock could not time: no fetch until a reading comes, then the minute runs from it', () => {
    const state = new GuardState()
    expect(state.fetchFailed(undefined)).toBe(true)
    expect(state.needsClock).toBe(true)
    expect(state.needsFetch(undefined)).toBe(false)
    expect(state.needsFetch(10_000)).toBe(false)
    expect(state.needsFetch(10_000 + DECISION_RETRY_MS - 1)).toBe(false)
    expect(state.needsFetch(10_000 + DECISION_RETRY_MS)).toBe(true)
    expect(state.fetchFailed(undefined)).toBe(false)
  })
})
