/**
 * Typed bindings for the composition root: a class's dependencies are written once, as a list of
 * identifiers checked against its constructor's parameters (a misordered or missing identifier fails
 * `tsc`), and every binding names its lifetime. The engine refuses decorators, so inversify is driven
 * through `toResolvedValue` alone.
 *
 * Lifetime hazard: a binding that outlives a hook call (`perContainer`, in the load's or a conversation's container) must never
 * depend on a call's port (`KeyValueStore`, `Clock`, `Host`, `Files`, `SessionInfo`, the Hark
 * endpoint, or anything built over them): it would keep the first call's `$` for good, and every
 * later call would wait on, and log into, a hook that has settled.
 */
import { ContainerModule, type ContainerModuleLoadOptions } from '../vendor/inversify.js'
import type { Token } from '../core/ports/token'

/** What a constructor may depend on: a typed identifier (a port, the settings) or a class. */
export type Dependency<T> = Token<T> | (abstract new (...args: never[]) => T)
export type Dependencies<A extends readonly unknown[]> = { readonly [K in keyof A]: Dependency<A[K]> }

type Bind = ContainerModuleLoadOptions['bind']
type Identifier<T> = Dependency<T>

declare const lifetime: unique symbol
/** A container's `bind`, marked with the lifetime of what it binds, so each helper takes only its own. */
export type LoadBind = Bind & { readonly [lifetime]: 'load' }
export type ConversationBind = Bind & { readonly [lifetime]: 'conversation' }
export type CallBind = Bind & { readonly [lifetime]: 'call' }

/**
 * One feature's bindings (brief, guard, handoff, store, …), by the container each goes into: the load's
 * (load-lived state and values, and the use cases), each conversation's, each hook call's.
 */
export interface Feature {
  readonly load?: ContainerModule
  readonly conversation?: ContainerModule
  readonly call?: ContainerModule
}

/** A feature's bindings, each part a module for the container of its lifetime. */
export function feature(parts: {
  readonly load?: (bind: LoadBind) => void
  readonly conversation?: (bind: ConversationBind) => void
  readonly call?: (bind: CallBind) => void
}): Feature {
  return {
    ...(parts.load && { load: loadModule(parts.load) }),
    ...(parts.conversation && { conversation: conversationModule(parts.conversation) }),
    ...(parts.call && { call: callModule(parts.call) }),
  }
}

/** A module for the load's container (the root). */
export function loadModule(load: (bind: LoadBind) => void): ContainerModule {
  return new ContainerModule(({ bind }) => load(bind as LoadBind))
}
/** A module for each conversation's container. */
export function conversationModule(load: (bind: ConversationBind) => void): ContainerModule {
  return new ContainerModule(({ bind }) => load(bind as ConversationBind))
}
/** A module for each hook call's container. */
export function callModule(load: (bind: CallBind) => void): ContainerModule {
  return new ContainerModule(({ bind }) => load(bind as CallBind))
}

/**
 * A service over a hook call's ports, bound in that call's container (singleton scope there): one
 * instance per call, built when first needed, shared by every use case of the call, gone with it.
 */
export function perCall<T, A extends unknown[]>(bind: CallBind, id: Identifier<T>, make: (...args: A) => T, deps: NoInfer<Dependencies<A>>): void {
  bind<T>(id).toResolvedValue(make, deps).inSingletonScope()
}

/**
 * `perCall` for a class: `new make(...deps)`, bound under the class itself, or under `as` (a port the class
 * implements).
 */
export function perCallClass<S, T extends S, A extends unknown[]>(bind: CallBind, make: new (...args: A) => T, deps: NoInfer<Dependencies<A>>, as?: Identifier<S>): void {
  // A class is its own identifier; `A` is generic here, so tsc cannot see that `make` is one.
  perCall<S, A>(bind, as ?? (make as unknown as Identifier<S>), (...args: A) => new make(...args), deps)
}

/**
 * A use case: bound once, in the load's container, in request scope, and resolved from a call's
 * container, so it is built over that call's ports and services. The composition root asks for each
 * use case at most once per call, and only when the hook needs it: one instance per call too.
 */
export function useCase<T, A extends unknown[]>(bind: LoadBind, make: new (...args: A) => T, deps: NoInfer<Dependencies<A>>): void {
  bind<T>(make as unknown as Identifier<T>).toResolvedValue((...args: A) => new make(...args), deps).inRequestScope()
}

/**
 * A part of one use case alone (or of one per-call service alone), bound as a use case is: once, in the load's
 * container, in request scope, so it is built with what uses it, over that call's ports, and a call whose hook
 * never needs it binds nothing for it (each binding in a call's container costs every hook call).
 */
export const partOf = useCase

/**
 * One instance of each of `classes` for as long as the container that binds it lives: the conversation's
 * container (made at the conversation's start, dropped at `/clear`) or the load's. Each takes no dependency
 * (see above).
 */
export function perContainer(bind: LoadBind | ConversationBind, ...classes: (new () => unknown)[]): void {
  for (const make of classes) bind(make).toResolvedValue(() => new make()).inSingletonScope()
}
