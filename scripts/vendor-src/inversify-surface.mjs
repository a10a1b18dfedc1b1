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
//            "not in this bundle" if called (the class goes through scripts/vendor-src/left-out.mjs, which
//            puts them all back as throwing functions in one loop); a private method or field (`#name`) goes
//            (esbuild refuses the build if anything still names it). Every listed member must exist: a version bump that moves one
//            fails the build instead of shipping a wrong cut.
//   bodies   functions and class members written anew (`Class.member`, or a top-level function's name), each
//            doing for the surface what the original does, over less: the members and modules they no
//            longer reach go (private ones listed in `members`, the rest by tree shaking). Every listed
//            one must exist, as for `members`.
//   stub     a whole module behind a kind of binding or a mode the surface cannot create: instance
//            bindings (`to`, `toSelf`, autobind) and their class metadata, dynamic values, factory and
//            service redirections, and the `jitless: false` resolvers built with `new Function` (which
//            the engine forbids anyway). Each exported function or class keeps its name and throws.
//
// Unbinding, unloading, snapshots, activation and deactivation hooks, plugins, `getAll` and the async
// API are not on the surface either, so the members that serve only them are left out too.
//
// The container specs (spec/composition/container.spec.ts, vendored-inversify.spec.ts) and every test that builds the plugin go
// through this bundle, so a cut that reached something in use fails them.

/** The statement each left-out thing runs when reached. */
export const notInBundle = (name) => `throw new Error(${JSON.stringify(`inversify: ${name} is not in hark-memory's bundle of it (scripts/vendor-src/inversify-surface.mjs)`)})`

const C = '@inversifyjs/container/lib/'
const K = '@inversifyjs/core/lib/'

/** Class members left out, by file, then class. */
export const members = {
  [`${C}container/services/Container.js`]: {
    Container: ['getAll', 'getAllAsync', 'getAsync', 'isBound', 'isCurrentBound', 'loadAsync', 'onActivation', 'onDeactivation', 'register', 'restore', 'rebindAsync', 'rebind', 'snapshot', 'unbindAsync', 'unbindAllAsync', 'unbindAll', 'unbind', 'unloadAsync', 'unload', '#pluginManager', '#snapshotManager'],
  },
  [`${C}container/services/BindingManager.js`]: {
    BindingManager: ['isBound', 'isCurrentBound', 'rebindAsync', 'rebind', 'unbindAsync', 'unbindAllAsync', 'unbindAll', 'unbind', '#throwUnexpectedAsyncUnbindOperation', '#unbindAsync', '#unbindBindingIdentifier', '#clearAfterUnbindBindingIdentifier', '#unbindAll', '#clearAfterUnbindAll', '#unbindServiceIdentifier', '#clearAfterUnbindServiceIdentifier', '#isAnyValidBinding'],
  },
  [`${C}container/services/ServiceResolutionManager.js`]: {
    ServiceResolutionManager: ['getAll', 'getAllAsync', 'getAsync', 'onPlan', '#resetComputedProperties', '#onPlanHandlers', '#buildGetPlanOptions', '#buildPlanParams', '#buildPlanParamsConstraints', '#handlePlanParamsRootConstraints'],
  },
  [`${C}container/services/ContainerModuleManager.js`]: {
    ContainerModuleManager: ['loadAsync', 'unloadAsync', 'unload', '#clearAfterUnloadModules', '#unload'],
  },
  [`${C}container/services/ServiceReferenceManager.js`]: {
    ServiceReferenceManager: ['reset', 'onReset', '#onResetComputedPropertiesListeners'],
  },
  [`${C}binding/models/BindingFluentSyntaxImplementation.js`]: {
    BindInFluentSyntaxImplementation: ['getIdentifier'],
    BindToFluentSyntaxImplementation: ['to', 'toSelf', 'toDynamicValue', 'toFactory', 'toService'],
    BindWhenFluentSyntaxImplementation: ['getIdentifier', 'when', 'whenAnyAncestor', 'whenAnyAncestorIs', 'whenAnyAncestorNamed', 'whenAnyAncestorTagged', 'whenDefault', 'whenNamed', 'whenNoParent', 'whenNoParentIs', 'whenNoParentNamed', 'whenNoParentTagged', 'whenParent', 'whenParentIs', 'whenParentNamed', 'whenParentTagged', 'whenTagged', 'whenNoAncestor', 'whenNoAncestorIs', 'whenNoAncestorNamed', 'whenNoAncestorTagged'],
    BindWhenOnFluentSyntaxImplementation: ['onActivation', 'onDeactivation', '#bindOnFluentSyntax'],
  },

  [`${K}planning/services/PlanResultCacheService.js`]: {
    PlanResultCacheService: ['#subscribers', '#buildInitializedMapArray', '#getMapFromMapArray', '#getMapArrayIndex', '#jitEnabled', '#serviceIdToNonCachedServiceNodeMapMap', '#namedServiceIdToValuePlanMap', '#namedTaggedServiceIdToValuePlanMap', '#taggedServiceIdToValuePlanMap', '#buildUpdatePlanParams', '#getOrBuildMapValueFromMapMap', '#getMaps', '#invalidateNamedServiceMap', '#invalidateNamedTaggedServiceMap', '#invalidateNonCachePlanBindingNodeDescendents', '#invalidateNonCachePlanServiceNode', '#invalidateNonCachePlanServiceNodeDescendents', '#invalidateNonCachedServiceNodeSetMap', '#invalidateServiceMap', '#invalidateTaggedServiceMap', '#updatePlan'],
  },
  [`${C}container/services/PlanParamsOperationsManager.js`]: {
    PlanParamsOperationsManager: ['#resetComputedProperties', '#setBinding'],
  },
  [`${K}binding/services/BindingService.js`]: {
    BindingService: ['clone', 'getBoundServices', 'getById', 'getByModuleId', 'getNonParentBoundServices', 'removeById', 'removeAllByModuleId', 'removeAllByServiceId'],
  },
  [`${K}planning/models/ResolvedValueBindingNodeImplementation.js`]: {
    ResolvedValueBindingNodeImplementation: ['onActivationAdded', '#jitEnabled', '#onResolverChangedHandlers', '#buildResolvedValueBindingNodeResolver', '#areNoBindingActivationsDefined'],
  },
  [`${K}binding/services/ActivationsService.js`]: {
    ActivationsService: ['add', 'clone', 'removeAllByModuleId', 'removeAllByServiceId', '#activationMaps', '#getParent', '#serviceToActivationSubscribersOnceMap', '#triggerActivationAdded'],
  },
  [`${K}binding/services/DeactivationsService.js`]: {
    DeactivationsService: ['add', 'clone', 'get', 'removeAllByModuleId', 'removeAllByServiceId', '#deactivationMaps', '#getParent'],
  },
}

/** Bodies written anew, by file, then `Class.member` or function. */
export const bodies = {
  // The plan cache keeps the plans of a service asked for as a plain single injection (the surface has no
  // name, tag, optional or multiple one; one asked for with them is planned anew each time, which gives the
  // same result), and any binding added clears the container's cache and its children's, where inversify
  // patches the cached plans of that service in place: the next `get` plans anew over the bindings as they
  // are. A container of the composition root gets its bindings before its first `get`, so this clears empty
  // caches only. Plans that depend on their context are not kept apart, since only that patching read them.
  // A child's cache holds its parent's, not the parent its children's (inversify's list of subscribers, held
  // strongly where there is no WeakRef, as in the engine, kept every hook call's container for as long as its
  // conversation's): each cache counts its clears (`generation`), and a cache whose ancestors' counts summed
  // differ from what it last saw drops its plans before it answers.
  [`${K}planning/services/PlanResultCacheService.js`]: {
    'PlanResultCacheService.constructor': '{ this.#serviceIdToValuePlanMap = new Map(); this.parent = undefined; this.generation = 0; this.seen = 0; }',
    'PlanResultCacheService.clearCache': '{ this.#serviceIdToValuePlanMap.clear(); this.generation += 1; }',
    'PlanResultCacheService.getByServiceIdentifier': '{ let n = 0; for (let c = this; c !== undefined; c = c.parent) n += c.generation; if (n !== this.seen) { this.seen = n; this.#serviceIdToValuePlanMap.clear(); } return this.#serviceIdToValuePlanMap.get(serviceIdentifier); }',
    'PlanResultCacheService.get': '{ return options.name === undefined && options.tag === undefined && !options.isMultiple && !options.optional ? this.getByServiceIdentifier(options.serviceIdentifier) : undefined; }',
    'PlanResultCacheService.subscribe': '{ subscriber.parent = this; }',
    'PlanResultCacheService.set': '{ if (options.name === undefined && options.tag === undefined && !options.isMultiple && !options.optional) this.#serviceIdToValuePlanMap.set(options.serviceIdentifier, planResult); }',
    'PlanResultCacheService.invalidateServiceBinding': '{ this.clearCache(); }',
    'PlanResultCacheService.setNonCachedServiceNode': '{}',
  },
  // Planning knows two kinds of binding node, constant values and resolved values; only a resolved value has
  // dependencies to plan. No instance binding is made without autobind (`to`, `toSelf` are left out), so
  // the bindings are never autobound and no class metadata is read.
  [`${K}planning/actions/currySubplan.js`]: {
    currySubplan: '{ const subplan = currySubplanResolvedValueBindingNode(buildLazyPlanServiceNodeFromOptions, buildPlanServiceNodeFromOptions); return (params, bindingConstraintsList) => subplan(params, params.node, bindingConstraintsList); }',
  },
  [`${K}planning/actions/curryBuildServiceNodeBindings.js`]: {
    curryBuildServiceNodeBindings: `{
      const buildResolvedValuePlanBindingNode = curryBuildResolvedValuePlanBindingNode(subplan);
      return (params, bindingConstraintsList, serviceBindings, parentNode) => {
        params.servicesBranch.push(parentNode.serviceIdentifier);
        const planBindingNodes = [];
        for (const binding of serviceBindings) {
          if (binding.type === bindingTypeValues.ConstantValue) planBindingNodes.push(new ConstantValueBindingNode(binding));
          else if (binding.type === bindingTypeValues.ResolvedValue) planBindingNodes.push(buildResolvedValuePlanBindingNode(params, binding, bindingConstraintsList));
          else ${notInBundle('planning a binding other than a constant or a resolved value')}
        }
        params.servicesBranch.pop();
        return planBindingNodes;
      };
    }`,
  },
  [`${K}planning/calculations/buildFilteredServiceBindings.js`]: {
    buildFilteredServiceBindings: `{
      const serviceIdentifier = options?.customServiceIdentifier ?? bindingConstraints.serviceIdentifier;
      const filteredBindings = [...(options?.chained === true ? params.operations.getBindingsChained(serviceIdentifier) : (params.operations.getBindings(serviceIdentifier) ?? []))].filter((binding) => binding.isSatisfiedBy(bindingConstraints));
      if (filteredBindings.length === 0 && params.autobindOptions !== undefined && typeof serviceIdentifier === 'function') ${notInBundle('autobind')}
      return filteredBindings;
    }`,
  },
  // A container's bindings are looked up by service alone (by id or module only to unbind or unload, left
  // out): a list per service, in the order bound.
  [`${K}binding/services/BindingService.js`]: {
    'BindingService.constructor': '{ this.#bindingMaps = new Map(); this.#getParent = getParent; this.#autobindOptions = autobindOptions; }',
    'BindingService.getNonParentBindings': '{ return this.#bindingMaps.get(serviceId); }',
    'BindingService.set': `{
      const bindings = this.#bindingMaps.get(binding.serviceIdentifier);
      if (bindings === undefined) this.#bindingMaps.set(binding.serviceIdentifier, [binding]);
      else bindings.push(binding);
    }`,
    'BindingService.#tryAutobind': `{ if (this.#autobindOptions !== undefined && typeof serviceIdentifier === 'function') ${notInBundle('autobind')} }`,
  },
  // A resolved value's dependencies are service identifiers; the inject options that name, tag, or make one
  // optional or multiple are left out. The syntax after a scope has no activation hooks to pass on to.
  [`${C}binding/models/BindingFluentSyntaxImplementation.js`]: {
    'BindToFluentSyntaxImplementation.#buildResolvedValueMetadata': `{
      return {
        arguments: (options ?? []).map((serviceIdentifier) => {
          if (isResolvedValueMetadataInjectOptions(serviceIdentifier)) ${notInBundle('toResolvedValue with inject options')}
          return { kind: ResolvedValueElementMetadataKind.singleInjection, name: undefined, optional: false, tags: new Map(), value: serviceIdentifier };
        }),
      };
    }`,
    'BindWhenOnFluentSyntaxImplementation.constructor': '{ super(binding); }',
  },
  // No activation or deactivation is ever added on the surface (a container's or a module's `onActivation`,
  // `onDeactivation` are left out): a service has none, in its container or a parent's, and what a plan
  // subscribes to hear of a new one is never called.
  [`${K}binding/services/ActivationsService.js`]: {
    'ActivationsService.constructor': '{}',
    'ActivationsService.get': '{ return undefined; }',
    'ActivationsService.subscribeOnce': '{}',
  },
  [`${K}binding/services/DeactivationsService.js`]: {
    'DeactivationsService.constructor': '{}',
  },
  // So a resolved value's resolver is the one for no activations, built once: it never changes. The JIT
  // resolvers (`jitless: false`) are that resolver built with `new Function`, which the engine forbids.
  [`${K}planning/models/ResolvedValueBindingNodeImplementation.js`]: {
    'ResolvedValueBindingNodeImplementation.constructor': `{
      this.binding = binding;
      this[isDynamicallyResolvableBindingNodeSymbol] = true;
      this.params = [];
      this.resolve = buildNoActivationsResolvedValueBindingNodeResolver(this, false);
    }`,
    'ResolvedValueBindingNodeImplementation.addOnResolverChangedHandler': '{}',
  },
  // A constant value's activations: none, on the binding or its service.
  [`${K}resolution/actions/resolveBindingActivations.js`]: {
    resolveBindingActivations: '{ return value; }',
  },
  // That resolver resolves the dependencies in one loop, whatever their number (inversify's own loop for
  // five or more), where inversify has one closure per number from zero to four.
  [`${K}planning/calculations/buildNoActivationsResolvedValueBindingNodeResolver.js`]: {
    buildNoActivationsResolvedValueBindingNodeResolver: '{ return resolveScopedWithNoActivations(node.binding, (params) => resolveResolvedValueBindingNode(params, node)); }',
  },
  // A container builds what its surface uses: no plugin manager (`register`), no snapshot manager (`snapshot`,
  // `restore`, the only reset of its services, so nothing listens for one), and no deactivation parameters
  // (read by unbinding and unloading alone).
  [`${C}container/services/Container.js`]: {
    'Container.constructor': `{
      const autobind = options?.autobind ?? false;
      const defaultScope = options?.defaultScope ?? DEFAULT_DEFAULT_SCOPE;
      const jitless = options?.jitless ?? DEFAULT_JITLESS;
      this.#serviceReferenceManager = this.#buildServiceReferenceManager(options, autobind, defaultScope, jitless);
      const planParamsOperationsManager = new PlanParamsOperationsManager(this.#serviceReferenceManager);
      const planResultCacheManager = new PlanResultCacheManager(planParamsOperationsManager, this.#serviceReferenceManager);
      this.#bindingManager = new BindingManager(undefined, defaultScope, planResultCacheManager, this.#serviceReferenceManager);
      this.#containerModuleManager = new ContainerModuleManager(this.#bindingManager, undefined, defaultScope, planResultCacheManager, this.#serviceReferenceManager);
      this.#serviceResolutionManager = new ServiceResolutionManager(planParamsOperationsManager, this.#serviceReferenceManager, autobind, defaultScope, !jitless);
    }`,
  },
  [`${C}container/services/ServiceReferenceManager.js`]: {
    'ServiceReferenceManager.constructor': '{ this.activationService = activationService; this.bindingService = bindingService; this.deactivationService = deactivationService; this.planResultCacheService = planResultCacheService; }',
  },
  [`${C}container/services/ServiceResolutionManager.js`]: {
    'ServiceResolutionManager.constructor': `{
      this.#planParamsOperationsManager = planParamsOperationsManager;
      this.#serviceReferenceManager = serviceReferenceManager;
      this.#getActivationsResolutionParam = (serviceIdentifier) => this.#serviceReferenceManager.activationService.get(serviceIdentifier);
      this.#resolutionContext = this.#buildResolutionContext();
      this.#autobind = autobind;
      this.#defaultScope = defaultScope;
      this.#jitEnabled = jitEnabled;
    }`,
    // `get` takes a service identifier alone (its options, which name, tag, or make it optional, are left out); its plan is the
    // one cached for that identifier or a new one. No plugin listens for plans (`register` is left out), and
    // nothing the surface binds is handed the resolution context but the resolver itself.
    'ServiceResolutionManager.#buildPlanResult': `{
      if (isMultiple || options !== undefined) ${notInBundle('Container.get with options')}
      return this.#serviceReferenceManager.planResultCacheService.getByServiceIdentifier(serviceIdentifier) ?? plan({
        autobindOptions: this.#autobind ? { scope: this.#defaultScope } : undefined,
        jitEnabled: this.#jitEnabled,
        operations: this.#planParamsOperationsManager.planParamsOperations,
        rootConstraints: { isMultiple: false, serviceIdentifier },
        servicesBranch: [],
      });
    }`,
    'ServiceResolutionManager.#buildResolutionContext': '{ return { get: this.get.bind(this), getActivations: this.#getActivationsResolutionParam }; }',
  },
  // A service is planned as a single injection: `get` takes no options and the bind syntax makes no other
  // kind of dependency (no name, tag or multiple injection), so no multiple-binding node is built.
  [`${K}planning/actions/curryBuildPlanServiceNode.js`]: {
    curryBuildPlanServiceNode: `{
      return (params) => {
        const bindingConstraintsList = buildPlanBindingConstraintsList(params);
        const serviceNode = new PlanSingleBindingServiceNodeImplementation(params.rootConstraints.serviceIdentifier);
        const serviceNodeBindings = buildServiceNodeBindings(params, bindingConstraintsList, buildFilteredServiceBindings(params, new BindingConstraintsImplementation(bindingConstraintsList.last), { chained: false }), serviceNode);
        serviceNode.isContextFree = !bindingConstraintsList.last.elem.getAncestorsCalled;
        throwErrorWhenUnexpectedBindingsAmountFound(serviceNodeBindings, params.rootConstraints.isOptional ?? false, bindingConstraintsList.last);
        serviceNode.bindings = serviceNodeBindings[0];
        return serviceNode;
      };
    }`,
  },
  [`${K}planning/calculations/curryBuildPlanServiceNodeFromOptions.js`]: {
    curryBuildPlanServiceNodeFromOptions: `{
      return (params, bindingConstraintsList, options) => {
        const updatedBindingConstraintsList = bindingConstraintsList.concat({ getAncestorsCalled: false, name: options.name, serviceIdentifier: options.serviceIdentifier, tags: options.tags });
        const serviceNode = new PlanSingleBindingServiceNodeImplementation(options.serviceIdentifier);
        const serviceNodeBindings = buildServiceNodeBindings(params, updatedBindingConstraintsList, buildFilteredServiceBindings(params, new BindingConstraintsImplementation(updatedBindingConstraintsList.last), { chained: false }), serviceNode);
        serviceNode.isContextFree = !updatedBindingConstraintsList.last.elem.getAncestorsCalled;
        throwErrorWhenUnexpectedBindingsAmountFound(serviceNodeBindings, options.optional, updatedBindingConstraintsList.last);
        serviceNode.bindings = serviceNodeBindings[0];
        return serviceNode;
      };
    }`,
  },
  [`${K}planning/calculations/buildGetPlanOptionsFromPlanParams.js`]: {
    buildGetPlanOptionsFromPlanParams: `{
      const c = params.rootConstraints;
      return { isMultiple: false, name: c.name, optional: c.isOptional ?? false, serviceIdentifier: c.serviceIdentifier, tag: c.tag };
    }`,
  },
  [`${K}planning/calculations/tryBuildGetPlanOptionsFromResolvedValueElementMetadata.js`]: {
    tryBuildGetPlanOptionsFromResolvedValueElementMetadata: `{
      const m = resolvedValueElementMetadata;
      return { isMultiple: false, name: m.name, optional: m.optional, serviceIdentifier: LazyServiceIdentifier.is(m.value) ? m.value.unwrap() : m.value, tag: undefined };
    }`,
  },
  [`${K}common/calculations/buildBuildServiceNodeOptionsFromResolvedValueElementMetadata.js`]: {
    buildBuildServiceNodeOptionsFromResolvedValueElementMetadata: `{
      const m = elementMetadata;
      return { isMultiple: false, name: m.name, optional: m.optional, serviceIdentifier: LazyServiceIdentifier.is(m.value) ? m.value.unwrap() : m.value, tags: m.tags };
    }`,
  },
  // A missing or ambiguous binding: inversify's message names the service and the one asking for it; the
  // registered bindings and the constraints it lists after that (no name, no tag on the surface) are left out.
  [`${K}planning/calculations/throwErrorWhenUnexpectedBindingsAmountFound.js`]: {
    throwErrorWhenUnexpectedBindingsAmountFound: `{
      const count = Array.isArray(bindingNodes) ? bindingNodes.length : bindingNodes === undefined ? 0 : 1;
      if (count === 1 || (count === 0 && isOptional)) return;
      const serviceIdentifier = bindingConstraintNode.elem.serviceIdentifier;
      const parentServiceIdentifier = bindingConstraintNode.previous?.elem.serviceIdentifier;
      throw new InversifyCoreError(InversifyCoreErrorKind.planning, (count === 0 ? 'No' : 'Ambiguous') + ' bindings found for service: "' + stringifyServiceIdentifier(serviceIdentifier) + '".\\n\\nTrying to resolve bindings for "' + stringifyParentServiceIdentifier(serviceIdentifier, parentServiceIdentifier) + '".');
    }`,
  },
  // Planning finds a circular dependency before resolving does (it plans every dependency first and stops at
  // a depth of 500), and names its services; resolving says so without the trace.
  [`${K}planning/calculations/handleResolveError.js`]: {
    handleResolveError: `{
      if (isStackOverflowError(error) || InversifyCoreError.isErrorOfKind(error, InversifyCoreErrorKind.planningMaxDepthExceeded)) throw new InversifyCoreError(InversifyCoreErrorKind.planning, 'Circular dependency found', { cause: error });
      throw error;
    }`,
  },
  [`${C}container/services/PlanParamsOperationsManager.js`]: {
    'PlanParamsOperationsManager.constructor': `{
      this.#serviceReferenceManager = serviceReferenceManager;
      this.planParamsOperations = {
        getActivations: this.#getActivations.bind(this),
        getBindings: this.#serviceReferenceManager.bindingService.get.bind(this.#serviceReferenceManager.bindingService),
        getBindingsChained: this.#serviceReferenceManager.bindingService.getChained.bind(this.#serviceReferenceManager.bindingService),
        getPlan: this.#serviceReferenceManager.planResultCacheService.get.bind(this.#serviceReferenceManager.planResultCacheService),
        setNonCachedServiceNode: this.#serviceReferenceManager.planResultCacheService.setNonCachedServiceNode.bind(this.#serviceReferenceManager.planResultCacheService),
        setPlan: this.#serviceReferenceManager.planResultCacheService.set.bind(this.#serviceReferenceManager.planResultCacheService),
        subscribeActivationAddedOnce: this.#subscribeActivationAddedOnce.bind(this),
      };
    }`,
  },
}

/** Whole modules left out (each export throws if reached), by file. */
export const stub = [
  `${K}planning/models/InstanceBindingNodeImplementation.js`,
  `${K}planning/models/FactoryBindingNodeImplementation.js`,
  `${K}planning/models/PlanServiceRedirectionBindingNodeImplementation.js`,
  `${K}planning/models/DynamicValueBindingNode.js`,
  `${K}planning/calculations/buildNoActivationsResolvedValueBindingNodeResolverJit.js`,
]
