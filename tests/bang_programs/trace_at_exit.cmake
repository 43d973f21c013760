# Runs PROGRAM with MLUSIM_TRACE_JSON=OUT, as a user asks for a trace without
# touching the code: the program exits cleanly, says what it wrote, and OUT
# holds the launch's events. The log level is the default one whatever the
# caller's environment says (CI runs its sanitizer jobs with MLUSIM_LOG=off).
file(REMOVE ${OUT})
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=MLUSIM_LOG MLUSIM_TRACE_JSON=${OUT} ${PROGRAM}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}: ${err}")
endif()
if(NOT err MATCHES "wrote [1-9][0-9]* trace events of 1 launches to")
  message(FATAL_ERROR "no line saying what the trace holds: ${err}")
endif()
file(READ ${OUT} json)
string(JSON events LENGTH "${json}" traceEvents)
if(events LESS 2)
  message(FATAL_ERROR "${OUT} holds ${events} events")
endif()
