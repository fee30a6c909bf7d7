#!/usr/bin/env bash
# Installs the Debian packages Stream needs (only those missing), then configures and builds.
# Usage: scripts/setup.sh [build-dir] [--program]   (default: build)
#   --program: only what the `stream` program and its bundled plugins need (scripts/run.sh): their
#   packages, and the `stream-program` target (the host, the core, the solver modules, the bundled
#   plugins). Without it: everything, tests, benchmarks and the Python module included
#   (scripts/test.sh). Both use the same build directory, so a later full set-up reuses the objects.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=build
program_only=0
for arg in "$@"; do
  case "$arg" in
    --program) program_only=1 ;;
    *) build_dir=$arg ;;
  esac
done

program_packages=(build-essential cmake ninja-build pkg-config
  libonnx-dev libprotobuf-dev protobuf-compiler
  libboost-dev libboost-filesystem-dev nlohmann-json3-dev libyaml-cpp-dev libspdlog-dev
  coinor-libcbc-dev libcli11-dev libzip-dev)
test_packages=(libgtest-dev libgmock-dev libbenchmark-dev libexpat1-dev libpng-dev
  python3-dev pybind11-dev python3-pytest
  libonnx-testdata  # ONNX's operator test models: the conformance test (tests/plugins/onnx-frontend/conformance/)
  doxygen    # doxygen: the plugin SDK's API reference (cmake --build build --target api-docs, docs/CMakeLists.txt)
  chromium   # chromium: the browser test of report.html (tests/report/scenarios/browser_report_test.cpp)
  slurm-wlm munge)  # a one-node Slurm for `stream sweep submit --slurm` (tests/slurm/run_slurm_test.sh)
# node and npm for the MCP test's client (tests/mcp/run_client.sh installs the pinned SDK into the
# build tree), unless a node with its npm is there already (NodeSource's nodejs bundles npm and
# refuses Debian's npm package).
command -v npm >/dev/null || test_packages+=(nodejs npm)

if [ "$program_only" = 1 ]; then
  scripts/install-packages.sh "${program_packages[@]}"
  # Tests, benchmarks and the Python module stay off until a full set-up turns them on; the
  # configure then needs none of their packages.
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSTREAM_BUILD_TESTS=OFF -DSTREAM_BUILD_BENCHMARKS=OFF -DSTREAM_PYTHON=OFF >&2
  cmake --build "$build_dir" -j"$(nproc)" --target stream-program >&2
else
  scripts/install-packages.sh "${program_packages[@]}" "${test_packages[@]}"
  # -U: a build directory first configured by --program finds the Python module's packages again.
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSTREAM_BUILD_TESTS=ON -DSTREAM_BUILD_BENCHMARKS=ON -USTREAM_PYTHON >&2
  cmake --build "$build_dir" -j"$(nproc)" >&2
fi
