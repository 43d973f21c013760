# mlusim_areas(<out-var> <dir>): the sub-folders of <dir> that hold .cpp files
# or BANG C tests and benchmarks (*_test.mlu, *_bench.mlu; a folder of BANG C
# programs is no area), skipping common/ and operators left out by
# MLUSIM_ONLY_OPS (areas that are no operator, such as runtime/, always stay).
function(mlusim_areas out dir)
  set(result "")
  file(GLOB entries LIST_DIRECTORIES true CONFIGURE_DEPENDS ${dir}/*)
  foreach(entry ${entries})
    get_filename_component(area ${entry} NAME)
    file(GLOB sources CONFIGURE_DEPENDS ${entry}/*.cpp ${entry}/*_test.mlu ${entry}/*_bench.mlu)
    if(IS_DIRECTORY ${entry} AND sources AND NOT area STREQUAL "common"
       AND (area IN_LIST MLUSIM_OPS OR NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/ops/${area}))
      list(APPEND result ${area})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
