#!/usr/bin/env bash
# Refreshes the documentation's screenshots from a build: runs the GUI tests offscreen (they save
# their screenshots under BUILD/screenshots), copies each image docs/images/ holds from there, and
# renders the README's main window at 1920 x 1080. The catalog database is a temporary one, so the
# user's is never written. Usage: scripts/update-doc-images.sh [BUILD directory, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
export QT_QPA_PLATFORM=offscreen
(cd "$build" && ctest --output-on-failure \
    -R 'tst_(canvas|mainwindow|fabricview|datahallview|comparison|queuesimulation)$')
for image in docs/images/*.png; do
    source="$build/screenshots/$(basename "$image")"
    if [ ! -f "$source" ]; then
        echo "update-doc-images: no $source: the tests no longer save it" >&2
        exit 1
    fi
    cp "$source" "$image"
done
database="$(mktemp -d)"
trap 'rm -rf "$database"' EXIT
CLUSTERPLANNER_DB="$database/catalog.sqlite" CLUSTERPLANNER_CATALOG_DIR="$PWD/catalogs" \
    "$build/bin/clusterplanner" samples/h100-1024-ndr-rail-fat-tree.json --size 1920x1080 \
    --screenshot docs/screenshot-main-window.png
echo "update-doc-images: $(ls docs/images/*.png | wc -l) images and docs/screenshot-main-window.png"
