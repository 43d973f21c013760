#!/bin/sh
# calibrate_test.sh <mlusim> <work dir>: `mlusim calibrate` without an mlu-ops
# build runs the lab's programs, lists mlu-ops' cases as skipped with what
# they need, ends with the medians, having first fitted (--fit) the constants
# whose cases it can run; a folder that holds no mlu-ops build and an unknown
# option are errors.
set -u
mlusim=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
log="$work/calibrate.txt"
errors=0

# check <exit status wanted> "<arguments>" <extended regexp>...: every regexp
# must match a line of what `mlusim calibrate <arguments>` printed.
check() {
  wanted=$1 arguments=$2
  shift 2
  # shellcheck disable=SC2086
  "$mlusim" calibrate $arguments > "$log" 2>&1
  status=$?
  if [ "$status" != "$wanted" ]; then
    echo "mlusim calibrate $arguments: exit status $status, expected $wanted"
    errors=$((errors + 1))
  fi
  for pattern in "$@"; do
    if ! grep -qE -- "$pattern" "$log"; then
      echo "mlusim calibrate $arguments: no line matching $pattern"
      errors=$((errors + 1))
    fi
  done
  [ "$errors" = 0 ] || cat "$log"
}

# One run (each runs every program case, and the course's matrix programs take
# minutes under the sanitizers): --fit, with a folder that claims to be a
# build for mtp_270 holding three_interpolate_forward (the one the MLU270
# cases need). The constants whose cases run here are found; the others say
# why not; then every case at the values found: the MLU270 cases run on the
# folder instead of being skipped, and fail, since it holds no build; the
# other mlu-ops cases are skipped with what they need.
mkdir -p "$work/mtp_270"
printf "MLUOPS_ARCH='mtp_270'\nMLUOPS_BUILT='three_interpolate_forward'\n" \
  > "$work/mtp_270/mluops-build.conf"
check 1 "--fit --mluops $work/mtp_270" \
  '^GDRAM latency, MLU200 and MLU300 +gdram_latency_ns +[0-9.]+ +[0-9.]+ +[+-]0\.[0-9]% +MLU370-X8: lab 5.2 01_scalar' \
  '^GDRAM latency, MLU500 .*\(not fitted: moe_dispatch_backward_data float, samples 18432, .*skipped: needs an mlu-ops build for mtp_592 with moe_dispatch_backward_data' \
  '^scalar on-chip access +scalar_onchip_cycles +[0-9.]+ +[0-9.]+ +[+-][0-9]\.[0-9]% +MLU370-X8: lab 5.2 02_scalar_nram' \
  '^launch overhead, MLU500 .*\(not fitted: abs case_0 .*skipped: needs an mlu-ops build for mtp_592' \
  '^launch overhead, MLU200 .*\(not fitted: three_interpolate_forward float \[16,512,16\] N=64: (no result|the case failed)' \
  "^a kernel's first launch: loading it +kernel_load_us +[0-9.]+ +[0-9.]+ +[+-][0-9]\.[0-9]% +MLU370-X8: lab 5.2 03_vector_nram" \
  '^Every case at the constants found:' \
  '^lab 5.2 02_scalar_nram 128x256x128 +MLU370-X8 +ms +126.067 +[0-9.e+-]+ +[+-][0-9.]+% +fitted' \
  '^lab 5.2 01_scalar \(GDRAM\) 128x256x256 +MLU370-M8 +ms +5280.594 +[0-9.e+-]+ +[+-][0-9.]+% +held out' \
  '^lab 5.2 05_vector_nram_blocks_pipe3 524288x256x128 +MLU370-X4 +ms +3.18 +[0-9.e+-]+ +[+-][0-9.]+% +held out' \
  '^abs case_0 \(10,000 floats: the launch floor\) +MLU590-H8 .* skipped: needs an mlu-ops build for mtp_592 with abs' \
  '^ball_query case_0 +MLU370-X4 .* skipped: needs an mlu-ops build for mtp_372 with ball_query' \
  'three_interpolate_forward float \[16,128,1024\] N=4096 +MLU270 .* (no result|the case failed): see ' \
  '^[0-9]+ of 15 cases run within \+-25%; median \|error\| [0-9.]+% over 3 fitted cases, [0-9.]+% over 12 held-out cases$'
check 2 "--mluops $work" 'holds no mlu-ops build'
check 2 "--bogus" "unknown option '--bogus'"

[ "$errors" = 0 ] && echo "mlusim calibrate: every check passed"
exit "$errors"
