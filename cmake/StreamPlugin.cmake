# stream_add_plugin(<target> MANIFEST <manifest.json.in> SOURCES <src>... [OUTPUT_DIR <dir>] [NO_INSTALL])
#
# Builds one plugin: a MODULE library with hidden visibility linked against the core, and its
# manifest (configured so that @STREAM_PLUGIN_LIBRARY@ names the library file) beside it. The
# manifest's "abi_version" and "abi_minor" are written here from the SDK's plugin.hpp (through
# STREAM_PLUGIN_ABI_VERSION/_MINOR), so a template never states them and cannot drift from the
# library. The same function serves bundled plugins, the test zoo and out-of-tree plugins (it is
# installed with the SDK).
#
# Unless NO_INSTALL, `cmake --install` puts the library and its manifest into
# <prefix>/${STREAM_PLUGIN_SUBDIR} (lib/stream/plugins; find_package(Stream) sets it, a -D overrides
# it): installed into Stream's own prefix the plugin is found by `stream` with the bundled ones,
# installed elsewhere that directory goes into STREAM_PLUGIN_PATH.
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
  stream_plugin_manifest(${target} ${P_MANIFEST} ${P_OUTPUT_DIR}/${manifest_name})
  if(NOT P_NO_INSTALL)
    if(NOT DEFINED STREAM_PLUGIN_SUBDIR)
      message(FATAL_ERROR "stream_add_plugin(${target}): STREAM_PLUGIN_SUBDIR is not set (find_package(Stream) "
                          "sets it); give NO_INSTALL for a plugin that is not installed")
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION ${STREAM_PLUGIN_SUBDIR})
    install(FILES ${P_OUTPUT_DIR}/${manifest_name} DESTINATION ${STREAM_PLUGIN_SUBDIR})
  endif()
endfunction()

# Configures a manifest template and sets its ABI fields; the output is rewritten only when it changes.
function(stream_plugin_manifest target template output)
  if(NOT DEFINED STREAM_PLUGIN_ABI_VERSION OR NOT DEFINED STREAM_PLUGIN_ABI_MINOR)
    message(FATAL_ERROR "stream_add_plugin(${target}): STREAM_PLUGIN_ABI_VERSION and STREAM_PLUGIN_ABI_MINOR "
                        "are not set (find_package(Stream) sets them)")
  endif()
  set(configured ${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest.configured.json)
  set(staged ${CMAKE_CURRENT_BINARY_DIR}/${target}.manifest.json)
  configure_file(${template} ${configured} @ONLY)
  file(READ ${configured} manifest)
  string(JSON type ERROR_VARIABLE not_json TYPE "${manifest}")
  if(not_json)
    message(FATAL_ERROR "stream_add_plugin(${target}): ${template} is not a JSON object: ${not_json}")
  elseif(NOT type STREQUAL "OBJECT")
    message(FATAL_ERROR "stream_add_plugin(${target}): ${template} is not a JSON object (it is a JSON ${type})")
  endif()
  foreach(field abi_version abi_minor)
    string(JSON stated ERROR_VARIABLE absent GET "${manifest}" ${field})
    if(NOT absent)
      message(AUTHOR_WARNING "${template} states \"${field}\"; stream_add_plugin() writes it from the SDK, "
                             "remove it from the template")
    endif()
  endforeach()
  string(JSON manifest SET "${manifest}" abi_version ${STREAM_PLUGIN_ABI_VERSION})
  string(JSON manifest SET "${manifest}" abi_minor ${STREAM_PLUGIN_ABI_MINOR})
  file(WRITE ${staged} "${manifest}\n")
  configure_file(${staged} ${output} COPYONLY)
endfunction()
