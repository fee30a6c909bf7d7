#!/usr/bin/env bash
# The whole test suite: sets up, builds, and runs every test with ctest; then the sanitizer and
# fuzzing stage (scripts/sanitize.sh: ASan + UBSan build, the suite on it, 60 s per fuzz harness).
# STREAM_SANITIZE=1 runs that stage (off by default until its time on a clean 2-core machine fits CI).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
if [ "${STREAM_SANITIZE:-0}" != 0 ]; then
  scripts/sanitize.sh build-sanitize
fi
