#!/usr/bin/env bash
# Installs what is missing, builds, and opens the GUI on the shipped catalog and a sample plan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec build/bin/clusterplanner "${1:-samples/h100-1024-ndr-rail-fat-tree.json}"
