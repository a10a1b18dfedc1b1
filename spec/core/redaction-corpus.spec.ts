// The redaction's targets on its corpus (docs/handoff.md, The corpus and its targets): counts, not
// times (`npm run bench:redact` prints the same figures with the time the cleaning takes).
import { describe, expect, test } from 'vitest'
import { cleanNotes, cleanSubject, REDACTED } from '../../core/domain/notes'
import { findTokens, tokenFormats } from '../../core/domain/redaction/tokens'
import { ACCESS_KEY, CONFIG_FORMS, FAR_PROSE, inProse, inSettings, LOOK_ALIKES, ORDINARY_PROSE, SPEC_SAMPLES, TOKEN_SAMPLES } from '../fixtures/redaction-corpus'

/** Whether the cleaned text still holds the token (whole, or its last ten characters). */
const leaks = (out: string, token: string): boolean => out.includes(token) || out.includes(token.slice(-10))

describe('the redaction corpus', () => {
  test('it is large enough to mean something', () => {
    expect(TOKEN_SAMPLES.length).toBeGreaterThanOrEqual(245)
    expect(FAR_PROSE.length).toBeGreaterThanOrEqual(350)
    expect(CONFIG_FORMS.length).toBeGreaterThanOrEqual(50)
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(180)
    expect(ORDINARY_PROSE.length).toBeGreaterThanOrEqual(70)
  })

  const missedInProse = (): string[] => TOKEN_SAMPLES.filter((s, i) => leaks(cleanNotes(inProse(s, i), ACCESS_KEY), s.token)).map((s) => s.provider)
  const missedInSettings = (): string[] => TOKEN_SAMPLES.filter((s, i) => leaks(cleanNotes(inSettings(s, i), ACCESS_KEY), s.token)).map((s) => s.provider)
  const missedFar = (): string[] => FAR_PROSE.filter(([s, text]) => leaks(cleanNotes(text, ACCESS_KEY), s.token)).map(([, text]) => text)
  const prose = TOKEN_SAMPLES.length + FAR_PROSE.length

  test('at least 96% of the provider token samples are caught in prose, the provider named just before, after or farther away', () => {
    expect(missedFar().length).toBeLessThanOrEqual(Math.floor(FAR_PROSE.length * 0.04))
    expect(missedInProse().length + missedFar().length).toBeLessThanOrEqual(Math.floor(prose * 0.04))
  })

  test('at least 98% of the provider token samples are caught in settings lines', () => {
    expect(missedInSettings().length).toBeLessThanOrEqual(Math.floor(TOKEN_SAMPLES.length * 0.02))
  })

  test('at least 97.5% of them are caught in all, prose and settings lines together', () => {
    expect(missedInProse().length + missedFar().length + missedInSettings().length).toBeLessThanOrEqual(Math.floor((prose + TOKEN_SAMPLES.length) * 0.025))
  })

  test('a token with a prefix of its own is caught in a commit subject too', () => {
    const missed = TOKEN_SAMPLES.filter((s) => s.named === undefined && !s.token.startsWith('https://')).filter((s) => leaks(cleanSubject(`Fix the client, key ${s.token}`), s.token))
    expect(missed.map((s) => s.provider)).toEqual([])
  })

  test('at least 96% of the passwords in config forms go (NAME=value and beyond: login flags, define calls, XML, netrc, package managers)', () => {
    const missed = CONFIG_FORMS.filter(([, text, secret]) => cleanNotes(text, ACCESS_KEY).includes(secret)).map(([form]) => form)
    expect(missed.length).toBeLessThanOrEqual(Math.floor(CONFIG_FORMS.length * 0.04))
  })

  test.each(SPEC_SAMPLES)('SPEC.md: %s is caught', (_what, text, secret) => {
    const out = cleanNotes(text, ACCESS_KEY)
    expect(out).not.toContain(secret)
    expect(out).toContain(REDACTED)
  })

  test('no ordinary prose sentence changes', () => {
    expect(ORDINARY_PROSE.filter((s) => cleanNotes(s, ACCESS_KEY) !== s)).toEqual([])
  })

  test('no rule fires on an identifier, path, file name, package name, hash, UUID, version, data URL, port flag or code in prose', () => {
    expect(LOOK_ALIKES.filter(([, s]) => findTokens(s).length > 0)).toEqual([])
    expect(LOOK_ALIKES.filter(([, s]) => cleanNotes(s, ACCESS_KEY) !== s)).toEqual([])
  })

  test('every format of the table names its provider and the rule set it comes from', () => {
    for (const f of tokenFormats()) {
      expect(f.provider).not.toBe('')
      expect(f.source).toMatch(/^(?:gitleaks|secretlint|hark-memory) /)
    }
  })

  test('every prefixed format bounds its run or says it is open, so no rule rescans the text', () => {
    for (const f of tokenFormats()) {
      if (f.kind !== 'prefixed') continue
      expect(f.min).toBeLessThanOrEqual(f.max)
      expect(f.max).toBeLessThanOrEqual(8_000)
    }
  })
})
