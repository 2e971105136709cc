/* The host services plugins look up by versioned id. Each service function
 * receives the plugin's mh_host and finds the host state through it. */
#include <string.h>

#include "call.h"
#include "debug_engine.h"
#include "files.h"
#include "hostctx.h"
#include "loader.h"
#include "log.h"
#include "observe.h"
#include "mcphost/registry.h"
#include "server.h"
#include "sessions.h"

static const char *plugin_name(const mh_host *host)
{
    const mh_plugin_record *rec = mh_plugin_from_host(host);
    return rec && rec->entry ? rec->entry->name : "plugin";
}

static void log_write(const mh_host *host, mh_log_level level, const char *message)
{
    mh_log(level, plugin_name(host), "%s", message ? message : "");
}

static void log_vwritef(const mh_host *host, mh_log_level level, const char *format, va_list args)
{
    mh_logv(level, plugin_name(host), format, args);
}

static const mh_log_service log_service = {sizeof(mh_log_service), log_write, log_vwritef};

static mh_registry *registry_of(const mh_host *host)
{
    mh_plugin_record *rec = mh_plugin_from_host(host);
    return rec ? &rec->hostctx->registry : NULL;
}

#define REGISTRY_ADD(fn, type)                                                            \
    static mh_status reg_##fn(const mh_host *host, const type *desc)                      \
    {                                                                                     \
        mh_registry *reg = registry_of(host);                                             \
        return reg ? mh_registry_##fn(reg, mh_plugin_from_host(host), desc)               \
                   : MH_ERR_INVALID_ARGUMENT;                                             \
    }

REGISTRY_ADD(add_tool, mh_tool_desc)
REGISTRY_ADD(add_resource, mh_resource_desc)
REGISTRY_ADD(add_prompt, mh_prompt_desc)
REGISTRY_ADD(add_machine, mh_machine_desc)
REGISTRY_ADD(add_transport, mh_transport_desc)
REGISTRY_ADD(add_frontend, mh_frontend_desc)

static const mh_registry_service registry_service = {
    sizeof(mh_registry_service), reg_add_tool,    reg_add_resource,
    reg_add_prompt,              reg_add_machine, reg_add_transport, reg_add_frontend,
};

static const struct {
    const char *id;
    const void *service;
} services[] = {
    {MH_LOG_SERVICE_ID, &log_service},
    {MH_REGISTRY_SERVICE_ID, &registry_service},
    {MH_CALL_SERVICE_ID, &mh_call_service_impl},
    {MH_SESSION_SERVICE_ID, &mh_session_service_impl},
    {MH_SERVER_SERVICE_ID, &mh_server_service_impl},
    {MH_EVENTS_SERVICE_ID, &mh_events_service_impl},
    {MH_FILES_SERVICE_ID, &mh_files_service_impl},
    {MH_DEBUG_SERVICE_ID, &mh_debug_service_impl},
    {MH_OBSERVE_SERVICE_ID, &mh_observe_service_impl},
};

const void *mh_host_get_service(const mh_host *host, const char *service_id)
{
    (void)host;
    if (!service_id) return NULL;
    for (size_t i = 0; i < sizeof services / sizeof services[0]; i++)
        if (strcmp(services[i].id, service_id) == 0) return services[i].service;
    return NULL;
}
