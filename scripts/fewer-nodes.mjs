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

const isUndefined = (n) => n?.type === 'Identifier' && n.name === 'undefined'
/** Whether `node` binds or assigns the name `undefined` (patterns are not looked into: nothing here destructures to it). */
const declaresUndefined = (node) =>
  isUndefined(node.id) ||
  (node.params ?? []).some(isUndefined) ||
  isUndefined(node.param) ||
  (node.type === 'AssignmentExpression' && isUndefined(node.left)) ||
  (node.type.startsWith('Import') && isUndefined(node.local))

const WORDS = { 'void 0': 'undefined', '!0': 'true', '!1': 'false' }
const wordChar = /[\w$]/

/**
 * `text` (an ES module) with `!0`, `!1` and `void 0` written as `true`, `false` and `undefined`. Throws when
 * anything in it declares or assigns a name `undefined` (then the word would not mean the value).
 */
export function wordsForLiterals(text, file) {
  const tree = parse(text, { ecmaVersion: 'latest', sourceType: 'module' })
  const edits = []
  for (const node of nodes(tree)) {
    if (declaresUndefined(node)) throw new Error(`${file}: declares or assigns \`undefined\` at ${node.start}; it cannot say undefined for void 0`)
    if (node.type !== 'UnaryExpression' || node.argument.type !== 'Literal') continue
    const word = WORDS[`${node.operator === 'void' ? 'void ' : node.operator}${node.argument.raw}`]
    if (word === undefined) continue
    const before = wordChar.test(text[node.start - 1] ?? '') ? ' ' : ''
    const after = wordChar.test(text[node.end] ?? '') ? ' ' : ''
    edits.push([node.start, node.end, `${before}${word}${after}`])
  }
  let out = ''
  let at = 0
  for (const [start, end, by] of edits.sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, start) + by
    at = end
  }
  return out + text.slice(at)
}
