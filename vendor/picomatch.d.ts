// Declarations for vendor/picomatch.js (bundled by scripts/build-vendor.mjs from picomatch@4, POSIX build).
export interface PicomatchOptions {
  dot?: boolean
  nocase?: boolean
  basename?: boolean
  matchBase?: boolean
  noglobstar?: boolean
  nobrace?: boolean
  noextglob?: boolean
  strictSlashes?: boolean
  posix?: boolean
  windows?: boolean
  contains?: boolean
  noquantifiers?: boolean
}
declare function picomatch(glob: string | readonly string[], options?: PicomatchOptions): (path: string) => boolean
export default picomatch
