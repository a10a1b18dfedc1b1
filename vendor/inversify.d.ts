// Declarations for the part of inversify (vendor/inversify.js, bundled by scripts/build-vendor.mjs
// from inversify@8) that the composition root uses: containers, modules, programmatic bindings.
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
  toDynamicValue(builder: (context: { get<U>(id: ServiceIdentifier<U>): U }) => T): BindInWhenOnFluentSyntax<T>
  toResolvedValue(factory: () => T): BindInWhenOnFluentSyntax<T>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  toResolvedValue<A extends any[]>(factory: (...args: A) => T, inject: { [K in keyof A]: ServiceIdentifier<A[K]> }): BindInWhenOnFluentSyntax<T>
}
export interface ContainerModuleLoadOptions {
  bind<T>(id: ServiceIdentifier<T>): BindToFluentSyntax<T>
  rebind<T>(id: ServiceIdentifier<T>): BindToFluentSyntax<T>
  unbind(id: ServiceIdentifier): void
  isBound(id: ServiceIdentifier): boolean
}
export declare class ContainerModule {
  constructor(load: (options: ContainerModuleLoadOptions) => void)
}
export declare class Container {
  constructor(options?: { parent?: Container; defaultScope?: 'Singleton' | 'Transient' | 'Request' })
  bind<T>(id: ServiceIdentifier<T>): BindToFluentSyntax<T>
  rebind<T>(id: ServiceIdentifier<T>): BindToFluentSyntax<T>
  unbind(id: ServiceIdentifier): void
  isBound(id: ServiceIdentifier): boolean
  get<T>(id: ServiceIdentifier<T>): T
  load(...modules: ContainerModule[]): void
}
