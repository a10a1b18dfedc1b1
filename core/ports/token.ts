/**
 * A service identifier that carries the type it names, so the composition root can check a
 * constructor's dependency list against its parameters (a misordered list fails `tsc`). A port and
 * its identifier share one name: `export const Clock: Token<Clock> = token('Clock')` beside
 * `interface Clock`. Plain TypeScript: nothing here knows inversify.
 */
declare const named: unique symbol

export type Token<T> = symbol & { readonly [named]: (value: T) => T }

/** A new identifier for values of type `T`; `name` shows in inversify's messages. */
export function token<T>(name: string): Token<T> {
  return Symbol(name) as Token<T>
}
