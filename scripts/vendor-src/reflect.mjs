// A module-local `Reflect` for the vendored bundle: the built-in Reflect's own functions plus
// reflect-metadata's no-conflict API. The engine freezes the global Reflect, so nothing here
// patches it; esbuild `inject` swaps every bare `Reflect` in the bundle for this object.
import * as metadata from 'reflect-metadata/no-conflict'

const builtin = globalThis.Reflect
const local = {}
for (const name of Object.getOwnPropertyNames(builtin)) local[name] = builtin[name]
Object.assign(local, metadata)

export { local as Reflect }
