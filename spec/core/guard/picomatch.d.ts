// Declarations for picomatch 4's POSIX build (the devDependency), the oracle the guard's own matcher is
// checked against (spec/core/guard/fixtures.ts). The plugin does not ship it.
declare module 'picomatch/posix' {
  export interface PicomatchOptions {
    dot?: boolean
    nocase?: boolean
    basename?: boolean
    noextglob?: boolean
  }
  function picomatch(glob: string | readonly string[], options?: PicomatchOptions): (path: string) => boolean
  export default picomatch
}
