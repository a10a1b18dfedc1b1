/**
 * The start feature (SPEC.md: session.start, prompt.submit, tool.result): the load's start facts; the
 * conversation's start and the paths placed for it, over each call's ports; the use cases that start (finding
 * the project and the conversation, loading it and pruning the store, as its parts), note a prompt and record
 * the work.
 */
import { BriefAtStart } from '../../core/application/brief-at-start'
import { ConversationState } from '../../core/application/conversation-state'
import { DeliverLater } from '../../core/application/deliver-later'
import { FindConversation } from '../../core/application/find-conversation'
import { FindProject } from '../../core/application/find-project'
import { LoadConversation } from '../../core/application/load-conversation'
import { NotePrompt } from '../../core/application/note-prompt'
import { PathState, ProjectPaths } from '../../core/application/project-paths'
import { RecordRepository } from '../../core/application/record-repository'
import { RecordWork } from '../../core/application/record-work'
import { Settings } from '../../core/application/settings'
import { PluginLoad, StartSession, StartState } from '../../core/application/start-session'
import { StoreCalls } from '../../core/application/store-calls'
import { StorePruning } from '../../core/application/store-pruning'
import { Claims } from '../../core/application/claims'
import { Clock } from '../../core/ports/clock.port'
import { Entropy } from '../../core/ports/entropy.port'
import { Files } from '../../core/ports/files.port'
import { Host } from '../../core/ports/host.port'
import { SessionInfo } from '../../core/ports/session.port'
import { feature, partOf, perCallClass, perContainer, useCase } from '../bind'

export const startFeature = feature({
  load: (bind) => {
    perContainer(bind, PluginLoad) // LoadConversation
    useCase(bind, StartSession, [StartState, FindProject, LoadConversation, BriefAtStart, Host, Clock])
    useCase(bind, NotePrompt, [StartState, ConversationState, RecordRepository])
    useCase(bind, RecordWork, [StartState, ConversationState, Settings, RecordRepository])
    partOf(bind, FindProject, [SessionInfo, Files, Host, Settings, PluginLoad])
    partOf(bind, LoadConversation, [FindConversation, PluginLoad, RecordRepository, StorePruning, DeliverLater, Clock])
    partOf(bind, FindConversation, [SessionInfo, Clock, Entropy, ProjectPaths])
    partOf(bind, StorePruning, [StoreCalls, RecordRepository, Claims, ConversationState, Clock])
  },
  conversation: (bind) => {
    perContainer(
      bind,
      StartState, // StartSession (the brief owed: ProvideContext)
      PathState, // ProjectPaths
    )
  },
  call: (bind) => {
    perCallClass(bind, ProjectPaths, [PathState, Files, SessionInfo])
  },
})
