# BANG C programs written for cncc, each checking its own result. Each is
# built twice: by the CMake function (mlusim_add_bang_executable) and by the
# mlusim-cncc command line, and both builds run as tests.
set(MLUSIM_BANG_PROGRAMS
  vector_add_block full_nram sram_staged pipeline matmul nram_overdeclared bad_launch_type
  scalar_hazard implicit_bang_h deduced_launch extern_onchip vector_registers scalar_types
  bang_arch inline_assembly fusion_codes arch_gates
  "template_main template_kernels" "file_local_a file_local_b" "header_onchip_a header_onchip_b")
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

# A trace asked for by MLUSIM_TRACE_JSON is written at exit by a hook the
# first traced launch registers; the hook's log line needs the loggers alive.
add_test(NAME bang_trace_json_at_exit COMMAND ${CMAKE_COMMAND}
         -DPROGRAM=$<TARGET_FILE:bang_vector_add_block> -DOUT=${CMAKE_CURRENT_BINARY_DIR}/trace_at_exit.json
         -P ${dir}/trace_at_exit.cmake)

# A program calling an intrinsic we lack must not build, and must say why.
add_test(NAME bang_unknown_intrinsic_is_a_compile_error
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/unknown_intrinsic.mlu -o
                 ${CMAKE_CURRENT_BINARY_DIR}/unknown_intrinsic)
set_tests_properties(bang_unknown_intrinsic_is_a_compile_error PROPERTIES
  PASS_REGULAR_EXPRESSION "__bang_frobnicate is a BANG C intrinsic that mlusim does not simulate")

# __vv_trixor in a program built for an architecture before MLU500 is a
# compile error naming the intrinsic and the architecture; built for mtp_592,
# the program uses it and runs.
add_test(NAME bang_vector_register_trixor_needs_mlu500
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/vector_registers.mlu -DTRIXOR_BEFORE_MLU500
                 --bang-mlu-arch=mtp_372 -o ${CMAKE_CURRENT_BINARY_DIR}/vector_register_trixor)
set_tests_properties(bang_vector_register_trixor_needs_mlu500 PROPERTIES
  PASS_REGULAR_EXPRESSION "mlusim: __vv_trixor needs MLU500 or later \\(__BANG_ARCH__ > 520\\)[^\n]*; this program is built for mtp_372 \\(__BANG_ARCH__ 372\\)")
add_test(NAME bang_vector_registers_cncc_mtp_592 COMMAND ${CMAKE_COMMAND} -DCNCC=${MLUSIM_CNCC_EXECUTABLE}
         -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_vector_registers_mtp_592
         -DSOURCES=${dir}/vector_registers.mlu "-DARCHS=--bang-mlu-arch=mtp_592"
         -P ${dir}/cncc_build_and_run.cmake)

# Calling a device function whose inline assembly mlusim does not run is a
# compile error naming the instruction.
add_test(NAME bang_unsimulated_asm_call_is_a_compile_error
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/inline_assembly.mlu -DUSE_UNSIMULATED_ASM -o
                 ${CMAKE_CURRENT_BINARY_DIR}/unsimulated_asm_call)
set_tests_properties(bang_unsimulated_asm_call_is_a_compile_error PROPERTIES
  PASS_REGULAR_EXPRESSION "inline assembly 'findfirst1.gpr.b32 %\\[dst\\], %\\[src\\]' \\([^)]*inline_assembly.mlu:22\\) is MLISA, which mlusim does not simulate")

# The architecture macros of other devices, and cncc's several-architecture
# command line (mlusim builds the first it simulates).
foreach(archs "--bang-mlu-arch=mtp_270" "--bang-mlu-arch=mtp_290"
        "--bang-mlu-arch=mtp_592;--bang-mlu-arch=mtp_372;--bang-mlu-arch=mtp_613")
  string(REGEX REPLACE "--bang-mlu-arch=|;" "_" suffix "${archs}")
  add_test(NAME bang_bang_arch_cncc${suffix} COMMAND ${CMAKE_COMMAND} -DCNCC=${MLUSIM_CNCC_EXECUTABLE}
           -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_bang_arch${suffix} -DSOURCES=${dir}/bang_arch.mlu
           "-DARCHS=${archs}" -P ${dir}/cncc_build_and_run.cmake)
endforeach()
# Intrinsics by architecture (include/mlusim/bang/architecture.h): the program
# runs on the architectures it is written for, and a call of an intrinsic the
# target lacks is a compile error naming the intrinsic, the architecture and
# the program's line.
foreach(archs "--bang-arch=compute_30" "--bang-mlu-arch=mtp_270")
  string(REGEX REPLACE "--bang-(mlu-)?arch=" "_" suffix "${archs}")
  add_test(NAME bang_arch_gates_cncc${suffix} COMMAND ${CMAKE_COMMAND}
           -DCNCC=${MLUSIM_CNCC_EXECUTABLE} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_arch_gates${suffix}
           -DSOURCES=${dir}/arch_gates.mlu "-DARCHS=${archs}" -P ${dir}/cncc_build_and_run.cmake)
endforeach()
function(mlusim_arch_gate_test name define arch expected)
  add_test(NAME bang_arch_gate_${name}
           COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/arch_gates.mlu -D${define} --bang-mlu-arch=${arch}
                   -o ${CMAKE_CURRENT_BINARY_DIR}/arch_gate_${name})
  set_tests_properties(bang_arch_gate_${name} PROPERTIES PASS_REGULAR_EXPRESSION "${expected}")
endfunction()
mlusim_arch_gate_test(div_on_mtp_372 CALL_DIV mtp_372
  "arch_gates.mlu:34:[0-9]+: error: [^\n]*mlusim: __bang_div \\(dst, src0, src1, count\\) needs MLU300 or later but not mtp_372 [^\n]*; this program is built for mtp_372 \\(__BANG_ARCH__ 372\\)")
mlusim_arch_gate_test(recip_on_mtp_270 CALL_RECIP mtp_270
  "arch_gates.mlu:36:[0-9]+: error: [^\n]*mlusim: __bang_recip needs MLU300 or later \\(__BANG_ARCH__ >= 300\\); this program is built for mtp_270 \\(__BANG_ARCH__ 270\\)")
mlusim_arch_gate_test(int_band_on_mtp_290 BAND_INT mtp_290
  "arch_gates.mlu:43:[0-9]+: error: [^\n]*mlusim: __bang_band of int or short needs MLU300 or later [^\n]*; this program is built for mtp_290 \\(__BANG_ARCH__ 290\\)")
mlusim_arch_gate_test(int_bxor_on_mtp_270 BXOR_INT mtp_270
  "arch_gates.mlu:46:[0-9]+: error: [^\n]*mlusim: __bang_bxor of int or short needs MLU300 or later \\(__BANG_ARCH__ >= 300\\); MLU200 has it for char; this program is built for mtp_270 \\(__BANG_ARCH__ 270\\)")
mlusim_arch_gate_test(short_cycle_bor_on_mtp_270 CYCLE_BOR_SHORT mtp_270
  "arch_gates.mlu:49:[0-9]+: error: [^\n]*mlusim: __bang_cycle_bor of int or short needs MLU300 or later [^\n]*; this program is built for mtp_270 \\(__BANG_ARCH__ 270\\)")

add_test(NAME bang_unsimulated_arch_is_an_error
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/bang_arch.mlu --bang-mlu-arch=mtp_613 -o
                 ${CMAKE_CURRENT_BINARY_DIR}/unsimulated_arch)
set_tests_properties(bang_unsimulated_arch_is_an_error PROPERTIES
  PASS_REGULAR_EXPRESSION "--bang-mlu-arch=mtp_613: no simulated device for this architecture \\(mlusim has mtp_372, ")

# mlu-ops' cncc flags (its CMakeLists.txt, release build), with what cncc
# accepts under -Wall -Werror and g++'s -Wall does not.
set(mluops_flags --no-neuware-version-check -mllvm --fmlu-addrspace-warning
    -mllvm --fmlu-memintr-warning=true -Xbang-cnas -O1 -Werror -Wdeprecated-declarations -Wall
    -std=c++17 -fPIC -pthread --neuware-path=/usr/local/neuware -O3 -DNDEBUG)
add_test(NAME bang_mluops_flags_cncc COMMAND ${CMAKE_COMMAND} -DCNCC=${MLUSIM_CNCC_EXECUTABLE}
         -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_mluops_flags -DSOURCES=${dir}/mluops_flags.mlu
         "-DARCHS=--bang-mlu-arch=mtp_372;--bang-mlu-arch=mtp_592;--bang-mlu-arch=mtp_613"
         "-DFLAGS=${mluops_flags}" -P ${dir}/cncc_build_and_run.cmake)
# The same with clang as the host compiler, where one is installed (mlusim needs 15 on: _Float16).
find_program(MLUSIM_TEST_CLANGXX NAMES clang++-18 clang++-17 clang++-16 clang++-15)
if(MLUSIM_TEST_CLANGXX)
  add_test(NAME bang_mluops_flags_cncc_clang COMMAND ${CMAKE_COMMAND} -DCNCC=${MLUSIM_CNCC_EXECUTABLE}
           -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_mluops_flags_clang
           -DSOURCES=${dir}/mluops_flags.mlu "-DFLAGS=${mluops_flags};-I;${dir};-DUNUSED_MACRO=1"
           -P ${dir}/cncc_build_and_run.cmake)
  set_tests_properties(bang_mluops_flags_cncc_clang PROPERTIES
    ENVIRONMENT "MLUSIM_CXX=${MLUSIM_TEST_CLANGXX}")
endif()
# Options whose value is the next argument (as mlu-ops builds its
# gen_half2float_table tool with cncc): the values are no inputs.
add_test(NAME bang_separate_option_values_cncc COMMAND ${CMAKE_COMMAND}
         -DCNCC=${MLUSIM_CNCC_EXECUTABLE} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_separate_values
         -DSOURCES=${dir}/vector_add_block.mlu
         "-DFLAGS=-L;${CMAKE_CURRENT_BINARY_DIR};-l;m;-isystem;${dir};-Wl,-rpath=${CMAKE_CURRENT_BINARY_DIR}"
         -P ${dir}/cncc_build_and_run.cmake)
# Host code on Cambricon's SDK as its samples build it (-lcndrv -lcnrt
# -lcndev): the device's roofline from CNDrv and CNDev, on two presets.
foreach(device MLU370-X4 MLU590-H8)
  add_test(NAME bang_sdk_roofline_cncc_${device} COMMAND ${CMAKE_COMMAND}
           -DCNCC=${MLUSIM_CNCC_EXECUTABLE} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cncc_sdk_roofline_${device}
           -DSOURCES=${dir}/sdk_roofline.mlu "-DFLAGS=-lcndrv;-lcnrt;-lcndev;-std=c++11"
           -P ${dir}/cncc_build_and_run.cmake)
  set_tests_properties(bang_sdk_roofline_cncc_${device} PROPERTIES ENVIRONMENT "MLUSIM_DEVICE=${device}")
endforeach()
# The version line mlu-ops reads (second word, from 4.1 on it adds -mllvm options).
add_test(NAME bang_cncc_version COMMAND ${MLUSIM_CNCC_EXECUTABLE} --version)
set_tests_properties(bang_cncc_version PROPERTIES PASS_REGULAR_EXPRESSION "^mlusim-cncc v4\\.7\\.2 ")
add_test(NAME bang_mllvm_without_value_is_an_error
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/implicit_bang_h.mlu -o
                 ${CMAKE_CURRENT_BINARY_DIR}/mllvm_without_value -mllvm)
set_tests_properties(bang_mllvm_without_value_is_an_error PROPERTIES
  PASS_REGULAR_EXPRESSION "mlusim-cncc: error: -mllvm needs a value")

# -E shows the translated C++ text of a .mlu.
add_test(NAME bang_translation_shown_by_dash_e
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} -E ${dir}/implicit_bang_h.mlu)
set_tests_properties(bang_translation_shown_by_dash_e PROPERTIES
  PASS_REGULAR_EXPRESSION "::mlusim::bang::launch\\({1, 1, 1}, cnrtFuncTypeBlock, nullptr, \"twice\", \"[^\"]*implicit_bang_h.mlu:18\", twice, dev\\);")
add_test(NAME bang_unknown_intrinsic_in_template_is_a_compile_error
         COMMAND ${MLUSIM_CNCC_EXECUTABLE} ${dir}/unknown_intrinsic_template.mlu -o
                 ${CMAKE_CURRENT_BINARY_DIR}/unknown_intrinsic_template)
set_tests_properties(bang_unknown_intrinsic_in_template_is_a_compile_error PROPERTIES
  PASS_REGULAR_EXPRESSION "__cn_vector_mod_scalar_u64 is a BANG C intrinsic that mlusim does not simulate")

# A setting is never silently replaced by a default: an unknown device, a bad
# clock, a misspelt name each fail the program's launch with the valid values.
function(mlusim_settings_test name setting expected)
  add_test(NAME bang_settings_${name} COMMAND bang_vector_add_block)
  # The log line says it (CI runs with MLUSIM_LOG=off).
  set_tests_properties(bang_settings_${name} PROPERTIES ENVIRONMENT "MLUSIM_LOG=error;${setting}"
                       PASS_REGULAR_EXPRESSION "${expected}")
endfunction()
mlusim_settings_test(unknown_device "MLUSIM_DEVICE=MLU999"
  "MLUSIM_DEVICE='MLU999' is none of the valid values: a preset: MLU370-X4, MLU370-S4, MLU370-X8, MLU370-M8, MLU270, MLU290, MLU590-H8, MLU590-M9")
mlusim_settings_test(bad_clock "MLUSIM_CLOCK_MHZ=fast"
  "MLUSIM_CLOCK_MHZ='fast' is none of the valid values: a clock in MHz from 100 to 3000")
mlusim_settings_test(misspelt_name "MLUSIM_DEVCIE=MLU270"
  "MLUSIM_DEVCIE is no setting of mlusim \\(the settings are MLUSIM_DEVICE, MLUSIM_CLOCK_MHZ")
mlusim_settings_test(unknown_constant "MLUSIM_CONSTANTS=gdram_latency_ns=400,dram_speed=2"
  "MLUSIM_CONSTANTS='gdram_latency_ns=400,dram_speed=2' is none of the valid values: name=value pairs, comma-separated, of the estimated constants \\(here: 'dram_speed' is no estimated constant; the constants are atomic_hold_ns, atomic_latency_ns, ")
mlusim_settings_test(bad_fill "MLUSIM_FILL=pink" "MLUSIM_FILL='pink' is none of the valid values")
mlusim_settings_test(bad_races "MLUSIM_RACES=maybe" "MLUSIM_RACES='maybe' is none of the valid values: fault")
mlusim_settings_test(bad_log "MLUSIM_LOG=loud" "MLUSIM_LOG=.loud. is none of the valid values")

# `mlusim trace <program> out.svg`: a program built by cncc, traced through
# the environment, writes its longest launch's timeline when it exits.
add_test(NAME mlusim_trace_program
         COMMAND $<TARGET_FILE:mlusim_cli> trace $<TARGET_FILE:bang_pipeline>
                 ${CMAKE_CURRENT_BINARY_DIR}/bang_pipeline_timeline.svg)
set_tests_properties(mlusim_trace_program PROPERTIES
  PASS_REGULAR_EXPRESSION "timeline written to [^\n]*bang_pipeline_timeline.svg")
