// The store over a heavy user's months, 20 sessions a day for 30 simulated days (SPEC.md: What it
// stores; tests/months.ts plays them): under 256 KiB, and steady once the records of 14 days are all
// there (from about day 26: past 200 records, a start reads the first 200 values only, so a resumed
// conversation's idle record is no longer folded at once and stays until it is 14 days old). Not a
// *.test.ts file, so not in `npm test`'s engine step (it takes about three times as long as
// tests/months.test.ts); run it with `claude plugin test --file tests/months-20.ts .` and read the
// report (with `--file` the kit exits 0 even when a test fails). The size series is printed.
import { describe, expect, test } from 'claude-code/testing'
import { months, print } from './months'

describe('a heavy user, 20 sessions a day for 30 days', () => {
  const series = months(20, 30)
  test('the store stays under 256 KiB; days 26 to 30 within 5% of day 25', async () => {
    print(20, series)
    expect(series).toHaveLength(30)
    for (const m of series) expect(m.bytes).toBeLessThan(256 * 1024)
    const day25 = series[24]!.bytes
    for (const m of series.slice(25)) expect(Math.abs(m.bytes - day25)).toBeLessThan(day25 / 20)
  })
})
