// The generator's last trims (scripts/fewer-nodes.mjs), run over small modules: what they rewrite behaves as
// before when evaluated, and what they must leave alone stays as written.
import { describe, expect, test } from 'vitest'
// @ts-expect-error: a plain ES module of the build scripts, without declarations
import { fieldsInOneAssign, wordsForLiterals } from '../../scripts/fewer-nodes.mjs'

const rewriteFields = fieldsInOneAssign as (text: string) => string
const rewriteWords = wordsForLiterals as (text: string, file: string) => string

/** Evaluates the test's own text, then `result` (never input). */
const run = (body: string, result: string): unknown => new Function(`${body};return ${result}`)()

describe('fieldsInOneAssign', () => {
  test('three or more parameter stores at a constructor start become one Object.assign, same fields in the same order', () => {
    const text = 'class A{constructor(a,b,c,d){this.a=a;this.bee=b;this.c=c;this.sum=a+d}}'
    const out = rewriteFields(text)
    expect(out).toContain('Object.assign(this,{a,bee:b,c});this.sum=a+d')
    const object = run(out, 'new A(1,2,3,4)') as Record<string, number>
    expect(Object.entries(object)).toEqual(Object.entries(run(text, 'new A(1,2,3,4)') as object))
    expect(Object.keys(object)).toEqual(['a', 'bee', 'c', 'sum'])
  })

  test('stores joined by commas count too', () => {
    expect(rewriteFields('class A{constructor(a,b,c){this.a=a,this.b=b,this.c=c}}')).toContain('Object.assign(this,{a,b,c});')
  })

  test.each([
    ['two stores (no fewer nodes)', 'class A{constructor(a,b){this.a=a;this.b=b}}'],
    ['a class that extends another (this is not there before super)', 'class A extends B{constructor(a,b,c){super();this.a=a;this.b=b;this.c=c}}'],
    ['a value that is not a parameter', 'class A{constructor(a,b){this.a=a;this.b=b;this.c=x}}'],
    ['a private field', 'class A{#a;constructor(a,b,c){this.#a=a;this.b=b;this.c=c}}'],
    ['a computed key', 'class A{constructor(a,b,c){this[a]=a;this.b=b;this.c=c}}'],
    ['a store after another statement', 'class A{constructor(a,b,c){f();this.a=a;this.b=b;this.c=c}}'],
  ])('%s: left as written', (_what, text) => {
    expect(rewriteFields(text)).toBe(text)
  })
})

describe('wordsForLiterals', () => {
  test('!0, !1 and void 0 are written as the words, and mean the same', () => {
    const text = 'let a=!0,b=!1,c=void 0,d=typeof(void 0)'
    const out = rewriteWords(text, 'x.js')
    expect(out).not.toMatch(/!0|!1|void 0/)
    expect(run(out, '[a,b,c,d]')).toEqual(run(text, '[a,b,c,d]'))
  })

  test('a binding named undefined is refused', () => {
    expect(() => rewriteWords('let undefined=1;', 'x.js')).toThrow(/undefined/)
  })
})
