// A project's decision log of a realistic size, for `npm run bench -- --decisions N`: the demo's fixture
// (fixtures/venture.json) with its journal grown to N decision records, generated deterministically from a seed.
//
// The records have the shapes HARK-API.md gives for list_journal_entries and SPEC.md's edit guard reads, mixed
// as a real project's are: structured scopes (`scope.paths`, `scope.areas`, `scope_area`, paths and areas
// together), loose values (`applies_to`, `scope` as a string), a `(scope: …)` marker in the title, `scope: …`
// lines in the body, and about one in ten with no scope at all; statuses mostly accepted, with proposals
// (candidate / proposed), rejected, superseded (`superseded_by`) and retired ones among them. The demo's own
// records are kept, at seeded places within the first 200 (the plugin asks for 200), and no settled record
// generated here covers a file the scripted session writes (src/db/schema.sql, src/app.js): the guard names the
// demo's two decisions on the Edit and nothing on the Write, as in the demo. Records that are not settled may
// cover them (`src/db/**`, `*.sql`): the guard must skip those.
import fs from 'node:fs'
import picomatch from 'picomatch'
import { FIXTURE } from './session.mjs'

export const SEED = 0x4861726b // "Hark"
/** The files the scripted session (scenarios/session.json) edits or writes. */
const SESSION_FILES = ['src/db/schema.sql', 'src/app.js']

/** mulberry32: a small seeded generator, the same numbers on every machine. */
function random(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Globs a settled record may carry: none covers a file of the session.
const GLOBS = [
  'src/billing/**', 'src/invoices/**/*.ts', 'src/**/*.test.ts', '{lib,src}/**/index.ts', 'src/api/**', 'src/auth/**',
  'lib/**', 'migrations/*.sql', 'src/db/migrations/**', 'src/db/queries/*.sql', 'scripts/*.sh', '*.md', 'docs/**',
  '.github/workflows/*.yml', 'package.json', 'src/ui/**/*.tsx', 'src/**/*.css', 'test/**', 'config/*.json',
  'src/payments/**', 'src/reports/**/*.ts', '**/*.snap', 'Dockerfile', 'src/server.ts', 'src/jobs/**',
  'src/{api,jobs}/**/handlers/*.ts', 'src/webhooks/*.ts', 'src/**/fixtures/**', 'tsconfig*.json', 'src/i18n/*.json',
]
// Globs only records that are not settled carry: they cover the session's files.
const UNSETTLED_GLOBS = ['src/db/**', '*.sql', 'src/**', 'src/*.js']
// Area words: none is a folder of the session's files (db, src).
const AREAS = ['billing', 'invoices', 'payments', 'auth', 'reports', 'onboarding', 'mobile', 'api', 'notifications', 'search', 'exports', 'admin', 'webhooks', 'pricing', 'jobs', 'i18n']
const SUBJECTS = ['Invoices', 'Payments', 'Webhooks', 'Auth tokens', 'Reports', 'API errors', 'Background jobs', 'Migrations', 'Feature flags', 'Log lines', 'Exports', 'Search results', 'Prices', 'Sessions', 'Emails', 'Tests', 'Config files', 'Dependencies', 'Timestamps', 'Money amounts', 'Customer notes', 'Tenant ids']
const RULES = ['are immutable once sent', 'go through one module', 'use UTC everywhere', 'are stored as integer cents', 'are retried with backoff', 'never hold secrets', 'stay behind a feature flag', 'are validated at the boundary', 'use the shared error type', 'are paginated with cursors', 'are written in one transaction', 'are idempotent', 'have one owning module', 'are versioned', 'stay synchronous in v1', 'are reviewed by two people']
const REASONS = [
  'the last incident came from two code paths disagreeing', 'the accountant reads these by hand every month',
  'a customer lost a day of work when it went wrong', 'reviews were slower when each file did it its own way',
  'the provider bills per call and retries doubled the bill', 'it keeps the hot path free of surprises',
  'the auditors asked for one place to look', 'we could not reproduce the bug without it',
  'support answers the same question every week otherwise', 'the mobile client caches what the API returns',
]
const CONTEXT = [
  'Agreed in the weekly review.', 'See the incident notes from the spring.', 'Raised by support; settled with the team.',
  'Follows the payment provider\'s guide.', 'Revisit when v2 starts.', 'Measured on the staging data first.',
]

/**
 * The demo's fixture with a journal of `n` decisions (the demo's among them; the note stays too). Returns
 * { fixture (the object the fake Hark loads), stats: { decisions, demo, generated, seed, settled, scoped, settledScoped } }.
 */
export function decisionFixture(n, { fixture = FIXTURE, seed = SEED } = {}) {
  const f = JSON.parse(fs.readFileSync(fixture, 'utf8'))
  const journal = f.journal ?? []
  const demo = journal.filter((r) => r.kind === 'decision')
  const others = journal.filter((r) => r.kind !== 'decision')
  if (!Number.isInteger(n) || n < demo.length) throw new Error(`--decisions needs at least the demo's ${demo.length} decisions (or 0 for the demo's own journal), not ${n}`)
  const rnd = random(seed)
  const pick = (list) => list[Math.floor(rnd() * list.length)]
  const some = (list, most) => {
    const out = new Set()
    const k = 1 + Math.floor(rnd() * most)
    while (out.size < k) out.add(pick(list))
    return [...out]
  }
  const generated = []
  const time = Date.parse('2026-11-30T17:00:00Z')
  for (let i = 0; i < n - demo.length; i++) {
    const id = `dec-${2000 + i}`
    // Status: 72% settled, 12% proposals, 6% rejected, 8% superseded, 2% retired.
    const s = rnd()
    const status = s < 0.72 ? pick([{ status: 'accepted' }, { status: 'accepted', acceptance: 'accepted' }, { status: 'active' }])
      : s < 0.84 ? { status: 'candidate', acceptance: 'proposed' }
        : s < 0.9 ? { status: 'rejected' }
          : s < 0.98 ? { status: 'superseded', superseded_by: i === 0 ? 'dec-101' : `dec-${2000 + Math.floor(rnd() * i)}` }
            : { status: 'retired' }
    const settled = s < 0.72
    const globs = settled ? GLOBS : [...GLOBS, ...UNSETTLED_GLOBS, ...UNSETTLED_GLOBS]
    let title = `${pick(SUBJECTS)} ${pick(RULES)}`
    const why = `Because ${pick(REASONS)}.`
    const bodyLines = rnd() < 0.6 ? [pick(CONTEXT)] : []
    const record = { id, kind: 'decision', title, ...(rnd() < 0.15 ? { rationale: why } : { why }), ...status }
    // Scope: 28% structured paths, 12% structured areas, 10% both, 15% a title marker, 15% a body line,
    // 10% loose values, 10% none.
    const k = rnd()
    if (k < 0.28) record.scope = { paths: some(globs, 3) }
    else if (k < 0.40) Object.assign(record, rnd() < 0.5 ? { scope_area: pick(AREAS) } : { scope: { areas: some(AREAS, 2) } })
    else if (k < 0.50) record.scope = { paths: some(globs, 2), areas: some(AREAS, 1) }
    else if (k < 0.65) record.title = title = `${title} (scope: ${some(globs, 2).join(', ')})`
    else if (k < 0.80) bodyLines.push(`scope: ${[...some(globs, 2), ...(rnd() < 0.4 ? [pick(AREAS)] : [])].join(', ')}`)
    else if (k < 0.90) Object.assign(record, rnd() < 0.5 ? { applies_to: [pick(globs), pick(AREAS)] } : { scope: pick(globs) })
    if (bodyLines.length > 0) record.body = bodyLines.join('\n')
    record.created_at = new Date(time - Math.floor((i + rnd()) * 7.3 * 3600_000)).toISOString()
    generated.push(record)
  }
  // The demo's decisions and the note, at seeded places within the first 200 entries.
  const list = [...generated]
  for (const r of [...demo, ...others]) list.splice(Math.floor(rnd() * (Math.min(list.length, 199) + 1)), 0, r)
  const stats = { decisions: list.filter((r) => r.kind === 'decision').length, demo: demo.length, generated: generated.length, seed, ...count(list.filter((r) => r.kind === 'decision')) }
  assertNothingNew(generated)
  return { fixture: { ...f, journal: list }, stats }
}

/** Counts of decisions settled, with a scope, and both (read as the generator writes them). */
function count(records) {
  const settled = records.filter((r) => r.status === 'accepted' || r.status === 'active')
  const scoped = (r) => r.scope !== undefined || r.scope_area !== undefined || r.applies_to !== undefined || /\(scope:/.test(r.title) || /^scope:/m.test(r.body ?? '')
  return { settled: settled.length, scoped: records.filter(scoped).length, settledScoped: settled.filter(scoped).length }
}

/** Throws when a generated settled record covers a file of the session (the pools above are meant to prevent it). */
function assertNothingNew(records) {
  const covers = (glob, file) => picomatch(glob.includes('/') ? glob : `**/${glob}`, { dot: true, nocase: true })(file)
  const underArea = (area, file) => file.toLowerCase().split('/').slice(0, -1).includes(area.toLowerCase())
  for (const r of records.filter((x) => x.status === 'accepted' || x.status === 'active')) {
    const text = `${r.title}\n${r.body ?? ''}`
    const values = [
      ...(r.scope?.paths ?? []), ...(typeof r.scope === 'string' ? [r.scope] : []), ...(r.applies_to ?? []),
      ...[...text.matchAll(/\(scope: ([^)]*)\)|^scope: (.*)$/gm)].flatMap((m) => (m[1] ?? m[2]).split(', ')),
    ]
    const areas = [...(r.scope?.areas ?? []), ...(r.scope_area ? [r.scope_area] : [])]
    for (const file of SESSION_FILES) {
      const hit = values.some((v) => (/[/*?.{]/.test(v) ? covers(v, file) : underArea(v, file))) || (r.scope?.paths === undefined && areas.some((a) => underArea(a, file)))
      if (hit) throw new Error(`generated decision ${r.id} (${r.title}) covers ${file}`)
    }
  }
}
