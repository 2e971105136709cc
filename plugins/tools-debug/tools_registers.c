/* tools_registers.c - the registers tools of tools-debug (placeholder: no tools yet). */
#include "tools_debug.h"

mh_status td_register_registers(td_plugin *plugin)
{
    (void)plugin;
    return MH_OK;
}
