# The probe-tool tutorial (docs/probes.md) as a user follows it: `cmake --install` of this build
# into a scratch prefix, examples/probes/blockhits configured with find_package(Ocelot) and built
# with ocelot_add_probe_tool against it, then run with the installed `ocelot run` on an analytic
# program (on the CPU device, so that it runs anywhere) and its counts checked.
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DPROGRAM=<analytic_loop> -P ProbeToolPackageTest.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
foreach(file include/Ocelot/ocelot/probe.cuh include/Ocelot/ocelot/ProbeTool.h
             include/Ocelot/ocelot/ProbeTypes.h lib/cmake/Ocelot/OcelotProbeTool.cmake
             lib/cmake/Ocelot/OcelotEmbed.cmake share/ocelot/examples/probes/blockhits/probes.cu)
  if(NOT EXISTS ${WORK_DIR}/prefix/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/prefix/share/ocelot/examples/probes/blockhits
                        -B ${WORK_DIR}/tool -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring blockhits with find_package(Ocelot) failed:\n${out}\n${err}")
endif()
# Without the sanitized build's ASan preload (the test's environment, for `ocelot run` below):
# nvcc crashes under it.
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LD_PRELOAD ${CMAKE_COMMAND}
                        --build ${WORK_DIR}/tool
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building blockhits failed:\n${out}\n${err}")
endif()
set(tool ${WORK_DIR}/tool/libocelot-blockhits.so)
if(NOT EXISTS ${tool})
  message(FATAL_ERROR "no libocelot-blockhits.so")
endif()
if(NOT EXISTS ${PROGRAM})
  message(STATUS "blockhits built with find_package(Ocelot); ${PROGRAM} is not built, not run")
  return()
endif()
execute_process(COMMAND ${WORK_DIR}/prefix/bin/ocelot run --device cpu --summary off
                        -i ${tool} -o ${WORK_DIR}/profile.json -- ${PROGRAM}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ocelot run -i libocelot-blockhits.so failed (${rc}):\n${out}\n${err}")
endif()
file(READ ${WORK_DIR}/profile.json profile)
# analytic_loop: 512 threads enter the kernel's first block in each of its 3 launches, and the
# loop body runs 5120, 1536 and 0 times.
string(REGEX MATCHALL "\"index\":0,\"threads\":512" entries "${profile}")
list(LENGTH entries count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "blockhits: expected 3 launches with 512 entries of block 0:\n${profile}")
endif()
foreach(body 5120 1536)
  string(FIND "${profile}" "\"threads\":${body}}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "blockhits: no block entered ${body} times:\n${profile}")
  endif()
endforeach()
message(STATUS "find_package(Ocelot), ocelot_add_probe_tool and the blockhits tutorial tool: ok")
