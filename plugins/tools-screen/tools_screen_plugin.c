/* tools_screen_plugin.c - the tools-screen plugin entry: looks up the host
 * services and registers screen_capture and screen_text
 * (docs/tools-screen.md). */
#include <stdlib.h>

#include "tools_screen.h"

static const mh_toolkit_group_fn groups[] = {tsc_register_capture, tsc_register_text};

static mh_status tools_screen_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, sizeof groups / sizeof groups[0], 1, data);
}

static void tools_screen_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-screen", "tools-screen", "0.1.0",
                 "Screen tools for any machine with video: screen_capture (PNG) and "
                 "screen_text (the text screen decoded)",
                 MH_PLUGIN_TOOLSET, tools_screen_init, tools_screen_deinit);
