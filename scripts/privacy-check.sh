#!/usr/bin/env bash
# SPEC.md, Development: over all plugin source (not tests, not vendor), the calls that reach the
# network, start a program, write a file or read the environment must be exactly two lines: the
# fetch of the literal 'https://harkstudio.io/mcp' and the read of CLAUDE_BG_SOURCE.
set -uo pipefail
cd "$(dirname "$0")/.."
lines=$(grep -rnE '\$\.(http\.fetch|process\.|fs\.write|env\.get)' hooks core adapters composition --include='*.ts' --include='*.tsx' --include='*.js' --include='*.mjs')
echo "$lines"
count=$(printf '%s\n' "$lines" | grep -c .)
fetch=$(printf '%s\n' "$lines" | grep -c "\$\.http\.fetch('https://harkstudio\.io/mcp'")
env=$(printf '%s\n' "$lines" | grep -c "\$\.env\.get('CLAUDE_BG_SOURCE')")
if [ "$count" -ne 2 ] || [ "$fetch" -ne 1 ] || [ "$env" -ne 1 ]; then
  echo "privacy check FAILED: expected exactly the literal Hark fetch and the CLAUDE_BG_SOURCE read (got $count lines)" >&2
  exit 1
fi
echo "privacy check passed: the one literal Hark URL and the one CLAUDE_BG_SOURCE read"
