# OCELOT_SANITIZE=ON instruments the whole build with ASan and UBSan. UBSan findings abort so that
# the test suite fails on them instead of printing and passing.
if(OCELOT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
