/* toolkit.c - the helpers toolset plugins share (mcphost/toolkit.h). */
#include "mcphost/toolkit.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcphost/args.h"

mh_status mh_toolkit_services_get(const mh_host *host, mh_toolkit_services *out)
{
    out->host = host;
    out->registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    out->call = host->get_service(host, MH_CALL_SERVICE_ID);
    out->sessions = host->get_service(host, MH_SESSION_SERVICE_ID);
    out->debug = host->get_service(host, MH_DEBUG_SERVICE_ID);
    out->files = host->get_service(host, MH_FILES_SERVICE_ID);
    return out->registry && out->call ? MH_OK : MH_ERR_UNSUPPORTED;
}

mh_status mh_toolkit_init(const mh_host *host, const mh_toolkit_group_fn *groups, size_t count,
                          int need_sessions, void **data)
{
    mh_toolkit_services *services = calloc(1, sizeof *services);
    if (!services) return MH_ERR_NO_MEMORY;
    mh_status status = mh_toolkit_services_get(host, services);
    if (status == MH_OK && need_sessions && !services->sessions) status = MH_ERR_UNSUPPORTED;
    for (size_t i = 0; status == MH_OK && i < count; i++) status = groups[i](services);
    if (status != MH_OK) {
        free(services);
        return status;
    }
    *data = services;
    return MH_OK;
}

int mh_toolkit_vfail(const mh_call_service *service, mh_call *call, const char *format,
                     va_list ap)
{
    char message[MH_TOOLKIT_MESSAGE_SIZE];
    vsnprintf(message, sizeof message, format, ap);
    service->error(call, message);
    return -1;
}

int mh_toolkit_fail(const mh_call_service *service, mh_call *call, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    mh_toolkit_vfail(service, call, format, ap);
    va_end(ap);
    return -1;
}

mh_status mh_toolkit_send_json(const mh_call_service *service, mh_call *call, mh_json_writer *w,
                               const char *text)
{
    char *json = mh_json_writer_finish(w, NULL);
    if (!json) {
        mh_status status = mh_json_writer_status(w);
        return status != MH_OK ? status : MH_ERR_STATE;
    }
    if (text) service->text(call, text);
    service->structured(call, json);
    free(json);
    return MH_OK;
}

const mh_json *mh_toolkit_args(const mh_call_service *service, mh_call *call, mh_json_doc **doc,
                               char *err, size_t err_size)
{
    const mh_json *args = mh_args_parse(service->args(call), doc, err, err_size);
    if (!args) service->error(call, err);
    return args;
}

const mh_json *mh_toolkit_session_args(const mh_call_service *service, mh_call *call,
                                       const char *tool, mh_json_doc **doc, char *err,
                                       size_t err_size)
{
    const mh_json *args = mh_toolkit_args(service, call, doc, err, err_size);
    if (args && !service->session(call)) {
        mh_toolkit_fail(service, call, "%s needs a machine session; create one with session_create",
                        tool);
        mh_json_free(*doc);
        *doc = NULL;
        return NULL;
    }
    return args;
}

static int big_enough(const mh_chip *chip, size_t min_size)
{
    return chip && chip->vtable && *(const uint32_t *)chip->vtable >= min_size;
}

const mh_chip *mh_toolkit_chip(const mh_call_service *service, mh_call *call, size_t min_size)
{
    const mh_chip *chip = service->chip(call);
    return big_enough(chip, min_size) ? chip : NULL;
}

const mh_chip *mh_toolkit_chip_or_fail(const mh_call_service *service, mh_call *call,
                                       size_t min_size, const char *chip_name,
                                       const char *iface_id, const char *toolset)
{
    const mh_chip *chip = mh_toolkit_chip(service, call, min_size);
    if (!chip)
        mh_toolkit_fail(service, call,
                        "this machine's %s interface (%s) is older than %s needs: update the "
                        "machine plugin", chip_name, iface_id, toolset);
    return chip;
}

const mh_chip *mh_toolkit_session_chip(const mh_session_service *sessions, mh_session *session,
                                       const char *iface_id, size_t min_size)
{
    const mh_chip *chip = session ? sessions->find_chip(session, iface_id, NULL) : NULL;
    return big_enough(chip, min_size) ? chip : NULL;
}

mh_status mh_toolkit_breakpoint_options(const mh_json *args, mh_breakpoint_spec *spec, char *err,
                                        size_t err_size)
{
    static const struct {
        const char *name;
        uint32_t flag;
        int inverted;
    } flags[] = {{"temporary", MH_BP_TEMPORARY, 0},
                 {"log_only", MH_BP_LOG_ONLY, 0},
                 {"enabled", MH_BP_DISABLED, 1}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        bool value = false;
        mh_status status = mh_args_bool(args, flags[i].name, &value, err, err_size);
        if (status == MH_ERR_NOT_FOUND) continue;
        if (status != MH_OK) return status;
        if (value != (bool)flags[i].inverted) spec->flags |= flags[i].flag;
    }
    int64_t ignore = 0;
    mh_status status = mh_args_int(args, "ignore_count", 0, 0xFFFFFFFFLL, &ignore, err, err_size);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) return status;
    spec->ignore_count = (uint32_t)ignore;
    const char **strings[] = {&spec->condition, &spec->group, &spec->label};
    static const char *const names[] = {"condition", "group", "label"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        status = mh_args_string(args, names[i], strings[i], NULL, err, err_size);
        if (status != MH_OK && status != MH_ERR_NOT_FOUND) return status;
    }
    return MH_OK;
}

mh_status mh_toolkit_register_tools(const mh_host *host, const mh_registry_service *registry,
                                    const mh_tool_desc *tools, size_t count,
                                    const char *requires_iface, void *user_data)
{
    for (size_t i = 0; i < count; i++) {
        mh_tool_desc tool = tools[i];
        tool.struct_size = sizeof tool;
        if (requires_iface) tool.requires = requires_iface;
        tool.user_data = user_data;
        mh_status status = registry->add_tool(host, &tool);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}

void mh_toolkit_raster_init(mh_toolkit_raster *st, unsigned first, unsigned last, int every,
                            unsigned line)
{
    st->first = (uint16_t)first;
    st->last = (uint16_t)last;
    st->every = every != 0;
    st->was_in = line >= first && line <= last;
    st->last_line = (uint16_t)line;
}

int mh_toolkit_raster_step(mh_toolkit_raster *st, unsigned line)
{
    const int in = line >= st->first && line <= st->last;
    const int fire = st->every ? in && line != st->last_line : in && !st->was_in;
    st->was_in = (uint8_t)in;
    st->last_line = (uint16_t)line;
    return fire;
}
