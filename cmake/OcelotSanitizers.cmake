# OCELOT_SANITIZE=ON instruments the whole build with ASan and UBSan. UBSan findings abort so that
# the test suite fails on them instead of printing and passing.
if(OCELOT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  # Programs nvcc builds (not instrumented) that load the sanitized libcudart.so.13 need the ASan
  # runtime first in the process: tests running them add this to their ENVIRONMENT. Leak checking
  # stays with the instrumented unit tests (the runtime of such a program is never destroyed).
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE OCELOT_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(OCELOT_NVCC_PROGRAM_ENV "LD_PRELOAD=${OCELOT_ASAN_RUNTIME}" "ASAN_OPTIONS=detect_leaks=0")
  # A C program (Python) that dlopens the sanitized libraries: ASan finds the real __cxa_throw only
  # where libstdc++ is loaded when it starts, else its first C++ exception fails an ASan CHECK.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so.6
                  OUTPUT_VARIABLE OCELOT_LIBSTDCXX OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(OCELOT_C_PROGRAM_ENV "LD_PRELOAD=${OCELOT_ASAN_RUNTIME} ${OCELOT_LIBSTDCXX}"
                           "ASAN_OPTIONS=detect_leaks=0")
else()
  set(OCELOT_NVCC_PROGRAM_ENV "")
  set(OCELOT_C_PROGRAM_ENV "")
endif()

# OCELOT_FUZZ=ON (clang only) instruments everything for libFuzzer's coverage feedback, with ASan
# and UBSan so that memory errors are crashes the fuzzer can find.
if(OCELOT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "OCELOT_FUZZ needs clang (configure with CC=clang CXX=clang++)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
