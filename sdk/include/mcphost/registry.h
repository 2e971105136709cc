/* mcphost/registry.h - the host registry a plugin registers into,
 * "mh.registry/1".
 *
 * Offers: add functions for tools, resources, prompts, machine types,
 * transports and (since ABI 1.3) frontends. Every registration is recorded against the calling plugin (the
 * mh_host it was given), so the host can undo them all when init() fails or
 * the plugin unloads.
 *
 * Ownership: descriptors and their strings are copied; handlers and user data
 * must stay valid until the plugin's deinit().
 * Thread: [main-thread], during init().
 *
 * Errors: MH_ERR_INVALID_ARGUMENT for a malformed descriptor (bad name,
 * schema that does not parse, too small struct_size), MH_ERR_EXISTS for a
 * name already taken by any plugin. The host logs why.
 */
#ifndef MCPHOST_REGISTRY_H
#define MCPHOST_REGISTRY_H

#include "mcphost/plugin.h"
#include "mcphost/session.h"
#include "mcphost/tool.h"
#include "mcphost/frontend.h"
#include "mcphost/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_REGISTRY_SERVICE_ID "mh.registry/1"

typedef struct mh_registry_service {
    uint32_t struct_size;
    mh_status (*add_tool)(const mh_host *host, const mh_tool_desc *tool);
    mh_status (*add_resource)(const mh_host *host, const mh_resource_desc *resource);
    mh_status (*add_prompt)(const mh_host *host, const mh_prompt_desc *prompt);
    mh_status (*add_machine)(const mh_host *host, const mh_machine_desc *machine);
    mh_status (*add_transport)(const mh_host *host, const mh_transport_desc *transport);
    /* ---- since ABI 1.3 ---- */
    mh_status (*add_frontend)(const mh_host *host, const mh_frontend_desc *frontend);
} mh_registry_service;

#ifdef __cplusplus
}
#endif
#endif
