// /hark doctor through the engine (SPEC.md: /hark): one screen from what the plugin already knows,
// with no request of its own; Hark's last answer per tool with its fix; the key never shown.
import { describe, expect, test } from 'claude-code/testing'
import { createWorld, hark, KEY, NO_KEY, PROJECT, startSession, WITH_KEY } from './world'

describe('/hark doctor', () => {
  test('in a project with a key: the file, the key set (none of it shown), the brief ok, the store, the versions; nothing sent', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    await startSession($)
    const sent = world.hark.calls.length
    const out = await hark($, 'doctor')
    expect(world.hark.calls.length).toBe(sent)
    expect(out.text).toContain(`Project file: ${PROJECT}/.hark/project (project V-012)`)
    expect(out.text).toContain('Access key: set')
    expect(out.text).toMatch(/get_agent_brief\s+ok \(HTTP 200\)/)
    expect(out.text).toMatch(/\d+ entr(y|ies), about \d+ bytes of data: 1 process record\(s\), 1 cached brief\(s\)/)
    expect(out.text).toContain('Versions: hark-memory 0.2.3, Claude Code 2.1.332')
    expect(out.text).not.toContain(KEY.slice(-8))
    expect(out.text).not.toContain(KEY.slice(0, 8))
  })

  test('a key Hark refuses: key refused (HTTP 401) and the fix /plugin configure', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.expectedKey = 'hark_another_key_000000'
    await startSession($)
    const out = await hark($, 'doctor')
    expect(out.text).toMatch(/get_agent_brief\s+key refused \(HTTP 401\)/)
    expect(out.text).toContain('/plugin configure hark-memory@hark')
  })

  test('Hark unreachable, then /hark needs answered: the last answer of each tool', WITH_KEY, async ($, on) => {
    const world = createWorld(on)
    world.hark.mode = 'unreachable'
    await startSession($)
    world.hark.mode = 'ok'
    await hark($, 'needs')
    const out = await hark($, 'doctor')
    expect(out.text).toMatch(/get_agent_brief\s+unreachable, /)
    expect(out.text).toMatch(/network, or the proxy/)
    expect(out.text).toMatch(/list_candidates\s+ok \(HTTP 200\)/)
  })

  test('no project file: every place looked; no key: said, with the fix; nothing sent', NO_KEY, async ($, on) => {
    const world = createWorld(on, { files: {} })
    await startSession($)
    const out = await hark($, 'doctor')
    expect(out.text).toContain('Project file: none found.')
    expect(out.text).toContain(`${PROJECT}/.hark/project`)
    expect(out.text).toContain('/.hark')
    expect(out.text).toContain('Access key: not set. Fix: /plugin configure hark-memory@hark')
    expect(world.hark.calls).toEqual([])
  })
})
