# `cmake --install` of this build into a scratch prefix, then the example plugin configured with
# find_package(Ocelot) and built against it, as a plugin author would.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P PackageTest.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
foreach(file lib/libcudart.so.13 bin/ocelot include/Ocelot/ocelot/ocelot.h
             include/Ocelot/ocelot/Plugin.h lib/cmake/Ocelot/OcelotConfig.cmake)
  if(NOT EXISTS ${WORK_DIR}/prefix/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/prefix/share/ocelot/examples/plugins/entrycount
                        -B ${WORK_DIR}/plugin -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the plugin with find_package(Ocelot) failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/plugin
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the plugin failed:\n${out}\n${err}")
endif()
if(NOT EXISTS ${WORK_DIR}/plugin/libocelot-entrycount.so)
  message(FATAL_ERROR "no libocelot-entrycount.so")
endif()
message(STATUS "find_package(Ocelot) and the example plugin: ok")
