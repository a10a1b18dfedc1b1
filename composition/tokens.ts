/** Service identifiers that have no interface of the same name in core/. */
export const GlobCompiler = Symbol('GlobCompiler')
