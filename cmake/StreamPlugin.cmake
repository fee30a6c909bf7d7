# stream_add_plugin(<target> MANIFEST <manifest.json.in> SOURCES <src>... [OUTPUT_DIR <dir>] [NO_INSTALL])
#
# Builds one plugin: a MODULE library with hidden visibility linked against the core, and its
# manifest (configured so that @STREAM_PLUGIN_LIBRARY@ names the library file) beside it. The same
# function serves bundled plugins, the test zoo and out-of-tree plugins (it is installed with the SDK).
function(stream_add_plugin target)
  cmake_parse_arguments(P "NO_INSTALL" "MANIFEST;OUTPUT_DIR" "SOURCES" ${ARGN})
  if(NOT P_OUTPUT_DIR)
    if(DEFINED STREAM_PLUGIN_OUTPUT_DIR)
      set(P_OUTPUT_DIR ${STREAM_PLUGIN_OUTPUT_DIR})
    else()
      set(P_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/plugins)
    endif()
  endif()
  add_library(${target} MODULE ${P_SOURCES})
  if(TARGET Stream::core)
    target_link_libraries(${target} PRIVATE Stream::core)
  else()
    target_link_libraries(${target} PRIVATE stream_core)
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${P_OUTPUT_DIR}
    INSTALL_RPATH "$ORIGIN/../.."
    # One RUNPATH for the build and the install tree: a build RUNPATH that differs gets a trailing
    # ':' from CMake (room for rewriting at install), an empty entry that searches the current
    # directory. A plugin is loaded into `stream`, which has loaded the core already, so outside
    # the bundled layout the path is only an unused fallback.
    BUILD_WITH_INSTALL_RPATH ON)
  set(STREAM_PLUGIN_LIBRARY "lib${target}${CMAKE_SHARED_MODULE_SUFFIX}")
  get_filename_component(manifest_name ${P_MANIFEST} NAME)
  string(REGEX REPLACE "\\.in$" "" manifest_name ${manifest_name})
  configure_file(${P_MANIFEST} ${P_OUTPUT_DIR}/${manifest_name} @ONLY)
  if(NOT P_NO_INSTALL AND DEFINED STREAM_PLUGIN_SUBDIR)
    install(TARGETS ${target} LIBRARY DESTINATION ${STREAM_PLUGIN_SUBDIR})
    install(FILES ${P_OUTPUT_DIR}/${manifest_name} DESTINATION ${STREAM_PLUGIN_SUBDIR})
  endif()
endfunction()
