/**
 * The composition root: the one place that names concrete classes. Three inversify containers, one
 * per lifetime (docs/architecture.md, Lifetimes):
 *
 *   load          the root container: settings, entropy, the load's start facts,
 *                 the store's health and save queue, the request identity; until the engine reloads
 *                 the module.
 *   conversation  a child of the root, made for each conversation and dropped when `/clear` or a
 *                 resume ends it: the start's phase and project, this process's record and view, the
 *                 brief, the edit guard's decisions, the paths placed for it.
 *   hook call     a child of the conversation's container, holding that call's engine ports; the
 *                 services and use cases resolve from it, one instance per class per call.
 *
 * The services a call shares are bound in the call's container (one each per call); the use cases are
 * bound once, in the root, in request scope, and resolved from the call's container when the hook first
 * asks for one, so they see that call's ports and its conversation's state. Bound with the programmatic
 * API (the engine refuses decorators) through the typed helpers of ./bind.
 */
import { Container, ContainerModule } from '../vendor/inversify.js'
import { BriefService, BriefState } from '../core/application/brief-service'
import { Compact } from '../core/application/compact'
import { BriefCache } from '../core/application/brief-cache'
import { Claims, HeldClaims } from '../core/application/claims'
import { ConversationState } from '../core/application/conversation-state'
import { DeliverLater } from '../core/application/deliver-later'
import { Doctor } from '../core/application/doctor'
import { HarkAnswers } from '../core/application/hark-answers'
import { DetectMove } from '../core/application/detect-move'
import { GuardEdit, GuardState } from '../core/application/guard-edit'
import { FindProject } from '../core/application/find-project'
import { HandOff, HandoffAhead } from '../core/application/hand-off'
import { GatherHandoff } from '../core/application/gather-handoff'
import { HandoffRequest } from '../core/application/handoff-request'
import { HarkCommand, ProjectLink } from '../core/application/hark-command'
import { KeyWatch } from '../core/application/key-watch'
import { LoadConversation } from '../core/application/load-conversation'
import { NotePrompt } from '../core/application/note-prompt'
import { ProvideContext } from '../core/application/provide-context'
import { RecordRepository } from '../core/application/record-repository'
import { RecordWork } from '../core/application/record-work'
import { Settings, settingsFrom } from '../core/application/settings'
import { PathState, ProjectPaths } from '../core/application/project-paths'
import { PluginLoad, StartSession, StartState } from '../core/application/start-session'
import { StoreCalls, StoreHealth } from '../core/application/store-calls'
import { StorePruning } from '../core/application/store-pruning'
import { UndeliveredStore } from '../core/application/undelivered-store'
import { Clock } from '../core/ports/clock.port'
import { Entropy } from '../core/ports/entropy.port'
import { Files } from '../core/ports/files.port'
import { HarkGateway } from '../core/ports/hark.port'
import { Host } from '../core/ports/host.port'
import { SessionInfo } from '../core/ports/session.port'
import { KeyValueStore } from '../core/ports/store.port'
import { token, type Token } from '../core/ports/token'
import type { Application, UseCases } from '../adapters/claude-code/application'
import type { EnginePorts } from '../adapters/claude-code/engine-ports'
import { webCryptoEntropy } from '../adapters/claude-code/web-crypto'
import { McpHarkGateway, type HarkEndpoint, type HarkIdentity } from '../adapters/hark/mcp-hark.gateway'
import { harkIdentity, IdentityCache } from '../adapters/hark/hark-identity'
import { callModule, conversationModule, loadModule, perCall, perCallClass, perContainer, useCase, useCaseMade } from './bind'

const HarkEndpointId = token<HarkEndpoint>('HarkEndpoint')
const HarkIdentityId = token<HarkIdentity>('HarkIdentity')

/** The plugin load: values and load-lived state that take no call's port. */
function loadBindings(settings: Settings) {
  return loadModule((bind) => {
    bind(Settings).toConstantValue(settings)
    bind(Entropy).toConstantValue(webCryptoEntropy())
    perContainer(
      bind,
      PluginLoad, // LoadConversation
      StoreHealth, // StoreCalls
      IdentityCache,
      ProjectLink,
      HarkAnswers, // written by McpHarkGateway alone
    )
  })
}

/** One conversation: its state, each piece changed by the one service named beside it. */
const conversationBindings = conversationModule((bind) => {
  perContainer(
    bind,
    StartState, // StartSession (the brief owed: ProvideContext)
    ConversationState, // RecordRepository (moved: DetectMove)
    HeldClaims, // Claims
    HandoffAhead, // HandOff
    BriefState, // BriefService
    GuardState, // GuardEdit
    PathState, // ProjectPaths
  )
})

/**
 * What the use cases of one call share, over its ports: Hark over MCP (the gateway, its identity), the
 * store's protocol, the brief. Bound in each call's container.
 */
const callBindings = callModule((bind) => {
  perCall(bind, HarkIdentityId, harkIdentity, [Settings, ConversationState, IdentityCache, SessionInfo, Entropy])
  // Every request but the brief watched for a refused key (the status line: KeyWatch); each answer noted for /hark doctor.
  perCall(
    bind,
    HarkGateway,
    (endpoint: HarkEndpoint, clock: Clock, identity: HarkIdentity, answers: HarkAnswers, ...watch: [briefs: BriefState, start: StartState, conversation: ConversationState, settings: Settings, host: Host]) =>
      new KeyWatch(new McpHarkGateway(endpoint, clock, identity, answers), ...watch),
    [HarkEndpointId, Clock, HarkIdentityId, HarkAnswers, BriefState, StartState, ConversationState, Settings, Host],
  )
  perCallClass(bind, StoreCalls, [KeyValueStore, Clock, Host, StoreHealth])
  perCallClass(bind, RecordRepository, [StoreCalls, Clock, Entropy, Host, ConversationState])
  perCallClass(bind, Claims, [StoreCalls, Clock, Entropy, ConversationState, HeldClaims])
  perCallClass(bind, ProjectPaths, [PathState, Files, SessionInfo])
  // The parts a service alone uses are built with it, by plain `new` (each binding a call resolves costs the call).
  perCall(
    bind,
    DeliverLater,
    (calls: StoreCalls, claims: Claims, clock: Clock, entropy: Entropy, hark: HarkGateway, host: Host) => new DeliverLater(new UndeliveredStore(calls, claims, clock, entropy), hark, clock, host),
    [StoreCalls, Claims, Clock, Entropy, HarkGateway, Host],
  )
  perCallClass(bind, Doctor, [StartState, Settings, SessionInfo, HarkAnswers, ConversationState, StoreHealth, StoreCalls, DeliverLater, Clock])
  perCall(
    bind,
    BriefService,
    (state: BriefState, start: StartState, conversation: ConversationState, settings: Settings, hark: HarkGateway, records: RecordRepository, calls: StoreCalls, clock: Clock, host: Host) =>
      new BriefService(state, start, conversation, settings, hark, records, new BriefCache(calls), clock, host),
    [BriefState, StartState, ConversationState, Settings, HarkGateway, RecordRepository, StoreCalls, Clock, Host],
  )
  // A use case, and /hark handoff's collaborator too: bound per call, so both share one.
  perCall(
    bind,
    HandOff,
    (start: StartState, briefs: BriefState, conversation: ConversationState, records: RecordRepository, clock: Clock, claims: Claims, ahead: HandoffAhead, hark: HarkGateway, host: Host, settings: Settings, paths: ProjectPaths, later: DeliverLater) =>
      new HandOff(new GatherHandoff(start, briefs, conversation, records, clock), claims, records, new HandoffRequest(hark, host, settings, paths, later, conversation), ahead, clock),
    [StartState, BriefState, ConversationState, RecordRepository, Clock, Claims, HandoffAhead, HarkGateway, Host, Settings, ProjectPaths, DeliverLater],
  )
})

/** The use cases, one per SPEC.md hook (docs/architecture.md maps them). */
const useCaseBindings = loadModule((bind) => {
  // The start's look-ups, its load of the conversation and the store's pruning serve the start alone.
  useCaseMade(
    bind,
    StartSession,
    (state: StartState, session: SessionInfo, files: Files, host: Host, settings: Settings, load: PluginLoad, clock: Clock, entropy: Entropy, paths: ProjectPaths, records: RecordRepository, calls: StoreCalls, claims: Claims, conversation: ConversationState, delivery: DeliverLater, briefs: BriefService) =>
      new StartSession(state, new FindProject(session, files, host, settings, load), new LoadConversation(session, clock, entropy, paths, load, records, new StorePruning(calls, records, claims, conversation, clock), delivery), briefs, host, clock),
    [StartState, SessionInfo, Files, Host, Settings, PluginLoad, Clock, Entropy, ProjectPaths, RecordRepository, StoreCalls, Claims, ConversationState, DeliverLater, BriefService],
  )
  useCase(bind, ProvideContext, [StartState, BriefState, ConversationState, RecordRepository])
  useCase(bind, NotePrompt, [StartState, ConversationState, RecordRepository])
  useCase(bind, Compact, [StartState, GuardState, BriefService, RecordRepository, Host])
  useCase(bind, DetectMove, [StartState, ConversationState, Files, RecordRepository, Clock])
  useCase(bind, GuardEdit, [GuardState, StartState, ConversationState, BriefState, HarkGateway, RecordRepository, Clock, Host, ProjectPaths])
  useCase(bind, RecordWork, [StartState, ConversationState, Settings, RecordRepository])
  useCase(bind, HarkCommand, [StartState, ConversationState, ProjectLink, BriefService, HandOff, HarkGateway, RecordRepository, DeliverLater, Doctor])
})

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
  conversation.load(conversationBindings)
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
  call.load(callBindings)
  for (const [name, id] of Object.entries(PORTS)) call.bind(id).toConstantValue(ports[name as keyof EnginePorts])
  return call
}

/** The load's container. `overrides` lets a test or a local setup rebind a load-lived value. */
export function createContainer(options: Readonly<Record<string, unknown>>, ...overrides: ContainerModule[]): Container {
  const root = new Container()
  root.load(loadBindings(settingsFrom(options)), useCaseBindings, ...overrides)
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
