/**
 * The work a session records for the handoff (SPEC.md: tool.call, The handoff): files edited
 * inside the project, commits, test runs and pull request links. Nothing else of a tool call is kept.
 */

export type TestResult = 'passed' | 'failed' | 'unknown'

export type WorkEntry =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'commit'; readonly sha: string; readonly subject: string }
  | { readonly kind: 'test'; readonly runner: string; readonly result: TestResult }
  | { readonly kind: 'link'; readonly url: string }

/** The work of one segment, ready for a handoff. */
export interface Work {
  /** Paths relative to the project root, first-seen order, each once. */
  readonly files: readonly string[]
  readonly commits: readonly { readonly sha: string; readonly subject: string }[]
  /** Every run, in order: repeated runs each count. */
  readonly tests: readonly { readonly runner: string; readonly result: TestResult }[]
  /** Pull request URLs, each once. */
  readonly links: readonly string[]
}

export const NO_WORK: Work = { files: [], commits: [], tests: [], links: [] }

/** Folds entries (oldest first) into Work: files, commits and links once each; every test run. */
export function workOf(entries: Iterable<WorkEntry>): Work {
  // Sets keep it linear: a store may hold tens of thousands of entries (4 MiB).
  const files = new Set<string>()
  const commits = new Map<string, { sha: string; subject: string }>()
  const tests: { runner: string; result: TestResult }[] = []
  const links = new Set<string>()
  for (const entry of entries) {
    switch (entry.kind) {
      case 'file':
        files.add(entry.path)
        break
      case 'commit':
        if (!commits.has(entry.sha)) commits.set(entry.sha, { sha: entry.sha, subject: entry.subject })
        break
      case 'test':
        tests.push({ runner: entry.runner, result: entry.result })
        break
      case 'link':
        links.add(entry.url)
        break
    }
  }
  return { files: [...files], commits: [...commits.values()], tests, links: [...links] }
}

/**
 * `work` with each file once by `key` (the first spelling kept): where case is ignored, two processes of
 * one conversation may have recorded one file in two spellings (SPEC.md: The handoff, one entry a file).
 */
export function oneSpellingPerFile(work: Work, key: (path: string) => string): Work {
  const seen = new Set<string>()
  const files: string[] = []
  for (const path of work.files) {
    const k = key(path)
    if (seen.has(k)) continue
    seen.add(k)
    // Sent in NFC whoever wrote it (another process, another program writing the store).
    files.push(path.normalize('NFC'))
  }
  return { ...work, files }
}

/** SPEC.md: a session with no edits, commits or test runs writes no handoff (a link alone is not work). */
export function hasWork(work: Work): boolean {
  return work.files.length + work.commits.length + work.tests.length > 0
}

/** Two entries that stand for the same thing (a later one replaces an earlier one); test runs never do. */
export function sameThing(a: WorkEntry, b: WorkEntry): boolean {
  const id = (e: WorkEntry) => (e.kind === 'file' ? e.path : e.kind === 'commit' ? e.sha : e.kind === 'link' ? e.url : undefined)
  return a.kind === b.kind && id(a) !== undefined && id(a) === id(b)
}
