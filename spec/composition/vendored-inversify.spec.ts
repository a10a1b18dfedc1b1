// The vendored inversify (vendor/inversify.js, cut to what the composition root reaches by
// scripts/vendor-src/inversify-surface.mjs): everything vendor/inversify.d.ts declares works as inversify
// documents it, and what was left out says so when reached instead of misbehaving.
import { spawnSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { Container, ContainerModule, type ServiceIdentifier } from '../../vendor/inversify.js'

const id = <T>(name: string) => Symbol(name) as ServiceIdentifier<T>

describe('the declared surface', () => {
  test('constant values and resolved values of every arity, through modules and direct bindings', () => {
    const c = new Container()
    const ids = Array.from({ length: 7 }, (_, i) => id<number>(`n${i}`))
    c.load(new ContainerModule(({ bind }) => ids.forEach((n, i) => bind(n).toConstantValue(i + 1))))
    // 0 to 6 dependencies: inversify resolves one to four with code of their own, more another way.
    for (let arity = 0; arity <= 6; arity++) {
      const sum = id<number>(`sum${arity}`)
      c.bind(sum).toResolvedValue((...xs: number[]) => xs.reduce((a, b) => a + b, 0), ids.slice(0, arity) as never)
      expect(c.get(sum)).toBe((arity * (arity + 1)) / 2)
    }
    expect(c.get(ids[6]!)).toBe(7)
  })

  test('scopes: singleton once per container that binds it, request once per get, transient every time', () => {
    const root = new Container()
    let made = 0
    const single = id<object>('single')
    const perRequest = id<object>('perRequest')
    const transient = id<object>('transient')
    const pair = id<[object, object]>('pair')
    root.bind(single).toResolvedValue(() => ({ n: ++made })).inSingletonScope()
    root.bind(perRequest).toResolvedValue(() => ({ n: ++made })).inRequestScope()
    root.bind(transient).toResolvedValue(() => ({ n: ++made })).inTransientScope()
    root.bind(pair).toResolvedValue((a: object, b: object) => [a, b], [perRequest, perRequest] as never)
    expect(root.get(single)).toBe(root.get(single))
    const [a, b] = root.get(pair)
    expect(a).toBe(b) // one request, one instance
    expect(root.get(pair)[0]).not.toBe(a) // the next get, another
    expect(root.get(transient)).not.toBe(root.get(transient))
  })

  test('child containers see their parents, resolve a parent-bound request-scoped value over their own bindings, and keep their own singletons', () => {
    const root = new Container()
    const port = id<string>('port')
    const service = id<{ port: string }>('service')
    const useCase = id<{ service: { port: string } }>('useCase')
    root.bind(useCase).toResolvedValue((s: { port: string }) => ({ service: s }), [service] as never).inRequestScope()
    const conversation = new Container({ parent: root })
    const callA = new Container({ parent: conversation })
    const callB = new Container({ parent: conversation })
    for (const [call, name] of [[callA, 'a'], [callB, 'b']] as const) {
      call.load(
        new ContainerModule(({ bind }) => {
          bind(service).toResolvedValue((p: string) => ({ port: p }), [port] as never).inSingletonScope()
        }),
      )
      call.bind(port).toConstantValue(name)
    }
    expect(callA.get(useCase).service.port).toBe('a')
    expect(callB.get(useCase).service.port).toBe('b')
    expect(callA.get(service)).toBe(callA.get(service))
    expect(callA.get(service)).not.toBe(callB.get(service))
    expect(() => conversation.get(useCase)).toThrow(/service/) // nothing binds the service there
  })

  test('a binding added after a get is seen by the next get', () => {
    const root = new Container()
    const late = id<string>('late')
    const user = id<string>('user')
    root.bind(user).toResolvedValue((l: string) => `got ${l}`, [late] as never)
    expect(() => root.get(user)).toThrow()
    root.bind(late).toConstantValue('it')
    expect(root.get(user)).toBe('got it')
  })

  test('a binding added to a parent after a child\'s get is seen by the child\'s next get, and a second one makes it ambiguous', () => {
    const root = new Container()
    const child = new Container({ parent: root })
    const late = id<string>('late')
    const user = id<string>('user')
    child.bind(user).toResolvedValue((l: string) => `got ${l}`, [late] as never).inTransientScope()
    expect(() => child.get(user)).toThrow(/late/)
    root.bind(late).toConstantValue('it')
    expect(child.get(user)).toBe('got it')
    expect(child.get(user)).toBe('got it') // planned once, then from the cache
    root.bind(late).toConstantValue('again')
    expect(() => child.get(user)).toThrow(/Ambiguous bindings found for service: "Symbol\(late\)"/)
  })

  test.each([1, 2, 3, 4, 5])('a value made of %i dependencies, one of them a promise, is refused by get as asynchronous', (arity) => {
    const c = new Container()
    const deps = Array.from({ length: arity }, (_, i) => id<unknown>(`d${i}`))
    deps.forEach((d, i) => c.bind(d).toConstantValue(i === arity - 1 ? Promise.resolve(i) : i))
    const made = id<number>('made')
    c.bind(made).toResolvedValue((...xs: unknown[]) => xs.length, deps as never)
    expect(() => c.get(made)).toThrow(/Unexpected asynchronous service when resolving service "Symbol\(made\)"/)
  })

  test('an unbound or ambiguous service throws inversify\'s own message', () => {
    const c = new Container()
    const twice = id<number>('twice')
    c.bind(twice).toConstantValue(1)
    c.bind(twice).toConstantValue(2)
    expect(() => c.get(id('missing'))).toThrow(/No bindings found for service: "Symbol\(missing\)"/)
    expect(() => c.get(twice)).toThrow(/Ambiguous bindings found for service: "Symbol\(twice\)"/)
  })

  test('a missing dependency names the service that asks for it', () => {
    const c = new Container()
    const user = id<string>('user')
    c.bind(user).toResolvedValue((l: string) => l, [id<string>('absent')] as never)
    expect(() => c.get(user)).toThrow(/No bindings found for service: "Symbol\(absent\)"[^]*Trying to resolve bindings for "Symbol\(user\)"/)
  })

  test('a circular dependency throws that it is one, naming its services', () => {
    const c = new Container()
    const a = id<unknown>('a')
    const b = id<unknown>('b')
    c.bind(a).toResolvedValue((x: unknown) => x, [b] as never)
    c.bind(b).toResolvedValue((x: unknown) => x, [a] as never)
    expect(() => c.get(a)).toThrow(/Circular dependency found: Symbol\(a\) -> Symbol\(b\) -> Symbol\(a\)/)
  })
})

describe('what the bundle leaves out', () => {
  type Loose = Record<string, (...args: unknown[]) => unknown>
  const notInBundle = /is not in hark-memory's bundle of it/

  test.each(['unbind', 'rebind', 'isBound', 'getAll', 'snapshot', 'restore', 'unload', 'register', 'onActivation'])('Container.%s throws that it was left out', (method) => {
    const c = new Container() as unknown as Loose
    expect(() => c[method]?.(Symbol('x'))).toThrow(notInBundle)
  })

  test.each(['getAsync', 'loadAsync', 'unbindAll'])('Container.%s rejects or throws that it was left out', async (method) => {
    const c = new Container() as unknown as Loose
    await expect((async () => c[method]?.(Symbol('x')))()).rejects.toThrow(notInBundle)
  })

  test.each(['to', 'toSelf', 'toDynamicValue', 'toFactory', 'toService'])('bind().%s throws that it was left out', (method) => {
    const c = new Container()
    const syntax = c.bind(Symbol('x')) as unknown as Loose
    expect(() => syntax[method]?.(class {})).toThrow(notInBundle)
  })


  test('a resolved value\'s inject options (named, tagged, optional, multiple) throw that they were left out', () => {
    const c = new Container()
    const syntax = c.bind(Symbol('x')) as unknown as Loose
    expect(() => syntax['toResolvedValue']?.((v: unknown) => v, [{ serviceIdentifier: Symbol('y'), optional: true }])).toThrow(notInBundle)
  })

  test('a module\'s onActivation and onDeactivation throw that they were left out', () => {
    for (const hook of ['onActivation', 'onDeactivation']) {
      const c = new Container()
      const load = (options: unknown) => (options as Loose)[hook]?.(Symbol('x'), (v: unknown) => v)
      expect(() => c.load(new ContainerModule(load as never))).toThrow(notInBundle)
    }
  })

  test('Container.get with options throws that it was left out', () => {
    const c = new Container()
    const x = id<number>('x')
    c.bind(x).toConstantValue(1)
    expect(() => (c.get as (id: unknown, options: unknown) => unknown)(x, { optional: true })).toThrow(notInBundle)
  })

  test('when and on constraints after a scope throw that they were left out', () => {
    const c = new Container()
    const syntax = c.bind(Symbol('x')).toResolvedValue(() => 1).inSingletonScope() as unknown as Loose
    expect(() => syntax['whenNamed']?.('n')).toThrow(notInBundle)
    expect(() => syntax['onActivation']?.(() => 1)).toThrow(notInBundle)
  })
})

describe('a finished call container is not kept by its parent', () => {
  // The engine has no WeakRef: a parent that held its children (inversify's plan cache subscribers) would keep
  // every hook call's container, ports and services for as long as the conversation's. Measured in a Node
  // process without WeakRef and with the collector at hand: what 3,000 call containers leave behind.
  test('3,000 call containers, each with a port of 200 numbers, leave less than 1 KB each once dropped', () => {
    const script = `
      delete globalThis.WeakRef
      const { Container } = await import(${JSON.stringify(new URL('../../vendor/inversify.js', import.meta.url).href)})
      const root = new Container()
      root.bind('cfg').toConstantValue({ a: 1 })
      const conversation = new Container({ parent: root })
      conversation.bind('svc').toResolvedValue((c) => ({ c }), ['cfg']).inSingletonScope()
      const heap = () => { globalThis.gc(); return process.memoryUsage().heapUsed }
      const before = heap()
      for (let i = 0; i < 3000; i++) {
        const call = new Container({ parent: conversation })
        call.bind('port').toConstantValue({ big: new Array(200).fill(i) })
        call.bind('use').toResolvedValue((s, p) => ({ s, p }), ['svc', 'port'])
        call.get('use')
      }
      const perCall = (heap() - before) / 3000
      // A binding added to the conversation after the calls still reaches a new call.
      conversation.bind('late').toConstantValue(7)
      const last = new Container({ parent: conversation })
      console.log(JSON.stringify({ perCall, late: last.get('late') }))`
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    const { perCall, late } = JSON.parse(run.stdout) as { perCall: number; late: number }
    expect(late).toBe(7)
    expect(perCall).toBeLessThan(1024)
  })
})
