/**
 * The edit guard feature (SPEC.md: The edit guard): the conversation's guard memory; the use case that asks
 * before an edit and records it after, with what covers a path and when the decisions are fetched as its parts.
 */
import { BriefState } from '../../core/application/brief-service'
import { ConversationState } from '../../core/application/conversation-state'
import { DecisionFetch } from '../../core/application/decision-fetch'
import { GuardEdit } from '../../core/application/guard-edit'
import { GuardMatch } from '../../core/application/guard-match'
import { GuardState } from '../../core/application/guard-state'
import { ProjectPaths } from '../../core/application/project-paths'
import { RecordRepository } from '../../core/application/record-repository'
import { StartState } from '../../core/application/start-session'
import { Clock } from '../../core/ports/clock.port'
import { HarkGateway } from '../../core/ports/hark.port'
import { Host } from '../../core/ports/host.port'
import { feature, partOf, perContainer, useCase } from '../bind'

export const guardFeature = feature({
  conversation: (bind) => perContainer(bind, GuardState), // DecisionFetch, GuardMatch (compacted: Compact)
  load: (bind) => {
    useCase(bind, GuardEdit, [StartState, ProjectPaths, GuardMatch, ConversationState, RecordRepository, Host])
    partOf(bind, GuardMatch, [GuardState, BriefState, DecisionFetch])
    partOf(bind, DecisionFetch, [GuardState, StartState, HarkGateway, Clock, Host])
  },
})
