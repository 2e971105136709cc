/* tm_plugin.c - the tools-machine plugin entry: looks up the host services
 * and registers every group of tools. */
#include <stdlib.h>

#include "tm.h"

typedef mh_status (*tm_register_fn)(tm_plugin *plugin);

static const tm_register_fn groups[] = {tm_register_media, tm_register_snapshot,
                                        tm_register_input, tm_register_machine};

static mh_status tools_machine_init(const mh_host *host, void **data)
{
    tm_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return MH_ERR_NO_MEMORY;
    plugin->host = host;
    plugin->registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    plugin->call = host->get_service(host, MH_CALL_SERVICE_ID);
    plugin->sessions = host->get_service(host, MH_SESSION_SERVICE_ID);
    plugin->files = host->get_service(host, MH_FILES_SERVICE_ID);
    plugin->debug = host->get_service(host, MH_DEBUG_SERVICE_ID);
    if (!plugin->registry || !plugin->call || !plugin->sessions) {
        free(plugin);
        return MH_ERR_UNSUPPORTED;
    }
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        mh_status status = groups[i](plugin);
        if (status != MH_OK) {
            free(plugin); /* the host removes what was registered */
            return status;
        }
    }
    *data = plugin;
    return MH_OK;
}

static void tools_machine_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-machine", "tools-machine", "0.1.0",
                 "Media, snapshots, keyboard and joystick input, reset and settings",
                 MH_PLUGIN_TOOLSET, tools_machine_init, tools_machine_deinit);
