# mlusim-mluops test: runs the build's mluop_gtest on prototxt cases, one
# operator at a time, on the simulated device MLUSIM_DEVICE selects (the
# build's architecture only), showing the harness' own output. The harness
# reads /proc/driver/cambricon/mlus/<bus id>/exclusive_mode, which the
# Cambricon driver publishes on a board: here libmlusim_procfs.so (preloaded)
# serves it from <build>/procfs. Every case the harness does not report as
# passed failed (also the ones it never ran); no case at all is a failure.
# With --jobs N, N operators' harnesses run at once, each one's output in its
# log and a line per operator on stdout.
# <build>/mluops-test.tsv holds one line per case:
#   <operator> <case file> passed|failed <hardware time, us> <IO eff.> <compute eff.>

mluops_test() {
  t_dir="" t_ops="" t_cases="" t_jobs=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --build) t_dir=$(need_value "$@"); shift ;;
      --ops) t_ops=$(comma_list "$(need_value "$@")"); shift ;;
      --cases) t_cases=$(need_value "$@"); shift ;;
      --jobs) t_jobs=$(need_value "$@"); shift ;;
      *) die "test: unknown option $1 (options: --build --ops --cases --jobs)" ;;
    esac
    shift
  done
  [ -n "$t_dir" ] || die "test needs --build <dir>"
  case "$t_jobs" in ''|*[!0-9]*|0) die "--jobs $t_jobs: give a number of operators to run at once, 1 or more" ;; esac
  t_dir=$(absolute_dir "$t_dir")
  [ -f "$t_dir/mluops-build.conf" ] || die "$t_dir holds no build; run mlusim-mluops build first"
  . "$t_dir/mluops-build.conf"
  t_cases=$(absolute_dir "${t_cases:-$t_dir/src/$ZOO}")
  default_device "$MLUOPS_ARCH"
  t_device=$(check_device "$MLUOPS_ARCH")
  t_ops=$(tested_operators "$t_ops")
  serve_driver_files "$t_dir/procfs" "${t_device##* }"

  t_report="$t_dir/mluops-test.tsv"
  : > "$t_report"
  mkdir -p "$t_dir/logs"
  prepare_run_dir "$t_dir"
  say "running the cases in $t_cases on the simulated ${t_device%% *}"
  if [ "$t_jobs" -eq 1 ]; then
    for t_op in $t_ops; do test_operator "$t_dir" "$t_cases" "$t_op" "$t_report"; done
  else
    test_operators_at_once "$t_dir" "$t_cases" "$t_jobs" "$t_report"
  fi
  report_test "$t_report"
}

# Unset, MLUSIM_DEVICE becomes the first preset of architecture $1 (MLU370-X4
# for mtp_372, MLU590-H8 for mtp_592).
default_device() {
  [ -n "${MLUSIM_DEVICE:-}" ] && return
  MLUSIM_DEVICE=$("$MLUOPS_DEVICE_QUERY" archs | awk -v a="$1" '$1 == a { print $2; exit }')
  export MLUSIM_DEVICE
}

# test_operator <build> <cases> <operator> <report>: its harness run, if it has cases.
test_operator() {
  t_count=$(count_cases "$2/$3")
  if [ "$t_count" -eq 0 ]; then
    say "$3: no case in $2/$3"
    return
  fi
  run_harness "$1" "$2" "$3" "$t_count" "$4"
}

# test_operators_at_once <build> <cases> <jobs> <report>: the operators of
# $t_ops, <jobs> harnesses at a time (a token each, passed through a FIFO);
# each writes its own report, joined in the operators' order.
test_operators_at_once() {
  t_fifo="$1/logs/jobs.fifo"
  rm -f "$t_fifo"
  mkfifo "$t_fifo"
  exec 3<>"$t_fifo"
  rm -f "$t_fifo"
  t_token=0
  while [ "$t_token" -lt "$3" ]; do echo >&3; t_token=$((t_token + 1)); done
  for t_op in $t_ops; do
    read -r _ <&3
    (
      : > "$1/logs/report-$t_op.tsv"
      test_operator "$1" "$2" "$t_op" "$1/logs/report-$t_op.tsv" > /dev/null
      say "$t_op: $(awk -F '\t' '$3 == "passed" { p++ } $3 != "passed" { f++ } END { printf "%d passed, %d failed", p, f }' "$1/logs/report-$t_op.tsv") (log: $1/logs/test-$t_op.log)"
      echo >&3
    ) &
  done
  wait
  exec 3>&-
  for t_op in $t_ops; do cat "$1/logs/report-$t_op.tsv" >> "$4"; done
}

# The device MLUSIM_DEVICE selects ("<preset> <arch> <bus id>"), which must
# be of the build's architecture.
check_device() {
  t_answer=$("$MLUOPS_DEVICE_QUERY" current) || exit 2
  set -- $t_answer
  [ "$2" = "$MLUOPS_ARCH" ] || die "the build is for $MLUOPS_ARCH; the simulated $1 (MLUSIM_DEVICE=${MLUSIM_DEVICE:-}) is $2: choose a device of $MLUOPS_ARCH or build with --arch $2"
  printf '%s' "$t_answer"
}

# The operators --ops names (every built one without it).
tested_operators() {
  [ -n "$1" ] || { printf '%s' "$MLUOPS_BUILT"; return; }
  for t_op in $1; do
    among "$t_op" "$MLUOPS_SKIPPED" && die "--ops: $t_op was skipped by the build (see its output)"
    among "$t_op" "$MLUOPS_BUILT" || die "--ops: the build has no operator $t_op; it has: $MLUOPS_BUILT"
  done
  printf '%s' "$1"
}

# The driver's files the harness reads: device <bus id> in shared mode ('0').
serve_driver_files() {
  mkdir -p "$1/mlus/$2"
  printf '0\n' > "$1/mlus/$2/exclusive_mode"
}

# The harness reads gtest_config/test_list (which operators' cases need their
# real data) at ../../test/mlu_op_gtest/..., as when it runs in mlu-ops' own
# build/test: it runs in <build>/run/build/test, beside a link to the copy's
# test/.
prepare_run_dir() {
  mkdir -p "$1/run/build/test"
  ln -sfn "$1/src/test" "$1/run/test"
}

# The case files the harness collects for an operator folder: *.prototxt and
# *.pb, except paths that say "invalid".
count_cases() {
  [ -d "$1" ] || { printf 0; return; }
  find "$1" -type f \( -name '*.prototxt' -o -name '*.pb' \) ! -path '*invalid*' | wc -l | tr -d ' '
}

MLUOPS_WATCHDOG_SECONDS=600

# run_harness <build> <cases> <operator> <number of cases> <report>: the
# harness' output on stdout (and in logs/test-<operator>.log); the
# operator's records appended to the report, its cases that never ran as
# failed. The harness' fill of on-chip memory before each case is off unless
# MLUOP_GTEST_FILL_RAM says otherwise: mlusim fills it before every launch
# itself (MLUSIM_FILL), and the harness' fill_ram kernel has the four cores of
# each cluster write the same SRAM bytes with no barrier between them, which
# mlusim's race check refuses (docs/mluops.md). A launch may take 10 minutes
# of host time, not 1: some of mlu-ops' cases are large for a simulator on a
# small host.
run_harness() {
  t_log="$1/logs/test-$3.log"
  (
    cd "$1/run/build/test"
    MLUOP_GTEST_FILL_RAM="${MLUOP_GTEST_FILL_RAM:-OFF}" \
    MLUSIM_WATCHDOG_SECONDS="${MLUSIM_WATCHDOG_SECONDS:-$MLUOPS_WATCHDOG_SECONDS}" \
    MLUSIM_PROCFS_DIR="$1/procfs" LD_PRELOAD="$MLUOPS_PROCFS_SHIM${LD_PRELOAD:+:$LD_PRELOAD}" \
    LD_LIBRARY_PATH="$1/neuware/lib64:$1/cmake/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      "$1/cmake/test/mluop_gtest" --cases_dir="$2" --gtest_filter="$3/*" 2>&1
  ) | tee "$t_log" || true
  t_records=$(case_records "$t_log")
  [ -z "$t_records" ] || printf "%s\n" "$t_records" | awk -v op="$3" '{ print op "\t" $0 }' >> "$5"
  t_missing=$(( $4 - $(printf '%s' "$t_records" | grep -c . || true) ))
  while [ "$t_missing" -gt 0 ]; do
    printf '%s\t(not run)\tfailed\t-\t-\t-\n' "$3" >> "$5"
    t_missing=$((t_missing - 1))
  done
}

report_test() {
  t_passed=$(awk -F '\t' '$3 == "passed"' "$1" | wc -l | tr -d ' ')
  t_failed=$(awk -F '\t' '$3 != "passed"' "$1" | wc -l | tr -d ' ')
  awk -F '\t' '$3 != "passed" { print "mluops: failed: " $1 " " $2 }' "$1"
  [ $((t_passed + t_failed)) -gt 0 ] || say "no case ran: that is a failure, not a pass"
  printf 'mluops: %s passed, %s failed\n' "$t_passed" "$t_failed"
  [ "$t_failed" -eq 0 ] && [ "$t_passed" -gt 0 ]
}
