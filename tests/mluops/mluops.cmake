# mlusim-mluops and mlusim_add_mluops on the small mlu-ops-like tree of
# fake_mluops/ (CI has no mlu-ops). Not in sanitizer builds: the fake tree's
# host code is built by the host compiler without the sanitizer that
# libmlusim then needs in every program linking it.
if(NOT MLUSIM_SANITIZE)
  add_test(NAME mluops_tool
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/tool_test.sh ${MLUSIM_MLUOPS_EXECUTABLE}
            ${CMAKE_CURRENT_LIST_DIR}/fake_mluops ${CMAKE_CURRENT_BINARY_DIR}/mluops_tool)
  set_tests_properties(mluops_tool PROPERTIES LABELS mluops)

  # The CMake function: its target builds (a test, so that `ctest` does it),
  # its test runs the cases.
  mlusim_add_mluops(fake_mluops SOURCE ${CMAKE_CURRENT_LIST_DIR}/fake_mluops OPS scale_forward
                    JOBS 2)
  add_test(NAME fake_mluops_build
    COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target fake_mluops)
  set_tests_properties(fake_mluops_build PROPERTIES FIXTURES_SETUP fake_mluops LABELS mluops)
  set_tests_properties(fake_mluops PROPERTIES FIXTURES_REQUIRED fake_mluops LABELS mluops)
endif()
