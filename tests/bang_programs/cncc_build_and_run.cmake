# Builds SOURCES with the mlusim-cncc command line, as a cncc user would, and
# runs the program.
execute_process(COMMAND ${CNCC} ${SOURCES} -o ${OUT} --bang-mlu-arch=mtp_372 -O2
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mlusim-cncc failed (${rc})")
endif()
execute_process(COMMAND ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OUT} exited with ${rc}")
endif()
