# Installs the build into a scratch prefix, then configures, builds and runs
# examples/<EXAMPLE> against it with find_package(mlusim CONFIG REQUIRED);
# the installed `mlusim devices` runs.
# With CNCC_SOURCE, also builds that .mlu with the installed mlusim-cncc.
set(work ${BUILD_DIR}/example_${EXAMPLE}_check)
file(REMOVE_RECURSE ${work})
# One step per item; its words are separated by '|'.
set(steps
    "${CMAKE_COMMAND}|--install|${BUILD_DIR}|--prefix|${work}/prefix"
    "${CMAKE_COMMAND}|-S|${SOURCE_DIR}/examples/${EXAMPLE}|-B|${work}/build|-DCMAKE_PREFIX_PATH=${work}/prefix"
    "${CMAKE_COMMAND}|--build|${work}/build"
    "${work}/build/${PROGRAM}"
    "${work}/prefix/bin/mlusim|devices")
if(CNCC_SOURCE)
  list(APPEND steps
    "${work}/prefix/bin/mlusim-cncc|${SOURCE_DIR}/examples/${EXAMPLE}/${CNCC_SOURCE}|-o|${work}/cncc_program|--bang-mlu-arch=mtp_372|-O2"
    "${work}/cncc_program")
endif()
foreach(item ${steps})
  string(REPLACE "|" ";" step "${item}")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${step}")
  endif()
endforeach()
# mlusim's mlu_op.h is for users of mlusim::ops only: at the include root it
# would shadow Cambricon's mlu_op.h in programs that run mlu-ops itself.
if(EXISTS ${work}/prefix/include/mlu_op.h OR NOT EXISTS ${work}/prefix/include/mlusim/ops/mlu_op.h)
  message(FATAL_ERROR "the install must put mlu_op.h in include/mlusim/ops/ and nowhere else")
endif()
