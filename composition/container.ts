/**
 * The composition root: the one place that names concrete classes. Three inversify containers, one
 * per lifetime (docs/architecture.md, Lifetimes):
 *
 *   load          the root container: settings, entropy, the load's start facts, the store's health, the
 *                 request identity's cache; until the engine reloads the module.
 *   conversation  a child of the root, made for each conversation and dropped when `/clear` or a
 *                 resume ends it: the start's phase and project, this process's record and view, the
 *                 brief, the edit guard's decisions, the paths placed for it.
 *   hook call     a child of the conversation's container, holding that call's engine ports; the
 *                 services and use cases resolve from it, one instance per class per call.
 *
 * Each feature (./features) binds its parts in the container of each one's lifetime; the use cases are
 * bound once, in the root, in request scope, and resolved from the call's container when the hook first
 * asks for one, so they see that call's ports and its conversation's state. Bound with the programmatic
 * API (the engine refuses decorators) through the typed helpers of ./bind.
 */
import { Container, type ContainerModule } from '../vendor/inversify.js'
import { Compact } from '../core/application/compact'
import { DetectMove } from '../core/application/detect-move'
import { GuardEdit } from '../core/application/guard-edit'
import { HandOff } from '../core/application/hand-off'
import { HarkCommand } from '../core/application/hark-command'
import { NotePrompt } from '../core/application/note-prompt'
import { ProvideContext } from '../core/application/provide-context'
import { RecordWork } from '../core/application/record-work'
import { Settings, settingsFrom } from '../core/application/settings'
import { StartSession } from '../core/application/start-session'
import { Clock } from '../core/ports/clock.port'
import { Entropy } from '../core/ports/entropy.port'
import { Files } from '../core/ports/files.port'
import { Host } from '../core/ports/host.port'
import { SessionInfo } from '../core/ports/session.port'
import { KeyValueStore } from '../core/ports/store.port'
import type { Token } from '../core/ports/token'
import type { Application, UseCases } from '../adapters/claude-code/application'
import type { EnginePorts } from '../adapters/claude-code/engine-ports'
import { webCryptoEntropy } from '../adapters/claude-code/web-crypto'
import { loadModule, type Feature } from './bind'
import { briefFeature } from './features/brief'
import { commandFeature } from './features/command'
import { guardFeature } from './features/guard'
import { handoffFeature } from './features/handoff'
import { harkFeature, HarkEndpointId } from './features/hark'
import { startFeature } from './features/start'
import { storeFeature } from './features/store'

const FEATURES: readonly Feature[] = [storeFeature, harkFeature, startFeature, briefFeature, guardFeature, handoffFeature, commandFeature]

/** Each feature's modules for one lifetime's container. */
const modulesFor = (lifetime: keyof Feature): ContainerModule[] => FEATURES.flatMap((f) => f[lifetime] ?? [])
const LOAD_MODULES = modulesFor('load')
const CONVERSATION_MODULES = modulesFor('conversation')
const CALL_MODULES = modulesFor('call')

/** The plugin load's values: the settings read from the plugin's options, and the source of randomness. */
function loadValues(settings: Settings): ContainerModule {
  return loadModule((bind) => {
    bind(Settings).toConstantValue(settings)
    bind(Entropy).toConstantValue(webCryptoEntropy())
  })
}

/** Which class serves each use case the hooks adapter names. */
const USE_CASES: { readonly [K in keyof UseCases]: abstract new (...args: never[]) => UseCases[K] } = {
  start: StartSession,
  context: ProvideContext,
  prompt: NotePrompt,
  guard: GuardEdit,
  work: RecordWork,
  move: DetectMove,
  handOff: HandOff,
  compact: Compact,
  command: HarkCommand,
}

/**
 * One call's use cases, each resolved when the hook first asks for it, and kept for the rest of the call
 * (a hook that starts the conversation, then guards an edit, builds StartSession and GuardEdit only).
 */
function callUseCases(call: Container): UseCases {
  const built: Record<string, unknown> = {}
  const useCases = {}
  for (const [name, id] of Object.entries(USE_CASES)) {
    Object.defineProperty(useCases, name, { enumerable: true, get: () => (built[name] ??= call.get<unknown>(id)) })
  }
  return useCases as UseCases
}

/** A new conversation's container, a child of the load's. */
function conversationContainer(root: Container): Container {
  const conversation = new Container({ parent: root })
  conversation.load(...CONVERSATION_MODULES)
  return conversation
}

/** The identifier each of a call's engine ports is bound under. */
const PORTS: { readonly [K in keyof EnginePorts]: Token<EnginePorts[K]> } = {
  store: KeyValueStore,
  clock: Clock,
  host: Host,
  files: Files,
  session: SessionInfo,
  hark: HarkEndpointId,
}

/** One hook call's container: its engine ports, in a child of the conversation's container. */
function callContainer(conversation: Container, ports: EnginePorts): Container {
  const call = new Container({ parent: conversation })
  call.load(...CALL_MODULES)
  for (const [name, id] of Object.entries(PORTS)) call.bind(id).toConstantValue(ports[name as keyof EnginePorts])
  return call
}

/** The load's container. `overrides` lets a test or a local setup rebind a load-lived value. */
export function createContainer(options: Readonly<Record<string, unknown>>, ...overrides: ContainerModule[]): Container {
  const root = new Container()
  root.load(loadValues(settingsFrom(options)), ...LOAD_MODULES, ...overrides)
  return root
}

/**
 * The application the hooks adapter drives: one load, its current conversation, a container per call.
 * Lifetime hazard: nothing bound in the root or a conversation's container may take a call's port (see ./bind).
 */
export function compose(options: Readonly<Record<string, unknown>>): Application {
  const root = createContainer(options)
  let conversation = conversationContainer(root)
  return {
    useCases: (ports) => callUseCases(callContainer(conversation, ports)),
    endConversation: () => {
      conversation = conversationContainer(root)
    },
  }
}
