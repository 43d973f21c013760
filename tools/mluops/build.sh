# mlusim-mluops build: copies the checkout, runs mlu-ops' generators, and
# builds core/, the operators and mluop_gtest with CMake and Ninja against the
# NEUWARE_HOME-like tree of mlusim. First every operator's library sources
# are compiled, keeping going past failures; operators with a failed source
# are left out (their first error shown); then the library and the harness
# are built from the rest, leaving out an operator whose harness test or
# symbols fail too, until the build succeeds. Build folder layout:
#   neuware/   the SDK tree     src/   the copy     cmake/   CMake's build
#   logs/      every step's output      mluops-build.conf   what was built

mluops_build() {
  b_source="" b_dir="" b_ops="" b_arch=mtp_372 b_jobs=$(getconf _NPROCESSORS_ONLN)
  while [ $# -gt 0 ]; do
    case "$1" in
      --source) b_source=$(need_value "$@"); shift ;;
      --build) b_dir=$(need_value "$@"); shift ;;
      --ops) b_ops=$(comma_list "$(need_value "$@")"); shift ;;
      --arch) b_arch=$(need_value "$@"); shift ;;
      --jobs) b_jobs=$(need_value "$@"); shift ;;
      *) die "build: unknown option $1 (options: --source --build --ops --arch --jobs)" ;;
    esac
    shift
  done
  [ -n "$b_source" ] && [ -n "$b_dir" ] || die "build needs --source <checkout> and --build <dir>"
  b_source=$(absolute_dir "$b_source")
  [ -f "$b_source/CMakeLists.txt" ] && [ -d "$b_source/$ZOO" ] ||
    die "$b_source is no mlu-ops checkout (no CMakeLists.txt or $ZOO)"
  check_arch "$b_arch"
  mkdir -p "$b_dir/logs" "$b_dir/cmake"
  b_dir=$(absolute_dir "$b_dir")

  prepare_neuware "$b_dir/neuware"
  sync_source "$b_source" "$b_dir/src"
  write_symbol_map "$b_dir/src" "$b_dir/cmake/symbol_visibility.map"
  b_all=$(list_operators "$b_dir/src" | tr '\n' ' ')
  b_selected=$(selected_operators "$b_ops" "$b_all")
  write_operator_folders "$b_dir/src" "$b_selected" "$b_dir/logs/operator_folders"
  export NEUWARE_HOME="$b_dir/neuware"
  export PATH="$NEUWARE_HOME/bin:$PATH"
  export LD_LIBRARY_PATH="$NEUWARE_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

  # Every selected operator's library sources (all of mlu-ops' kernels
  # without --ops), past failures.
  configure_mluops "$b_dir" "$b_arch" "$(printf '%s' "$b_ops" | tr ' ' ';')"
  say "compiling the operators' sources (log: $b_dir/logs/operators.log)"
  b_blocked=""
  if ! ninja_build "$b_dir" operators mluops; then
    b_blocked=$(blocked_operators "$b_dir/logs/operators.log" "$b_dir/logs/operator_folders") ||
      build_failed "$b_dir" "core/ or the SDK does not build; see above"
  fi
  b_built=$(without "$b_selected" "$(operators_in "$b_blocked")")

  # The library and the harness from the operators that compiled; an
  # operator whose test or symbols fail is left out and the rest rebuilt.
  b_round=1
  while [ -n "$b_built" ]; do
    configure_mluops "$b_dir" "$b_arch" "$(printf '%s' "$b_built" | tr ' ' ';')" harness
    say "building libmluops and mluop_gtest (log: $b_dir/logs/gtest-$b_round.log)"
    ninja_build "$b_dir" "gtest-$b_round" mluop_gtest && break
    b_more=$(blocked_operators "$b_dir/logs/gtest-$b_round.log" "$b_dir/logs/operator_folders") ||
      build_failed "$b_dir" "libmluops or mluop_gtest does not build; see above"
    b_rest=$(without "$b_built" "$(operators_in "$b_more")")
    [ "$b_rest" != "$b_built" ] ||
      build_failed "$b_dir" "mluop_gtest does not build; see $b_dir/logs/gtest-$b_round.log"
    b_blocked=$(printf '%s\n%s' "$b_blocked" "$b_more")
    b_built=$b_rest
    b_round=$((b_round + 1))
  done
  report_build "$b_dir" "$b_source" "$b_arch" "$b_built" "$b_blocked"
}

# --arch must name an architecture mlusim simulates.
check_arch() {
  b_archs=$("$MLUOPS_DEVICE_QUERY" archs) || die "cannot ask mlusim for its architectures"
  printf '%s\n' "$b_archs" | awk -v a="$1" '$1 == a { found = 1 } END { exit !found }' ||
    die "--arch $1: mlusim simulates $(printf '%s\n' "$b_archs" | awk '{ printf "%s%s (%s)", n++ ? ", " : "", $1, $2 }')"
}

# The operators --ops names (every one of mlu-ops' gtest operators without
# it); a name mlu-ops does not have is an error listing those it has.
selected_operators() {
  [ -n "$1" ] || { printf '%s' "$2"; return; }
  for b_op in $1; do
    among "$b_op" "$2" || die "--ops: mlu-ops has no operator $b_op; it has: $2"
  done
  printf '%s' "$1"
}

# The operators of "<operator><TAB><error>" lines.
operators_in() { printf '%s\n' "$1" | awk -F '\t' 'NF { print $1 }' | sort -u | tr '\n' ' '; }

# configure_mluops <dir> <arch> <operators, ;-separated, empty for all>
# [harness]: the
# CMake command mlu-ops' independent_build.sh runs, with Ninja. Libraries
# are linked with --no-undefined, so that a missing symbol names the object
# that needs it (and so its operator) when libmluops links.
configure_mluops() {
  b_version=$(sed -n 's/.*"version" *: *"\([0-9.]*\).*/\1/p' "$1/src/build.property" 2>/dev/null | head -n 1)
  b_version=${b_version:-0.0.0}
  b_extra=""
  [ "$(cc -print-file-name=libopenblas.so)" = libopenblas.so ] || b_extra=openblas
  cmake -S "$1/src" -B "$1/cmake" -G Ninja -DCMAKE_BUILD_TYPE=release \
    -DNEUWARE_HOME="$NEUWARE_HOME" -DBUILD_VERSION="$b_version" -DMAJOR_VERSION="${b_version%%.*}" \
    -DMLUOP_MLU_ARCH_LIST="$2" -DMLUOP_BUILD_SPECIFIC_OP="$3" \
    -DMLUOP_SYMBOL_VIS_FILE=symbol_visibility.map -DMLUOP_BUILD_GTEST=ON \
    -DMLUOP_BUILD_COVERAGE_TEST=OFF -DMLUOP_BUILD_PERF=OFF -DMLUOP_BUILD_ASAN_CHECK=OFF \
    -DMLUOP_BUILD_BANG_MEMCHECK=OFF -DMLUOP_BUILD_STATIC=OFF \
    -DMLUOP_TARGET_CPU_ARCH="$(uname -m)" -DMLUOP_PACKAGE_INFO_SET=OFF \
    -DEXTRA_LIBS="$b_extra" -DCMAKE_SHARED_LINKER_FLAGS=-Wl,--no-undefined \
    > "$1/logs/configure.log" 2>&1 || { tail -n 30 "$1/logs/configure.log" >&2; build_failed "$1" "CMake's configure step failed (log: $1/logs/configure.log)"; }
  keep_times_of_regenerated "$1/src" "$1/logs/regenerated" "${4:-}"
}

# ninja_build <dir> <log name> <target>: builds past failures.
ninja_build() {
  cmake --build "$1/cmake" --target "$3" -- -k 0 -j "$b_jobs" > "$1/logs/$2.log" 2>&1
}

build_failed() {
  printf '%s\n' "mlusim-mluops: error: $2" >&2
  printf 'mluops-build: 0 operators built, %s skipped\n' "$(count_words "${b_selected:-}")"
  exit 1
}

# The skipped operators with their first error, the build's record for
# `mlusim-mluops test`, and the summary line.
report_build() {
  b_skipped=$(operators_in "$5")
  printf '%s\n' "$5" | awk -F '\t' 'NF && !seen[$1]++' | sed "s|$1/src/||g" |
    while IFS="$(printf '\t')" read -r b_op b_error; do
      printf 'mluops-build: skipped %s: %s\n' "$b_op" "$b_error"
    done
  cat > "$1/mluops-build.conf" <<CONF
MLUOPS_SOURCE='$2'
MLUOPS_ARCH='$3'
MLUOPS_BUILT='$4'
MLUOPS_SKIPPED='$b_skipped'
CONF
  printf 'mluops-build: %s operators built, %s skipped\n' "$(count_words "$4")" "$(count_words "$b_skipped")"
  [ -n "$4" ]
}
