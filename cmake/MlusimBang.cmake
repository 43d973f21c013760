# BANG C programs in CMake projects: .mlu sources build through mlusim-cncc
# (as the target's compiler launcher), so kernels, __nram__ variables and
# <<<>>> launches compile with the host compiler and run on the simulated MLU.
#
#   mlusim_add_bang_executable(<name> [BANG_ARCH mtp_372] <sources>...)
#   mlusim_bang_sources(<target> [BANG_ARCH mtp_372] <sources>...)
#
# Sources may mix .mlu and .cpp; BANG_ARCH takes cncc's --bang-mlu-arch names
# (mtp_372 by default) and picks the simulated device the program runs on.
# Needs MLUSIM_CNCC_EXECUTABLE (set by find_package(mlusim) or the mlusim build).

function(mlusim_bang_sources target)
  cmake_parse_arguments(ARG "" "BANG_ARCH" "" ${ARGN})
  if(NOT ARG_BANG_ARCH)
    set(ARG_BANG_ARCH mtp_372)
  endif()
  foreach(source ${ARG_UNPARSED_ARGUMENTS})
    if(source MATCHES "\\.mlu$")
      set_source_files_properties(${source} PROPERTIES LANGUAGE CXX)
    endif()
  endforeach()
  target_sources(${target} PRIVATE ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER
    "${MLUSIM_CNCC_EXECUTABLE};--launcher;--bang-mlu-arch=${ARG_BANG_ARCH}")
  target_link_libraries(${target} PRIVATE mlusim::bang)
  if(TARGET mlusim_cncc)  # inside the mlusim build: the driver must exist first
    add_dependencies(${target} mlusim_cncc)
  endif()
endfunction()

function(mlusim_add_bang_executable name)
  add_executable(${name})
  mlusim_bang_sources(${name} ${ARGN})
endfunction()
