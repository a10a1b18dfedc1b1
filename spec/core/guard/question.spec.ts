import { describe, expect, test } from 'vitest'
import { guardQuestion, stopReason } from '../../../core/domain/guard/question'
import type { GuardRecord } from '../../../core/domain/guard/records'
import { decision } from './fixtures'

describe('the question and the deny text (SPEC.md: the question lists every matching record\'s title and why)', () => {
  const raw = decision({ paths: ['src/db/**'] }, 'Raw SQL, no ORM', 'id:d1')
  const rawWithWhy: GuardRecord = { ...raw, why: 'Migrations stay reviewable' }
  const billing: GuardRecord = { key: 'non-goal:title:No new providers', kind: 'non-goal', title: 'No new providers', why: 'Stripe only', scope: { paths: [], areas: ['billing'] } }

  test('the question: the file, every title and why, what Allow and Stop do; it ends in a question mark', () => {
    const q = guardQuestion('src/db/x.sql', [rawWithWhy, billing])
    expect(q).toBe(
      [
        'src/db/x.sql is covered by a Hark decision and a non-goal:',
        '',
        '• Decision: Raw SQL, no ORM',
        '  Why: Migrations stay reviewable',
        '• Non-goal (billing): No new providers',
        '  Why: Stripe only',
        '',
        'Allow is remembered for these records for the rest of this conversation; Stop refuses this edit.',
        'Allow this edit of src/db/x.sql?',
      ].join('\n'),
    )
    expect(guardQuestion('a.ts', [raw])).toContain('a Hark decision:\n\n• Decision: Raw SQL, no ORM\n\nAllow is remembered for this record')
    expect(guardQuestion('a.ts', [billing, billing])).toMatch(/^a\.ts is covered by 2 Hark non-goals:/)
  })

  test('bounded: at most 10 records listed, long titles, whys and paths cut', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...raw, key: `id:${i}`, title: `T${i} ${'x'.repeat(500)}`, why: 'y'.repeat(5_000) }))
    const longPath = `${'deep/'.repeat(100)}file.ts`
    const q = guardQuestion(longPath, many)
    expect(q.match(/^• Decision/gm)).toHaveLength(10)
    expect(q).toContain('• …and 15 more')
    expect(q).toContain('25 Hark decisions')
    expect(q.length).toBeLessThan(4_500)
    expect(q).toMatch(/^…\/deep\/deep\/.*\/deep\/file\.ts is covered by/)
    expect(q.endsWith('?')).toBe(true)
    const s = stopReason(longPath, many)
    expect(s.match(/^- Decision "/gm)).toHaveLength(10)
    expect(s).toContain('- …and 15 more')
    expect(s.length).toBeLessThan(4_500)
  })

  test('control and bidi characters never reach the dialog', () => {
    const evil: GuardRecord = { ...raw, title: 'Ti\u001b]8;;http://x\u0007tle\u202e', why: 'line1\nline2\r\u0000' }
    const q = guardQuestion('src/\u001b[2Jx.ts', [evil])
    expect(q).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect(q).toContain('Why: line1 line2')
  })

  test('the deny text: why, and that Claude must ask the user rather than retry', () => {
    const s = stopReason('src/db/x.sql', [rawWithWhy, billing])
    expect(s).toBe(
      [
        "The user chose Stop in Hark's edit guard: this edit of src/db/x.sql is covered by a Hark decision and a non-goal:",
        '- Decision "Raw SQL, no ORM" (why: Migrations stay reviewable)',
        '- Non-goal (billing) "No new providers" (why: Stripe only)',
        'Do not retry this edit, and do not make the same change another way (another tool, a shell command or another file).',
        'Ask the user how they want to proceed.',
      ].join('\n'),
    )
  })

  test('odd input still gives readable text', () => {
    expect(guardQuestion('', [])).toBe(
      'this file is covered by no Hark record:\n\n\nAllow is remembered for these records for the rest of this conversation; Stop refuses this edit.\nAllow this edit of this file?',
    )
    expect(() => stopReason(null as never, [null, 5, {}] as never)).not.toThrow()
    expect(guardQuestion('a.ts', [{ ...raw, scope: null } as never])).toContain('• Decision: Raw SQL, no ORM')
  })
})
