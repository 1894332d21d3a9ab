# What a build costs on two cores (CI's machine, a newcomer's first build): debug info and the
# linker. Measured in docs/testing.md ("Fifth round").

# RelWithDebInfo keeps line tables only (-g1): backtraces, perf and sanitizer reports still name
# file:line, and gcc spends a fifth to a quarter less time on each library object than with -g
# (CpuDevice.cpp 5.7 -> 4.2 CPU-s). OCELOT_FULL_DEBUG_INFO=ON keeps -g (variables in a debugger).
# GCC keeps the last -g level of the command line, and these options follow the configuration's.
option(OCELOT_FULL_DEBUG_INFO "RelWithDebInfo: full debug info (-g), not line tables (-g1)" OFF)
if(NOT OCELOT_FULL_DEBUG_INFO)
  add_compile_options($<$<AND:$<CONFIG:RelWithDebInfo>,$<COMPILE_LANGUAGE:C,CXX>>:-g1>)
endif()

# LLVM's linker where it is installed (Debian: lld): a test executable links in 0.4 CPU-s instead
# of 1.3 with GNU ld, and the build links about a hundred.
option(OCELOT_USE_LLD "Link with lld where it is installed" ON)
if(OCELOT_USE_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld OCELOT_LINKER_LLD)
  if(OCELOT_LINKER_LLD)
    add_link_options($<$<LINK_LANGUAGE:C,CXX>:-fuse-ld=lld>)
  endif()
endif()
