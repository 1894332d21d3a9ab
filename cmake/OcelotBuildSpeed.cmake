# What a build costs on two cores (CI's machine, a newcomer's first build): debug info. Measured
# in docs/testing.md ("Fifth round").

# RelWithDebInfo keeps line tables only (-g1): backtraces, perf and sanitizer reports still name
# file:line, and gcc spends a fifth to a quarter less time on each library object than with -g
# (CpuDevice.cpp 5.7 -> 4.2 CPU-s). OCELOT_FULL_DEBUG_INFO=ON keeps -g (variables in a debugger).
# GCC keeps the last -g level of the command line, and these options follow the configuration's.
option(OCELOT_FULL_DEBUG_INFO "RelWithDebInfo: full debug info (-g), not line tables (-g1)" OFF)
if(NOT OCELOT_FULL_DEBUG_INFO)
  add_compile_options($<$<AND:$<CONFIG:RelWithDebInfo>,$<COMPILE_LANGUAGE:C,CXX>>:-g1>)
endif()

# Not lld: tried (a test executable links in 0.4 CPU-s instead of 1.3), but Debian 12's lld 14
# gives libcudart.so.13 no absolute version-node symbol (`A libcudart.so.13`, which NVIDIA's
# library and GNU ld have: Exports.* fail), and the runtime API fuzzer linked with it read a null
# `stderr` through its copy relocation and crashed. GNU ld's links are about 100 CPU-s of a build.
