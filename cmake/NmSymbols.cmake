# append_captures(OUT TEXT PATTERN): appends to list OUT what PATTERN's group 1 captures at each of
# its matches in TEXT.
function(append_captures out text pattern)
  string(REGEX MATCHALL "${pattern}" found "${text}")
  set(names ${${out}})
  foreach(match IN LISTS found)
    string(REGEX REPLACE "${pattern}" "\\1" name "${match}")
    list(APPEND names ${name})
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# nm_symbols(OUT LIBRARY [UNDEFINED]): the names of the dynamic symbols LIBRARY defines (or, with
# UNDEFINED, needs), as `nm -D` lists them (NM: the nm command). For the build's scripts that
# compare export lists (runtime/driverapi/Forwarders.cmake, tests/driverapi/CheckExports.cmake,
# tests/probes/CheckSelfContained.cmake).
function(nm_symbols out library)
  cmake_parse_arguments(ARG "UNDEFINED" "" "" ${ARGN})
  if(ARG_UNDEFINED)
    set(which --undefined-only)
  else()
    set(which --defined-only)
  endif()
  execute_process(COMMAND ${NM} -D ${which} ${library} OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cannot list the symbols of ${library} with ${NM}")
  endif()
  # Each line: [address] type name (names are mangled: no spaces, no list separators).
  set(names)
  append_captures(names "${text}" "[A-Za-z] +([^ \n]+)\n")
  set(${out} ${names} PARENT_SCOPE)
endfunction()
