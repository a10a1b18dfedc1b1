// The two Node globals the specs use, declared here because @types/node is not installed: vitest runs
// the specs under Node, while the plugin's own code may use neither (docs/development.md).
declare const process: { readonly env: Readonly<Record<string, string | undefined>> }
declare const console: { log(...values: unknown[]): void }
