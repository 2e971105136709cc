# McphostPlugin.cmake - builds an mcphost plugin the way the ABI requires:
# a MODULE library that exports only `mh_entry` (version script, hidden
# visibility) and links with -z defs so a missing symbol fails the build, not
# the load. Used in-tree and installed for third-party plugins.
#
#   mcphost_add_plugin(my-plugin SOURCES a.c b.c [LIBRARIES lib ...])
#
# Set MCPHOST_PLUGIN_OUTPUT_DIRECTORY to choose where the .so lands.

set(MCPHOST_PLUGIN_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "Where McphostPlugin.cmake lives")

function(mcphost_add_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "mcphost_add_plugin(${name}): SOURCES is required")
  endif()
  add_library(${name} MODULE ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    LINK_DEPENDS "${MCPHOST_PLUGIN_CMAKE_DIR}/mcphost-plugin.map")
  if(MCPHOST_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY "${MCPHOST_PLUGIN_OUTPUT_DIRECTORY}")
  endif()
  target_link_options(${name} PRIVATE
    "-Wl,--version-script=${MCPHOST_PLUGIN_CMAKE_DIR}/mcphost-plugin.map"
    "-Wl,-z,defs")
  target_link_libraries(${name} PRIVATE mcphost::sdk ${ARG_LIBRARIES})
endfunction()
