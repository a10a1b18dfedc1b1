// The part of inversify the composition root reaches, as what the vendored bundle leaves out
// (scripts/build-vendor.mjs; docs/performance.md, "What each part costs"). Claude Code reads and
// checks every line of the module at every start, and inversify 8 is most of what it reads; the
// composition root (composition/bind.ts, composition/container.ts) uses only `new Container({ parent })`,
// `load`, `get`, `ContainerModule` with its `bind`, and `toConstantValue` / `toResolvedValue` bindings in
// singleton, transient or request scope (vendor/inversify.d.ts declares exactly that). esbuild's tree
// shaking drops what nothing references; what a class method or an unused kind of binding still
// references, it cannot. So, per file of the pinned packages:
//
//   members  class members nothing on that surface reaches: a public method keeps its name and throws
//            "not in this bundle" if called; a private one (`#name`) goes (esbuild refuses the build if
//            anything still names it). Every listed member must exist: a version bump that moves one
//            fails the build instead of shipping a wrong cut.
//   promises functions whose `if (isPromise(…)) { … }` branches resolve dependencies that are promises:
//            each such branch throws, the synchronous path stays. No binding of the composition root
//            resolves to a promise (`get` refuses one anyway), so resolving two, three or four
//            dependencies never takes those branches.
//   stub     a whole module behind a kind of binding or a mode the surface cannot create: instance
//            bindings (`to`, `toSelf`, autobind) and their class metadata, dynamic values, factory and
//            service redirections, and the `jitless: false` resolvers built with `new Function` (which
//            the engine forbids anyway). Each exported function or class keeps its name and throws.
//
// Unbinding, unloading, snapshots, activation and deactivation hooks, plugins, `getAll` and the async
// API are not on the surface either, so the members that serve only them are left out too.
//
// The container specs (spec/composition/container.spec.ts) and every test that builds the plugin go
// through this bundle, so a cut that reached something in use fails them.

const C = '@inversifyjs/container/lib/'
const K = '@inversifyjs/core/lib/'

/** Class members left out, by file, then class. */
export const members = {
  [`${C}container/services/Container.js`]: {
    Container: ['getAll', 'getAllAsync', 'getAsync', 'isBound', 'isCurrentBound', 'loadAsync', 'onActivation', 'onDeactivation', 'register', 'restore', 'rebindAsync', 'rebind', 'snapshot', 'unbindAsync', 'unbindAllAsync', 'unbindAll', 'unbind', 'unloadAsync', 'unload'],
  },
  [`${C}container/services/BindingManager.js`]: {
    BindingManager: ['isBound', 'isCurrentBound', 'rebindAsync', 'rebind', 'unbindAsync', 'unbindAllAsync', 'unbindAll', 'unbind', '#throwUnexpectedAsyncUnbindOperation', '#unbindAsync', '#unbindBindingIdentifier', '#clearAfterUnbindBindingIdentifier', '#unbindAll', '#clearAfterUnbindAll', '#unbindServiceIdentifier', '#clearAfterUnbindServiceIdentifier', '#isAnyValidBinding'],
  },
  [`${C}container/services/ServiceResolutionManager.js`]: {
    ServiceResolutionManager: ['getAll', 'getAllAsync', 'getAsync'],
  },
  [`${C}container/services/ContainerModuleManager.js`]: {
    ContainerModuleManager: ['loadAsync', 'unloadAsync', 'unload', '#clearAfterUnloadModules', '#unload'],
  },
  [`${C}container/services/PluginManager.js`]: {
    PluginManager: ['register', '#assertIsPlugin'],
  },
  [`${C}container/services/SnapshotManager.js`]: {
    SnapshotManager: ['restore', 'snapshot'],
  },
  [`${C}binding/models/BindingFluentSyntaxImplementation.js`]: {
    BindToFluentSyntaxImplementation: ['to', 'toSelf', 'toDynamicValue', 'toFactory', 'toService'],
    BindOnFluentSyntaxImplementation: ['onActivation', 'onDeactivation'],
    BindWhenFluentSyntaxImplementation: ['when', 'whenAnyAncestor', 'whenAnyAncestorIs', 'whenAnyAncestorNamed', 'whenAnyAncestorTagged', 'whenDefault', 'whenNamed', 'whenNoParent', 'whenNoParentIs', 'whenNoParentNamed', 'whenNoParentTagged', 'whenParent', 'whenParentIs', 'whenParentNamed', 'whenParentTagged', 'whenTagged', 'whenNoAncestor', 'whenNoAncestorIs', 'whenNoAncestorNamed', 'whenNoAncestorTagged'],
    BindWhenOnFluentSyntaxImplementation: ['onActivation', 'onDeactivation'],
  },
  [`${K}common/models/OneToManyMapStar.js`]: {
    OneToManyMapStar: ['clone', 'removeByRelation', '#buildModelToCloneModelMap', '#buildRelationToRelationModelMap', '#getCloneModel', '#getCloneRelation', '#pushModelEntriesIntoModelMap', '#pushRelationEntriesIntoRelationMap', '#removeModelFromRelationMaps', '#removeModelFromRelationMap'],
  },
  [`${K}binding/services/BindingService.js`]: {
    BindingService: ['clone', 'getBoundServices', 'getById', 'getByModuleId', 'getNonParentBoundServices', 'removeById', 'removeAllByModuleId', 'removeAllByServiceId'],
  },
  [`${K}binding/services/ActivationsService.js`]: {
    ActivationsService: ['clone', 'removeAllByModuleId', 'removeAllByServiceId'],
  },
  [`${K}binding/services/DeactivationsService.js`]: {
    DeactivationsService: ['clone', 'get', 'removeAllByModuleId', 'removeAllByServiceId'],
  },
}

/** Functions whose promise branches are left out, by file. */
export const promises = {
  [`${K}planning/calculations/resolveTwo.js`]: ['resolveTwo'],
  [`${K}planning/calculations/resolveThree.js`]: ['resolveThree'],
  [`${K}planning/calculations/resolveFour.js`]: ['resolveFour'],
}

/** Whole modules left out (each export throws if reached), by file. */
export const stub = [
  `${K}planning/models/InstanceBindingNodeImplementation.js`,
  `${K}planning/models/FactoryBindingNodeImplementation.js`,
  `${K}planning/models/PlanServiceRedirectionBindingNodeImplementation.js`,
  `${K}planning/models/DynamicValueBindingNode.js`,
  `${K}planning/calculations/buildNoActivationsResolvedValueBindingNodeResolverJit.js`,
]
