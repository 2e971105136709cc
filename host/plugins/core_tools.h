/* host/plugins/core_tools.h - the host's built-in toolset: ping, host_info and
 * machine-session management (session_create/list/select/destroy). It is
 * registered like any plugin, with id org.mcphost.core. */
#ifndef MH_HOST_CORE_TOOLS_H
#define MH_HOST_CORE_TOOLS_H

#include "mcphost/plugin.h"

extern const mh_plugin_entry mh_core_tools_entry;

#endif
