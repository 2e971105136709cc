/* c64_plugin.c - the plugin entry (the one exported symbol, mh_entry):
 * registers the machine type "c64". Sessions are made later by the host
 * through the machine type's create() (c64_ifaces.c). The plugin keeps no
 * data of its own; the mh_host rides along as the machine type's user_data. */
#include "c64.h"

static mh_status plugin_init(const mh_host *host, void **plugin_data)
{
    *plugin_data = NULL;
    const mh_registry_service *registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    if (!registry) return MH_ERR_UNSUPPORTED;
    mh_machine_desc desc;
    c64_machine_desc(&desc, host);
    return registry->add_machine(host, &desc);
}

MH_PLUGIN_DEFINE("org.mcphost.machine-c64", "machine-c64", "1.0.0",
                 "Commodore 64: 6510, PLA, VIC-II, 2x CIA 6526, SID 6581/8580; boots Open ROMs",
                 MH_PLUGIN_MACHINE, plugin_init, NULL);
