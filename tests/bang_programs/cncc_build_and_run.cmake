# Builds SOURCES with the mlusim-cncc command line, as a cncc user would (for
# ARCHS, default --bang-mlu-arch=mtp_372; FLAGS: more options), and runs the
# program.
if(NOT ARCHS)
  set(ARCHS --bang-mlu-arch=mtp_372)
endif()
execute_process(COMMAND ${CNCC} ${SOURCES} -o ${OUT} ${ARCHS} -O2 ${FLAGS}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mlusim-cncc failed (${rc})")
endif()
execute_process(COMMAND ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OUT} exited with ${rc}")
endif()
