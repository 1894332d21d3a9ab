# Every function NVIDIA's libcuda.so.1 exports (as the toolkit's stub lists them, older ABIs and
# the profiler's functions included) is exported by Ocelot's libcuda.so.1 too: a program linked
# against an older toolkit, or a library that dlsym()s an old symbol, must not fail to load or
# slip past the shim.
#
#   cmake -DNM=nm -DSTUB=.../stubs/libcuda.so -DSHIM=.../libcuda.so.1 -P CheckExports.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/NmSymbols.cmake)
function(exported library out)
  nm_symbols(names ${library})
  list(FILTER names INCLUDE REGEX "^cu[A-Za-z0-9_]+$")
  set(${out} ${names} PARENT_SCOPE)
endfunction()

exported(${STUB} nvidia)
exported(${SHIM} ocelot)
list(LENGTH nvidia count)
if(count LESS 500)
  message(FATAL_ERROR "only ${count} functions in ${STUB}")
endif()
set(missing ${nvidia})
list(REMOVE_ITEM missing ${ocelot})
if(missing)
  list(LENGTH missing n)
  message(FATAL_ERROR "${n} of NVIDIA's ${count} driver functions are not exported by ${SHIM}: ${missing}")
endif()
message(STATUS "PASS: all ${count} functions of NVIDIA's driver are exported by Ocelot's libcuda.so.1")
