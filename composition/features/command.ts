/**
 * The /hark feature (SPEC.md: /hark): each project's id for the load; the use case that reads the word and
 * runs its handler, with the subcommands' handlers, the doctor and its survey of the store as its parts.
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
import { feature, partOf, perContainer, useCase } from '../bind'

export const commandFeature = feature({
  load: (bind) => {
    perContainer(bind, ProjectLink) // OpenCommand
    useCase(bind, HarkCommand, [StartState, Doctor, HarkSubcommands])
    partOf(bind, HarkSubcommands, [BriefCommand, HandoffCommand, PreviewCommand, NeedsCommand, OpenCommand])
    partOf(bind, BriefCommand, [BriefService, DeliverLater])
    partOf(bind, HandoffCommand, [HandOff, StatusLine])
    partOf(bind, PreviewCommand, [HandOff])
    partOf(bind, NeedsCommand, [ConversationState, BriefState, HarkGateway, RecordRepository, StatusLine])
    partOf(bind, OpenCommand, [ProjectLink, HarkGateway])
    partOf(bind, Doctor, [StartState, Settings, SessionInfo, HarkAnswers, StoreSurvey, Clock])
    partOf(bind, StoreSurvey, [ConversationState, StoreHealth, StoreCalls, DeliverLater, Clock])
  },
})
