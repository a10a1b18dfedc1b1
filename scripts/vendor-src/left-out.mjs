// The public methods the vendored inversify leaves out (scripts/vendor-src/inversify-surface.mjs, `members`):
// scripts/build-vendor.mjs removes each from its class and passes the class through this (`const X =
// leftOut(class X {…}, …)`), which puts back one function per name on the prototype that throws it is not in
// the bundle, and returns the class; one loop here costs the engine's scan fewer syntax nodes than a throwing
// body per method.
export function leftOut(cls, className, names) {
  for (const name of names.split(' ')) {
    Object.defineProperty(cls.prototype, name, {
      configurable: true,
      writable: true,
      value() {
        throw new Error(`inversify: ${className}.${name} is not in hark-memory's bundle of it (scripts/vendor-src/inversify-surface.mjs)`)
      },
    })
  }
  return cls
}
