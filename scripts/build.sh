#!/usr/bin/env bash
# Configures and builds ClusterPlanner into build/ (Release).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${CP_CMAKE_ARGS:-}
cmake --build build -j"$(nproc)"
