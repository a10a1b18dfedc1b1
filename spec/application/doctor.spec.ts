// /hark doctor (SPEC.md: /hark): the report is made from what the plugin already knows and sends nothing; it
// shows the project file or every place looked, whether a key is set (never any of it), Hark's last answer
// per tool with the fix for each failure, the store's entries and a refused write, and the versions.
import { describe, expect, test } from 'vitest'
import { compose } from '../../composition/container'
import { InMemoryHark } from '../../adapters/fake-hark/in-memory-hark'
import type { HarkEndpoint } from '../../adapters/hark/mcp-hark.gateway'
import { fixFor, renderDoctor, SCOPE_HELP, type DoctorFacts } from '../../core/application/doctor'
import { HarkAnswers } from '../../core/application/hark-answers'
import { memoryPorts } from '../memory-ports'

const KEY = 'hark_pat_doctor_Zq81vLx0Pw3'
const ROOT = '/spec/project'
const NOW = 1_767_000_000_000

/** A plugin load over one in-memory world; `post` is Hark; `posts` counts what reached it. */
function world(post?: HarkEndpoint['post'], options: Record<string, unknown> = { access_key: KEY }) {
  const data = new Map<string, unknown>()
  const hark = new InMemoryHark(undefined, KEY)
  let posts = 0
  const endpoint: HarkEndpoint['post'] = async (headers, body) => {
    posts++
    return post ? post(headers, body) : hark.handle('https://harkstudio.io/mcp', { method: 'POST', headers: { ...headers }, body })
  }
  const app = compose(options)
  const said: string[] = []
  const ports = (root = ROOT, projectFile = true) => {
    const p = memoryPorts({ data, root, now: NOW, said, post: endpoint })
    return projectFile ? p : { ...p, files: { ...p.files, readText: async () => undefined } }
  }
  return { app, ports, data, said, posts: () => posts }
}

async function startedWorld(post?: HarkEndpoint['post'], options?: Record<string, unknown>) {
  const w = world(post, options)
  const uc = w.app.useCases(w.ports())
  await uc.start.onSessionStart(ROOT)
  await uc.start.ensureStarted()
  await uc.context.blocks([])
  return w
}

describe('/hark doctor', () => {
  test('in a project with a key: the file and its code, the key set but never shown, the brief ok, the store, the versions; nothing sent', async () => {
    const w = await startedWorld()
    const before = w.posts()
    const text = await w.app.useCases(w.ports()).command.run('doctor')
    expect(w.posts()).toBe(before)
    expect(text).toContain(`Project file: ${ROOT}/.hark/project (project V-012)`)
    expect(text).toContain('Access key: set')
    expect(text).toMatch(/get_agent_brief\s+ok \(HTTP 200\), \d\d:\d\d:\d\d UTC, 0 s ago/)
    expect(text).toMatch(/Store: .*hark-memory_inline-b2086a409123\.json/)
    expect(text).toMatch(/\d+ entr(y|ies), about \d+ bytes of data: 1 process record\(s\), 1 cached brief\(s\)/)
    expect(text).toContain('No write refused this session.')
    expect(text).toContain('Versions: hark-memory 0.2.3, Claude Code 2.1.332')
    expect(text.split('\n').at(-1)).toBe(SCOPE_HELP)
    for (let i = 0; i + 4 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 4 + 4))
  })

  test('a key Hark refuses (HTTP 401): the tool, the status and the fix /plugin configure', async () => {
    const w = await startedWorld(async () => ({ status: 401, ok: false, headers: {}, text: '{"error":"unauthorized"}' }))
    const text = await w.app.useCases(w.ports()).command.run('doctor')
    expect(text).toMatch(/get_agent_brief\s+key refused \(HTTP 401\)/)
    expect(text).toContain('Fix: Hark refused the access key: set a new one with /plugin configure hark-memory@hark')
  })

  test('Hark unreachable: the fix names the network and the proxy', async () => {
    const w = await startedWorld(async () => {
      throw new Error('$.http.fetch(https://harkstudio.io/mcp) failed: ECONNREFUSED')
    })
    const text = await w.app.useCases(w.ports()).command.run('doctor')
    expect(text).toMatch(/get_agent_brief\s+unreachable, /)
    expect(text).toMatch(/Fix: No connection to harkstudio\.io: check the network, or the proxy/)
  })

  test('no project file: every place looked, nearest first, up to the root', async () => {
    const w = world()
    const uc = w.app.useCases(w.ports('/home/ada/code/app', false))
    await uc.start.onSessionStart('/home/ada/code/app')
    await uc.start.ensureStarted()
    const text = await w.app.useCases(w.ports('/home/ada/code/app', false)).command.run('doctor')
    expect(text).toContain('Project file: none found.')
    const places = text.split('\n').filter((l) => /^ {2}\/.*\.hark/.test(l)).map((l) => l.trim())
    expect(places).toEqual(['/home/ada/code/app/.hark/project', '/home/ada/code/app/.hark', '/home/ada/code/.hark/project', '/home/ada/code/.hark', '/home/ada/.hark/project', '/home/ada/.hark', '/home/.hark/project', '/home/.hark', '/.hark/project', '/.hark'])
    expect(text).toContain('Hark\'s answers: none yet')
  })

  test('no key: said, with the fix', async () => {
    const w = await startedWorld(undefined, {})
    const text = await w.app.useCases(w.ports()).command.run('doctor')
    expect(text).toContain('Access key: not set. Fix: /plugin configure hark-memory@hark')
    expect(w.posts()).toBe(0)
  })

  test('/hark\'s usage lists doctor', async () => {
    const w = world()
    expect(await w.app.useCases(w.ports()).command.run('frobnicate')).toContain('Usage: /hark [brief|handoff|preview|needs|open|doctor]')
  })
})

describe('renderDoctor and the answers it reads', () => {
  const base: DoctorFacts = { looked: [], keySet: true, answers: [], now: NOW, store: { refusedWrite: false, slow: false }, waiting: 0 }

  test('each failure has its own fix; an ok answer has none', () => {
    const a = (outcome: 'ok' | 'timeout' | 'unreachable' | 'key-refused' | 'refused') => ({ tool: 'end_session', outcome, at: NOW })
    expect(fixFor(a('ok'))).toBe('')
    expect(fixFor(a('key-refused'))).toContain('/plugin configure hark-memory@hark')
    expect(fixFor(a('unreachable'))).toMatch(/network.*proxy/)
    expect(fixFor(a('timeout'))).toMatch(/slow/)
    expect(fixFor(a('refused'))).toMatch(/error/)
  })

  test("an answer's time that no clock gives (not a number, or past what a Date holds) reads as ?, and the report is still written", () => {
    for (const at of [Number.NaN, Infinity, -Infinity, 9e15, -9e15, Number.MAX_VALUE]) {
      const text = renderDoctor({ ...base, answers: [{ tool: 'end_session', outcome: 'ok', status: 200, at }] })
      expect(text).toMatch(/end_session +ok \(HTTP 200\), \? UTC, \? ago/)
    }
    // A time a Date holds past the year 9999 or before 0 still reads as its time of day.
    for (const [at, clock] of [[3e14, '05:20:00'], [8.64e15, '00:00:00'], [-62198755200000 + 3_723_000, '01:02:03']] as const) {
      expect(renderDoctor({ ...base, answers: [{ tool: 'end_session', outcome: 'ok', status: 200, at }] })).toContain(`${clock} UTC`)
    }
    // A clock that gives no time: how long ago is not known either.
    expect(renderDoctor({ ...base, now: Number.NaN, answers: [{ tool: 'end_session', outcome: 'ok', status: 200, at: NOW }] })).toMatch(/UTC, \? ago/)
  })

  test('a refused write, handoffs waiting and unknown versions are said', () => {
    const text = renderDoctor({ ...base, store: { refusedWrite: true, slow: true }, waiting: 2 })
    expect(text).toContain('A write was refused this session')
    expect(text).toContain('The store was slow to answer once')
    expect(text).toContain('Its entries could not be read in time.')
    expect(text).toContain('Handoffs waiting for delivery: 2')
    expect(text).toContain('Versions: hark-memory (unknown), Claude Code (unknown)')
  })

  test('HarkAnswers keeps the later request\'s answer when an earlier one is noted after it, whatever the clock said', () => {
    const answers = new HarkAnswers()
    answers.record({ tool: 'end_session', outcome: 'ok', status: 200, at: 20 }, 7)
    answers.record({ tool: 'end_session', outcome: 'timeout', at: 10 }, 6)
    expect(answers.last).toEqual([{ tool: 'end_session', outcome: 'ok', status: 200, at: 20 }])
    // A clock set back: the newer request's answer still wins.
    answers.record({ tool: 'end_session', outcome: 'unreachable', at: 5 }, 8)
    expect(answers.last).toEqual([{ tool: 'end_session', outcome: 'unreachable', at: 5 }])
  })

  test('HarkAnswers keeps the last answer per tool, in first-call order', () => {
    const answers = new HarkAnswers()
    answers.record({ tool: 'get_agent_brief', outcome: 'timeout', at: 1 }, 1)
    answers.record({ tool: 'list_candidates', outcome: 'ok', status: 200, at: 2 }, 2)
    answers.record({ tool: 'get_agent_brief', outcome: 'ok', status: 200, at: 3 }, 3)
    expect(answers.last).toEqual([
      { tool: 'get_agent_brief', outcome: 'ok', status: 200, at: 3 },
      { tool: 'list_candidates', outcome: 'ok', status: 200, at: 2 },
    ])
  })
})
