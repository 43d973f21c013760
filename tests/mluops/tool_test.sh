#!/bin/sh
# tool_test.sh <mlusim-mluops> <fake tree> <work dir>: mlusim-mluops on the
# mlu-ops-like tree of fake_mluops/ (its README says what it has): the summary
# lines, an operator that does not build skipped with its first error, the
# harness' cases counted, failing and missing cases, zero cases being a
# failure, the device check and the device a build's architecture picks, a second build that recompiles nothing, what
# the harness finds of its settings (its test_list, the on-chip fill, the
# launch time limit).
set -u
tool=$1 fake=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
failures=0
out="$work/out.txt"

fail() { echo "FAILED: $*"; echo "--- output:"; cat "$out"; failures=$((failures + 1)); }
# expect <status> <command...>: runs the command, output in $out.
expect() {
  want=$1; shift
  "$@" > "$out" 2>&1
  got=$?
  if [ "$want" = 0 ] && [ "$got" != 0 ]; then fail "$* exited $got"; fi
  if [ "$want" != 0 ] && [ "$got" = 0 ]; then fail "$* succeeded"; fi
}
has() { grep -qF -- "$1" "$out" || fail "no line with: $1"; }

build="$work/build"
expect 0 "$tool" build --source "$fake" --build "$build" --jobs 2
has "mluops-build: skipped broken_forward: kernels/broken/broken_forward/broken_forward_block.mlu:"
has "__bang_does_not_exist"
has "mluops-build: 1 operators built, 1 skipped"

expect 0 "$tool" test --build "$build"
has "[ RUN      ] scale_forward/TestSuite.mluOp/0"
has "mluops: 2 passed, 0 failed"
has "[test_list]: found"
has "[fill_ram]: OFF"
has "[watchdog]: 600"
[ "$(awk -F '\t' '$3 == "passed" && $4 > 0' "$build/mluops-test.tsv" | wc -l)" = 2 ] ||
  fail "mluops-test.tsv does not hold 2 passed cases with their hardware time"

# Operators' harnesses at once: a line per operator, the same report.
expect 0 "$tool" test --build "$build" --jobs 2
has "mlusim-mluops: scale_forward: 2 passed, 0 failed (log: $build/logs/test-scale_forward.log)"
has "mluops: 2 passed, 0 failed"
expect 2 "$tool" test --build "$build" --jobs 0
has "--jobs 0: give a number of operators to run at once, 1 or more"

# A folder of cases laid out like the zoo: one passes, one fails (n = -1 is
# a bad parameter).
mkdir -p "$work/cases/scale_forward/test_case"
printf 'n: 100\nalpha: 3\n' > "$work/cases/scale_forward/test_case/good.prototxt"
printf 'n: -1\nalpha: 3\n' > "$work/cases/scale_forward/test_case/bad.prototxt"
expect 1 "$tool" test --build "$build" --cases "$work/cases"
has "mluops: 1 passed, 1 failed"
has "mluops: failed: scale_forward $work/cases/scale_forward/test_case/bad.prototxt"

mkdir -p "$work/no_cases"
expect 1 "$tool" test --build "$build" --cases "$work/no_cases"
has "no case ran"
has "mluops: 0 passed, 0 failed"

# The harness finds no device in shared mode: it runs nothing and says "ALL
# PASSED"; its cases did not pass.
FAKE_MLUOPS_NO_CARD=1 expect 1 "$tool" test --build "$build"
has "ALL PASSED."
has "mluops: 0 passed, 2 failed"

MLUOP_GTEST_FILL_RAM=NAN_FLOAT MLUSIM_WATCHDOG_SECONDS=30 expect 0 "$tool" test --build "$build"
has "[fill_ram]: NAN_FLOAT"
has "[watchdog]: 30"

MLUSIM_DEVICE=MLU270 expect 1 "$tool" test --build "$build"
has "the build is for mtp_372"
has "choose a device of mtp_372 or build with --arch mtp_270"
expect 0 env -u MLUSIM_DEVICE "$tool" test --build "$build"
has "on the simulated MLU370-X4"

# Built for the MLU500 series, the cases run on an MLU590-H8 unless
# MLUSIM_DEVICE says otherwise.
expect 0 "$tool" build --source "$fake" --build "$work/mtp_592" --arch mtp_592 --jobs 2
expect 0 env -u MLUSIM_DEVICE "$tool" test --build "$work/mtp_592"
has "on the simulated MLU590-H8"
has "mluops: 2 passed, 0 failed"
expect 1 "$tool" test --build "$build" --ops broken_forward
has "broken_forward was skipped by the build"
expect 1 "$tool" build --source "$fake" --build "$work/other" --ops no_such_op
has "mlu-ops has no operator no_such_op; it has: broken_forward scale_forward"

# A second build of the same tree compiles nothing that built before.
object="$build/cmake/CMakeFiles/mluops.dir/kernels/scale/scale_union1.mlu.o"
harness="$build/cmake/test/mluop_gtest"
before=$(stat -c %Y "$object" "$harness")
sleep 1
expect 0 "$tool" build --source "$fake" --build "$build" --jobs 2
has "mluops-build: 1 operators built, 1 skipped"
[ "$(stat -c %Y "$object" "$harness")" = "$before" ] || fail "the second build recompiled"

# The generators where a newer release keeps them (v1.11.1's
# scripts/kernels_light_config/), found through independent_build.sh; a tree
# whose build script names none is an error that says so.
cp -R "$fake" "$work/moved_scripts"
mv "$work/moved_scripts/scripts/bangc_kernels_path_config" "$work/moved_scripts/scripts/kernels_light_config"
sed -i 's|bangc_kernels_path_config/bangc_kernels_gen_header_file_for_mlu_ops.py|kernels_light_config/gen_header_file_for_mlu_ops.py|; s|bangc_kernels_path_config/bangc_kernels_path_check.py|kernels_light_config/kernels_path_check.py|' \
  "$work/moved_scripts/independent_build.sh"
mv "$work/moved_scripts/scripts/kernels_light_config/bangc_kernels_gen_header_file_for_mlu_ops.py" \
  "$work/moved_scripts/scripts/kernels_light_config/gen_header_file_for_mlu_ops.py"
mv "$work/moved_scripts/scripts/kernels_light_config/bangc_kernels_path_check.py" \
  "$work/moved_scripts/scripts/kernels_light_config/kernels_path_check.py"
expect 0 "$tool" build --source "$work/moved_scripts" --build "$work/moved_scripts_build" --ops scale_forward --jobs 2
has "mluops-build: 1 operators built, 0 skipped"
rm "$work/moved_scripts/independent_build.sh"
expect 2 "$tool" build --source "$work/moved_scripts" --build "$work/moved_scripts_build" --jobs 2
has "independent_build.sh sets no BANGC_KERNEL_PATH_CHECK (mlusim-mluops knows the layouts of mlu-ops v1.5.2 to v1.11.1)"

# core/ that does not compile: nothing builds, and the build says so.
cp -R "$fake" "$work/bad_core"
echo "this is no C++" >> "$work/bad_core/core/handle.cpp"
expect 1 "$tool" build --source "$work/bad_core" --build "$work/bad_core_build" --jobs 2
has "core/handle.cpp"
has "mluops-build: 0 operators built, 2 skipped"

[ "$failures" = 0 ] && echo "mlusim-mluops: all checks passed"
exit "$failures"
