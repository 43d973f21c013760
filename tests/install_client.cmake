# Installs the build into a scratch prefix, then configures, builds and runs
# examples/client against it with find_package(mlusim CONFIG REQUIRED).
set(work ${BUILD_DIR}/example_client_check)
file(REMOVE_RECURSE ${work})
foreach(step
    "${CMAKE_COMMAND};--install;${BUILD_DIR};--prefix;${work}/prefix"
    "${CMAKE_COMMAND};-S;${SOURCE_DIR}/examples/client;-B;${work}/build;-DCMAKE_PREFIX_PATH=${work}/prefix"
    "${CMAKE_COMMAND};--build;${work}/build"
    "${work}/build/mlusim_client")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${step}")
  endif()
endforeach()
