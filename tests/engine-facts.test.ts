// What the engine does that the plugin's design rests on (docs/engine.md, "A $ call outlives its hook"),
// shown with an inline plugin beside hark-memory: a `$` call started in one hook goes on after that hook has
// settled, and a later hook can await it; so can a `$` call made from its continuation.
import { expect, test } from 'claude-code/testing'
import { createWorld } from './world'

test(
  'a $ call started in session.start settles after that hook, and prompt.context awaits it',
  {
    timeoutMs: 30_000,
    plugins: [
      {
        name: 'late-call-probe',
        register: (on) => {
          let pending: Promise<string> | undefined
          on('session.start', async ($, e, next) => {
            // Not awaited: the hook settles at once.
            pending = $.clock.sleep(1_000).then(async () => `slept, then read ${String(await $.env.get('PROBE'))}`)
            return next(e)
          })
          on('prompt.context', async (_$, e, next) => {
            const below = await next(e)
            const text = pending === undefined ? 'nothing started' : await pending
            return { ...below, blocks: [...below.blocks, { name: 'probe', text }] }
          })
        },
      },
    ],
  },
  async ($, on) => {
    const world = createWorld(on, { env: { PROBE: 'late' } })
    await $.session.start({ cwd: '/nowhere', surface: null, isInteractive: false })
    // The probe's wait is still running: the mock clock has not moved.
    await world.clock.advance(1_000)
    const out = (await $.prompt.context({ blocks: [], instructionFiles: [] } as never)) as { blocks: { name: string; text: string }[] }
    expect(out.blocks.find((b) => b.name === 'probe')?.text).toBe('slept, then read late')
  },
)
