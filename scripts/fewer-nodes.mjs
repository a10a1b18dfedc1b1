// What the generated module files (build/register.js, vendor/*.js) go through after esbuild: esbuild's
// syntax minifier writes `true`, `false` and `undefined` as `!0`, `!1` and `void 0`, fewer bytes but two
// syntax nodes each where the word is one, and Claude Code's scan of the module at every start costs by
// the node, not by the byte (docs/engine.md, "Before the worker"). This puts the words back. Shared by
// scripts/build-module.mjs and scripts/build-vendor.mjs.
import { parse } from 'acorn'

/** Every node of `tree`, depth first. */
function* nodes(tree) {
  const stack = [tree]
  while (stack.length > 0) {
    const node = stack.pop()
    yield node
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const v of value) if (v !== null && typeof v?.type === 'string') stack.push(v)
      if (value !== null && typeof value?.type === 'string') stack.push(value)
    }
  }
}

/** `text` with each edit [start, end, replacement] made (none overlapping); throws if the result is no module. */
function edited(text, edits) {
  let out = ''
  let at = 0
  for (const [start, end, by] of edits.sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, start) + by
    at = end
  }
  out += text.slice(at)
  parse(out, { ecmaVersion: 'latest', sourceType: 'module' })
  return out
}

const WORDS = { 'void 0': 'undefined', '!0': 'true', '!1': 'false' }
const wordChar = /[\w$]/

/**
 * `text` (an ES module) with `!0`, `!1` and `void 0` written as `true`, `false` and `undefined`. Throws when
 * the name `undefined` stands anywhere but as a property's name (`a.undefined`, `{ undefined: 1 }`): a
 * binding of it would make the word mean something else, and esbuild writes every read of it as `void 0`.
 * A `void 0` right after `delete` stays (`delete undefined` is a syntax error in a module).
 */
export function wordsForLiterals(text, file) {
  const tree = parse(text, { ecmaVersion: 'latest', sourceType: 'module' })
  const all = [...nodes(tree)]
  const names = new Set()
  for (const node of all) {
    if (node.type === 'MemberExpression' && !node.computed) names.add(node.property)
    if ((node.type === 'Property' || node.type.endsWith('Definition')) && !node.computed && !node.shorthand) names.add(node.key)
  }
  const edits = []
  for (const node of all) {
    if (node.type === 'Identifier' && node.name === 'undefined' && !names.has(node)) throw new Error(`${file}: names \`undefined\` at ${node.start}; it cannot say undefined for void 0`)
    if (node.type !== 'UnaryExpression' || node.argument.type !== 'Literal') continue
    if (node.operator === 'void' && /\bdelete\s*$/.test(text.slice(Math.max(0, node.start - 12), node.start))) continue
    const word = WORDS[`${node.operator === 'void' ? 'void ' : node.operator}${node.argument.raw}`]
    if (word === undefined) continue
    const before = wordChar.test(text[node.start - 1] ?? '') ? ' ' : ''
    const after = wordChar.test(text[node.end] ?? '') ? ' ' : ''
    edits.push([node.start, node.end, `${before}${word}${after}`])
  }
  return edited(text, edits)
}

/**
 * `text` (an ES module) with each constructor that starts by storing three or more of its parameters on `this`
 * (TypeScript's parameter properties: `this.a=a;this.b=b;this.c=c`, six nodes a field) storing them in one
 * `Object.assign(this,{a,b,c})` (three nodes a field, seven for the call). The same stores in the same order:
 * the values are parameters, read before any of them is stored either way. Only a class without `extends`
 * (nothing may touch `this` before `super`), and only names, not private fields or computed keys.
 */
export function fieldsInOneAssign(text) {
  const tree = parse(text, { ecmaVersion: 'latest', sourceType: 'module' })
  const edits = []
  for (const node of nodes(tree)) {
    if ((node.type !== 'ClassDeclaration' && node.type !== 'ClassExpression') || node.superClass !== null) continue
    const ctor = node.body.body.find((m) => m.type === 'MethodDefinition' && m.kind === 'constructor')
    if (ctor === undefined) continue
    const params = new Set(ctor.value.params.filter((p) => p.type === 'Identifier').map((p) => p.name))
    const isStore = (a) =>
      a.type === 'AssignmentExpression' && a.operator === '=' && a.left.type === 'MemberExpression' && a.left.object.type === 'ThisExpression' &&
      !a.left.computed && a.left.property.type === 'Identifier' && a.right.type === 'Identifier' && params.has(a.right.name)
    const statements = []
    const stores = []
    for (const st of ctor.value.body.body) {
      const e = st.type === 'ExpressionStatement' ? st.expression : undefined
      const list = e === undefined ? [] : e.type === 'SequenceExpression' ? e.expressions : [e]
      if (list.length === 0 || !list.every(isStore)) break
      statements.push(st)
      stores.push(...list)
    }
    if (stores.length < 3) continue
    const fields = stores.map((a) => (a.left.property.name === a.right.name ? a.right.name : `${a.left.property.name}:${a.right.name}`))
    edits.push([statements[0].start, statements.at(-1).end, `Object.assign(this,{${fields.join(',')}});`])
  }
  return edited(text, edits)
}
