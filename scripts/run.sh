#!/usr/bin/env bash
# The main job on the bundled default: installs the packages the `stream` program needs, builds it
# and its bundled plugins (not the tests), and runs `stream run` with the given arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build --program
exec build/bin/stream run "$@"
