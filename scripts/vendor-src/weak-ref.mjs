// A module-local `WeakRef` for the vendored bundle. The engine has no WeakRef; inversify uses it
// only to let dropped bindings be collected, so a strong reference keeps the same behaviour for
// a container that lives as long as the plugin load.
class StrongRef {
  #value
  constructor(value) { this.#value = value }
  deref() { return this.#value }
}

const WeakRefOrStrong = typeof globalThis.WeakRef === 'function' ? globalThis.WeakRef : StrongRef

export { WeakRefOrStrong as WeakRef }
