/* tm_plugin.c - the tools-machine plugin entry: looks up the host services
 * and registers every group of tools. */
#include <stdlib.h>

#include "tm.h"

static const mh_toolkit_group_fn groups[] = {tm_register_media, tm_register_snapshot,
                                             tm_register_input, tm_register_machine,
                                             tm_register_basic};

static mh_status tools_machine_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, sizeof groups / sizeof groups[0], 1, data);
}

static void tools_machine_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-machine", "tools-machine", "0.1.0",
                 "Media, snapshots, keyboard and joystick input, reset and settings",
                 MH_PLUGIN_TOOLSET, tools_machine_init, tools_machine_deinit);
