/**
 * The brief feature (SPEC.md: session.start, prompt.context, session.compact, the status line): the
 * conversation's brief; over each call, fetching it, keeping what came, the start's brief and the status line;
 * and the use cases that put it in the context and fetch it again at a compaction.
 */
import { BriefAtStart } from '../../core/application/brief-at-start'
import { BriefCache } from '../../core/application/brief-cache'
import { BriefService, BriefState } from '../../core/application/brief-service'
import { Compact } from '../../core/application/compact'
import { ConversationState } from '../../core/application/conversation-state'
import { GuardState } from '../../core/application/guard-state'
import { KeepBrief } from '../../core/application/keep-brief'
import { ProvideContext } from '../../core/application/provide-context'
import { RecordRepository } from '../../core/application/record-repository'
import { Settings } from '../../core/application/settings'
import { StartState } from '../../core/application/start-session'
import { StatusLine } from '../../core/application/status-line'
import { StoreCalls } from '../../core/application/store-calls'
import { Clock } from '../../core/ports/clock.port'
import { HarkGateway } from '../../core/ports/hark.port'
import { Host } from '../../core/ports/host.port'
import { feature, partOf, perCallClass, perContainer, useCase } from '../bind'

export const briefFeature = feature({
  conversation: (bind) => perContainer(bind, BriefState), // KeepBrief (a refused key: KeyWatch)
  call: (bind) => {
    perCallClass(bind, StatusLine, [StartState, ConversationState, Settings, BriefState, Host])
    perCallClass(bind, KeepBrief, [BriefState, RecordRepository, BriefCache, StatusLine, Host])
    perCallClass(bind, BriefService, [BriefState, StartState, HarkGateway, Clock, KeepBrief])
  },
  load: (bind) => {
    useCase(bind, ProvideContext, [StartState, BriefState, ConversationState, RecordRepository])
    useCase(bind, Compact, [StartState, GuardState, BriefService, RecordRepository, Host])
    partOf(bind, BriefCache, [StoreCalls]) // KeepBrief's
    partOf(bind, BriefAtStart, [ConversationState, Clock, KeepBrief, BriefService, StatusLine]) // StartSession's
  },
})
