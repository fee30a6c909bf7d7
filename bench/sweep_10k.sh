#!/usr/bin/env bash
# The sweep issue's 10,000-point check: a sweep of 10^4 hardware variants (overrides of
# tpu_like_quad_core) for the 2-conv is killed halfway, resumed, and must end with every point
# once; peak RSS is compared with a 1,000-point sweep of the same kind (it should not grow with
# the points). Not a test (it takes minutes): run by hand, figures go in the notes.
#   bash bench/sweep_10k.sh [build-dir]
set -euo pipefail
build=${1:-build}
stream=$(realpath "$build/bin/stream")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sweep_file() {  # $1 = file, $2 = number of bus bandwidths (10 -> 10^4 points, 1 -> 10^3)
  local bus="[32, 48, 64, 96, 128, 192, 256, 384, 512, 1024]"
  [[ $2 == 1 ]] && bus="[128]"
  cat >"$1" <<YAML
axes:
  hardware: [tpu_like_quad_core.yaml]
  workload: [2conv_1_8_32_32_16_32_3.onnx]
  hardware/cores/tpu_like/operational_array/sizes: [[4, 4], [8, 8], [8, 16], [16, 16], [16, 32], [32, 32], [32, 64], [64, 64], [64, 128], [128, 128]]
  hardware/cores/tpu_like/memories/sram_2MB/size: [524288, 1048576, 2097152, 3145728, 4194304, 6291456, 8388608, 12582912, 16777216, 33554432]
  hardware/core_connectivity/0/bandwidth: [8, 16, 24, 32, 48, 64, 96, 128, 192, 256]
  hardware/core_connectivity/12/bandwidth: $bus
YAML
}

peak_rss_kb() { awk '/Maximum resident/ {print $NF}' "$1"; }

sweep_file "$work/1k.yaml" 1
/usr/bin/time -v "$stream" sweep "$work/1k.yaml" --out "$work/out1k" --jobs 2 >/dev/null 2>"$work/1k.time"
echo "1,000 points: peak RSS $(peak_rss_kb "$work/1k.time") kB, $(awk '/Elapsed/ {print $NF}' "$work/1k.time")"

sweep_file "$work/10k.yaml" 10
/usr/bin/time -v "$stream" sweep "$work/10k.yaml" --out "$work/out" --jobs 2 >/dev/null 2>"$work/first.time" &
pid=$!
until [[ -f $work/out/results.jsonl ]] && (( $(wc -l <"$work/out/results.jsonl") >= 5000 )); do sleep 0.5; done
pkill -KILL -P "$pid" stream || true  # the stream under /usr/bin/time
wait "$pid" || true
echo "killed after $(wc -l <"$work/out/results.jsonl") rows"
/usr/bin/time -v "$stream" sweep "$work/10k.yaml" --out "$work/out" --jobs 2 >"$work/resume.out" 2>"$work/resume.time"
grep -m1 "already in" "$work/resume.time" || true
echo "resumed: peak RSS $(peak_rss_kb "$work/resume.time") kB, $(awk '/Elapsed/ {print $NF}' "$work/resume.time")"
rows=$(wc -l <"$work/out/results.jsonl")
distinct=$(grep -o '"id":"[0-9a-f]*"' "$work/out/results.jsonl" | sort -u | wc -l)
ok=$(grep -c '"status":"ok"' "$work/out/results.jsonl" || true)
echo "rows $rows, distinct ids $distinct, ok $ok; $(tail -1 "$work/resume.out")"
[[ $rows == 10000 && $distinct == 10000 ]]
