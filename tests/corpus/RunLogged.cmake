# cmake -DCOMMAND=<program;args...> -DLOG=<file> -P RunLogged.cmake
# Runs COMMAND with its output in LOG, and shows the output only when the command fails. The
# corpus uses it for ptxas, whose advisories on intentional code (stack size of recursive
# kernels, wgmma serialisation under -G) would otherwise fill every build log.
execute_process(COMMAND ${COMMAND} OUTPUT_FILE ${LOG} ERROR_FILE ${LOG} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(READ ${LOG} output)
  message(FATAL_ERROR "${output}")
endif()
