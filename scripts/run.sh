#!/usr/bin/env bash
# The main job on the bundled default: sets up, builds, and runs the furthest pipeline step that exists.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
exec build/bin/stream run "$@"
