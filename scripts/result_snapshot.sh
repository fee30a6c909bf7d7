#!/usr/bin/env bash
# Usage: scripts/result_snapshot.sh STREAM_BINARY OUT_DIR [CASE_PATTERN]
#
# Runs a fixed set of cases with the given `stream` binary and keeps everything each writes, so
# that two builds (before and after a refactor) can be compared file by file with
# scripts/compare_snapshots.sh. Every case runs from the root of this repository with relative
# input paths (taken from this checkout, so both binaries read the same inputs); the bundled
# default of `stream run` without arguments is the binary's own (as scripts/run.sh runs it), and
# so are the files a sweep names without a folder (tpu_like_quad_core.yaml: the bundled inputs).
#
# OUT_DIR/<case>/ holds:
#   command.txt   the arguments given to `stream` (or the script run)
#   out/          the result folder (`--out`), for the commands that write one
#   stdout.txt    what the command printed on stdout
#   stderr.txt    what it printed on stderr
#   exit_code     its exit status (a case that fails as expected is kept, its message compared)
# In stdout.txt and stderr.txt the absolute folders are replaced by <repo> (this checkout),
# <stream> (the binary's tree, whose inputs/ holds the bundled files) and <out> (the case's
# out/), so that binaries built in different worktrees give the same text.
#
# The cases (69; about 75 s of CPU on the 2-core development machine, 60 s of it the two AIE
# cases, and 160 MB):
#   default                 `stream run` with no arguments (scripts/run.sh)
#   example-*               the bundled examples the README and docs show: the four deployment-
#                           precision files, the 8-core mesh walkthrough (docs/hardware.md,
#                           docs/mapping.md), a .pt2 export, residual_block and cnn_concat_pool,
#                           the two AIE cases of inputs/README.md
#   layout-choose-*         `--layout choose` on the DMA model (docs/layout.md's table)
#   compat-*                `--compat stream-1.13` (docs/pipeline.md)
#   mapping-search-swiglu   `--mapping search?...` on the swiglu block on simba (docs/sweep.md)
#   memory-fallback*        ResNet-18 fp32 (the reference's export) whose groups need the memory
#                           fallback (README, docs/pipeline.md), and with --no-memory-fallback
#                           (infeasible: exit 1 and each group's model.mps)
#   options-*               --fusion-cut-points per-layer, --intra-core-tiling, --cost-profile
#                           full, --summary-only, --decompose, --no-decompose
#   core-cost-*             `stream core-cost` on the oracle cases and the tables of the 2-conv
#                           and of attention_pytorch
#   validate-*              `stream validate` (JSON) on the 2-conv and on attention_pytorch, a
#                           Softmax model: issue 38 makes validate check the expanded workload
#                           `stream run` schedules, so that one is EXPECTED to change then (today
#                           it shows one `softmax` layer where the run has softmax_max/exp/sum/div)
#   exported-*              every inputs/workload/exported/*.onnx on the default hardware, and
#                           two of them with --cast bf16
#   sweep-hardware-2conv    `stream sweep inputs/sweeps/hardware_2conv.yaml --jobs 2`, and again
#                           with --keep-points (every point's full results)
#   python-example          examples/python/evaluate_2conv.py with the module beside the binary
#                           (build/python: build the targets stream-program and stream_cpp; without
#                           the module the case says so, and compares different from one with it)
#
# CASE_PATTERN (a bash glob, default *) runs only the matching cases, for a quick look.
set -uo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 STREAM_BINARY OUT_DIR [CASE_PATTERN]" >&2
  exit 2
fi
stream=$(realpath "$1")
out_root=$(realpath -m "$2")
pattern=${3:-*}
repo=$(cd "$(dirname "$0")/.." && pwd)
stream_tree=$(cd "$(dirname "$stream")/../.." && pwd)
if [[ ! -x "$stream" ]]; then
  echo "error: $1: not an executable" >&2
  exit 2
fi
if [[ -e "$out_root" && -n "$(ls -A "$out_root")" ]]; then
  echo "error: $out_root: exists and is not empty (a snapshot goes into a fresh folder)" >&2
  exit 2
fi
mkdir -p "$out_root"
cd "$repo" || exit 2

# Replaces the folders that differ between machines and worktrees by fixed names. The case's out/
# goes first: it may lie inside the repository or the binary's tree.
normalise_paths() {
  local case_out=$1
  sed -e "s#${case_out}#<out>#g" -e "s#${stream_tree}#<stream>#g" -e "s#${repo}#<repo>#g"
}

# Runs one case: run_case NAME [--no-out] -- ARGS...; with --no-out the command writes no result
# folder (core-cost, validate) and is given no --out.
ran=0
run_case() {
  local name=$1 with_out=1
  shift
  if [[ $1 == --no-out ]]; then with_out=0; shift; fi
  [[ $1 == -- ]] && shift
  # shellcheck disable=SC2053  # the pattern is a glob on purpose
  [[ $name == $pattern ]] || return 0
  local dir=$out_root/$name args=("$@")
  mkdir -p "$dir"
  if (( with_out )); then args+=(--out "$dir/out"); fi
  printf '%s\n' "${@}" > "$dir/command.txt"
  "$stream" "${args[@]}" > "$dir/stdout.raw" 2> "$dir/stderr.raw"
  echo $? > "$dir/exit_code"
  finish_case "$dir"
}

finish_case() {
  local dir=$1
  normalise_paths "$dir/out" < "$dir/stdout.raw" > "$dir/stdout.txt"
  normalise_paths "$dir/out" < "$dir/stderr.raw" > "$dir/stderr.txt"
  rm -f "$dir/stdout.raw" "$dir/stderr.raw"
  ran=$((ran + 1))
  printf '[snapshot] %-45s exit %s\n' "${dir##*/}" "$(cat "$dir/exit_code")" >&2
}

tpu=inputs/hardware/tpu_like_quad_core.yaml
tpu_dma=inputs/hardware/tpu_like_quad_core_dma.yaml
conv2=inputs/workload/2conv_1_8_32_32_16_32_3.onnx
resnet18_fp32=tests/data/reference/stream-inputs/workload/resnet18.onnx

# The bundled default, as scripts/run.sh runs it.
run_case default -- run

# The examples users are pointed at (README's deployment-precision table, the walkthrough).
for model in resnet18_int8 fsrcnn_int8 swiglu_1_16_32 attention_pytorch residual_block cnn_concat_pool; do
  run_case "example-$model" -- run --workload "inputs/workload/$model.onnx"
done
run_case example-walkthrough-mesh-8core -- run --hardware inputs/hardware/walkthrough/mesh_8core.yaml \
  --workload "$conv2" --mapping inputs/mapping/walkthrough/2conv_mesh_8core.yaml
run_case example-torch-attention-pt2 -- run --workload inputs/workload/torch/attention.pt2
# The reference's two pinned AIE cases, as inputs/README.md says to run them (about a minute).
aie_hw=tests/data/reference/stream-inputs/aie/hardware/whole_array_strix.yaml
run_case example-aie-gemm -- run --hardware "$aie_hw" --workload inputs/workload/aie/gemm_256_8192_2048.onnx \
  --mapping inputs/mapping/aie/gemm_256_8192_2048_whole_array.yaml --nb-cols-to-use 8
# (With --constraint-selection pipelining=span the SwiGLU's MILP takes minutes: left out.)
run_case example-aie-swiglu -- run --hardware "$aie_hw" --workload inputs/workload/aie/swiglu_256_512_2048.onnx \
  --mapping inputs/mapping/aie/swiglu_256_512_2048_v2.yaml --nb-cols-to-use 8

# Layout choice on the hardware with a DMA model (docs/layout.md's before/after table).
run_case layout-fixed-dma-resnet18-int8 -- run --hardware "$tpu_dma" --workload inputs/workload/resnet18_int8.onnx
run_case layout-choose-dma-resnet18-int8 -- run --hardware "$tpu_dma" --workload inputs/workload/resnet18_int8.onnx \
  --layout choose
run_case layout-choose-dma-fsrcnn-int8 -- run --hardware "$tpu_dma" --workload inputs/workload/fsrcnn_int8.onnx \
  --layout choose
run_case layout-choose-dma-2conv -- run --hardware "$tpu_dma" --layout choose
run_case layout-choose-tpu-attention -- run --workload inputs/workload/attention_pytorch.onnx --layout choose

# The reference's automatic path.
run_case compat-attention-pytorch -- run --workload inputs/workload/attention_pytorch.onnx --compat stream-1.13
run_case compat-resnet18-fp32 -- run --workload "$resnet18_fp32" --compat stream-1.13

# The SwiGLU mapping search (docs/sweep.md's values; the block's default 16 tokens allow seq_tile 2).
run_case mapping-search-swiglu -- run --block swiglu --hardware inputs/hardware/simba.yaml \
  --mapping 'search?max=100&seq_tile=2&emb_tile=16&hidden_tile=32'

# The memory fallback (README: ResNet-18 fp32 on the TPU-like quad core), and without it.
run_case memory-fallback-resnet18-fp32 -- run --workload "$resnet18_fp32"
run_case memory-fallback-off-resnet18-fp32 -- run --workload "$resnet18_fp32" --no-memory-fallback

# Options that take other paths through a run.
run_case options-per-layer-2conv -- run --fusion-cut-points per-layer
run_case options-intra-core-tiling-2conv -- run --intra-core-tiling Conv1.D0=1
run_case options-cost-profile-full-resnet18-fp32 -- run --workload "$resnet18_fp32" --cost-profile full
run_case options-summary-only-resnet18-int8 -- run --workload inputs/workload/resnet18_int8.onnx --summary-only
run_case options-decompose-attention -- run --workload inputs/workload/attention_pytorch.onnx --decompose
run_case options-no-decompose-attention -- run --workload inputs/workload/attention_pytorch.onnx --no-decompose

# The per-core cost model on its own.
run_case core-cost-oracle-cases --no-out -- core-cost --cases tests/data/reference/oracle/cost-model-cases.json \
  --format json
run_case core-cost-2conv-table --no-out -- core-cost --hardware "$tpu" --workload "$conv2" --format json
run_case core-cost-attention-table --no-out -- core-cost --hardware "$tpu" \
  --workload inputs/workload/attention_pytorch.onnx --format json

# What validate checks (the Softmax one is expected to change with issue 38, see the header).
run_case validate-2conv --no-out -- validate --hardware "$tpu" --workload "$conv2" --format json
run_case validate-softmax-attention --no-out -- validate --hardware "$tpu" \
  --workload inputs/workload/attention_pytorch.onnx --format json

# Every exporter-written model on the default hardware, and two of them cast to bf16.
# Symbolic axes get the sizes tests/pipeline/scenarios/exported_models_test.cpp gives them.
exported_dims() {
  case $1 in
    transformer_encoder_op13 | transformer_encoder_op17) echo "--dim batch=1 --dim seq=16" ;;
    vit_tiny) echo "--dim batch=1" ;;
  esac
}
for model in inputs/workload/exported/*.onnx; do
  name=${model##*/}
  name=${name%.onnx}
  # shellcheck disable=SC2046  # the dims are words on purpose
  run_case "exported-$name" -- run --workload "$model" $(exported_dims "$name")
done
run_case exported-bf16-resnet18_op13 -- run --workload inputs/workload/exported/resnet18_op13.onnx --cast bf16
# shellcheck disable=SC2046  # the dims are words on purpose
run_case exported-bf16-transformer_encoder_op17 -- run --workload inputs/workload/exported/transformer_encoder_op17.onnx \
  $(exported_dims transformer_encoder_op17) --cast bf16

# A sweep's results folder (two jobs: the rows are written in point order whatever the timing).
run_case sweep-hardware-2conv -- sweep inputs/sweeps/hardware_2conv.yaml --jobs 2
run_case sweep-hardware-2conv-keep-points -- sweep inputs/sweeps/hardware_2conv.yaml --jobs 2 --keep-points

# The Python example, with the module built beside the binary (skipped, and said so, without it).
python_dir=$(dirname "$stream")/../python
# shellcheck disable=SC2053  # the pattern is a glob on purpose
if [[ python-example == $pattern ]]; then
  dir=$out_root/python-example
  mkdir -p "$dir/out"
  echo "examples/python/evaluate_2conv.py" > "$dir/command.txt"
  if compgen -G "$python_dir/stream_cpp*.so" > /dev/null; then
    PYTHONPATH=$python_dir /usr/bin/python3 examples/python/evaluate_2conv.py "$dir/out" \
      > "$dir/stdout.raw" 2> "$dir/stderr.raw"
    echo $? > "$dir/exit_code"
  else
    echo "no stream_cpp module in $python_dir" > "$dir/stdout.raw"
    echo "[snapshot] warning: no stream_cpp module in $python_dir (build the target stream_cpp)" >&2
    : > "$dir/stderr.raw"
    echo skipped > "$dir/exit_code"
  fi
  finish_case "$dir"
fi

echo "[snapshot] $ran cases in $out_root" >&2
