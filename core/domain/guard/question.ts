/**
 * What the user and Claude read from the edit guard (SPEC.md: The edit guard): the question shown in
 * Claude Code's Allow/Stop dialog and the deny text Claude reads on Stop. Every record's title and
 * why, ten records at most, one line each, without control or bidi characters. Pure; never throws.
 */
import { object } from '../item'
import { display, type GuardRecord } from './records'

/** Records listed in the question and the deny text; the rest are counted. */
export const LISTED_RECORDS = 10
const SHOWN_TITLE = 120
const SHOWN_WHY = 200
const SHOWN_PATH = 160

/** The question shown in Claude Code's dialog (`$.ui.ask(question, ['Allow', 'Stop'])`); ends in `?`. */
export function guardQuestion(relativePath: string, matches: readonly GuardRecord[]): string {
  const list = recordsOf(matches)
  const path = shownPath(relativePath)
  return [
    `${path} is covered by ${count(list)}:`,
    '',
    ...listed(list, '•', (label, title, why) => `${label}: ${title}${why === '' ? '' : `\n  Why: ${why}`}`),
    '',
    `Allow is remembered for ${list.length === 1 ? 'this record' : 'these records'} for the rest of this conversation; Stop refuses this edit.`,
    `Allow this edit of ${path}?`,
  ].join('\n')
}

/** The deny text Claude reads on Stop: which records, why, and to ask the user rather than retry. */
export function stopReason(relativePath: string, matches: readonly GuardRecord[]): string {
  const list = recordsOf(matches)
  return [
    `The user chose Stop in Hark's edit guard: this edit of ${shownPath(relativePath)} is covered by ${count(list)}:`,
    ...listed(list, '-', (label, title, why) => `${label} "${title}"${why === '' ? '' : ` (why: ${why})`}`),
    'Do not retry this edit, and do not make the same change another way (another tool, a shell command or another file).',
    'Ask the user how they want to proceed.',
  ].join('\n')
}

/** The first LISTED_RECORDS records, each `bullet` and its `line` (given its label, title and why as shown), then how many more. */
function listed(list: readonly GuardRecord[], bullet: string, line: (label: string, title: string, why: string) => string): string[] {
  const out = list.slice(0, LISTED_RECORDS).map((r) => `${bullet} ${line(label(r), display(r.title, SHOWN_TITLE), display(r.why, SHOWN_WHY))}`)
  if (list.length > LISTED_RECORDS) out.push(`${bullet} …and ${list.length - LISTED_RECORDS} more`)
  return out
}

function recordsOf(matches: readonly GuardRecord[]): GuardRecord[] {
  if (!Array.isArray(matches)) return []
  return matches.filter((r) => object(r) !== undefined && typeof r.title === 'string')
}

/** `a Hark decision and 2 non-goals`, `3 Hark non-goals`, `no Hark record`. */
function count(list: readonly GuardRecord[]): string {
  const decisions = list.filter((r) => r.kind !== 'non-goal').length
  const parts = [amount(decisions, 'Hark decision'), amount(list.length - decisions, decisions > 0 ? 'non-goal' : 'Hark non-goal')]
  return parts.filter((p) => p !== '').join(' and ') || 'no Hark record'
}

/** `a thing`, `n things`, or `''` for none. */
function amount(n: number, thing: string): string {
  return n === 0 ? '' : n === 1 ? `a ${thing}` : `${n} ${thing}s`
}

function label(r: GuardRecord): string {
  const kind = r.kind === 'non-goal' ? 'Non-goal' : 'Decision'
  const areas = Array.isArray(r.scope?.areas) ? r.scope.areas.filter((a) => typeof a === 'string').slice(0, 3) : []
  const shown = areas.map((a) => display(a, 40)).filter((a) => a !== '')
  return shown.length === 0 ? kind : `${kind} (${shown.join(', ')})`
}

function shownPath(p: unknown): string {
  const s = display(p, Number.MAX_SAFE_INTEGER)
  if (s === '') return 'this file'
  const chars = Array.from(s)
  if (chars.length <= SHOWN_PATH) return s
  // Keep the end, where the file name is, and start at a folder boundary when there is one (a `/` before its last character).
  return `…${chars.slice(-(SHOWN_PATH - 1)).join('').replace(/^[^/]*(?=\/[^])/, '')}`
}

