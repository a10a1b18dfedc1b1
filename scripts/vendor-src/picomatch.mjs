// picomatch's POSIX build: globs are matched against project paths written with `/`.
import picomatch from 'picomatch/posix'
export default picomatch
