#!/usr/bin/env bash
# Runs tests/mcp/client.mjs against `stream mcp`, first installing the official MCP TypeScript SDK
# (pinned) into BUILD/mcp-client when it is not there. Exit 77 (ctest: skipped) without node/npm.
# Usage: run_client.sh BUILD_DIR STREAM_BINARY
set -euo pipefail
build=$1 stream=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null && command -v npm >/dev/null || { echo "node/npm not found: skipped" >&2; exit 77; }
client=$build/mcp-client
sdk=1.32.2
if [ "$(node -p "try{require('$client/node_modules/@modelcontextprotocol/sdk/package.json').version}catch(e){''}")" != "$sdk" ]; then
  mkdir -p "$client"
  echo '{"name": "stream-mcp-test", "private": true, "type": "module"}' > "$client/package.json"
  npm install --prefix "$client" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/sdk@$sdk" >&2
fi
# ESM resolves packages from the script's own folder, so the script runs from beside node_modules.
cp "$here/client.mjs" "$client/client.mjs"
scratch=$build/test_scratch/mcp
rm -rf "$scratch" && mkdir -p "$scratch"
node "$client/client.mjs" "$stream" "$scratch/out" "$scratch" "$(cd "$here/../.." && pwd)"
