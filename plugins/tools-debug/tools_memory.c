/* tools_memory.c - the memory tools of tools-debug (placeholder: no tools yet). */
#include "tools_debug.h"

mh_status td_register_memory(td_plugin *plugin)
{
    (void)plugin;
    return MH_OK;
}
