import { describe, expect, test } from 'vitest'
import { isPipedOrBackground, testCommandsOf } from '../../core/domain/test-runs'

describe('what the exit status says about each run', () => {
  /** [command line, result when the line succeeded, result when it failed] */
  test.each([
    ['npm test', 'passed', 'failed'],
    ['cd app && npm test', 'passed', 'failed'],
    ['npm ci && npm test', 'passed', 'failed'],
    ['cd app; npm test', 'passed', 'failed'],
    ['npm test && echo "all green"', 'passed', 'failed'],
    ['(cd web && npm test)', 'passed', 'failed'],
    ['bash -c "cd api && go test ./..."', 'passed', 'failed'],
    ['npm test > out.txt 2>&1', 'passed', 'failed'],
    ['npm test && npm run lint', 'passed', 'unknown'],
    ['npm test; echo done', 'unknown', 'unknown'],
    ['npm test || true', 'unknown', 'unknown'],
    ['npm test || echo "tests failed"', 'unknown', 'unknown'],
    ['npm test && echo ok || echo fail', 'unknown', 'unknown'],
    ['false || npm test', 'unknown', 'unknown'],
    ['! npm test', 'unknown', 'unknown'],
    ['if npm test; then echo ok; fi', 'unknown', 'unknown'],
    ['npm test 2>&1 | tail -20', 'unknown', 'unknown'],
    ['npm test | tee log.txt', 'unknown', 'unknown'],
    ['npm test |& tee log.txt', 'unknown', 'unknown'],
    ['npm test &', 'unknown', 'unknown'],
    ['npm test & wait', 'unknown', 'unknown'],
    ['nohup npm test', 'unknown', 'unknown'],
    ['bash -c "npm test | tail"', 'unknown', 'unknown'],
    ['npm ci | tail -1 && npm test', 'unknown', 'unknown'],
  ])('%j: %s on success, %s on failure', (command, ifSucceeded, ifFailed) => {
    const [run, ...others] = testCommandsOf(command)
    expect(others).toEqual([])
    expect(run).toEqual({ runner: expect.any(String), ifSucceeded, ifFailed })
  })

  test('two runners joined by &&: both passed on success; on failure only the last is blamed', () => {
    expect(testCommandsOf('go test ./... && npm test')).toEqual([
      { runner: 'go test', ifSucceeded: 'passed', ifFailed: 'unknown' },
      { runner: 'npm test', ifSucceeded: 'passed', ifFailed: 'failed' },
    ])
  })
})

describe('isPipedOrBackground', () => {
  test.each([
    ['npm test | tail', true],
    ['npm test 2>&1 | tail -50', true],
    ['npm test |& tee out', true],
    ['npm test &', true],
    ['npm test & echo started', true],
    ['nohup npm test', true],
    ['setsid npm test', true],
    ['npm test & disown', true],
    ['(npm test) &', true],
    ['bash -c "npm test | head"', true],
    ['npm test', false],
    ['npm test && echo ok', false],
    ['npm test || echo failed', false],
    ['npm test 2>&1', false],
    ['npm test &> log', false],
    ['npm test >&2', false],
    ['npm test &>> log', false],
    ['echo "a | b" && npm test', false],
    ["echo 'x & y'", false],
    ['echo a\\|b', false],
    ['echo $(ls | wc -l)', false],
    ['echo `ls | wc -l`', false],
    ['grep -E "a|b" file', false],
    ['cat <<EOF\na | b &\nEOF', false],
    ['git commit -m "$(cat <<\'EOF\'\nFix: a | b & c\nEOF\n)"', false],
    ['npm test # | tail', false],
    ['[[ -f x || -f y ]] && npm test', false],
  ])('%j → %s', (command, expected) => {
    expect(isPipedOrBackground(command)).toBe(expected)
  })
})
