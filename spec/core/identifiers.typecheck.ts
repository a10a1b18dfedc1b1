// Checked by `tsc -p spec/tsconfig.json` (a step of `npm test`), never run: the conversation key (never
// leaves the machine), the conversation id (sent as `_meta.conversation`) and the project (sent as
// `venture`) are types of their own, so one cannot be passed where another goes.
import type { HarkIdentity } from '../../adapters/hark/mcp-hark.gateway'
import { newRecord } from '../../core/domain/conversation/record'
import { claimKey, type ConversationId, type ConversationKey } from '../../core/domain/conversation/keys'
import { buildHandoff } from '../../core/domain/handoff'
import type { Venture } from '../../core/domain/project'
import type { HarkGateway } from '../../core/ports/hark.port'
import { NO_WORK } from '../../core/domain/work'

export function identifiers(key: ConversationKey, id: ConversationId, venture: Venture, hark: HarkGateway): void {
  newRecord(id)
  claimKey(key, 0, 0, 'r')
  void hark.getBrief(venture)
  // @ts-expect-error the key where the id goes
  newRecord(key)
  // @ts-expect-error the id where the key goes
  claimKey(id, 0, 0, 'r')
  // @ts-expect-error the key sent to Hark as the project
  void hark.getBrief(key)
  // @ts-expect-error the key in end_session's venture
  buildHandoff(key, NO_WORK)
  // @ts-expect-error a plain string as the conversation id of a request
  const identity: Pick<HarkIdentity, 'conversationId'> = { conversationId: () => 'plain' }
  void identity
}
