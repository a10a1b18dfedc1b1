/**
 * The Hark feature (SPEC.md: Every outbound request): over each call's endpoint, the MCP gateway with the
 * request identity, wrapped by KeyWatch so any request Hark refuses the key for turns the status line; for the
 * load, the identity's cache and each tool's last answer (for /hark doctor).
 */
import { HarkAnswers } from '../../core/application/hark-answers'
import { BriefState } from '../../core/application/brief-service'
import { ConversationState } from '../../core/application/conversation-state'
import { KeyWatch } from '../../core/application/key-watch'
import { Settings } from '../../core/application/settings'
import { StatusLine } from '../../core/application/status-line'
import { Clock } from '../../core/ports/clock.port'
import { Entropy } from '../../core/ports/entropy.port'
import { HarkGateway } from '../../core/ports/hark.port'
import { SessionInfo } from '../../core/ports/session.port'
import { token } from '../../core/ports/token'
import { McpHarkGateway, type HarkEndpoint, type HarkIdentity } from '../../adapters/hark/mcp-hark.gateway'
import { harkIdentity, IdentityCache } from '../../adapters/hark/hark-identity'
import { feature, perCall, perCallClass, perContainer } from '../bind'

/** The call's engine port for Hark's endpoint (bound by the composition root with the call's other ports). */
export const HarkEndpointId = token<HarkEndpoint>('HarkEndpoint')
const HarkIdentityId = token<HarkIdentity>('HarkIdentity')

export const harkFeature = feature({
  load: (bind) => {
    perContainer(
      bind,
      IdentityCache,
      HarkAnswers, // written by McpHarkGateway alone
    )
  },
  call: (bind) => {
    perCall(bind, HarkIdentityId, harkIdentity, [Settings, ConversationState, IdentityCache, SessionInfo, Entropy])
    perCallClass(bind, McpHarkGateway, [HarkEndpointId, Clock, HarkIdentityId, HarkAnswers])
    perCallClass(bind, KeyWatch, [McpHarkGateway, BriefState, StatusLine], HarkGateway)
  },
})
