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

# The module the engine loads is the bundle of that source (build/register.js, scripts/build-module.mjs):
# the same two calls, and no other, in it.
bundle=$(grep -oE '\$\.(http\.fetch|process\.|fs\.write|env\.get)[^,)]*' build/register.js)
echo "$bundle"
if [ "$(printf '%s\n' "$bundle" | grep -c .)" -ne 2 ] || ! printf '%s\n' "$bundle" | grep -qx '\$\.http\.fetch("https://harkstudio\.io/mcp"' || ! printf '%s\n' "$bundle" | grep -qx '\$\.env\.get("CLAUDE_BG_SOURCE"'; then
  echo "privacy check FAILED: build/register.js must hold exactly the literal Hark fetch and the CLAUDE_BG_SOURCE read" >&2
  exit 1
fi
echo "privacy check passed for build/register.js too"
