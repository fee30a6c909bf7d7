# The SDK: `find_package(Stream)` gives Stream::core (with the plugin-api headers) and
# stream_add_plugin(), so a vendor builds a plugin out of tree against an installed Stream.
include(CMakePackageConfigHelpers)
set(STREAM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Stream)
install(EXPORT StreamTargets NAMESPACE Stream:: DESTINATION ${STREAM_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/StreamConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/StreamConfig.cmake INSTALL_DESTINATION ${STREAM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/StreamConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/StreamConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/StreamConfigVersion.cmake
  ${CMAKE_CURRENT_SOURCE_DIR}/cmake/StreamPlugin.cmake
  DESTINATION ${STREAM_CMAKE_DIR})
