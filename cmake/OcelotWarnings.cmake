# ocelot_target_defaults(target): the warning flags and include root every Ocelot target uses.
function(ocelot_target_defaults target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wcast-align -Wunused -Woverloaded-virtual -Wimplicit-fallthrough>
    $<$<AND:$<COMPILE_LANGUAGE:CXX,C>,$<BOOL:${OCELOT_WERROR}>>:-Werror>)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${OCELOT_SOURCE_ROOT}>)
endfunction()
