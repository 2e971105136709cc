/* tools_vic2_plugin.c - the tools-vic2 plugin entry: looks up the host
 * services and registers every group of VIC-II tools (docs/tools-vic2.md). */
#include <stdlib.h>

#include "tools_vic2.h"

typedef mh_status (*tv_register_fn)(tv_plugin *plugin);

static const tv_register_fn groups[] = {tv_register_registers, tv_register_sprites,
                                        tv_register_screen, tv_register_breakpoints};

static mh_status tools_vic2_init(const mh_host *host, void **data)
{
    tv_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return MH_ERR_NO_MEMORY;
    plugin->host = host;
    plugin->registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    plugin->call = host->get_service(host, MH_CALL_SERVICE_ID);
    plugin->sessions = host->get_service(host, MH_SESSION_SERVICE_ID);
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

static void tools_vic2_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-vic2", "tools-vic2", "0.1.0",
                 "VIC-II tools: registers, sprites, raster, screen capture and text, borders, "
                 "memory map, raster/collision/register/composite breakpoints",
                 MH_PLUGIN_TOOLSET, tools_vic2_init, tools_vic2_deinit);
