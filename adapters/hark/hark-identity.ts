/**
 * Who a request to Hark comes from (SPEC.md: Every outbound request): the access key (only ever in
 * the Authorization header), the conversation id, and the User-Agent
 * `hark-mod/<plugin version> (claude-code/<engine version>)`.
 *
 * State: `IdentityCache` lives as long as the plugin load (the User-Agent, which no conversation
 * changes, and an id for a request made before any conversation loaded), through its two methods.
 */
import type { ConversationReads } from '../../core/application/conversation-state'
import { quiet } from '../../core/application/deadline'
import type { Settings } from '../../core/application/settings'
import { newConversationId, type ConversationId } from '../../core/domain/conversation/keys'
import type { Entropy } from '../../core/ports/entropy.port'
import type { SessionInfo } from '../../core/ports/session.port'
import type { HarkIdentity } from './mcp-hark.gateway'

export class IdentityCache {
  private agent: string | undefined
  private fallbackId: ConversationId | undefined

  /** The User-Agent, worked out once per load. */
  async userAgent(work: () => Promise<string>): Promise<string> {
    return (this.agent ??= await work())
  }

  /** One id for every request made before a conversation loaded. */
  fallbackConversationId(make: () => ConversationId): ConversationId {
    return (this.fallbackId ??= make())
  }
}

export function harkIdentity(settings: Settings, conversation: ConversationReads, cache: IdentityCache, session: SessionInfo, entropy: Entropy): HarkIdentity {
  return {
    accessKey: settings.accessKey ?? '',
    conversationId: () => {
      // Before the conversation is loaded (it always is when a request goes out), a fresh id.
      const id = conversation.record?.conversationId ?? conversation.view?.conversationId
      return id ?? cache.fallbackConversationId(() => newConversationId(entropy.randomHex(32)))
    },
    userAgent: () =>
      cache.userAgent(async () => {
        const [plugin, engine] = await Promise.all([quiet(session.pluginVersion()), session.engineVersion().catch(() => 'unknown')])
        return `hark-mod/${plugin ?? 'unknown'} (claude-code/${engine})`
      }),
  }
}
