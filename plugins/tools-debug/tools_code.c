/* tools_code.c - the code tools of tools-debug (placeholder: no tools yet). */
#include "tools_debug.h"

mh_status td_register_code(td_plugin *plugin)
{
    (void)plugin;
    return MH_OK;
}
