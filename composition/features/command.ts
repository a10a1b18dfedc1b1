/**
 * The /hark feature (SPEC.md: /hark): each project's id for the load; over each call, the subcommands'
 * handlers and the doctor's survey of the store; the use case that reads the word and runs its handler.
 */
import { BriefService, BriefState } from '../../core/application/brief-service'
import { ConversationState } from '../../core/application/conversation-state'
import { DeliverLater } from '../../core/application/deliver-later'
import { Doctor } from '../../core/application/doctor'
import { HandOff } from '../../core/application/hand-off'
import { HarkAnswers } from '../../core/application/hark-answers'
import { HarkCommand } from '../../core/application/hark-command'
import { BriefCommand, HandoffCommand, HarkSubcommands, NeedsCommand, OpenCommand, PreviewCommand, ProjectLink } from '../../core/application/hark-subcommands'
import { RecordRepository } from '../../core/application/record-repository'
import { Settings } from '../../core/application/settings'
import { StartState } from '../../core/application/start-session'
import { StatusLine } from '../../core/application/status-line'
import { StoreCalls, StoreHealth } from '../../core/application/store-calls'
import { StoreSurvey } from '../../core/application/store-survey'
import { Clock } from '../../core/ports/clock.port'
import { HarkGateway } from '../../core/ports/hark.port'
import { SessionInfo } from '../../core/ports/session.port'
import { feature, perCallClass, perContainer, useCase } from '../bind'

export const commandFeature = feature({
  load: (bind) => {
    perContainer(bind, ProjectLink) // OpenCommand
    useCase(bind, HarkCommand, [StartState, Doctor, HarkSubcommands])
  },
  call: (bind) => {
    perCallClass(bind, BriefCommand, [BriefService, DeliverLater])
    perCallClass(bind, HandoffCommand, [HandOff, StatusLine])
    perCallClass(bind, PreviewCommand, [HandOff])
    perCallClass(bind, NeedsCommand, [ConversationState, BriefState, HarkGateway, RecordRepository, StatusLine])
    perCallClass(bind, OpenCommand, [ProjectLink, HarkGateway])
    perCallClass(bind, HarkSubcommands, [BriefCommand, HandoffCommand, PreviewCommand, NeedsCommand, OpenCommand])
    perCallClass(bind, StoreSurvey, [ConversationState, StoreHealth, StoreCalls, DeliverLater, Clock])
    perCallClass(bind, Doctor, [StartState, Settings, SessionInfo, HarkAnswers, StoreSurvey, Clock])
  },
})
