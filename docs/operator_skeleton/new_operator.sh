#!/usr/bin/env bash
# Starts a new operator from the template (docs/writing_an_operator.md): copies
# every file of docs/operator_skeleton/ to its place in the repository, with
# "foo" renamed to <op> and "Foo" to <Op> in names and text, and prints the two
# lines to add by hand. Refuses to overwrite a file that exists.
#   docs/operator_skeleton/new_operator.sh roi_align_rotated RoiAlignRotated
set -euo pipefail
if [ $# -ne 2 ] || [[ ! $1 =~ ^[a-z][a-z0-9_]*$ ]] || [[ ! $2 =~ ^[A-Z][A-Za-z0-9]*$ ]]; then
  echo "usage: $0 <op in snake_case> <Op in CamelCase>" >&2
  exit 2
fi
op=$1 Op=$2
skeleton=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$skeleton/../.." && pwd)
rename() { sed -e "s/foo/$op/g" -e "s/Foo/$Op/g"; }

files=$(cd "$skeleton" && find ops harness tests perf tools fuzz docs -name '*.in' | sort)
for f in $files; do
  target=$repo/$(echo "${f%.in}" | rename)
  if [ -e "$target" ]; then
    echo "$target exists: nothing copied" >&2
    exit 1
  fi
done
for f in $files; do
  target=$repo/$(echo "${f%.in}" | rename)
  mkdir -p "$(dirname "$target")"
  rename < "$skeleton/$f" > "$target"
  echo "created ${target#$repo/}"
done
echo
echo "Now add the entry point to include/mlusim/ops/mlu_op.h:"
rename < "$skeleton/mlu_op.h.in"
echo
echo "and its fuzz target to fuzz/CMakeLists.txt:"
echo "mlusim_fuzz_target($op $op ${op}_fuzz.cpp)"
