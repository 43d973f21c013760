# Cambricon's mlu-ops on mlusim from a CMake project (docs/mluops.md):
#
#   mlusim_add_mluops(<name> SOURCE <mlu-ops checkout> [BUILD_DIR <dir>]
#                     [OPS <operator>...] [ARCH mtp_372] [CASES <dir>] [JOBS <n>])
#
# adds a target <name> that builds mlu-ops with `mlusim-mluops build` (not part
# of ALL, a whole mlu-ops build takes long: `cmake --build . --target <name>`)
# and a test <name> that runs the built operators' gtest cases with
# `mlusim-mluops test` (CASES: a folder laid out like mlu-ops' zoo instead of
# its own cases). BUILD_DIR defaults to <current binary dir>/<name>. Needs
# MLUSIM_MLUOPS_EXECUTABLE (set by find_package(mlusim) or the mlusim build).

function(mlusim_add_mluops name)
  cmake_parse_arguments(ARG "" "SOURCE;BUILD_DIR;ARCH;CASES;JOBS" "OPS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mlusim_add_mluops(${name}): unknown arguments '${ARG_UNPARSED_ARGUMENTS}' "
                        "(it takes SOURCE, BUILD_DIR, OPS, ARCH, CASES, JOBS)")
  endif()
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "mlusim_add_mluops(${name}): SOURCE <mlu-ops checkout> is required")
  endif()
  if(NOT ARG_BUILD_DIR)
    set(ARG_BUILD_DIR ${CMAKE_CURRENT_BINARY_DIR}/${name})
  endif()
  set(build_options --source ${ARG_SOURCE} --build ${ARG_BUILD_DIR})
  if(ARG_OPS)
    string(JOIN "," ops ${ARG_OPS})
    list(APPEND build_options --ops ${ops})
  endif()
  if(ARG_ARCH)
    list(APPEND build_options --arch ${ARG_ARCH})
  endif()
  if(ARG_JOBS)
    list(APPEND build_options --jobs ${ARG_JOBS})
  endif()
  add_custom_target(${name} COMMAND ${MLUSIM_MLUOPS_EXECUTABLE} build ${build_options}
    USES_TERMINAL VERBATIM)
  set(test_options --build ${ARG_BUILD_DIR})
  if(ARG_CASES)
    list(APPEND test_options --cases ${ARG_CASES})
  endif()
  add_test(NAME ${name} COMMAND ${MLUSIM_MLUOPS_EXECUTABLE} test ${test_options})
  foreach(tool mlusim_cncc mlusim_mluops_device mlusim_procfs mlusim_cnnl)
    if(TARGET ${tool})  # inside mlusim's own build: the tool's pieces first
      add_dependencies(${name} ${tool})
    endif()
  endforeach()
endfunction()
