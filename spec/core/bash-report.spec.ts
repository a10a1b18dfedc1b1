import { describe, expect, test } from 'vitest'
import { commitLine, messageOf, pullRequestUrl, workFromBash, type BashReport } from '../../core/domain/bash-report'
import { REDACTED } from '../../core/domain/notes'
import { workOf } from '../../core/domain/work'

const SHA = '3f2a9c1d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c'
const run = (command: string, more: Partial<BashReport> = {}): BashReport => ({ command, failed: false, ...more })
const fakeToken = (): string => ['ghp', '_', 'x9Y8w7V6u5T4s3R2q1P0o9N8m7L6k5J4i3H2'].join('')

describe('test runs from a Bash call (SPEC.md: tool.call, Bash)', () => {
  test('a passing run', () => {
    expect(workFromBash(run('npm test'))).toEqual([{ kind: 'test', runner: 'npm test', result: 'passed' }])
  })

  test('a failing run', () => {
    expect(workFromBash(run('pytest -x', { failed: true }))).toEqual([{ kind: 'test', runner: 'pytest', result: 'failed' }])
  })

  test.each([
    ['piped', run('npm test 2>&1 | tail -40')],
    ['piped, failed', run('npm test | tee log', { failed: true })],
    ['sent to the background with &', run('npm test &')],
    ['nohup', run('nohup go test ./... > out.log 2>&1 &')],
    ['run_in_background', run('cargo test', { background: true })],
    ['timed out', run('npm test', { failed: true, timedOut: true })],
    ['interrupted', run('npm test', { failed: true, interrupted: true })],
  ])('%s: result unknown', (_what, report) => {
    const entries = workFromBash(report)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ kind: 'test', result: 'unknown' })
  })

  test('the exit status of a chain follows the last command', () => {
    expect(workFromBash(run('cd app && npm ci && npm test', { failed: true }))).toEqual([{ kind: 'test', runner: 'npm test', result: 'failed' }])
    expect(workFromBash(run('npm test; echo done'))).toEqual([{ kind: 'test', runner: 'npm test', result: 'unknown' }])
    expect(workFromBash(run('npm test || true'))).toEqual([{ kind: 'test', runner: 'npm test', result: 'unknown' }])
    expect(workFromBash(run('npm test && npm run lint', { failed: true }))).toEqual([{ kind: 'test', runner: 'npm test', result: 'unknown' }])
    expect(workFromBash(run('npm test && npm run lint'))).toEqual([{ kind: 'test', runner: 'npm test', result: 'passed' }])
  })

  test('a command that names no runner yields nothing', () => {
    expect(workFromBash(run('npm install'))).toEqual([])
    expect(workFromBash(run('ls -la', { failed: true, stdout: 'secret stuff' }))).toEqual([])
  })

  test('a refused call ran nothing and yields nothing', () => {
    expect(workFromBash(run('npm test', { failed: true, refused: true, commit: { sha: SHA } }))).toEqual([])
  })

  test('repeated runs each count once recorded (workOf keeps every run)', () => {
    const entries = [...workFromBash(run('npm test', { failed: true })), ...workFromBash(run('npm test'))]
    expect(workOf(entries).tests).toEqual([
      { runner: 'npm test', result: 'failed' },
      { runner: 'npm test', result: 'passed' },
    ])
  })
})

describe('commits from the engine report', () => {
  test('the short hash and the subject from git’s summary line', () => {
    const stdout = '[main 3f2a9c1] Fix the login redirect\n 2 files changed, 10 insertions(+), 3 deletions(-)\n'
    expect(workFromBash(run('git commit -am "Fix the login redirect"', { stdout, commit: { sha: SHA } }))).toEqual([
      { kind: 'commit', sha: '3f2a9c1', subject: 'Fix the login redirect' },
    ])
  })

  test('a root commit, a detached HEAD and a longer abbreviation', () => {
    expect(commitLine('[main (root-commit) 3f2a9c1] Initial commit', SHA)).toEqual({ abbrev: '3f2a9c1', subject: 'Initial commit' })
    expect(commitLine('[detached HEAD 3f2a9c1d4e] Try', SHA)).toEqual({ abbrev: '3f2a9c1d4e', subject: 'Try' })
    expect(commitLine('[feature/x 3f2a9c1d4e5b6a7c8d9e] Long', SHA)).toEqual({ abbrev: '3f2a9c1', subject: 'Long' })
  })

  test('a summary line of another commit is not used', () => {
    expect(commitLine('[main abcdef1] Other commit', SHA)).toBeUndefined()
    const stdout = '[main abcdef1] First\n[main 3f2a9c1] Second\n'
    expect(workFromBash(run('git commit -m First && git commit -m Second', { stdout, commit: { sha: SHA } }))).toEqual([
      { kind: 'commit', sha: '3f2a9c1', subject: 'Second' },
    ])
  })

  test('without the summary line, the subject comes from -m in the command', () => {
    expect(workFromBash(run('git add -A && git commit -q -m "Add the edit guard" -m "Body"', { commit: { sha: SHA } }))).toEqual([
      { kind: 'commit', sha: '3f2a9c1', subject: 'Add the edit guard' },
    ])
  })

  test("Claude Code's heredoc commit message gives its first line", () => {
    const command = `git commit -m "$(cat <<'EOF'\nHandle the exit window (fixes #12)\n\nBody with "quotes" and | pipes.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"`
    expect(messageOf(command)).toBe('Handle the exit window (fixes #12)')
    expect(workFromBash(run(command, { commit: { sha: SHA } }))).toEqual([
      { kind: 'commit', sha: '3f2a9c1', subject: 'Handle the exit window (fixes #12)' },
    ])
  })

  test.each([
    ['--message=', 'git commit --message="Tidy up"', 'Tidy up'],
    ['-am', "git commit -am 'Tidy up'", 'Tidy up'],
    ['-m attached', 'git commit -m"Tidy up"', 'Tidy up'],
    ['git options first', 'git -C repo -c user.name=x commit -m "Tidy up"', 'Tidy up'],
    ['a multi-line message', 'git commit -m "Tidy up\n\nMore"', 'Tidy up'],
    ['-F file', 'git commit -F msg.txt', undefined],
    ['a variable', 'git commit -m "$MSG"', undefined],
    ['a substitution', 'git commit -m "$(generate-message)"', undefined],
    ['no -m', 'git commit --amend --no-edit', undefined],
    ['cherry-pick', 'git cherry-pick -m 1 abc123', undefined],
    ['not git', 'echo commit -m "x"', undefined],
  ])('messageOf, %s', (_what, command, expected) => {
    expect(messageOf(command)).toBe(expected)
  })

  test('a commit without any subject keeps an empty subject', () => {
    expect(workFromBash(run('git cherry-pick abc123', { commit: { sha: SHA } }))).toEqual([{ kind: 'commit', sha: '3f2a9c1', subject: '' }])
  })

  test('a short hash from the engine is kept; an invalid one gives no commit', () => {
    expect(workFromBash(run('git commit -m x', { commit: { sha: '3F2A9C1D' } }))).toEqual([{ kind: 'commit', sha: '3f2a9c1d', subject: 'x' }])
    expect(workFromBash(run('git commit -m x', { commit: { sha: 'not-a-sha' } }))).toEqual([])
    expect(workFromBash(run('git commit -m x', { commit: { sha: 42 } as unknown as { sha: string } }))).toEqual([])
  })

  test('the subject is cleaned like the notes: secrets and the access key go, one line, capped', () => {
    const key = 'hark_Zq81xYv0Lm4k'
    const stdout = `[main 3f2a9c1] Use ${fakeToken()} and ${key} ${'x'.repeat(300)}\n`
    const [entry] = workFromBash(run('git commit -F m.txt', { stdout, commit: { sha: SHA } }), key)
    expect(entry).toMatchObject({ kind: 'commit', sha: '3f2a9c1' })
    const subject = entry?.kind === 'commit' ? entry.subject : ''
    expect(subject).toContain(`Use ${REDACTED} and ${REDACTED}`)
    expect(subject).not.toContain(key)
    expect(subject.length).toBeLessThanOrEqual(200)
  })

  test('a test run and a commit in one line both count', () => {
    const stdout = 'Tests: 12 passed\n[main 3f2a9c1] Green\n'
    expect(workFromBash(run('npm test && git commit -am Green', { stdout, commit: { sha: SHA } }))).toEqual([
      { kind: 'test', runner: 'npm test', result: 'passed' },
      { kind: 'commit', sha: '3f2a9c1', subject: 'Green' },
    ])
  })
})

describe('pull request links', () => {
  test('the URL the engine reports becomes a link', () => {
    expect(workFromBash(run('gh pr create --fill', { pullRequestUrl: 'https://github.com/acme/app/pull/42' }))).toEqual([
      { kind: 'link', url: 'https://github.com/acme/app/pull/42' },
    ])
  })

  test.each([
    ['https://github.com/acme/app/pull/42', 'https://github.com/acme/app/pull/42'],
    ['  https://GitHub.com/acme/app/pull/42  ', 'https://github.com/acme/app/pull/42'],
    ['https://gitlab.example.com:8443/g/p/-/merge_requests/7', 'https://gitlab.example.com:8443/g/p/-/merge_requests/7'],
    ['https://github.com/acme/app/pull/42?notification_referrer_id=abc#discussion', 'https://github.com/acme/app/pull/42'],
    ['http://ghe/acme/app/pull/1', 'http://ghe/acme/app/pull/1'],
    ['https://user:pass@github.com/acme/app/pull/42', undefined],
    ['https://x-access-token@github.com/acme/app/pull/42', undefined],
    ['javascript:alert(1)', undefined],
    ['ftp://example.com/pull/1', undefined],
    ['https://', undefined],
    ['https:///pull/1', undefined],
    ['https://github.com/acme/app/pull/42 and more', undefined],
    [`https://github.com/${'a'.repeat(600)}`, undefined],
    [`https://example.com/${['ghp', '_', 'x9Y8w7V6u5T4s3R2q1P0o9N8m7L6k5J4i3H2'].join('')}`, undefined],
    [42, undefined],
  ])('%j → %j', (value, expected) => {
    expect(pullRequestUrl(value)).toBe(expected)
  })
})

describe('nothing else of the command or its output is kept', () => {
  test('the entries hold only runners, results, hashes, subjects and URLs', () => {
    const stdout = 'PASS src/a.test.ts\nDB_PASSWORD=hunter22 printed by a test\n[main 3f2a9c1] Subject\n'
    const entries = workFromBash(
      run('DB_PASSWORD=hunter22 npm test -- --grep secret-case && git commit -am Subject', {
        stdout,
        commit: { sha: SHA },
        pullRequestUrl: 'https://github.com/acme/app/pull/42',
      }),
    )
    const json = JSON.stringify(entries)
    for (const leaked of ['hunter22', 'PASS src', 'secret-case', '--grep', 'DB_PASSWORD']) expect(json).not.toContain(leaked)
    expect(entries.map((e) => e.kind)).toEqual(['test', 'commit', 'link'])
  })

  test('malformed reports never throw', () => {
    for (const bad of [undefined, null, 1, 'npm test', {}, { command: 5 }, { command: 'npm test', failed: 'yes' }, { command: 'x', commit: 'abc', pullRequestUrl: {} }] as unknown[]) {
      expect(() => workFromBash(bad as BashReport)).not.toThrow()
    }
    expect(workFromBash({ command: 'npm test' } as BashReport)).toEqual([{ kind: 'test', runner: 'npm test', result: 'passed' }])
  })
})
