# The core order from the command line: a racy .mlu program is caught by the
# race check, decided its way by MLUSIM_SCHEDULE, and told apart by
# `mlusim schedules`; a race-free program passes under every order.
set(dir ${CMAKE_CURRENT_SOURCE_DIR}/schedules)
mlusim_add_bang_executable(schedules_last_writer ${dir}/last_writer.mlu)

# The reports are log lines of the `kernel` logger: these tests turn it on
# whatever MLUSIM_LOG the caller exports.
add_test(NAME schedules_race_check_names_both_writers COMMAND schedules_last_writer)
set_tests_properties(schedules_race_check_names_both_writers PROPERTIES
  ENVIRONMENT "MLUSIM_LOG=error"
  PASS_REGULAR_EXPRESSION "GDRAM race: cluster 0 core 0 \\(task 0\\) __memcpy NRAM2GDRAM at [^ ]*last_writer.mlu:8")

foreach(order "ordered;7" "reverse;0")
  list(GET order 0 name)
  list(GET order 1 winner)
  add_test(NAME schedules_${name}_decides_the_race COMMAND schedules_last_writer)
  set_tests_properties(schedules_${name}_decides_the_race PROPERTIES
    ENVIRONMENT "MLUSIM_RACES=off;MLUSIM_SCHEDULE=${name}"
    PASS_REGULAR_EXPRESSION "last_writer: task ${winner} wrote last")
endforeach()

add_test(NAME schedules_command_reports_differing_outputs
         COMMAND mlusim_cli schedules --seeds 1 $<TARGET_FILE:schedules_last_writer>)
set_tests_properties(schedules_command_reports_differing_outputs PROPERTIES
  ENVIRONMENT "MLUSIM_RACES=off;MLUSIM_LOG=error"
  PASS_REGULAR_EXPRESSION "outputs depend on the order the cores run in: GDRAM allocation #[0-9]+ \\(4 bytes\\)")

add_test(NAME schedules_command_passes_a_race_free_program
         COMMAND mlusim_cli schedules --seeds 2 $<TARGET_FILE:bang_vector_add_block>)
