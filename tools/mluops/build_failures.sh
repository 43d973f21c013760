# Reading a failed Ninja build of mlu-ops: which sources failed (a compile
# step's output names its object; a link step's errors name the objects
# whose symbols are missing), with the first error of each, and so which
# operators cannot build.

# failed_sources <ninja log>: "<source path><TAB><first error>" lines (source
# paths relative to their CMake folder, e.g. kernels/abs/abs.cpp or
# pb_gtest/src/zoo/abs/abs.cpp), and "-<TAB><error>" for a failed step that
# names no object (a tool that would not run, a missing library).
failed_sources() {
  awk '
    function source_of(object) {
      sub(/.*\.dir\//, "", object)
      sub(/\.o$/, "", object)
      return object
    }
    function finish() {
      if (target == "") return
      if (target ~ /\.o$/) print source_of(target) "\t" (first != "" ? first : "(no error line)")
      else if (!named) print "-\t" (first != "" ? first : "step " target " failed")
      target = ""
    }
    /^FAILED: / {
      finish()
      target = $2 == "[code=" ? $3 : $2
      if (target ~ /^\[code=/) target = $3
      command = 1; first = ""; named = 0; object = ""
      delete reported
      next
    }
    /^\[[0-9]+\/[0-9]+\] / || /^ninja: / { finish(); next }
    target == "" { next }
    command { command = 0; next }
    {
      if (match($0, /[^ :`'"'"']*\.dir\/[^ :`'"'"']*\.o/)) object = substr($0, RSTART, RLENGTH)
      if ($0 !~ /error|undefined reference/) next
      if (first == "") first = $0
      if (target !~ /\.o$/ && object != "" && !(object in reported)) {
        reported[object] = 1
        named = 1
        print source_of(object) "\t" $0
      }
    }
    END { finish() }
  ' "$1"
}

# blocked_operators <ninja log> <operator folders table>: "<operator><TAB>
# <first error>" for every operator a failed source belongs to. Prints the
# failures no operator explains to stderr and returns 1 when there are any
# (core/, the harness, the SDK): then nothing can be built.
blocked_operators() {
  bf_unexplained=0
  bf_records=$(failed_sources "$1")
  bf_tab=$(printf '\t')
  while IFS="$bf_tab" read -r bf_source bf_error; do
    [ -n "$bf_source" ] || continue
    bf_ops=""
    [ "$bf_source" = "-" ] || bf_ops=$(operators_of_source "$2" "$bf_source")
    if [ -z "$bf_ops" ]; then
      printf '%s\n' "mlusim-mluops: $bf_source: $bf_error" >&2
      bf_unexplained=1
      continue
    fi
    for bf_op in $bf_ops; do printf '%s\t%s: %s\n' "$bf_op" "$bf_source" "$bf_error"; done
  done <<RECORDS
$bf_records
RECORDS
  return $bf_unexplained
}
