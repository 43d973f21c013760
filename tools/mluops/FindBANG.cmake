# FindBANG for building BANG C projects (Cambricon's mlu-ops and the like)
# against mlusim: what CNToolkit's FindBANG.cmake offers them, with cncc being
# mlusim-cncc. `mlusim-mluops build` puts this file into the NEUWARE_HOME-like
# tree it prepares (cmake/FindBANG.cmake), where such projects look for it.
#
# Sets BANG_FOUND, BANG_CNCC_EXECUTABLE (NEUWARE_HOME/bin/cncc first, then
# PATH) and BANG_VERSION, and provides
#   bang_add_library(<target> [STATIC|SHARED|MODULE] <sources>...)
#   bang_add_executable(<target> <sources>...)
# Each .mlu source is compiled by cncc with BANG_CNCC_FLAGS (a list whose
# items may hold several space-separated flags, as projects append to it),
# BANG_CNCC_INCLUDE_ARGS, and the target's include directories and compile
# definitions; every other source goes to the host compiler as usual.

# The depfiles of .mlu objects are given to Ninja as they are (absolute paths):
# this module's functions record the policy when they are defined here.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

find_program(BANG_CNCC_EXECUTABLE NAMES cncc
  HINTS "${NEUWARE_HOME}/bin" "$ENV{NEUWARE_HOME}/bin" NO_CACHE)
if(BANG_CNCC_EXECUTABLE)
  execute_process(COMMAND ${BANG_CNCC_EXECUTABLE} --version
    OUTPUT_VARIABLE _bang_version_text ERROR_QUIET)
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" BANG_VERSION "${_bang_version_text}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(BANG REQUIRED_VARS BANG_CNCC_EXECUTABLE
  VERSION_VAR BANG_VERSION)

# The cncc command line of one .mlu, as a list: the flags split at spaces.
function(_bang_flag_list out)
  string(JOIN " " joined ${BANG_CNCC_FLAGS})
  separate_arguments(flags UNIX_COMMAND "${joined}")
  set(${out} ${flags} ${BANG_CNCC_INCLUDE_ARGS} PARENT_SCOPE)
endfunction()

# Adds a custom command compiling `source` for `target`; the object's path
# follows CMake's own (<binary dir>/CMakeFiles/<target>.dir/<source>.o), so a
# failing .mlu is reported under the same kind of name as a failing .cpp.
function(_bang_compile target source out_object)
  get_filename_component(abs ${source} ABSOLUTE)
  file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${abs})
  string(REPLACE "../" "__/" rel "${rel}")
  set(object ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/${rel}.o)
  get_filename_component(object_dir ${object} DIRECTORY)
  file(MAKE_DIRECTORY ${object_dir})
  _bang_flag_list(flags)
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  file(RELATIVE_PATH shown ${CMAKE_BINARY_DIR} ${object})
  add_custom_command(OUTPUT ${object}
    COMMAND ${BANG_CNCC_EXECUTABLE} ${flags}
            "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
            "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
            -MD -MF ${object}.d -MT ${object} -c ${abs} -o ${object}
    DEPENDS ${abs}
    DEPFILE ${object}.d
    COMMAND_EXPAND_LISTS
    COMMENT "Building BANG object ${shown}"
    VERBATIM)
  set(${out_object} ${object} PARENT_SCOPE)
endfunction()

# The sources of a target: .mlu files become objects compiled by cncc.
function(_bang_sources target out)
  set(result "")
  foreach(source ${ARGN})
    if(source MATCHES "\\.mlu$")
      _bang_compile(${target} ${source} object)
      list(APPEND result ${object})
    else()
      list(APPEND result ${source})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

function(bang_add_library target)
  set(kind "")
  if(ARGV1 MATCHES "^(STATIC|SHARED|MODULE)$")
    set(kind ${ARGV1})
    list(REMOVE_AT ARGN 0)
  endif()
  add_library(${target} ${kind})
  _bang_sources(${target} sources ${ARGN})
  target_sources(${target} PRIVATE ${sources})
endfunction()

function(bang_add_executable target)
  add_executable(${target})
  _bang_sources(${target} sources ${ARGN})
  target_sources(${target} PRIVATE ${sources})
endfunction()
