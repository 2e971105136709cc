/* tools_breakpoints.c - the breakpoints tools of tools-debug (placeholder: no tools yet). */
#include "tools_debug.h"

mh_status td_register_breakpoints(td_plugin *plugin)
{
    (void)plugin;
    return MH_OK;
}
