#!/usr/bin/env bash
# CI's sanitizer stage (scripts/test.sh runs it after the ordinary suite): a clang build with
# AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer plus the libFuzzer harnesses
# (STREAM_FUZZ=ON), the test suite on it, then every harness (scripts/fuzz.sh: 10,000 inputs or STREAM_FUZZ_SECONDS, default 60).
# Usage: scripts/sanitize.sh [build-dir]   (default: build-sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-sanitize}
seconds=${STREAM_FUZZ_SECONDS:-60}
# The test areas built and run here (the whole suite runs in the gcc build before). Left out: sdk
# (it builds an out-of-tree plugin against the install, which is not sanitized) and the areas that
# do not fit the CI time budget. STREAM_SANITIZE_AREAS="" runs every area.
areas=${STREAM_SANITIZE_AREAS-"ir;registry;hardware;mapping;cost;allocate;schedule;torch-frontend;onnx-frontend"}
scripts/install-packages.sh clang libclang-rt-14-dev

# -O1 and line tables only: less compile time than -O2 -g, and still exact stack traces. No Python
# module: an ASan-built extension cannot be loaded into an uninstrumented interpreter.
CC=clang CXX=clang++ cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DSTREAM_FUZZ=ON -DSTREAM_UNITY_BUILD=OFF -DSTREAM_BUILD_BENCHMARKS=OFF -DSTREAM_PYTHON=OFF -DSTREAM_TEST_AREAS="$areas" >&2
cmake --build "$build_dir" -j"$(nproc)" >&2
source scripts/sanitizer-options.sh
ctest --test-dir "$build_dir" --output-on-failure -j"$(nproc)"
scripts/fuzz.sh "$build_dir" "$seconds"
