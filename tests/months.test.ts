// The store over a heavy user's months, 12 sessions a day for 20 simulated days (SPEC.md: What it
// stores; tests/months.ts plays them): under 256 KiB, steady once pruning keeps up, nothing kept past
// 14 days. The size series is printed.
import { describe, expect, test } from 'claude-code/testing'
import { DAYS, months, print } from './months'

const DAY = 86_400_000

describe('a heavy user, 12 sessions a day for 20 days', () => {
  const series = months(12)
  test('the store stays under 256 KiB, steady from day 15, nothing older than 14 days past a day', async () => {
    print(12, series)
    expect(series).toHaveLength(DAYS)
    for (const m of series) {
      expect(m.bytes).toBeLessThan(256 * 1024)
      // Removed at the next start once 14 days old; the day's last start came before the measure.
      expect(m.oldest).toBeLessThan(15 * DAY)
    }
    const day15 = series[14]!.bytes
    for (const m of series.slice(15)) expect(Math.abs(m.bytes - day15)).toBeLessThan(day15 / 20)
  })
})
