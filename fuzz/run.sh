#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after the other,
# under ASan + UBSan, in build-asan (or $MLUSIM_FUZZ_BUILD): configured for the
# fuzz targets if it is not configured yet (Clang 16 from Debian, tools/setup.sh
# installs it), then brought up to date. Usage: fuzz/run.sh [seconds] [target-regex]
# Corpora grow in build-asan/fuzz/corpus/<target>/; an input that breaks a
# property is written to build-asan/fuzz/crashes/<target>/ and the script fails.
# To keep one as a regression test, copy it to fuzz/regressions/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
only=${2:-.}
build=${MLUSIM_FUZZ_BUILD:-build-asan}

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-16 -DMLUSIM_SANITIZE=address -DMLUSIM_FUZZ=ON \
    -DMLUSIM_BUILD_TESTS=OFF -DMLUSIM_BUILD_PERF=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
fi
targets=$(sed -n 's/^mlusim_fuzz_target(\([a-z_0-9]*\) .*/\1/p' fuzz/CMakeLists.txt | grep -E "$only")
cmake --build "$build" -j2 --target $(printf 'fuzz_%s ' $targets)

export PATH=/usr/lib/llvm-16/bin:$PATH MLUSIM_LOG=off OMP_WAIT_POLICY=passive
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for t in $targets; do
  corpus=$build/fuzz/corpus/$t crashes=$build/fuzz/crashes/$t
  mkdir -p "$corpus" "$crashes"
  # Seeds: the all-zero input is every target's smallest valid call; a few
  # byte patterns pick other shapes, parameters and pointer kinds.
  for b in 00 01 03 07 1f 5a a5 e3 f7; do
    printf "\\x$b%.0s" $(seq 48) > "$corpus/seed_$b"
  done
  [ -d "fuzz/regressions/$t" ] && cp fuzz/regressions/"$t"/* "$corpus"/
  echo "fuzz: $t for ${seconds}s"
  if ! "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
       -max_len=512 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" \
       > "$build/fuzz/$t.log" 2>&1; then
    tail -n 60 "$build/fuzz/$t.log"
    failed+=("$t")
  else
    grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$build/fuzz/$t.log" | tr '\n' ' '
    echo
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: properties broken by ${failed[*]} (inputs in $build/fuzz/crashes/)"
  exit 1
fi
echo "fuzz: ${seconds}s per target, no property broken"
