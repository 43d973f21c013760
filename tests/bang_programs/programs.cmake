# BANG C programs written for cncc, each checking its own result. Each is
# built twice: by the CMake function (mlusim_add_bang_executable) and by the
# mlusim-cncc command line, and both builds run as tests.
set(MLUSIM_BANG_PROGRAMS
  vector_add_block full_nram sram_staged pipeline matmul nram_overdeclared bad_launch_type
  scalar_hazard
  "template_main template_kernels")
set(dir ${CMAKE_CURRENT_SOURCE_DIR}/bang_programs)
foreach(program ${MLUSIM_BANG_PROGRAMS})
  separate_arguments(files UNIX_COMMAND "${program}")
  list(GET files 0 name)
  list(TRANSFORM files PREPEND ${dir}/)
  list(TRANSFORM files APPEND .mlu)
  mlusim_add_bang_executable(bang_${name} ${files})
  add_test(NAME bang_${name} COMMAND bang_${name})
  add_test(NAME bang_${name}_cncc COMMAND ${CMAKE_COMMAND} -DCNCC=${MLUSIM_CNCC_EXECUTABLE}
           -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_${name} "-DSOURCES=${files}"
           -P ${dir}/cncc_build_and_run.cmake)
endforeach()

mlusim_add_bang_executable(bang_printf_cores ${dir}/printf_cores.mlu)
add_test(NAME bang_printf_cores COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:bang_printf_cores>
         -P ${dir}/printf_check.cmake)

# A program calling an intrinsic we lack must not build, and must say why.
add_test(NAME bang_unknown_intrinsic_is_a_compile_error
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/unknown_intrinsic.mlu -o
                 ${CMAKE_CURRENT_BINARY_DIR}/unknown_intrinsic)
set_tests_properties(bang_unknown_intrinsic_is_a_compile_error PROPERTIES
  PASS_REGULAR_EXPRESSION "__bang_frobnicate is a BANG C intrinsic that mlusim does not simulate")
