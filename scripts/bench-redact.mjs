#!/usr/bin/env node
// The redaction's coverage and cost (docs/handoff.md, Token formats): the corpus of
// spec/fixtures/redaction-corpus.ts through the cleaning, with the targets beside the results, then
// the time the cleaning takes. Prints figures only; spec/core/redaction-corpus.spec.ts asserts the
// counts, nothing here is a test.
//
//   npm run bench:redact            (node scripts/bench-redact.mjs [--misses] [--corpus <file>])
//
// core/domain/ and the corpus are bundled on the fly with esbuild and imported from a data: URL. `--corpus` measures
// another corpus file of the same exports (an older one: the groups it lacks are left out).
import { build } from 'esbuild'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const corpusAt = process.argv.indexOf('--corpus')
const corpusFile = corpusAt > 0 ? resolve(process.argv[corpusAt + 1]) : join(root, 'spec/fixtures/redaction-corpus.ts')
const bundled = await build({
  stdin: {
    contents: [
      "export { cleanNotes, redactSecrets } from './core/domain/notes.ts'",
      "export { findTokens, tokenFormats } from './core/domain/token-formats.ts'",
      `export * from ${JSON.stringify(corpusFile)}`,
    ].join('\n'),
    resolveDir: root,
    sourcefile: 'bench-redact-entry.ts',
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
})
const m = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`)
// What the table costs the plugin: the module's evaluation (at load) and the first call, which compiles the table.
const alone = await build({ entryPoints: [join(root, 'core/domain/token-formats.ts')], bundle: true, write: false, format: 'esm', platform: 'neutral', minify: true, logLevel: 'warning' })
const aloneUrl = `data:text/javascript;base64,${Buffer.from(alone.outputFiles[0].text).toString('base64')}`
const loadStart = performance.now()
const fresh = await import(aloneUrl)
const loadMs = performance.now() - loadStart
const firstStart = performance.now()
fresh.findTokens('The first call compiles the table.')
const firstMs = performance.now() - firstStart
const { cleanNotes, findTokens, tokenFormats, TOKEN_SAMPLES, SPEC_SAMPLES, ORDINARY_PROSE, LOOK_ALIKES, ACCESS_KEY, inProse, inSettings } = m
const FAR_PROSE = m.FAR_PROSE ?? []
const CONFIG_FORMS = m.CONFIG_FORMS ?? []
const showMisses = process.argv.includes('--misses')

/** Whether the cleaned text still holds the token (whole, or its last ten characters). */
const leaks = (out, token) => out.includes(token) || out.includes(token.slice(-10))
const pct = (n, d) => `${((100 * n) / d).toFixed(1)}%`
const row = (what, target, result, ok) => console.log(`${ok ? 'met    ' : 'NOT MET'}  ${what.padEnd(58)} target ${target.padEnd(10)} result ${result}`)

console.log(`Redaction corpus: ${TOKEN_SAMPLES.length} provider token samples (${tokenFormats().length} formats in the table), ${FAR_PROSE.length} sentences naming a provider away from its token, ${CONFIG_FORMS.length} config forms, ${SPEC_SAMPLES.length} SPEC samples, ${ORDINARY_PROSE.length} ordinary sentences, ${LOOK_ALIKES.length} look-alikes\n`)

const missed = { prose: [], settings: [] }
TOKEN_SAMPLES.forEach((s, i) => {
  if (leaks(cleanNotes(inProse(s, i), ACCESS_KEY), s.token)) missed.prose.push(s)
  if (leaks(cleanNotes(inSettings(s, i), ACCESS_KEY), s.token)) missed.settings.push(s)
})
const n = TOKEN_SAMPLES.length
const proseCaught = n - missed.prose.length
const settingsCaught = n - missed.settings.length
row('provider token samples caught in prose', '>= 95%', `${pct(proseCaught, n)} (${proseCaught}/${n})`, proseCaught >= 0.95 * n)
row('provider token samples caught in settings lines', '>= 95%', `${pct(settingsCaught, n)} (${settingsCaught}/${n})`, settingsCaught >= 0.95 * n)
const farMissed = FAR_PROSE.filter(([s, text]) => leaks(cleanNotes(text, ACCESS_KEY), s.token))
if (FAR_PROSE.length > 0) {
  const far = FAR_PROSE.length - farMissed.length
  row('  …the provider named after, far before, a sentence away', '>= 96%', `${pct(far, FAR_PROSE.length)} (${far}/${FAR_PROSE.length})`, far >= 0.96 * FAR_PROSE.length)
  const prose = proseCaught + far
  row('  …all prose (both of the above)', '>= 96%', `${pct(prose, n + FAR_PROSE.length)} (${prose}/${n + FAR_PROSE.length})`, prose >= 0.96 * (n + FAR_PROSE.length))
}
const all = proseCaught + settingsCaught + FAR_PROSE.length - farMissed.length
const allN = 2 * n + FAR_PROSE.length
row('provider token samples caught in all', '>= 97.5%', `${pct(all, allN)} (${all}/${allN})`, all >= 0.975 * allN)
const formsMissed = CONFIG_FORMS.filter(([, text, secret]) => cleanNotes(text, ACCESS_KEY).includes(secret))
if (CONFIG_FORMS.length > 0) {
  const forms = CONFIG_FORMS.length - formsMissed.length
  row('passwords in config forms caught', '>= 96%', `${pct(forms, CONFIG_FORMS.length)} (${forms}/${CONFIG_FORMS.length})`, forms >= 0.96 * CONFIG_FORMS.length)
}
const specMissed = SPEC_SAMPLES.filter(([, text, secret]) => cleanNotes(text, ACCESS_KEY).includes(secret))
row('formats SPEC names caught', 'all', `${SPEC_SAMPLES.length - specMissed.length}/${SPEC_SAMPLES.length}`, specMissed.length === 0)
const changed = ORDINARY_PROSE.filter((s) => cleanNotes(s, ACCESS_KEY) !== s)
row('ordinary prose sentences changed', '0', `${changed.length}/${ORDINARY_PROSE.length}`, changed.length === 0)
const fired = LOOK_ALIKES.filter(([, s]) => findTokens(s).length > 0)
row('token rules firing on look-alikes in prose', '0', `${fired.length}/${LOOK_ALIKES.length}`, fired.length === 0)
const anyChange = LOOK_ALIKES.filter(([, s]) => cleanNotes(s, ACCESS_KEY) !== s)
row('look-alikes changed by any rule (information)', '-', `${anyChange.length}/${LOOK_ALIKES.length}`, true)
const kinds = [...new Set(LOOK_ALIKES.map(([k]) => k))]
console.log(`  look-alikes by kind: ${kinds.map((k) => `${k} ${LOOK_ALIKES.filter(([x]) => x === k).length}`).join(', ')}`)

const list = (title, items) => {
  if (items.length === 0) return
  console.log(`\n${title}:`)
  for (const item of items) console.log(`  ${item}`)
}
list('missed in prose', missed.prose.map((s) => `${s.provider} (${s.source})`))
list('missed in settings', missed.settings.map((s) => `${s.provider} (${s.source})`))
list('missed with the provider named away from the token', farMissed.map(([s, text]) => `${s.provider}: ${text}`))
list('config forms missed', formsMissed.map(([what, text]) => `${what}: ${JSON.stringify(text)}`))
list('SPEC samples missed', specMissed.map(([what]) => what))
list('ordinary sentences changed', changed)
list('look-alikes a token rule fired on', fired.map(([k, s]) => `${k}: ${s}`))
if (showMisses) list('look-alikes changed by any rule', anyChange.map(([k, s]) => `${k}: ${s} -> ${cleanNotes(s, ACCESS_KEY)}`))

// ---------------------------------------------------------------------------------------------
// Time

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]
function time(run, rounds) {
  for (let i = 0; i < Math.min(rounds, 200); i++) run() // warm up
  const xs = []
  for (let i = 0; i < rounds; i++) {
    const a = performance.now()
    run()
    xs.push(performance.now() - a)
  }
  return xs
}
const fill = (parts, size) => {
  let s = ''
  for (let i = 0; s.length < size; i++) s += `${parts[i % parts.length]}${i % 5 === 4 ? '\n\n' : ' '}`
  return s.slice(0, size)
}
const prose2k = fill(ORDINARY_PROSE, 2048)
const mixed2k = fill([...ORDINARY_PROSE.slice(0, 12), inProse(TOKEN_SAMPLES[40], 0), ...LOOK_ALIKES.slice(0, 6).map(([, s]) => s), inSettings(TOKEN_SAMPLES[7], 0)], 2048)
const prose64k = fill(ORDINARY_PROSE, 65_536)
const mixed64k = fill([...ORDINARY_PROSE, ...TOKEN_SAMPLES.map(inProse), ...LOOK_ALIKES.map(([, s]) => s)], 65_536)

console.log(`\nThe token table: ${alone.outputFiles[0].text.length} bytes minified; module parse and evaluation ${loadMs.toFixed(2)} ms; first call (compiles the table) ${firstMs.toFixed(2)} ms`)
console.log(`\nTime (node ${process.version}, ${availableParallelism?.() ?? cpus().length} cpus, load ${loadavg()[0].toFixed(1)}):`)
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`
const msf = (ms) => `${ms.toFixed(2)} ms`
const t1 = time(() => cleanNotes(prose2k, ACCESS_KEY), 3000)
row('cleanNotes, a 2 KB answer of prose: median', '<= 50 µs', `${us(median(t1))} (p95 ${us(p95(t1))})`, median(t1) <= 0.05)
const t2 = time(() => cleanNotes(mixed2k, ACCESS_KEY), 3000)
row('cleanNotes, a 2 KB answer with tokens and look-alikes: median', '<= 50 µs', `${us(median(t2))} (p95 ${us(p95(t2))})`, median(t2) <= 0.05)
const t3 = time(() => findTokens(prose2k), 3000)
console.log(`         the token rules alone on the 2 KB prose answer: median ${us(median(t3))}`)
const t4 = time(() => cleanNotes(prose64k, ACCESS_KEY), 60)
row('cleanNotes, 64 KB of prose: median', '<= 20 ms', `${msf(median(t4))} (max ${msf(Math.max(...t4))})`, median(t4) <= 20)
const t5 = time(() => cleanNotes(mixed64k, ACCESS_KEY), 60)
row('cleanNotes, 64 KB of tokens, settings and look-alikes: median', '<= 20 ms', `${msf(median(t5))} (max ${msf(Math.max(...t5))})`, median(t5) <= 20)

// Hostile input: each format's keywords repeated to the 64 KB cap, with a separator its alphabet holds, with a space,
// and with a run of letters and digits; each text timed once, and once more when over 5 ms (a GC pause is not the rule's cost).
const SIZE = 65_536
const repeat = (unit) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE)
let worst = { ms: 0, what: '' }
const hostile = []
for (const f of tokenFormats()) {
  const keys = f.kind === 'prefixed' ? f.prefixes : f.keywords
  for (const k of keys) for (const unit of [`${k}-`, `${k} `, `${k}aB3dE5gH7jK9mN1pQ2rS4-`]) hostile.push([`${f.provider}: "${unit}"`, repeat(unit)])
}
// The first texts cleaned once untimed: they would otherwise pay for compiling the rules' expressions, not for the rules.
for (const [, text] of hostile.slice(0, 20)) cleanNotes(text)
for (const [what, text] of hostile) {
  let best = Infinity
  for (let i = 0; i < 2 && best > 5; i++) {
    const a = performance.now()
    cleanNotes(text)
    best = Math.min(best, performance.now() - a)
  }
  if (best > worst.ms) worst = { ms: best, what }
}
row(`cleanNotes, 64 KB of hostile input (${hostile.length} texts): worst`, '<= 20 ms', `${msf(worst.ms)} (${worst.what})`, worst.ms <= 20)

// The same for the other forms: settings, flags, headers, URL passwords, curl's -u and key blocks, each unit repeated.
const forms = ['key=', 'key = x ', 'a: ', 'a=', 'a:', 'password: ', '"token": "', 'pw:"x"', '- pw: `', 'x-api-key: ', 'Header: X-API-Key: ', '--password ', '--x=api-key=',
  'Authorization: ', 'Authorization: Bearer ', 'Authorization: X a=b, ', 'Bearer ', '://a:b@', 'a://', ' -u a:', '-----BEGIN ', 'PuTTY-User-Key-File-2: ', 'a:${{', '?token=', ',a=', 'authorization:', '?authorization=x&', 'key --pw.', ':pw',
  ' -p', ' -u a -p ', 'login -p x ', 'machine a login b password ', '<pw>', "define('pw', '", 'pw => ', 'key ?= ', 'key="pw" value="']
let worstForm = { ms: 0, what: '' }
for (const unit of forms) {
  const text = repeat(unit)
  let best = Infinity
  for (let i = 0; i < 3 && best > 5; i++) {
    const a = performance.now()
    cleanNotes(text)
    best = Math.min(best, performance.now() - a)
  }
  if (best > worstForm.ms) worstForm = { ms: best, what: JSON.stringify(unit) }
}
row(`cleanNotes, 64 KB of one settings, header or URL form repeated (${forms.length} texts): worst`, '<= 20 ms', `${msf(worstForm.ms)} (${worstForm.what})`, worstForm.ms <= 20)
