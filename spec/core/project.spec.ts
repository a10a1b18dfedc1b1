import { describe, expect, test } from 'vitest'
import { v } from '../support'
import { isProjectRelative, parseProjectFile, projectFileCandidates, projectRef, relativeToProject } from '../../core/domain/project'

describe('project file discovery (SPEC.md, Setup 1)', () => {
  test('looks in the folder first, then each parent, .hark/project before .hark', () => {
    expect(projectFileCandidates('/work/mono/pkg').map((c) => c.path)).toEqual([
      '/work/mono/pkg/.hark/project',
      '/work/mono/pkg/.hark',
      '/work/mono/.hark/project',
      '/work/mono/.hark',
      '/work/.hark/project',
      '/work/.hark',
      '/.hark/project',
      '/.hark',
    ])
  })

  test('Windows folders walk up to the drive root', () => {
    expect(projectFileCandidates('C:\\src\\app').map((c) => c.path)).toEqual([
      'C:/src/app/.hark/project',
      'C:/src/app/.hark',
      'C:/src/.hark/project',
      'C:/src/.hark',
      'C:/.hark/project',
      'C:/.hark',
    ])
  })

  test.each([
    ['project', 'V-012\n', 'V-012'],
    ['project', '  V-012  ', 'V-012'],
    ['project', '# written by hark init\nV-012\n', 'V-012'],
    ['project', '\uFEFFV-012\r\n', 'V-012'],
    ['project', '0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f', '0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f'],
    ['project', 'venture=V-012', 'V-012'],
    ['hark', 'venture=V-012\n', 'V-012'],
    ['hark', 'other=1\nventure = "V-077"\n', 'V-077'],
    ['hark', 'V-012', undefined],
    ['project', '', undefined],
    ['project', 'not a code', undefined],
    ['project', 'V-012; rm -rf /', undefined],
    ['hark', 'venture=', undefined],
  ] as const)('%s file %j names %j', (kind, text, venture) => {
    expect(parseProjectFile(kind, text)).toBe(venture)
  })

  test('a UUID is the project id as well', () => {
    const c = { path: '/p/.hark/project', kind: 'project' as const, root: '/p' }
    expect(projectRef(c, v('V-012'))).toEqual({ venture: 'V-012', root: '/p', file: '/p/.hark/project' })
    expect(projectRef(c, v('0B7C6F4E-8D1A-4C3B-9F2E-1A2B3C4D5E6F')).id).toBe('0b7c6f4e-8d1a-4c3b-9f2e-1a2b3c4d5e6f')
  })
})

describe('paths relative to the project', () => {
  test.each([
    ['/p', '/p/src/a.ts', '/p', 'src/a.ts'],
    ['/p', 'src/a.ts', '/p/src', 'src/src/a.ts'],
    ['/p', './src/../lib/b.ts', '/p', 'lib/b.ts'],
    ['/p', '/p', '/p', undefined],
    ['/p', '/pq/a.ts', '/p', undefined],
    ['/p', '/other/a.ts', '/p', undefined],
    ['/p', '/p/../etc/passwd', '/p', undefined],
    ['/p/', '/p/a.ts', '/p', 'a.ts'],
    ['C:\\p', 'C:\\P\\src\\a.ts', 'C:\\p', 'src/a.ts'],
    ['/p', '', '/p', undefined],
  ] as const)('root %s, file %s (cwd %s) is %j', (root, file, cwd, expected) => {
    expect(relativeToProject(root, file, cwd)).toBe(expected)
  })
})

describe('paths read back from the store', () => {
  test.each([
    ['src/a.ts', true],
    ['odd\nname.ts', true],
    ['../../etc/passwd', false],
    ['src/../../x', false],
    ['/abs/outside/secret.txt', false],
    ['C:/x', false],
    ['src\\a.ts', false],
    ['./src/a.ts', false],
    ['src//a.ts', false],
    ['', false],
  ] as const)('%j is a project path: %s', (path, ok) => {
    expect(isProjectRelative(path)).toBe(ok)
  })
})
