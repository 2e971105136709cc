/* bare6502_plugin.c - the plugin entry: the one exported symbol, mh_entry.
 *
 * init() registers the machine type "bare6502" with the registry service;
 * that is all a machine plugin does at load time. Sessions (instances) are
 * made later by the host, one per session, through the machine type's
 * create(). The plugin keeps no data of its own: the mh_host pointer rides
 * along as the machine type's user_data, for the services create() needs.
 */
#include "bare6502.h"

static mh_status plugin_init(const mh_host *host, void **plugin_data)
{
    *plugin_data = NULL;
    const mh_registry_service *registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    if (!registry) return MH_ERR_UNSUPPORTED;
    mh_machine_desc desc;
    bare6502_machine_desc(&desc, host);
    return registry->add_machine(host, &desc); /* the registry copies desc */
}

MH_PLUGIN_DEFINE("org.mcphost.machine-bare6502", "machine-bare6502", "1.0.0",
                 "Plain NMOS 6502 machine with 64 KiB RAM and test-program I/O ports",
                 MH_PLUGIN_MACHINE, plugin_init, NULL);
