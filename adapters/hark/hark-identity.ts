/**
 * Who a request to Hark comes from (SPEC.md: Every outbound request): the access key (only ever in
 * the Authorization header), the conversation id, and the User-Agent
 * `hark-mod/<plugin version> (claude-code/<engine version>)`.
 */
import type { PluginState } from '../../core/application/plugin-state'
import type { Settings } from '../../core/application/settings'
import type { Entropy } from '../../core/ports/entropy.port'
import type { SessionInfo } from '../../core/ports/session.port'
import type { HarkIdentity } from './mcp-hark.gateway'

export function harkIdentity(settings: Settings, state: PluginState, session: SessionInfo, entropy: Entropy): HarkIdentity {
  return {
    accessKey: settings.accessKey ?? '',
    conversationId: () => {
      // Before the conversation is loaded (it always is when a request goes out), a fresh id.
      const id = state.record?.conversationId ?? state.view?.conversationId
      if (id !== undefined) return id
      state.fallbackConversationId ??= entropy.randomHex(32)
      return state.fallbackConversationId
    },
    userAgent: async () => {
      if (state.userAgent !== undefined) return state.userAgent
      const plugin = (await session.pluginVersion().catch(() => undefined)) ?? 'unknown'
      const engine = await session.engineVersion().catch(() => 'unknown')
      state.userAgent = `hark-mod/${plugin} (claude-code/${engine})`
      return state.userAgent
    },
  }
}
