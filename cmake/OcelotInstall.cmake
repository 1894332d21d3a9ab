# `cmake --install`: Ocelot's libcudart.so.13, the `ocelot` tool, the headers of the public API
# (ocelot/, and ir/ and passes/ which the instrumentor interface exposes; ir/Opcodes.def is the
# instruction table ir/Opcode.h expands), and a CMake package so that clients and plugin authors
# can write find_package(Ocelot):
#   Ocelot::cudart  the runtime with the in-process API (ocelot/ocelot.h, version node OCELOT_1)
#   Ocelot::plugin  headers and C++ standard only: a plugin's references to Ocelot resolve against
#                   the libcudart.so.13 that loads it
#   Ocelot::probe_tool_support  linked into each probe tool: the code of ocelot/ProbeTool.h
#   ocelot_add_probe_tool(NAME probes.cu host.cpp)  probe tools (cmake/OcelotProbeTool.cmake)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(OCELOT_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/Ocelot)
set(OCELOT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Ocelot)

install(TARGETS ocelot_cudart EXPORT OcelotTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${OCELOT_INSTALL_INCLUDEDIR})
install(TARGETS ocelot RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Linked into every probe tool (ocelot_add_probe_tool): what ocelot/ProbeTool.h declares.
install(TARGETS ocelot_probe_tool_support EXPORT OcelotTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# Ocelot's libcuda.so.1 in a folder of its own below the runtime's, where `ocelot run` looks for it
# (docs/driver-api.md); it loads libcudart.so.13 from one folder up by path (no run path needed).
if(TARGET ocelot_cuda_shim)
  install(TARGETS ocelot_cuda_shim LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/driverapi)
endif()
# Its libnvJitLink.so.13 next to it (`ocelot run` preloads it from there).
if(TARGET ocelot_nvjitlink_shim)
  install(TARGETS ocelot_nvjitlink_shim LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/driverapi)
endif()
foreach(dir ocelot ir passes)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${OCELOT_INSTALL_INCLUDEDIR}/${dir}
          FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh" PATTERN "*.def" PATTERN "parser" EXCLUDE)
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/plugins/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ocelot/examples/plugins)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/probes/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ocelot/examples/probes)
# ocelot_add_probe_tool and the script it embeds PTX with.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/OcelotProbeTool.cmake
              ${PROJECT_SOURCE_DIR}/cmake/OcelotEmbed.cmake
        DESTINATION ${OCELOT_INSTALL_CMAKEDIR})

install(EXPORT OcelotTargets NAMESPACE Ocelot:: DESTINATION ${OCELOT_INSTALL_CMAKEDIR})
set_target_properties(ocelot_cudart PROPERTIES EXPORT_NAME cudart)
# Plugins exchange nlohmann JSON values with Ocelot (InstrumentorResult::json()): the config asks for
# the version Ocelot was built with.
set(OCELOT_NLOHMANN_JSON_VERSION ${nlohmann_json_VERSION})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/OcelotConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/OcelotConfig.cmake INSTALL_DESTINATION ${OCELOT_INSTALL_CMAKEDIR}
  PATH_VARS OCELOT_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/OcelotConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/OcelotConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/OcelotConfigVersion.cmake
        DESTINATION ${OCELOT_INSTALL_CMAKEDIR})
