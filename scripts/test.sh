#!/usr/bin/env bash
# The whole test suite: sets up, builds, and runs every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
