#!/usr/bin/env bash
# Installs the Debian packages Stream needs (only those missing), then configures and builds.
# Usage: scripts/setup.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}

packages=(build-essential cmake ninja-build pkg-config
  libonnx-dev libprotobuf-dev protobuf-compiler
  libboost-dev libboost-filesystem-dev nlohmann-json3-dev libyaml-cpp-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev coinor-libcbc-dev libcli11-dev libzip-dev libexpat1-dev libpng-dev
  python3-dev pybind11-dev python3-pytest
  doxygen    # doxygen: the plugin SDK's API reference (cmake --build build --target api-docs, docs/CMakeLists.txt)
  chromium   # chromium: the browser test of report.html (tests/report/scenarios/browser_report_test.cpp)
  slurm-wlm munge)  # a one-node Slurm for `stream sweep submit --slurm` (tests/slurm/run_slurm_test.sh)
scripts/install-packages.sh "${packages[@]}"

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
cmake --build "$build_dir" -j"$(nproc)" >&2
