# Reading mluop_gtest's output: one record per case the harness started,
#   <case file><TAB>passed|failed<TAB><MLU hardware time, us><TAB><IO
#   efficiency><TAB><compute efficiency>
# A case is one gtest test (<op>/TestSuite.mluOp/<n>); it passed when gtest
# says OK. A test that started and never ended (the harness died) failed.
# The case file is what the harness printed with its verdict ("[^      OK ]
# <path>"); the figures are the ones it printed for the case.

# case_records <harness output>
case_records() {
  awk '
    function value(line) {
      sub(/^[^:]*\]: */, "", line)
      sub(/ .*/, "", line)
      return line
    }
    function test_name(line) {
      sub(/^\[[^]]*\] /, "", line)
      sub(/[ ,].*/, "", line)
      return line
    }
    /^\[ RUN      \] / {
      current = test_name($0)
      order[++started] = current
      file[current] = current; time[current] = "-"; io[current] = "-"; compute[current] = "-"
      next
    }
    current == "" { next }
    /^\[MLU Hardware Time +\]:/ { time[current] = value($0); next }
    /^\[MLU IO Efficiency +\]:/ { io[current] = value($0); next }
    /^\[MLU Compute Efficiency +\]:/ { compute[current] = value($0); next }
    /^\[\^ +(OK|FAILED) \] / { file[current] = $NF; next }
    /^\[       OK \] / { if (test_name($0) in file) verdict[test_name($0)] = "passed"; next }
    /^\[  FAILED  \] / { if (test_name($0) in file) verdict[test_name($0)] = "failed"; next }
    END {
      for (i = 1; i <= started; ++i) {
        t = order[i]
        printf "%s\t%s\t%s\t%s\t%s\n", file[t], verdict[t] == "passed" ? "passed" : "failed",
               time[t], io[t], compute[t]
      }
    }
  ' "$1"
}
