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
import type { ContainerModuleLoadOptions } from '../vendor/inversify.js'
import type { Token } from '../core/ports/token'

/** What a constructor may depend on: a typed identifier (a port, the settings) or a class. */
export type Dependency<T> = Token<T> | (abstract new (...args: never[]) => T)
export type Dependencies<A extends readonly unknown[]> = { readonly [K in keyof A]: Dependency<A[K]> }

type Bind = ContainerModuleLoadOptions['bind']
type Identifier<T> = Dependency<T>

/**
 * A service over a hook call's ports, bound in that call's container (singleton scope there): one
 * instance per call, built when first needed, shared by every use case of the call, gone with it.
 */
export function perCall<T, A extends unknown[]>(bind: Bind, id: Identifier<T>, make: (...args: A) => T, deps: NoInfer<Dependencies<A>>): void {
  bind<T>(id).toResolvedValue(make, deps).inSingletonScope()
}

/** `perCall` for a class: `new make(...deps)`. */
export function perCallClass<T, A extends unknown[]>(bind: Bind, make: new (...args: A) => T, deps: NoInfer<Dependencies<A>>): void {
  // A class is its own identifier; `A` is generic here, so tsc cannot see that `make` is one.
  perCall(bind, make as unknown as Identifier<T>, (...args: A) => new make(...args), deps)
}

/**
 * A use case: bound once, in the load's container, in request scope, and resolved from a call's
 * container, so it is built over that call's ports and services. The composition root asks for each
 * use case at most once per call, and only when the hook needs it: one instance per call too.
 */
export function useCase<T, A extends unknown[]>(bind: Bind, make: new (...args: A) => T, deps: NoInfer<Dependencies<A>>): void {
  bind<T>(make as unknown as Identifier<T>).toResolvedValue((...args: A) => new make(...args), deps).inRequestScope()
}

/**
 * One instance for as long as the container that binds it lives: the conversation's container (made
 * at the conversation's start, dropped at `/clear`) or the load's. Takes no dependency (see above).
 */
export function perContainer<T>(bind: Bind, make: new () => T): void {
  bind<T>(make).toResolvedValue(() => new make()).inSingletonScope()
}
