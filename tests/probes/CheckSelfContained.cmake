# A probe tool refers to no symbol of Ocelot's (ocelot_probe_tool_support is built into it, and it
# registers through the host's table): it loads where Ocelot's runtime is not in the process's
# global scope (loaded by path by the driver shim under PyTorch's own libcudart.so.13) and into
# the `ocelot` tool, whose Ocelot code is not exported.
#   cmake -DNM=nm -DTOOLS="a.so;b.so" -P CheckSelfContained.cmake
set(bad)
foreach(tool IN LISTS TOOLS)
  execute_process(COMMAND ${NM} -D --undefined-only -C ${tool} OUTPUT_VARIABLE text
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cannot list the symbols of ${tool}")
  endif()
  string(REGEX MATCHALL "[^\n]*ocelot[^\n]*" found "${text}")
  if(found)
    list(APPEND bad "${tool}: ${found}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "probe tools that need Ocelot's symbols:\n${bad}")
endif()
list(LENGTH TOOLS count)
message(STATUS "PASS: ${count} probe tools refer to no Ocelot symbol")
