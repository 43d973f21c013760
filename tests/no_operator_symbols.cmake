# libmlusim is the runtime alone: it must define no mluOp* symbol, so that a
# program can run Cambricon's own libmluops on it (mlusim's operators are
# libmlusim_ops). Usage: cmake -DNM=<nm> -DLIBRARY=<libmlusim.so> -P this file.
execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE symbols)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed (${rc}) on ${LIBRARY}")
endif()
string(REGEX MATCHALL "[^\n]*mluOp[^\n]*" found "${symbols}")
if(found)
  string(REPLACE ";" "\n" found "${found}")
  message(FATAL_ERROR "${LIBRARY} defines operator symbols:\n${found}")
endif()
