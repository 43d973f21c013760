#!/bin/sh
# calibrate_test.sh <mlusim> <work dir>: `mlusim calibrate` without an mlu-ops
# build runs its own programs, lists mlu-ops' cases as skipped with what they
# need, ends with the medians; a folder that holds no mlu-ops build and an
# unknown option are errors.
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

check 0 "" \
  '^scalar NRAM multiply-add loop +MLU370-X8 +cycles/iteration +30 +[0-9.e+-]+ +[+-][0-9.]+% +fitted' \
  '^scalar GDRAM pointer loop +MLU370-M8 +ns/iteration +630-780 +[0-9.e+-]+ +[+-][0-9.]+% +held out' \
  '^element-wise op on 10,000 floats \(launch floor\) +MLU590-H8 +us +2 ' \
  '^ball_query case_0 +MLU370-X4 .* skipped: needs an mlu-ops build for mtp_372 with ball_query' \
  'three_interpolate_forward float \[16,128,1024\] N=4096 +MLU270 .* skipped: needs an mlu-ops build for mtp_270' \
  '^[0-9]+ of 6 cases run within \+-25%; median \|error\| [0-9.]+% over 4 fitted cases, [0-9.]+% over 2 held-out cases$'
check 2 "--mluops $work" 'holds no mlu-ops build'
check 2 "--bogus" "unknown option '--bogus'"

[ "$errors" = 0 ] && echo "mlusim calibrate: every check passed"
exit "$errors"
