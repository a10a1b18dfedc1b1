/**
 * The status line (SPEC.md: "Hark V-012 · Open · 2 need you"): the project, the handoff state,
 * and how many proposals wait for a person.
 */
import type { HandoffState } from './brief'

export type StatusView =
  | { readonly kind: 'online'; readonly venture: string; readonly state: HandoffState; readonly needYou: number }
  | { readonly kind: 'offline'; readonly venture: string }
  | { readonly kind: 'no-key'; readonly venture: string }
  /** Hark refused the access key (HTTP 401 or 403). */
  | { readonly kind: 'key-refused'; readonly venture: string }

/** The status line's text; `needYou` of 0 is left out. */
export function statusLine(view: StatusView): string {
  const project = `Hark ${view.venture}`
  switch (view.kind) {
    case 'offline':
      return `${project} · offline`
    case 'no-key':
      return `${project} · no access key`
    case 'key-refused':
      return `${project} · key refused`
    case 'online':
      return view.needYou > 0 ? `${project} · ${view.state} · ${view.needYou} need${view.needYou === 1 ? 's' : ''} you` : `${project} · ${view.state}`
  }
}
