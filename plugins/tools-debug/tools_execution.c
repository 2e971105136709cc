/* tools_execution.c - the execution tools of tools-debug (placeholder: no tools yet). */
#include "tools_debug.h"

mh_status td_register_execution(td_plugin *plugin)
{
    (void)plugin;
    return MH_OK;
}
