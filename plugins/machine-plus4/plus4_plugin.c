/* plus4_plugin.c - the plugin entry (the one exported symbol, mh_entry):
 * registers the machine type "plus4" (a Plus/4 or, with model=c16, a C16).
 * The plugin keeps no data of its own; the mh_host rides along as the
 * machine type's user_data. */
#include "plus4.h"

static mh_status plugin_init(const mh_host *host, void **plugin_data)
{
    *plugin_data = NULL;
    const mh_registry_service *registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    if (!registry) return MH_ERR_UNSUPPORTED;
    mh_machine_desc desc;
    plus4_machine_desc(&desc, host);
    return registry->add_machine(host, &desc);
}

MH_PLUGIN_DEFINE("org.mcphost.machine-plus4", "machine-plus4", "1.0.0",
                 "Commodore Plus/4 and C16: 7501/8501, TED 7360/8360 (video, timers, sound)",
                 MH_PLUGIN_MACHINE, plugin_init, NULL);
