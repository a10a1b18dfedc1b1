// What the fake Hark receives, one short line per request, for a person watching a hand run
// (npm run fake-hark): the time, the tool, its arguments cut short, and the outcome. The full requests stay in
// hark.jsonl; this reads that log as it grows.
import fs from 'node:fs'

const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** One argument's value, short: a string cut at 32 characters, a list as its length, an object as {…}. */
function shortValue(value) {
  if (typeof value === 'string') return JSON.stringify(clip(value.replace(/\s+/g, ' '), 32))
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`
  if (value !== null && typeof value === 'object') return '{…}'
  return String(value)
}

/**
 * One log entry of lib/fake-hark.mjs (`{ t, receivedAt, tool, method, arguments, outcome, status }`) as a line:
 * `06:12:03  get_agent_brief  venture="V-012" depth="compact"  → ok (HTTP 200, 14 ms)`.
 */
export function describeRequest(entry) {
  const time = String(entry.t ?? '').slice(11, 19)
  const what = entry.tool ?? entry.method ?? entry.http ?? '?'
  const args = Object.entries(entry.arguments ?? {}).map(([k, v]) => `${k}=${shortValue(v)}`).join(' ')
  const ms = entry.receivedAt && entry.t ? Date.parse(entry.t) - Date.parse(entry.receivedAt) : undefined
  const outcome = `${entry.outcome ?? '?'} (HTTP ${entry.status ?? '?'}${Number.isFinite(ms) ? `, ${ms} ms` : ''})`
  return `${time}  ${what}${args ? `  ${clip(args, 120)}` : ''}  → ${outcome}`
}

/**
 * Prints a line for each entry appended to `file` (JSON lines), checking every `everyMs`. Returns stop().
 * A line that is not JSON is printed as it is.
 */
export function followLog(file, print, everyMs = 200) {
  let offset = 0
  let rest = ''
  const read = () => {
    if (!fs.existsSync(file)) return
    const size = fs.statSync(file).size
    if (size <= offset) return
    const fd = fs.openSync(file, 'r')
    const buffer = Buffer.alloc(size - offset)
    fs.readSync(fd, buffer, 0, buffer.length, offset)
    fs.closeSync(fd)
    offset = size
    const lines = (rest + buffer.toString('utf8')).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines.filter(Boolean)) {
      let entry
      try {
        entry = JSON.parse(line)
      } catch {
        print(line)
        continue
      }
      print(describeRequest(entry))
    }
  }
  const timer = setInterval(read, everyMs)
  return () => {
    clearInterval(timer)
    read()
  }
}
