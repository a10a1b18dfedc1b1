// A scratch HOME where an interactive Claude Code comes straight up to its prompt: the first-run questions
// answered in advance, so neither a person (npm run fake-hark) nor the tty test (e2e/tty.mjs) meets them, and
// the developer's own HOME is never read or written.
//
// The four questions and where the engine (2.1.332) keeps each answer (docs/engine.md, "A scratch HOME for an
// interactive session"):
//   onboarding       ~/.claude.json  hasCompletedOnboarding: true  (else the first-run set-up checks
//                                    api.anthropic.com and stops at "Unable to connect to Anthropic services")
//   folder trust     ~/.claude.json  projects["<project dir>"].hasTrustDialogAccepted: true
//   the API key      ~/.claude.json  customApiKeyResponses.approved: [the key's last 20 characters]
//                                    (the engine keeps `key.trim().slice(-20)`, never the whole key)
//   bypass mode      ~/.claude/settings.json  skipDangerousModePermissionPrompt: true
// Each of the last three defaults to No, so an unanswered Enter quits the session.
import fs from 'node:fs'
import path from 'node:path'

/** What the engine keeps of an approved ANTHROPIC_API_KEY: its last 20 characters, trimmed. */
export const approvedKeyTail = (apiKey) => apiKey.trim().slice(-20)

/**
 * Writes `home`'s ~/.claude.json and ~/.claude/settings.json so an interactive session in `projectDir` asks
 * nothing first. `accessKey` goes to settings' pluginConfigs["hark-memory"] (how a --plugin-dir plugin reads
 * its options); `apiKey` is the ANTHROPIC_API_KEY the session will have. Overwrites both files.
 */
export function prepareHome({ home, projectDir, apiKey, accessKey }) {
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true })
  const claudeJson = {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [approvedKeyTail(apiKey)], rejected: [] },
    projects: { [path.resolve(projectDir)]: { hasTrustDialogAccepted: true, allowedTools: [] } },
  }
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify(claudeJson, null, 2) + '\n')
  const settings = {
    skipDangerousModePermissionPrompt: true,
    ...(accessKey !== undefined && { pluginConfigs: { 'hark-memory': { options: { access_key: accessKey } } } }),
  }
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify(settings, null, 2) + '\n')
}
