# mlusim_areas(<out-var> <dir>): the sub-folders of <dir> that hold .cpp files,
# skipping common/ and operators left out by MLUSIM_ONLY_OPS ("runtime" and "intrinsics" always stay).
function(mlusim_areas out dir)
  set(result "")
  file(GLOB entries LIST_DIRECTORIES true CONFIGURE_DEPENDS ${dir}/*)
  foreach(entry ${entries})
    get_filename_component(area ${entry} NAME)
    file(GLOB sources CONFIGURE_DEPENDS ${entry}/*.cpp)
    if(IS_DIRECTORY ${entry} AND sources AND NOT area STREQUAL "common"
       AND (area IN_LIST MLUSIM_OPS OR area STREQUAL "runtime" OR area STREQUAL "intrinsics"))
      list(APPEND result ${area})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
