# Writes the linker version script of Ocelot's libcudart.so.13: every function listed in SYMBOLS
# (one name per line, '#' starts a comment) gets the version node libcudart.so.13, as in NVIDIA's
# library; everything else stays local.
#   cmake -DSYMBOLS=<libcudart13.symbols> -DOUTPUT=<libcudart.map> -P VersionScript.cmake
file(STRINGS "${SYMBOLS}" lines)
set(body "")
set(count 0)
foreach(line IN LISTS lines)
  string(STRIP "${line}" name)
  if(name STREQUAL "" OR name MATCHES "^#")
    continue()
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${SYMBOLS}: '${name}' is not a function name")
  endif()
  string(APPEND body "    ${name};\n")
  math(EXPR count "${count} + 1")
endforeach()
file(WRITE "${OUTPUT}.tmp"
  "/* Generated from ${SYMBOLS} (${count} functions); do not edit. */\n"
  "libcudart.so.13 {\n  global:\n${body}  local:\n    *;\n};\n")
# Rewrite only on change so that the library is not relinked needlessly.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
