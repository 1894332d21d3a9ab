# A probe tool refers to no symbol of Ocelot's (ocelot_probe_tool_support is built into it, and it
# registers through the host's table): it loads where Ocelot's runtime is not in the process's
# global scope (loaded by path by the driver shim under PyTorch's own libcudart.so.13) and into
# the `ocelot` tool, whose Ocelot code is not exported.
#   cmake -DNM=nm -DTOOLS="a.so;b.so" -P CheckSelfContained.cmake (mangled names: "ocelot" in any)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/NmSymbols.cmake)
set(bad)
foreach(tool IN LISTS TOOLS)
  nm_symbols(needed ${tool} UNDEFINED)
  list(FILTER needed INCLUDE REGEX "ocelot")
  if(needed)
    list(APPEND bad "${tool}: ${needed}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "probe tools that need Ocelot's symbols:\n${bad}")
endif()
list(LENGTH TOOLS count)
message(STATUS "PASS: ${count} probe tools refer to no Ocelot symbol")
