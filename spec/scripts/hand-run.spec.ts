// The hand run's helpers (npm run fake-hark; docs/development.md): the scratch HOME answers the four first-run questions
// where the engine looks for them, keeping only the API key's last 20 characters; the live view sums up each
// request Hark received in one short line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'

interface ScratchHome {
  approvedKeyTail(apiKey: string): string
  prepareHome(o: { home: string; projectDir: string; apiKey: string; accessKey?: string }): void
}
interface LiveView {
  describeRequest(entry: Record<string, unknown>): string
}
// The helpers are plain .mjs files of the harness: loaded by a path TypeScript does not follow.
const load = async <T>(file: string): Promise<T> => (await import(/* @vite-ignore */ join(__dirname, '../../e2e/lib', file))) as T

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('the scratch HOME', () => {
  test('onboarding done, the folder trusted, the key\'s last 20 characters approved, bypass mode accepted, the access key set', async () => {
    const { prepareHome } = await load<ScratchHome>('scratch-home.mjs')
    const home = mkdtempSync(join(tmpdir(), 'scratch-home-'))
    made.push(home)
    prepareHome({ home, projectDir: '/tmp/p', apiKey: ' sk-ant-api03-abcdefghijklmnopqrstuvwxyz ', accessKey: 'hark_pat_x' })
    const claude = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as Record<string, unknown>
    expect(claude['hasCompletedOnboarding']).toBe(true)
    expect(claude['projects']).toEqual({ '/tmp/p': { hasTrustDialogAccepted: true, allowedTools: [] } })
    expect(claude['customApiKeyResponses']).toEqual({ approved: ['ghijklmnopqrstuvwxyz'], rejected: [] })
    const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as Record<string, unknown>
    expect(settings).toEqual({ skipDangerousModePermissionPrompt: true, pluginConfigs: { 'hark-memory': { options: { access_key: 'hark_pat_x' } } } })
  })

  test('a key of 20 characters or fewer is kept whole', async () => {
    const { approvedKeyTail } = await load<ScratchHome>('scratch-home.mjs')
    expect(approvedKeyTail('sk-ant-dummy')).toBe('sk-ant-dummy')
  })
})

describe('the live view', () => {
  test('one line: the time, the tool, short arguments, the outcome with its status and time taken', async () => {
    const { describeRequest } = await load<LiveView>('live-view.mjs')
    const line = describeRequest({
      t: '2026-12-01T06:04:56.105Z',
      receivedAt: '2026-12-01T06:04:56.100Z',
      tool: 'end_session',
      arguments: { venture: 'V-012', what_i_did: 'Edited 2 files, made 1 commit and ran the tests twice today', links: ['a', 'b'], meta: { x: 1 } },
      outcome: 'ok',
      status: 200,
      headers: { authorization: 'Bearer hark_pat_secret' },
    })
    expect(line).toBe('06:04:56  end_session  venture="V-012" what_i_did="Edited 2 files, made 1 commit a…" links=[2 items] meta={…}  → ok (HTTP 200, 5 ms)')
    expect(line).not.toContain('hark_pat_secret')
  })

  test('a request the SDK answered without a tool: its method, and the status', async () => {
    const { describeRequest } = await load<LiveView>('live-view.mjs')
    expect(describeRequest({ t: '2026-12-01T06:00:00.000Z', method: 'initialize', outcome: 'unauthorized', status: 401 })).toBe('06:00:00  initialize  → unauthorized (HTTP 401)')
  })
})
