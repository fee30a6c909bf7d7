#!/usr/bin/env bash
# Runs libFuzzer harnesses of a STREAM_FUZZ build (scripts/sanitize.sh makes one), one after the
# other, each for a bounded time.
# Usage: scripts/fuzz.sh [build-dir] [seconds-per-harness] [harness...]
#   (defaults: build-sanitize, 60, every harness: onnx pt2 hardware mapping manifest mcp sweep_row)
# The corpus grows in <build-dir>/fuzz/corpus/<harness> (the seeds and fuzz/regressions/<harness>
# are read, never written). A crash, sanitizer report, leak, timeout (> 10 s) or out-of-memory
# (> 2 GB) input is saved under <build-dir>/fuzz/artifacts/<harness>/ and fails the run: fix the
# bug and commit the input to fuzz/regressions/<harness>/, whose ctest then runs it on every build.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-sanitize}
seconds=${2:-60}
# A fixed seed and a run count by default: CI's short runs explore the same inputs on any machine
# (the count, not the clock, ends them, unless the machine is too slow to reach it in the given
# seconds), so a failure there is reproducible. Long exploratory runs: STREAM_FUZZ_SEED=0 (libFuzzer
# picks a seed) and STREAM_FUZZ_RUNS=-1 (no count).
seed=${STREAM_FUZZ_SEED:-1}
runs=${STREAM_FUZZ_RUNS:-10000}
shift $(($# < 2 ? $# : 2))
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(onnx pt2 hardware mapping manifest mcp sweep_row)
source scripts/sanitizer-options.sh

for h in "${harnesses[@]}"; do
  corpus=$build_dir/fuzz/corpus/$h
  artifacts=$build_dir/fuzz/artifacts/$h
  mkdir -p "$corpus" "$artifacts"
  echo "fuzz: $h for ${seconds} s" >&2
  "$build_dir/bin/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -seed="$seed" -runs="$runs" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "$corpus" "$build_dir/fuzz/seeds/$h" "fuzz/regressions/$h"
done
