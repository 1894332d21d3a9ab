# Layers only point down (docs/architecture.md, "Layers"): each folder may include only from the
# folders below it. Run as `cmake -DROOT=<tree> -P Layers.cmake`; fails listing every include that
# points up or sideways. ir/parser is part of ir, runtime/cpu/llvm part of runtime/cpu.
#
#   support <- ir <- passes <- ocelot (public API types) <- instrumentors
#   support <- runtime/fatbin
#   all of those <- runtime/core <- runtime/cpu, runtime/driver, runtime/instrumentation (each
#   independent of the others) <- runtime/api (assembles the process's runtime; not checked)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P Layers.cmake")
endif()

set(below_support "")
set(below_ir support)
set(below_passes support ir)
set(below_ocelot support ir passes)
set(below_instrumentors support ir passes ocelot)
set(below_runtime/fatbin support)
set(below_runtime/core support ir passes ocelot instrumentors runtime/fatbin)
set(below_runtime/cpu ${below_runtime/core} runtime/core)
set(below_runtime/driver ${below_runtime/core} runtime/core)
set(below_runtime/instrumentation ${below_runtime/core} runtime/core)
set(layers support ir passes ocelot instrumentors runtime/fatbin runtime/core runtime/cpu
    runtime/driver runtime/instrumentation)

set(checked 0)
set(violations "")
foreach(layer IN LISTS layers)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${ROOT}
       ${ROOT}/${layer}/*.h ${ROOT}/${layer}/*.cpp ${ROOT}/${layer}/*.def ${ROOT}/${layer}/*.l
       ${ROOT}/${layer}/*.yy)
  set(allowed ${layer} ${below_${layer}})
  foreach(file IN LISTS files)
    file(STRINGS ${ROOT}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
    foreach(line IN LISTS includes)
      if(NOT line MATCHES "\"([a-z_]+)/([a-z_]+/)?")
        continue() # a file beside it or a generated header
      endif()
      set(top ${CMAKE_MATCH_1})
      if(top STREQUAL "runtime" AND CMAKE_MATCH_2)
        string(REGEX REPLACE "/$" "" second "${CMAKE_MATCH_2}")
        set(target runtime/${second})
      else()
        set(target ${top})
      endif()
      if(NOT top MATCHES "^(support|ir|passes|ocelot|instrumentors|runtime|tools|tests|examples)$")
        continue()
      endif()
      math(EXPR checked "${checked} + 1")
      list(FIND allowed ${target} at)
      if(at EQUAL -1)
        string(STRIP "${line}" line)
        list(JOIN allowed ", " allowedText)
        list(APPEND violations "${file}: ${line} (${layer} may include only ${allowedText})")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes that point up or sideways:\n  ${text}")
endif()
if(checked EQUAL 0)
  message(FATAL_ERROR "no includes found under ${ROOT}: wrong ROOT?")
endif()
message(STATUS "${checked} includes checked: every layer includes only what is below it")
