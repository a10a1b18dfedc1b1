/**
 * The status line (SPEC.md: the status line), drawn for what the plugin knows now whenever that may have
 * changed: no key; the key refused (by any request: KeyWatch); offline (the last brief fetch failed and none
 * is in); else online, with the handoff's state and how many proposals need a person. Nothing outside a Hark
 * project, and nothing once the conversation has ended (`/clear`: the next one draws its own).
 */
import { statusLine } from '../domain/status'
import type { Host } from '../ports/host.port'
import type { BriefReads } from './brief-service'
import type { ConversationReads } from './conversation-state'
import type { Settings } from './settings'
import type { StartReads } from './start-session'

export class StatusLine {
  constructor(
    private readonly start: StartReads,
    private readonly conversation: ConversationReads,
    private readonly settings: Settings,
    private readonly briefs: BriefReads,
    private readonly host: Host,
  ) {}

  show(): void {
    const { project, ended } = this.start
    if (!project || ended) return
    const { venture } = project
    const { briefs } = this
    const kind = !this.settings.accessKey ? 'no-key' : briefs.keyRefused ? 'key-refused' : !briefs.online && !briefs.brief ? 'offline' : 'online'
    const status = this.conversation.view?.status ?? this.conversation.record?.status
    this.host.status(statusLine(kind === 'online' ? { kind, venture, state: status?.state ?? 'Open', needYou: status?.needYou ?? 0 } : { kind, venture }))
  }
}
