/**
 * The composition root: the one place that names concrete classes. An inversify container, bound
 * with the programmatic API (the engine refuses decorators), one module per feature. The root
 * container holds what lives as long as the plugin load (settings, state); each hook call gets a
 * child container holding that call's engine ports, from which its use cases resolve.
 */
import { Container, ContainerModule } from '../vendor/inversify.js'
import picomatch from '../vendor/picomatch.js'
import { BriefService } from '../core/application/brief-service'
import { Compact } from '../core/application/compact'
import { ConversationStore } from '../core/application/conversation-store'
import { DetectMove } from '../core/application/detect-move'
import { GuardEdit } from '../core/application/guard-edit'
import { HandOff } from '../core/application/hand-off'
import { HarkCommand } from '../core/application/hark-command'
import { NotePrompt } from '../core/application/note-prompt'
import { PluginState } from '../core/application/plugin-state'
import { ProvideContext } from '../core/application/provide-context'
import { RecordWork } from '../core/application/record-work'
import { Settings, settingsFrom } from '../core/application/settings'
import { StartSession } from '../core/application/start-session'
import type { GlobCompiler as Compile } from '../core/domain/guard/glob'
import { GLOB_OPTIONS } from '../core/domain/guard/glob-options'
import { Clock } from '../core/ports/clock.port'
import { Entropy } from '../core/ports/entropy.port'
import { Files } from '../core/ports/files.port'
import { HarkGateway } from '../core/ports/hark.port'
import { Host } from '../core/ports/host.port'
import { SessionInfo } from '../core/ports/session.port'
import { KeyValueStore } from '../core/ports/store.port'
import type { Application, UseCases } from '../adapters/claude-code/application'
import type { EnginePorts } from '../adapters/claude-code/engine-ports'
import { webCryptoEntropy } from '../adapters/claude-code/web-crypto'
import { McpHarkGateway, type HarkEndpoint, type HarkIdentity } from '../adapters/hark/mcp-hark.gateway'
import { harkIdentity } from '../adapters/hark/hark-identity'
import { GlobCompiler } from './tokens'

const HarkEndpointId = Symbol('HarkEndpoint')
const UseCasesId = Symbol('UseCases')
const HarkIdentityId = Symbol('HarkIdentity')

/** What lives as long as the plugin load. */
function loadModule(settings: Settings) {
  return new ContainerModule(({ bind }) => {
    bind<Settings>(Settings).toConstantValue(settings)
    bind(PluginState).toConstantValue(new PluginState())
    bind<Entropy>(Entropy).toConstantValue(webCryptoEntropy())
    bind<Compile>(GlobCompiler).toConstantValue((glob: string) => picomatch(glob, GLOB_OPTIONS))
  })
}

/** Hark over MCP: the gateway, over the call's endpoint and clock. */
const harkModule = new ContainerModule(({ bind }) => {
  bind<HarkGateway>(HarkGateway).toResolvedValue(
    (endpoint: HarkEndpoint, clock: Clock, identity: HarkIdentity) => new McpHarkGateway(endpoint, clock, identity),
    [HarkEndpointId, Clock, HarkIdentityId],
  )
  bind<HarkIdentity>(HarkIdentityId).toResolvedValue(
    (settings: Settings, state: PluginState, session: SessionInfo, entropy: Entropy) => harkIdentity(settings, state, session, entropy),
    [Settings, PluginState, SessionInfo, Entropy],
  )
})
/** The conversation's state in the store, the brief and the status line. */
const conversationModule = new ContainerModule(({ bind }) => {
  bind(ConversationStore).toResolvedValue(
    (store: KeyValueStore, clock: Clock, entropy: Entropy, host: Host, state: PluginState) => new ConversationStore(store, clock, entropy, host, state),
    [KeyValueStore, Clock, Entropy, Host, PluginState],
  )
  bind(BriefService).toResolvedValue(
    (state: PluginState, settings: Settings, hark: HarkGateway, store: ConversationStore, clock: Clock, host: Host) =>
      new BriefService(state, settings, hark, store, clock, host),
    [PluginState, Settings, HarkGateway, ConversationStore, Clock, Host],
  )
  bind(StartSession).toResolvedValue(
    (state: PluginState, settings: Settings, session: SessionInfo, files: Files, host: Host, clock: Clock, entropy: Entropy, store: ConversationStore, briefs: BriefService) =>
      new StartSession(state, settings, session, files, host, clock, entropy, store, briefs),
    [PluginState, Settings, SessionInfo, Files, Host, Clock, Entropy, ConversationStore, BriefService],
  )
  bind(ProvideContext).toResolvedValue((state: PluginState, start: StartSession, store: ConversationStore) => new ProvideContext(state, start, store), [PluginState, StartSession, ConversationStore])
  bind(NotePrompt).toResolvedValue((state: PluginState, start: StartSession, store: ConversationStore) => new NotePrompt(state, start, store), [PluginState, StartSession, ConversationStore])
  bind(Compact).toResolvedValue(
    (state: PluginState, briefs: BriefService, store: ConversationStore, host: Host) => new Compact(state, briefs, store, host),
    [PluginState, BriefService, ConversationStore, Host],
  )
  bind(DetectMove).toResolvedValue((state: PluginState, files: Files, store: ConversationStore) => new DetectMove(state, files, store), [PluginState, Files, ConversationStore])
})

/** The edit guard. */
const guardModule = new ContainerModule(({ bind }) => {
  bind(GuardEdit).toResolvedValue(
    (state: PluginState, start: StartSession, hark: HarkGateway, store: ConversationStore, clock: Clock, host: Host, session: SessionInfo, compile: Compile) =>
      new GuardEdit(state, start, hark, store, clock, host, session, compile),
    [PluginState, StartSession, HarkGateway, ConversationStore, Clock, Host, SessionInfo, GlobCompiler],
  )
})

/** Recording the work, the handoff and /hark. */
const handoffModule = new ContainerModule(({ bind }) => {
  bind(RecordWork).toResolvedValue(
    (state: PluginState, settings: Settings, start: StartSession, store: ConversationStore) => new RecordWork(state, settings, start, store),
    [PluginState, Settings, StartSession, ConversationStore],
  )
  bind(HandOff).toResolvedValue(
    (state: PluginState, hark: HarkGateway, store: ConversationStore, clock: Clock, host: Host, briefs: BriefService, settings: Settings) =>
      new HandOff(state, hark, store, clock, host, briefs, settings),
    [PluginState, HarkGateway, ConversationStore, Clock, Host, BriefService, Settings],
  )
  bind(HarkCommand).toResolvedValue(
    (state: PluginState, start: StartSession, briefs: BriefService, handOff: HandOff, hark: HarkGateway, store: ConversationStore, clock: Clock) =>
      new HarkCommand(state, start, briefs, handOff, hark, store, clock),
    [PluginState, StartSession, BriefService, HandOff, HarkGateway, ConversationStore, Clock],
  )
})

const useCasesModule = new ContainerModule(({ bind }) => {
  bind<UseCases>(UseCasesId).toResolvedValue(
    (start: StartSession, context: ProvideContext, prompt: NotePrompt, guard: GuardEdit, work: RecordWork, move: DetectMove, handOff: HandOff, compact: Compact, command: HarkCommand) => ({
      start,
      context,
      prompt,
      guard,
      work,
      move,
      handOff,
      compact,
      command,
    }),
    [StartSession, ProvideContext, NotePrompt, GuardEdit, RecordWork, DetectMove, HandOff, Compact, HarkCommand],
  )
})

/** Binds one hook call's engine ports in a child of `root`. */
function callContainer(root: Container, ports: EnginePorts): Container {
  const call = new Container({ parent: root })
  call.bind<KeyValueStore>(KeyValueStore).toConstantValue(ports.store)
  call.bind<Clock>(Clock).toConstantValue(ports.clock)
  call.bind<Host>(Host).toConstantValue(ports.host)
  call.bind<Files>(Files).toConstantValue(ports.files)
  call.bind<SessionInfo>(SessionInfo).toConstantValue(ports.session)
  call.bind<HarkEndpoint>(HarkEndpointId).toConstantValue(ports.hark)
  return call
}

/** The root container for one plugin load. `overrides` lets a test or a local setup rebind a port. */
export function createContainer(options: Readonly<Record<string, unknown>>, ...overrides: ContainerModule[]): Container {
  const root = new Container()
  root.load(loadModule(settingsFrom(options)), harkModule, conversationModule, guardModule, handoffModule, useCasesModule)
  if (overrides.length > 0) root.load(...overrides)
  return root
}

/** The application the hooks adapter drives. */
export function compose(options: Readonly<Record<string, unknown>>): Application {
  const root = createContainer(options)
  return { useCases: (ports) => callContainer(root, ports).get<UseCases>(UseCasesId) }
}
