/* tools_vic2_plugin.c - the tools-vic2 plugin entry: looks up the host
 * services and registers every group of VIC-II tools (docs/tools-vic2.md). */
#include <stdlib.h>

#include "tools_vic2.h"

static const mh_toolkit_group_fn groups[] = {tv_register_registers, tv_register_sprites,
                                             tv_register_borders, tv_register_breakpoints};

static mh_status tools_vic2_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, sizeof groups / sizeof groups[0], 1, data);
}

static void tools_vic2_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-vic2", "tools-vic2", "0.1.0",
                 "VIC-II tools: registers, sprites, raster, borders, memory map, "
                 "raster/collision/register/composite breakpoints",
                 MH_PLUGIN_TOOLSET, tools_vic2_init, tools_vic2_deinit);
