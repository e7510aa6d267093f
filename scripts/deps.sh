#!/usr/bin/env bash
# Installs the Debian packages ClusterPlanner builds with, when any is missing. Sourced by the
# other scripts; safe to run again (it installs nothing when everything is there).
set -euo pipefail
CP_PACKAGES=(cmake g++ make pkg-config qt6-base-dev qt6-charts-dev libqt6sql6-sqlite libqt6opengl6-dev libboost-graph-dev
             nlohmann-json3-dev libsqlite3-dev libgl-dev xvfb poppler-utils fonts-dejavu-core
             dpkg-dev file appstream)
missing=()
for package in "${CP_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "Installing missing packages: ${missing[*]}"
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
