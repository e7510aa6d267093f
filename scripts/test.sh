#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
# Tests use their own catalog databases in the build tree, never the user's.
cd build
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)"
