# The build's copy of the mlu-ops checkout. mlu-ops' generators write into
# its tree (bangc_kernels_collection.h at the root, the gtest's case list and
# operator registry during CMake's configure step), so the build owns a copy;
# files whose content did not change keep their time, so that a second build
# recompiles only what changed.

# sync_source <checkout> <copy>: the copy holds the checkout's files (not its
# .git) and what the generators make of them.
sync_source() {
  st_src=$1 st_copy=$2 st_stage=$2.stage
  rm -rf "$st_stage"
  mkdir -p "$st_stage"
  tar -C "$st_src" --exclude=.git -cf - . | tar -C "$st_stage" -xpf -
  run_generators "$st_stage"
  if [ ! -d "$st_copy" ]; then
    mv "$st_stage" "$st_copy"
    return
  fi
  LC_ALL=C diff -rq "$st_stage" "$st_copy" | while IFS= read -r st_line; do
    apply_difference "$st_line" "$st_stage" "$st_copy"
  done
  rm -rf "$st_stage"
}

# One line of `diff -rq stage copy`: the copy takes the stage's version.
apply_difference() {
  case "$1" in
    "Files $2/"*" differ")
      st_rel=${1#"Files $2/"}
      st_rel=${st_rel%%" and "*}
      cp -p "$2/$st_rel" "$3/$st_rel" ;;
    "Only in $2"*)
      st_rel=$(only_in_path "$1" "$2")
      cp -Rp "$2/$st_rel" "$3/$st_rel" ;;
    "Only in $3"*)
      rm -rf "$3/$(only_in_path "$1" "$3")" ;;
    *)  # a file became a folder or the other way round
      st_rel=${1#"File $2/"}
      st_rel=${st_rel%%" is a "*}
      rm -rf "$3/$st_rel"
      cp -Rp "$2/$st_rel" "$3/$st_rel" ;;
  esac
}

# "Only in <root>/<dir>: <name>" -> "<dir>/<name>" (or "<name>")
only_in_path() {
  st_rest=${1#"Only in $2"}
  st_dir=${st_rest%%": "*}
  st_name=${st_rest#*": "}
  st_dir=${st_dir#/}
  printf '%s' "${st_dir:+$st_dir/}$st_name"
}

# What the release's own build script, independent_build.sh, says in a line
# NAME="value": where its generators are (they moved between releases:
# scripts/bangc_kernels_path_config/ in v1.5.2, scripts/kernels_light_config/
# in v1.11.1) and what they read. mlusim-mluops knows the releases from
# v1.5.2 to v1.11.1; another layout is an error naming what was not found.
release_setting() {
  st_value=$(sed -n "s/^$2=\"\\(.*\\)\"\$/\\1/p" "$1/independent_build.sh" 2>/dev/null | head -n 1)
  [ -n "$st_value" ] ||
    die "this mlu-ops checkout's independent_build.sh sets no $2 (mlusim-mluops knows the layouts of mlu-ops v1.5.2 to v1.11.1)"
  printf '%s' "$st_value"
}

# release_script <copy> <setting>: the generator a setting names, which must exist.
release_script() {
  st_script=$(release_setting "$1" "$2") || exit 2
  [ -f "$1/$st_script" ] ||
    die "independent_build.sh names $st_script ($2), which this mlu-ops checkout does not have"
  printf '%s' "$st_script"
}

# mlu-ops' generators that independent_build.sh runs before CMake: the
# kernels' path check and bangc_kernels_collection.h.
run_generators() {
  (
    cd "$1"
    for st_setting in BANGC_KERNEL_PATH_CHECK GEN_BANGC_KERNELS_COLLECTION_H_PY; do
      st_script=$(release_script "$1" "$st_setting") || exit 2
      python3 "$st_script" > "$1.generators.log" 2>&1 ||
        { cat "$1.generators.log" >&2; die "$st_script failed"; }
    done
  )
}

# write_symbol_map <copy> <file>: mlu-ops' version script for libmluops (its
# generator reads mlu_op.h and bangc_kernels_collection.h); the file keeps its
# time when its content is the same.
write_symbol_map() {
  (
    cd "$1"
    st_script=$(release_script "$1" GEN_SYMBOL_VIS_FILE_PY) || exit 2
    st_api=$(release_setting "$1" TARGET_SYMBOL_FILE) || exit 2
    st_kernels=$(release_setting "$1" TARGET_SYMBOL_FILE_LITE_COLLECTION) || exit 2
    python3 "$st_script" "$2.new" "$st_api" "$st_kernels" > "$2.log" 2>&1 &&
      [ -f "$2.new" ] || { cat "$2.log" >&2; die "$st_script wrote no $2"; }
  ) || exit 2
  replace_if_changed "$2.new" "$2"
}

replace_if_changed() {
  if [ -f "$2" ] && cmp -s "$1" "$2"; then rm -f "$1"; else mv "$1" "$2"; fi
}

# Files CMake's configure step of mlu-ops rewrites every time (register_op.py
# writes the harness' operator registry and case list). The harness is built
# after a configure step for the operators that compiled; each of these files
# keeps the time it had at the harness' last build whenever its content is
# the same as then, so that an unchanged harness is not rebuilt.
REGENERATED_FILES="test/mlu_op_gtest/pb_gtest/src/gtest/case_list.cpp
test/mlu_op_gtest/pb_gtest/src/gtest/op_register.h"

# keep_times_of_regenerated <copy> <saved dir> [harness]: "harness" when the
# harness is built next: a changed file is then saved as its new version.
keep_times_of_regenerated() {
  mkdir -p "$2"
  for st_file in $REGENERATED_FILES; do
    [ -f "$1/$st_file" ] || continue
    st_saved=$2/$(printf '%s' "$st_file" | tr '/' '_')
    if [ -f "$st_saved" ] && cmp -s "$1/$st_file" "$st_saved"; then
      touch -r "$st_saved" "$1/$st_file"
    elif [ "${3:-}" = harness ]; then
      cp -p "$1/$st_file" "$st_saved"
    fi
  done
}
