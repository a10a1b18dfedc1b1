// Declarations for vendor/inversify.js, bundled by scripts/build-vendor.mjs from inversify@8 and cut to
// what the composition root reaches (scripts/vendor-src/inversify-surface.mjs): containers and their
// children, modules, and constant or resolved-value bindings in a scope. The rest of inversify's API is
// not in the bundle; calling it throws.
export type ServiceIdentifier<T = unknown> = string | symbol | (abstract new (...args: never[]) => T) | (new (...args: never[]) => T)

export interface BindWhenOnFluentSyntax<T> {
  readonly __type?: T
}
export interface BindInWhenOnFluentSyntax<T> extends BindWhenOnFluentSyntax<T> {
  inSingletonScope(): BindWhenOnFluentSyntax<T>
  inTransientScope(): BindWhenOnFluentSyntax<T>
  inRequestScope(): BindWhenOnFluentSyntax<T>
}
export interface BindToFluentSyntax<T> {
  toConstantValue(value: T): BindWhenOnFluentSyntax<T>
  toResolvedValue(factory: () => T): BindInWhenOnFluentSyntax<T>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  toResolvedValue<A extends any[]>(factory: (...args: A) => T, inject: { [K in keyof A]: ServiceIdentifier<A[K]> }): BindInWhenOnFluentSyntax<T>
}
export interface ContainerModuleLoadOptions {
  bind<T>(id: ServiceIdentifier<T>): BindToFluentSyntax<T>
}
export declare class ContainerModule {
  /** `load` must return nothing: inversify takes a returned value for an asynchronous load and throws. */
  constructor(load: (options: ContainerModuleLoadOptions) => void)
}
export declare class Container {
  constructor(options?: { parent?: Container })
  bind<T>(id: ServiceIdentifier<T>): BindToFluentSyntax<T>
  get<T>(id: ServiceIdentifier<T>): T
  load(...modules: ContainerModule[]): void
}
