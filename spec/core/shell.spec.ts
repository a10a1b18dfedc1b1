import { describe, expect, test } from 'vitest'
import { simpleCommands } from '../../core/domain/shell'
import { detectTestRunner, isPipedOrBackground, testCommandsOf } from '../../core/domain/test-runs'

// The last three read lines through test-runs.ts, as the plugin does: the scanner's bounds (MAX_DEPTH,
// MAX_COMMAND, unbalanced input) must hold there.
describe('reading the shell line', () => {
  test('simple commands with quotes removed; substitutions kept as written', () => {
    expect(simpleCommands(`cd "my app" && FOO='a b' npm test -- -t "x y"; echo $(date) done`)).toEqual([
      ['cd', 'my app'],
      ['FOO=a b', 'npm', 'test', '--', '-t', 'x y'],
      ['echo', '$(date)', 'done'],
    ])
  })

  test('redirections and heredoc bodies are not words', () => {
    expect(simpleCommands('cat > f.txt <<EOF\nnpm test\nEOF\nls 2>/dev/null')).toEqual([['cat'], ['ls']])
  })

  test('unbalanced quotes and parentheses never throw', () => {
    for (const c of ['npm test "unterminated', "echo 'x", 'echo $(npm test', '(((', ')))', 'a <<', 'x ${y', '`', '\\']) {
      expect(() => testCommandsOf(c)).not.toThrow()
      expect(() => isPipedOrBackground(c)).not.toThrow()
    }
  })

  test('deeply nested substitutions do not overflow', () => {
    const deep = `${'echo $('.repeat(5_000)}npm test${')'.repeat(5_000)}`
    expect(detectTestRunner(deep)).toBeUndefined()
    expect(detectTestRunner(`${'bash -c "'.repeat(50)}npm test`)).toBeUndefined()
  })

  test('a very long line is read quickly', () => {
    const long = `${'echo hello && '.repeat(20_000)}npm test`
    const started = performance.now()
    testCommandsOf(long)
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
