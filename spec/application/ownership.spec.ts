// A state object has one owner (docs/architecture.md, Lifetimes): each state class, and each narrower
// interface that lets one more class write one thing, is named in shipped code only by its own file and by
// the one class that writes through it. Everyone else is handed a reading interface, which has no writer,
// so tsc refuses a write; naming the class (a parameter, a cast) to get one fails here. The composition root
// names the classes to bind them, and asks for none of them itself.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'

const ROOT = join(__dirname, '../..')

/** Each writing type: the file that declares it and the one file allowed to write through it. */
const WRITERS: Readonly<Record<string, { readonly declared: string; readonly writer: string }>> = {
  ConversationState: { declared: 'core/application/conversation-state.ts', writer: 'core/application/record-repository.ts' },
  MovedWrites: { declared: 'core/application/conversation-state.ts', writer: 'core/application/detect-move.ts' },
  StartState: { declared: 'core/application/start-session.ts', writer: 'core/application/start-session.ts' },
  BriefOwedWrites: { declared: 'core/application/start-session.ts', writer: 'core/application/provide-context.ts' },
  PluginLoad: { declared: 'core/application/start-session.ts', writer: 'core/application/load-conversation.ts' },
  StoreHealth: { declared: 'core/application/store-calls.ts', writer: 'core/application/store-calls.ts' },
  HeldClaims: { declared: 'core/application/claims.ts', writer: 'core/application/claims.ts' },
  HandoffAhead: { declared: 'core/application/hand-off.ts', writer: 'core/application/hand-off.ts' },
  BriefState: { declared: 'core/application/brief-service.ts', writer: 'core/application/keep-brief.ts' },
  KeyRefusedWrites: { declared: 'core/application/brief-service.ts', writer: 'core/application/key-watch.ts' },
  GuardState: { declared: 'core/application/guard-state.ts', writer: 'core/application/guard-state.ts' },
  DecisionFetchWrites: { declared: 'core/application/guard-state.ts', writer: 'core/application/decision-fetch.ts' },
  CompiledGuards: { declared: 'core/application/guard-state.ts', writer: 'core/application/guard-match.ts' },
  CompactedWrites: { declared: 'core/application/guard-state.ts', writer: 'core/application/compact.ts' },
  PathState: { declared: 'core/application/project-paths.ts', writer: 'core/application/project-paths.ts' },
  ProjectLink: { declared: 'core/application/hark-subcommands.ts', writer: 'core/application/hark-subcommands.ts' },
  HarkAnswers: { declared: 'core/application/hark-answers.ts', writer: 'adapters/hark/mcp-hark.gateway.ts' },
  IdentityCache: { declared: 'adapters/hark/hark-identity.ts', writer: 'adapters/hark/hark-identity.ts' },
}

/** The shipped sources, by path from the repository's root. */
function sources(): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (path.endsWith('.ts')) out.set(path, readFileSync(join(ROOT, path), 'utf8'))
    }
  }
  for (const dir of ['core', 'adapters', 'composition', 'hooks']) walk(dir)
  return out
}

/** Code without its comments (what a comment names is no dependency). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

/** Where shipped code names a writing type outside its file and its writer, or the composition root resolves a state object. */
function violations(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = []
  for (const [path, text] of files) {
    const body = code(text)
    for (const [name, { declared, writer }] of Object.entries(WRITERS)) {
      if (path === declared || path === writer) continue
      if (path.startsWith('composition/')) {
        if (new RegExp(`\\.get(<[^>]*>)?\\(${name}\\)`).test(body)) out.push(`${path} resolves ${name} itself`)
      } else if (new RegExp(`\\b${name}\\b`).test(body)) out.push(`${path} names ${name}, which only ${writer} may write through`)
    }
  }
  return out
}

describe('state ownership', () => {
  test('each writing type is named only by its file and its one writer', () => {
    expect(violations(sources())).toEqual([])
  })

  test('a class handed a writer it does not own fails the check, and so does the composition root changing a state', () => {
    const files = sources()
    const guard = files.get('core/application/guard-edit.ts') ?? ''
    const planted = new Map(files)
    planted.set('core/application/guard-edit.ts', guard.replace('private readonly conversation: ConversationReads', 'private readonly conversation: ConversationState'))
    planted.set('composition/container.ts', `${files.get('composition/container.ts') ?? ''}\nexport const end = (c: Container) => c.get(StartState).end()\n`)
    expect(violations(planted)).toEqual([
      'core/application/guard-edit.ts names ConversationState, which only core/application/record-repository.ts may write through',
      'composition/container.ts resolves StartState itself',
    ])
  })
})
