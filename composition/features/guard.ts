/**
 * The edit guard feature (SPEC.md: The edit guard): the conversation's guard memory; over each call, when the
 * decisions are fetched and what covers a path; the use case that asks before an edit and records it after.
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
import { feature, perCallClass, perContainer, useCase } from '../bind'

export const guardFeature = feature({
  conversation: (bind) => perContainer(bind, GuardState), // DecisionFetch, GuardMatch (compacted: Compact)
  call: (bind) => {
    perCallClass(bind, DecisionFetch, [GuardState, StartState, HarkGateway, Clock, Host])
    perCallClass(bind, GuardMatch, [GuardState, BriefState, DecisionFetch])
  },
  load: (bind) => useCase(bind, GuardEdit, [StartState, ProjectPaths, GuardMatch, ConversationState, RecordRepository, Host]),
})
