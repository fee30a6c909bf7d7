#!/usr/bin/env bash
# CI's sanitizer stage (scripts/test.sh runs it after the ordinary suite): a clang build with
# AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer plus the libFuzzer harnesses
# (STREAM_FUZZ=ON), the test suite on it, then every harness for STREAM_FUZZ_SECONDS (default 60).
# Usage: scripts/sanitize.sh [build-dir]   (default: build-sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-sanitize}
seconds=${STREAM_FUZZ_SECONDS:-60}
scripts/install-packages.sh clang libclang-rt-14-dev

CC=clang CXX=clang++ cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSTREAM_FUZZ=ON -DSTREAM_BUILD_BENCHMARKS=OFF >&2
cmake --build "$build_dir" -j"$(nproc)" >&2
source scripts/sanitizer-options.sh
ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)"
scripts/fuzz.sh "$build_dir" "$seconds"
