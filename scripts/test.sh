#!/usr/bin/env bash
# The whole test suite: sets up, builds, and runs every test with ctest; then the sanitizer and
# fuzzing stage (scripts/sanitize.sh: ASan + UBSan build, part of the suite on it, a bounded fuzz run per
# harness). STREAM_SANITIZE=0 leaves that stage out. On a machine so slow that the first stage took
# more than STREAM_SANITIZE_AFTER_MIN minutes (default 25; a clean 2-core machine needs about 21),
# the stage is skipped with a message, so that the whole run stays within CI's time limit.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/setup.sh build
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
if [ "${STREAM_SANITIZE:-1}" = 0 ]; then
  exit 0
fi
minutes=$(((SECONDS - start) / 60))
if [ "$minutes" -gt "${STREAM_SANITIZE_AFTER_MIN:-25}" ]; then
  echo "test.sh: the build and suite took ${minutes} min; the sanitizer and fuzzing stage (about 20 min more) is skipped to stay within the CI time limit. Run it alone with scripts/sanitize.sh." >&2
  exit 0
fi
scripts/sanitize.sh build-sanitize
