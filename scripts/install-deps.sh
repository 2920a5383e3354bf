#!/usr/bin/env bash
# Installs the Debian 12 packages the module needs (idempotent). Needs root (or sudo).
set -euo pipefail
PACKAGES=(
  cmake g++ make git pkg-config
  libns3-dev ns3            # ns-3 3.37; 'ns3' ships the helper binaries its CMake targets check
  libgsl-dev libsqlite3-dev libxml2-dev   # hard-coded by Debian's imported ns-3 targets
  libboost-dev libboost-graph-dev libeigen3-dev nlohmann-json3-dev
  libgtest-dev sqlite3
  libjemalloc-dev           # the programs' heap allocator (CMake INTELLIGENT_NETWORK_ALLOCATOR)
  python3 python3-matplotlib
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
