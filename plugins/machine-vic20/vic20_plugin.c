/* vic20_plugin.c - the plugin entry (the one exported symbol, mh_entry):
 * registers the machine type "vic20" (vic20_ifaces.c). The plugin keeps no
 * data of its own; the mh_host rides along as the machine type's user_data. */
#include "vic20.h"

static mh_status plugin_init(const mh_host *host, void **plugin_data)
{
    *plugin_data = NULL;
    const mh_registry_service *registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    if (!registry) return MH_ERR_UNSUPPORTED;
    mh_machine_desc desc;
    vic20_machine_desc(&desc, host);
    return registry->add_machine(host, &desc);
}

MH_PLUGIN_DEFINE("org.mcphost.machine-vic20", "machine-vic20", "1.0.0",
                 "Commodore VIC-20: 6502, VIC 6561/6560 (video and sound), 2x VIA 6522",
                 MH_PLUGIN_MACHINE, plugin_init, NULL);
