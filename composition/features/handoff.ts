/**
 * The handoff feature (SPEC.md: The handoff; session.end; the multi-process protocol): what the conversation
 * has claimed ahead of its exit; over each call, gathering what the store shows, the request and the handoffs
 * kept for later; the use cases that hand off and that see the conversation move to another process.
 */
import { BriefState } from '../../core/application/brief-service'
import { Claims } from '../../core/application/claims'
import { ConversationState } from '../../core/application/conversation-state'
import { DeliverLater } from '../../core/application/deliver-later'
import { DetectMove } from '../../core/application/detect-move'
import { GatherHandoff } from '../../core/application/gather-handoff'
import { HandOff, HandoffAhead } from '../../core/application/hand-off'
import { HandoffRequest } from '../../core/application/handoff-request'
import { ProjectPaths } from '../../core/application/project-paths'
import { RecordRepository } from '../../core/application/record-repository'
import { Settings } from '../../core/application/settings'
import { StartState } from '../../core/application/start-session'
import { StoreCalls } from '../../core/application/store-calls'
import { UndeliveredStore } from '../../core/application/undelivered-store'
import { Clock } from '../../core/ports/clock.port'
import { Entropy } from '../../core/ports/entropy.port'
import { Files } from '../../core/ports/files.port'
import { HarkGateway } from '../../core/ports/hark.port'
import { Host } from '../../core/ports/host.port'
import { feature, partOf, perCallClass, perContainer, useCase } from '../bind'

export const handoffFeature = feature({
  conversation: (bind) => perContainer(bind, HandoffAhead), // HandOff
  call: (bind) => {
    perCallClass(bind, DeliverLater, [UndeliveredStore, HarkGateway, Clock, Host])
    // A use case, and /hark handoff's collaborator too: bound per call, so both share one.
    perCallClass(bind, HandOff, [GatherHandoff, Claims, RecordRepository, HandoffRequest, HandoffAhead, Clock])
  },
  load: (bind) => {
    useCase(bind, DetectMove, [StartState, ConversationState, Files, RecordRepository, Clock])
    partOf(bind, UndeliveredStore, [StoreCalls, Claims, Clock, Entropy]) // DeliverLater's
    partOf(bind, GatherHandoff, [StartState, BriefState, ConversationState, RecordRepository, Clock])
    partOf(bind, HandoffRequest, [HarkGateway, Host, Settings, ProjectPaths, DeliverLater, ConversationState])
  },
})
