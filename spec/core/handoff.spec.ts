import { describe, expect, test } from 'vitest'
import { v } from '../support'
import type { Venture } from '../../core/domain/project'
import { workFromBash } from '../../core/domain/bash-report'
import {
  buildHandoff,
  CLOSE_REASON,
  countsSentence,
  MAX_LINKS,
  MAX_RUN_LINES,
  nextStepsOf,
  runLine,
} from '../../core/domain/handoff'
import { CODE_OMITTED, NOTES_LIMIT, REDACTED } from '../../core/domain/notes'
import { NO_WORK, workOf, type Work } from '../../core/domain/work'

const work = (w: Partial<Work>): Work => ({ ...NO_WORK, ...w })

describe('the payload of end_session (SPEC.md: The handoff)', () => {
  test('a full example', () => {
    const w = work({
      files: ['src/auth/login.ts', 'src/auth/login.test.ts'],
      commits: [{ sha: '3f2a9c1', subject: 'Fix the login redirect' }],
      tests: [
        { runner: 'npm test', result: 'failed' },
        { runner: 'npm test', result: 'passed' },
        { runner: 'pytest', result: 'unknown' },
      ],
      links: ['https://github.com/acme/app/pull/42'],
    })
    const notes = 'Fixed the redirect loop.\n\n## Next steps\n- Deploy to staging\n- Watch the error rate'
    expect(buildHandoff(v('V-012'), w, notes)).toEqual({
      venture: 'V-012',
      what_i_did: [
        'Edited 2 files, made 1 commit and ran the tests 3 times.',
        '',
        'Test runs:',
        'npm test: failed',
        'npm test: passed',
        'pytest: result unknown',
        '',
        'Agent notes:',
        notes,
      ].join('\n'),
      what_changed: 'edited src/auth/login.ts\nedited src/auth/login.test.ts\ncommit 3f2a9c1 Fix the login redirect',
      whats_next: '- Deploy to staging\n- Watch the error rate',
      links: ['https://github.com/acme/app/pull/42', 'src/auth/login.ts', 'src/auth/login.test.ts'],
      watch_out_for: 'Failed earlier in the session, then passed: npm test (failed 1 of 2 runs).',
    })
  })

  test('the close reason is exactly as SPEC.md gives it', () => {
    expect(CLOSE_REASON).toBe('Claude Code session with no edits, commits or test runs')
  })

  test('from Bash calls to the payload', () => {
    const entries = [
      { kind: 'file' as const, path: 'src/a.ts' },
      ...workFromBash({ command: 'npm test 2>&1 | tail', failed: true }),
      ...workFromBash({ command: 'npm test', failed: true }),
      ...workFromBash({ command: 'git commit -m "WIP"', failed: false, commit: { sha: 'abcdef1234567' } }),
    ]
    const p = buildHandoff(v('V-1'), workOf(entries))
    expect(p.what_i_did).toBe('Edited 1 file, made 1 commit and ran the tests 2 times.\n\nTest runs:\nnpm test: result unknown\nnpm test: failed')
    expect(p.what_changed).toBe('edited src/a.ts\ncommit abcdef1 WIP')
    expect(p.whats_next).toBe('Fix the failing test runs: npm test.')
    expect(p.watch_out_for).toBe('Failing test runs: npm test (failed 1 of 2 runs).')
  })
})

describe('what_i_did', () => {
  test.each([
    [0, 0, 0, 'Edited no files, made no commits and ran no tests.'],
    [1, 1, 1, 'Edited 1 file, made 1 commit and ran the tests once.'],
    [2, 3, 2, 'Edited 2 files, made 3 commits and ran the tests 2 times.'],
    [12, 0, 7, 'Edited 12 files, made no commits and ran the tests 7 times.'],
  ])('counts %i files, %i commits, %i runs', (files, commits, tests, sentence) => {
    expect(countsSentence(files, commits, tests)).toBe(sentence)
  })

  test.each([
    [{ runner: 'npm test', result: 'passed' as const }, 'npm test: passed'],
    [{ runner: 'pytest', result: 'failed' as const }, 'pytest: failed'],
    [{ runner: 'go test', result: 'unknown' as const }, 'go test: result unknown'],
  ])('a run reads %j', (run, line) => {
    expect(runLine(run)).toBe(line)
  })

  test(`lists ${MAX_RUN_LINES} runs, then how many more`, () => {
    const tests = Array.from({ length: 73 }, (_, i) => ({ runner: `r${i}`, result: 'passed' as const }))
    const p = buildHandoff(v('V'), work({ tests }))
    const lines = p.what_i_did.split('\n')
    expect(lines[0]).toBe('Edited no files, made no commits and ran the tests 73 times.')
    expect(lines.filter((l) => /^r\d+: passed$/.test(l))).toHaveLength(MAX_RUN_LINES)
    expect(lines).toContain('r49: passed')
    expect(lines).not.toContain('r50: passed')
    expect(lines[lines.length - 1]).toBe('and 23 more test runs')
  })

  test('one run over the list cap reads "1 more test run"', () => {
    const tests = Array.from({ length: MAX_RUN_LINES + 1 }, () => ({ runner: 'npm test', result: 'passed' as const }))
    expect(buildHandoff(v('V'), work({ tests })).what_i_did.endsWith('and 1 more test run')).toBe(true)
  })

  test('no notes, no notes section; no runs, no run list', () => {
    const p = buildHandoff(v('V'), work({ files: ['a.ts'] }))
    expect(p.what_i_did).toBe('Edited 1 file, made no commits and ran no tests.')
  })

  test('the notes are cleaned again and capped, whatever was stored', () => {
    const token = ['ghp', '_', 'x9Y8w7V6u5T4s3R2q1P0o9N8m7L6k5J4i3H2'].join('')
    const notes = `Pushed with ${token} and hark_Zq81xYv0Lm4k.\n\`\`\`\nconst secret = 1\n\`\`\`\n${'long '.repeat(600)}`
    const p = buildHandoff(v('V'), work({ files: ['a.ts'] }), notes, 'hark_Zq81xYv0Lm4k')
    const section = p.what_i_did.slice(p.what_i_did.indexOf('Agent notes:\n') + 'Agent notes:\n'.length)
    expect(section).toContain(`Pushed with ${REDACTED} and ${REDACTED}.`)
    expect(section).toContain(CODE_OMITTED)
    expect(section).not.toContain('const secret')
    expect(section.length).toBeLessThanOrEqual(NOTES_LIMIT)
  })

  test('stays bounded with every list at its worst', () => {
    const w = work({
      files: Array.from({ length: 5000 }, (_, i) => `src/${'d'.repeat(500)}/${i}.ts`),
      commits: Array.from({ length: 500 }, (_, i) => ({ sha: (i + 0x1000000).toString(16), subject: 's'.repeat(1000) })),
      tests: Array.from({ length: 5000 }, () => ({ runner: 'x'.repeat(500), result: 'failed' as const })),
      links: Array.from({ length: 500 }, (_, i) => `https://github.com/a/b/pull/${i}`),
    })
    const p = buildHandoff(v('V'), w, 'n'.repeat(100_000))
    expect(p.what_i_did.length).toBeLessThan(10_000)
    expect(p.what_changed.length).toBeLessThan(50_000)
    expect(p.whats_next.length).toBeLessThan(2_000)
    expect((p.watch_out_for ?? '').length).toBeLessThan(1_000)
    expect(p.links).toHaveLength(MAX_LINKS)
  })
})

describe('what_changed', () => {
  test('edited paths first, then commits; a commit without a subject has none', () => {
    const p = buildHandoff(v('V'), work({ files: ['b.ts', 'a.ts'], commits: [{ sha: 'abc1234', subject: '' }, { sha: 'def5678', subject: 'Two' }] }))
    expect(p.what_changed).toBe('edited b.ts\nedited a.ts\ncommit abc1234\ncommit def5678 Two')
  })

  test('commit subjects are cleaned again', () => {
    const p = buildHandoff(v('V'), work({ commits: [{ sha: 'abc1234', subject: 'Set API_KEY=abcdef123456\nsecond line' }] }))
    expect(p.what_changed).toBe(`commit abc1234 Set API_KEY=${REDACTED}`)
  })

  test('only test runs: says so', () => {
    expect(buildHandoff(v('V'), work({ tests: [{ runner: 'npm test', result: 'passed' }] })).what_changed).toBe('No files edited and no commits.')
  })

  test('a path with a line break stays on one line', () => {
    expect(buildHandoff(v('V'), work({ files: ['odd\nname.ts'] })).what_changed).toBe('edited odd name.ts')
  })
})

describe('whats_next', () => {
  const w = work({ files: ['src/a.ts'], tests: [{ runner: 'npm test', result: 'failed' }] })

  test.each([
    ['a markdown heading', 'Done.\n\n## Next steps\n1. Ship it\n2. Tell the team', '1. Ship it\n2. Tell the team'],
    ['a level-3 heading in other case', 'Done.\n### NEXT STEPS\n- ship', '- ship'],
    ['"Next up"', 'Done.\n\n## Next up\nThe billing page.', 'The billing page.'],
    ['"Next step", singular', '# Next step\nMerge the PR.', 'Merge the PR.'],
    ['a heading with an emoji and a colon', '## 🚀 Next steps:\n- deploy', '- deploy'],
    ['a qualified heading', '## Suggested next steps\n- a', '- a'],
    ['a bold line', 'Done.\n\n**Next steps:**\n- one\n- two', '- one\n- two'],
    ['a bold label with text after it', '**Next up:** write the migration.', 'write the migration.'],
    ['a "Next steps:" line', 'Done.\nNext steps:\n- run the migration', '- run the migration'],
    ['a "next steps:" line with inline text', 'All good.\nnext steps: rerun CI', 'rerun CI'],
    ['a setext heading', 'Next steps\n----------\n- merge', '- merge'],
  ])('from %s', (_what, notes, expected) => {
    expect(nextStepsOf(notes)).toBe(expected)
    expect(buildHandoff(v('V'), w, notes).whats_next).toBe(expected)
  })

  test('the section runs to the next heading, bold label, label line or rule', () => {
    expect(nextStepsOf('## Next steps\n- a\n- b\n\n## Risks\n- c')).toBe('- a\n- b')
    expect(nextStepsOf('**Next steps**\n- a\n**Notes:** other\n- c')).toBe('- a')
    expect(nextStepsOf('Next steps:\n- a\nSummary:\n- c')).toBe('- a')
    expect(nextStepsOf('## Next steps\n- a\n\n---\n\nThanks!')).toBe('- a')
  })

  test('the last non-empty section wins; an empty one is skipped', () => {
    expect(nextStepsOf('## Next steps\n- old\n## Done\nx\n## Next up\n- new')).toBe('- new')
    expect(nextStepsOf('## Next steps\n- real\n## Next up\n\n## Other\nx')).toBe('- real')
  })

  test.each([
    ['no such section', 'All done. The tests pass.'],
    ['the words in a sentence', 'The next steps are up to you.'],
    ['a heading about something else', '## Next release notes\n- x'],
    ['a heading with no body', 'Intro\n## Next steps\n'],
    ['a label with more words', 'Next steps for the billing team are unclear: wait'],
  ])('none from %s', (_what, notes) => {
    expect(nextStepsOf(notes)).toBeUndefined()
  })

  test('without a section: fix the runners whose last known run failed', () => {
    const tests = [
      { runner: 'npm test', result: 'failed' as const },
      { runner: 'pytest', result: 'failed' as const },
      { runner: 'pytest', result: 'unknown' as const },
      { runner: 'go test', result: 'failed' as const },
      { runner: 'go test', result: 'passed' as const },
    ]
    expect(buildHandoff(v('V'), work({ files: ['a.ts'], tests }), 'No headings here.').whats_next).toBe('Fix the failing test runs: npm test and pytest.')
  })

  test('without a section or failing runs: review the changed paths (at most five named)', () => {
    expect(buildHandoff(v('V'), work({ files: ['a.ts'] })).whats_next).toBe("Review this session's changes to a.ts.")
    expect(buildHandoff(v('V'), work({ files: ['a.ts', 'b.ts'] })).whats_next).toBe("Review this session's changes to a.ts and b.ts.")
    const files = Array.from({ length: 8 }, (_, i) => `f${i}.ts`)
    expect(buildHandoff(v('V'), work({ files })).whats_next).toBe("Review this session's changes to f0.ts, f1.ts, f2.ts, f3.ts, f4.ts and 3 more files.")
    expect(buildHandoff(v('V'), work({ files: files.slice(0, 6) })).whats_next).toBe("Review this session's changes to f0.ts, f1.ts, f2.ts, f3.ts, f4.ts and 1 more file.")
  })

  test('a runner that failed and then passed is not "failing"', () => {
    const tests = [
      { runner: 'npm test', result: 'failed' as const },
      { runner: 'npm test', result: 'passed' as const },
    ]
    expect(buildHandoff(v('V'), work({ files: ['a.ts'], tests })).whats_next).toBe("Review this session's changes to a.ts.")
  })

  test('commits alone are named by hash', () => {
    expect(buildHandoff(v('V'), work({ commits: [{ sha: 'abc1234', subject: 'x' }] })).whats_next).toBe("Review this session's changes in commit abc1234.")
  })

  test('runs alone: rerun the unknown ones, or nothing is left', () => {
    expect(buildHandoff(v('V'), work({ tests: [{ runner: 'npm test', result: 'unknown' }] })).whats_next).toBe(
      'Rerun the test runs whose result is unknown: npm test.',
    )
    expect(buildHandoff(v('V'), work({ tests: [{ runner: 'npm test', result: 'passed' }] })).whats_next).toBe(
      'Nothing is left to pick up from this session: its test runs passed.',
    )
  })

  test('a section is capped like the notes', () => {
    expect((nextStepsOf(`## Next steps\n${'x'.repeat(5000)}`) ?? '').length).toBeLessThanOrEqual(NOTES_LIMIT)
  })
})

describe('links', () => {
  test('pull request URLs first, then touched paths', () => {
    const p = buildHandoff(v('V'), work({ files: ['a.ts', 'b.ts'], links: ['https://github.com/o/r/pull/1', 'https://github.com/o/r/pull/2'] }))
    expect(p.links).toEqual(['https://github.com/o/r/pull/1', 'https://github.com/o/r/pull/2', 'a.ts', 'b.ts'])
  })

  test(`${MAX_LINKS} at most, pull requests kept first`, () => {
    const links = Array.from({ length: 4 }, (_, i) => `https://github.com/o/r/pull/${i}`)
    const files = Array.from({ length: 20 }, (_, i) => `f${i}.ts`)
    const p = buildHandoff(v('V'), work({ files, links }))
    expect(p.links).toHaveLength(MAX_LINKS)
    expect(p.links.slice(0, 4)).toEqual(links)
    expect(p.links.slice(4)).toEqual(files.slice(0, 6))
  })

  test('more than ten pull requests leave no room for paths', () => {
    const links = Array.from({ length: 12 }, (_, i) => `https://github.com/o/r/pull/${i}`)
    expect(buildHandoff(v('V'), work({ files: ['a.ts'], links })).links).toEqual(links.slice(0, MAX_LINKS))
  })

  test('a link that is not http(s) is dropped; duplicates once', () => {
    const p = buildHandoff(v('V'), work({ files: ['a.ts', 'a.ts'], links: ['javascript:alert(1)', 'https://x.io/pr/1', 'https://x.io/pr/1'] }))
    expect(p.links).toEqual(['https://x.io/pr/1', 'a.ts'])
  })
})

describe('watch_out_for', () => {
  test('absent (not even as a key) when no run failed', () => {
    const p = buildHandoff(v('V'), work({ files: ['a.ts'], tests: [{ runner: 'npm test', result: 'passed' }, { runner: 'pytest', result: 'unknown' }] }))
    expect('watch_out_for' in p).toBe(false)
    expect(JSON.stringify(p)).not.toContain('watch_out_for')
  })

  test('lists the failing runs with their counts', () => {
    const tests = [
      { runner: 'npm test', result: 'failed' as const },
      { runner: 'npm test', result: 'failed' as const },
      { runner: 'npm test', result: 'unknown' as const },
      { runner: 'pytest', result: 'failed' as const },
    ]
    expect(buildHandoff(v('V'), work({ tests })).watch_out_for).toBe('Failing test runs: npm test (failed 2 of 3 runs), pytest (failed 1 of 1 run).')
  })

  test('also names runs that failed and then passed', () => {
    const tests = [
      { runner: 'go test', result: 'failed' as const },
      { runner: 'go test', result: 'passed' as const },
      { runner: 'pytest', result: 'failed' as const },
    ]
    expect(buildHandoff(v('V'), work({ tests })).watch_out_for).toBe(
      'Failing test runs: pytest (failed 1 of 1 run). Failed earlier in the session, then passed: go test (failed 1 of 2 runs).',
    )
  })
})

describe('totality', () => {
  test('malformed work never throws and drops what is not well formed', () => {
    const bad = {
      files: ['ok.ts', 3, null, '', '   '],
      commits: [{ sha: 'zzz', subject: 'x' }, { sha: 'ABC1234' }, 'nope'],
      tests: [{ runner: 'npm test', result: 'weird' }, { result: 'passed' }],
      links: 'not a list',
    } as unknown as Work
    const p = buildHandoff(v('V'), bad)
    expect(p.what_changed).toBe('edited ok.ts\ncommit abc1234')
    expect(p.what_i_did.split('\n')).toContain('npm test: result unknown')
    expect(p.links).toEqual(['ok.ts'])
    for (const w of [undefined, null, 5, 'x', {}] as unknown[]) expect(() => buildHandoff(v('V'), w as Work, 7 as unknown as string)).not.toThrow()
    expect(buildHandoff(undefined as unknown as Venture, NO_WORK).venture).toBe('')
  })
})

describe('values read back from the store are checked again before they are sent', () => {
  const KEY = 'hark_live_key_0123456789abcdef'
  test('runner names lose secrets, links their credentials, paths outside the project are dropped', () => {
    const payload = buildHandoff(
      v('V-012'),
      work({
        files: ['src/a.ts', '../../etc/passwd', '/abs/outside/secret.txt'],
        tests: [{ runner: `pytest --token=${KEY}`, result: 'failed' }],
        links: ['https://u:hunter2@evil.example/x', 'javascript:alert(1)', 'https://github.com/acme/app/pull/7'],
      }),
      undefined,
      KEY,
    )
    const sent = JSON.stringify(payload)
    expect(sent).not.toContain(KEY)
    expect(sent).not.toContain('hunter2')
    expect(sent).not.toContain('passwd')
    expect(sent).not.toContain('/abs/outside')
    expect(payload.links).toEqual(['https://github.com/acme/app/pull/7', 'src/a.ts'])
    expect(payload.what_changed).toBe('edited src/a.ts')
  })

  test('30,000 files are checked in well under a second', () => {
    const files = Array.from({ length: 30_000 }, (_, i) => `src/f${i % 20_000}.ts`)
    const started = performance.now()
    const payload = buildHandoff(v('V-012'), work({ files }))
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(payload.what_changed.split('\n')[0]).toBe('edited src/f0.ts')
  })
})

test('a file named after the access key is sent with the key redacted', () => {
  const key = 'hark_live_0123456789abcdef'
  const payload = buildHandoff(v('V-012'), { files: [`tmp/${key}.json`], commits: [], tests: [], links: [] }, undefined, key)
  expect(JSON.stringify(payload)).not.toContain(key)
  expect(payload.what_changed).toContain('tmp/')
})
