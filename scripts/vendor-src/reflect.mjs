// A module-local `Reflect` for the vendored bundle: the built-in Reflect (its prototype) plus the two
// metadata functions inversify calls once no class is decorated, `defineMetadata` and `getOwnMetadata`
// (its binding and module id counters, kept on `Object`), with reflect-metadata's meaning for own
// metadata: per target, per property key (none for the target itself), per metadata key. The engine
// freezes the global Reflect, so nothing here patches it; each inversify file that names `Reflect`
// imports this one instead (scripts/build-vendor.mjs).
const store = new WeakMap()

function targetMap(target, property, create) {
  if (typeof target !== 'object' ? typeof target !== 'function' : target === null) throw new TypeError()
  let byProperty = store.get(target)
  if (byProperty === undefined && create) store.set(target, (byProperty = new Map()))
  let byKey = byProperty?.get(property)
  if (byKey === undefined && create) byProperty.set(property, (byKey = new Map()))
  return byKey
}

const local = Object.create(globalThis.Reflect)
local.defineMetadata = (key, value, target, property) => void targetMap(target, property, true).set(key, value)
local.getOwnMetadata = (key, target, property) => targetMap(target, property, false)?.get(key)

export { local as Reflect }
