# mlu-ops' operators as its gtest names them (the folders of the harness'
# zoo), and where each one's sources are: kernels/<name> or
# kernels/<group>/<name> for the operator and every kernel folder it depends
# on (kernel_depends.toml), as mlu-ops' CMake resolves --filter.

ZOO=test/mlu_op_gtest/pb_gtest/src/zoo

# list_operators <copy>
list_operators() {
  for op_path in "$1/$ZOO"/*/; do
    [ -d "$op_path" ] || continue
    op_path=${op_path%/}
    printf '%s\n' "${op_path##*/}"
  done
}

# "<name> <dependency>..." lines of kernel_depends.toml.
kernel_depends() {
  [ -f "$1/kernel_depends.toml" ] || return 0
  sed -e 's/#.*//' "$1/kernel_depends.toml" | tr -d ' \t"' |
    grep -E '^[A-Za-z0-9_]+=\[.*\]$' | sed -e 's/=\[/ /' -e 's/\]$//' -e 's/,/ /g'
}

# kernel_folders <copy> <operator>: the operator and its dependencies'
# folders under kernels/, relative to the copy.
kernel_folders() {
  op_copy=$1 op_todo=$2 op_seen=""
  op_depends=$(kernel_depends "$op_copy")
  while set -- $op_todo && [ $# -gt 0 ]; do
    op_name=$1
    shift
    op_todo="$*"
    among "$op_name" "$op_seen" && continue
    op_seen="$op_seen $op_name"
    op_todo="$op_todo $(printf '%s\n' "$op_depends" | awk -v n="$op_name" '$1 == n { $1 = ""; print }')"
    folder_of_kernel "$op_copy" "$op_name"
  done
}

folder_of_kernel() {
  if [ -d "$1/kernels/$2" ]; then
    printf '%s\n' "kernels/$2"
    return
  fi
  for op_folder in "$1"/kernels/*/"$2"; do
    [ -d "$op_folder" ] && printf '%s\n' "${op_folder#"$1/"}"
  done
  return 0
}

# write_operator_folders <copy> <operators> <file>: "<operator> <folder>" lines.
write_operator_folders() {
  : > "$3"
  for op_each in $2; do
    kernel_folders "$1" "$op_each" | sed "s|^|$op_each |" >> "$3"
  done
}

# operators_of_source <table> <path>: the operators a source file belongs to
# (a kernel folder's file, or the harness' test of the operator).
operators_of_source() {
  case "$2" in
    */zoo/*/*|zoo/*/*)
      op_rest=${2#*zoo/}
      printf '%s\n' "${op_rest%%/*}" ;;
    *)
      awk -v p="$2" 'index(p, $2 "/") == 1 { print $1 }' "$1" | sort -u ;;
  esac
}
