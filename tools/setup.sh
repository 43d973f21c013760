#!/usr/bin/env bash
# Installs what mlusim needs from Debian's archive (as root). Skips apt when
# everything is already there, so it also works offline on a prepared machine.
set -euo pipefail
packages=(cmake make g++ libomp-dev libspdlog-dev libfmt-dev googletest libgtest-dev
          libgmock-dev libbenchmark-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
