// Stand-ins for the vendored bundles (vendor/*.js) a plugin's module imports: each with the same export names as
// the bundle and nothing behind them, so a start scans the plugin's own code alone (docs/engine.md, "Before the
// worker"); the module's register then fails in the worker, after the scan. Used by scripts/bench-load.mjs (its
// "+ own code" rows) and scripts/scan-curve.mjs.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** Writes, for each of `files` (paths relative to `source`), a stand-in at the same path under `dir`. */
export async function writeStandIns(source, files, dir) {
  for (const file of files) {
    const names = Object.keys(await import(pathToFileURL(path.join(source, file)).href))
    const text = names.map((n) => (n === 'default' ? 'export default function stub() {}' : `export class ${n} {}`)).join('\n')
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), `${text}\n`)
  }
}
