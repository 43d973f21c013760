#!/usr/bin/env bash
# Installs what mlusim needs from Debian's archive (as root); g++ builds with
# its own libgomp, so LLVM's libomp is only for the sanitizer builds. Skips apt when
# everything is already there, so it also works offline on a prepared machine.
set -euo pipefail
packages=(cmake make g++ libspdlog-dev libfmt-dev googletest libgtest-dev
          libgmock-dev libbenchmark-dev libboost-context-dev
          # mlusim-mluops (docs/mluops.md): Ninja for its builds, Python for
          # mlu-ops' generators; mlu-ops' gtest needs protobuf (protoc and the
          # library), libxml2 (found through pkg-config), Eigen and OpenBLAS;
          # from v1.6 on its harness also links zstd.
          ninja-build python3 pkg-config protobuf-compiler libprotobuf-dev
          libeigen3-dev libopenblas-dev libzstd-dev
          # the trace tests parse the SVG and JSON they check (libxml2 also
          # for mlu-ops' gtest)
          libxml2-dev nlohmann-json3-dev
          # the race check's digest of the bytes a copy writes (xxHash's XXH3)
          libxxhash-dev
          # sanitizers and fuzzing (docs/sanitizers_and_fuzzing.md): Clang 16 is
          # Debian 12's first with _Float16 on x86; its libomp is what TSan can see.
          clang-16 libclang-rt-16-dev libomp-16-dev llvm-16)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
