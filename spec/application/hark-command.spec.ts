// /hark's word (SPEC.md: /hark; core/application/hark-command.ts): an unknown word is echoed in one clear line, cut
// at 40 characters without splitting one, with no control character of what was typed.
import { describe, expect, test } from 'vitest'
import type { Doctor } from '../../core/application/doctor'
import { HarkCommand } from '../../core/application/hark-command'
import type { HarkSubcommands } from '../../core/application/hark-subcommands'
import { StartState } from '../../core/application/start-session'

const command = new HarkCommand(new StartState(), {} as Doctor, {} as HarkSubcommands)

describe('/hark <word>', () => {
  test('the words it knows, in any case, and none', () => {
    for (const word of ['', 'brief', 'HANDOFF', 'preview', 'needs', 'open', 'help', 'Doctor', '  needs  extra']) expect(command.unknown(word), word).toBeUndefined()
  })

  test('an unknown word is echoed cut at 40 characters, a character never split', () => {
    const out = command.unknown(`${'a'.repeat(39)}😀${'b'.repeat(5_000)}`) ?? ''
    expect(out).toContain(`"${'a'.repeat(39)}😀"`)
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)
    expect(out.split('\n')).toHaveLength(1)
  })

  test('control characters typed are not echoed', () => {
    const out = command.unknown('x\u001b[31my\u0000z') ?? ''
    expect(out).toMatch(/^Unknown \/hark command "x\[31myz"\. Usage: /)
  })
})
