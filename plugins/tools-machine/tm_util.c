/* tm_util.c - the shared helpers of the tools-machine plugin (tm.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"

int tm_begin(tm_call *c, tm_plugin *plugin, mh_call *call, const char *tool,
             const char *iface_id, size_t min_size)
{
    memset(c, 0, sizeof *c);
    c->plugin = plugin;
    c->call = call;
    c->tool = tool;
    c->session = plugin->call->session(call);
    c->args = mh_toolkit_session_args(plugin->call, call, tool, &c->doc, c->err, sizeof c->err);
    if (!c->args) return -1;
    if (!iface_id) return 0;
    c->iface = tm_find(c, iface_id, min_size, &c->ctx);
    if (!c->iface)
        return tm_fail(c,
                       "%s is not available on session \"%s\": its %s machine has no %s "
                       "interface (machine_capabilities lists what it has)",
                       tool, tm_session_name(c), plugin->sessions->machine(c->session), iface_id);
    return 0;
}

void tm_end(tm_call *c)
{
    mh_json_free(c->doc);
    c->doc = NULL;
}

const void *tm_find(tm_call *c, const char *iface_id, size_t min_size, void **ctx)
{
    const mh_chip *chip =
        mh_toolkit_session_chip(c->plugin->sessions, c->session, iface_id, min_size);
    if (!chip) return NULL;
    if (ctx) *ctx = chip->context;
    c->instance = chip->instance;
    return chip->vtable;
}

int tm_fail_arg(tm_call *c) { return tm_fail(c, "%s", c->err); }

const char *tm_session_name(tm_call *c)
{
    const char *name = c->session ? c->plugin->sessions->name(c->session) : NULL;
    return name ? name : "";
}

int tm_string(tm_call *c, const char *key, int required, const char **out)
{
    size_t length = 0;
    *out = NULL;
    mh_status status = mh_args_string(c->args, key, out, &length, c->err, sizeof c->err);
    if (status == MH_ERR_NOT_FOUND) {
        if (!required) return 0;
        return tm_fail(c, "%s: missing; %s needs it", key, c->tool);
    }
    if (status != MH_OK) return tm_fail_arg(c);
    if (length == 0) return tm_fail(c, "%s: empty; give a value", key);
    if (strlen(*out) != length)
        return tm_fail(c, "%s: holds a NUL byte (\\u0000) at character %zu; remove it", key,
                       strlen(*out) + 1);
    return 0;
}

int tm_path(tm_call *c, const char *key, int required, uint32_t mode, char *out,
            size_t out_size)
{
    const char *path = NULL;
    if (tm_string(c, key, required, &path) != 0) return -1;
    if (!path) return 1;
    if (!c->plugin->files)
        return tm_fail(c, "%s: this host has no %s service, so no file can be opened", key,
                       MH_FILES_SERVICE_ID);
    char why[1536];
    mh_status status =
        c->plugin->files->resolve(c->plugin->host, path, mode, out, out_size, why, sizeof why);
    if (status != MH_OK) return tm_fail(c, "%s: %s", key, why);
    return 0;
}

int tm_int(tm_call *c, const char *key, int64_t min, int64_t max, int64_t def, int64_t *out)
{
    mh_status status = mh_args_int(c->args, key, min, max, out, c->err, sizeof c->err);
    if (status == MH_ERR_NOT_FOUND) {
        *out = def;
        return 0;
    }
    return status == MH_OK ? 0 : tm_fail_arg(c);
}

const char *tm_state(tm_call *c)
{
    const mh_debug_service *debug = c->plugin->debug;
    if (!debug || debug->struct_size < offsetof(mh_debug_service, state) + sizeof debug->state ||
        !debug->state)
        return NULL;
    return mh_exec_state_name(debug->state(c->session));
}

void tm_write_state(tm_call *c, mh_json_writer *w)
{
    const char *state = tm_state(c);
    if (!state) return;
    mh_json_write_key(w, "state");
    mh_json_write_string(w, state);
}

void tm_result(tm_call *c, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(c->plugin->call, c->call, w, text) != MH_OK)
        tm_fail(c, "%s could not build its result: %s", c->tool, mh_json_writer_error(w));
}

void tm_machine_changed(tm_call *c, const char *detail_json)
{
    const mh_debug_service *debug = c->plugin->debug;
    if (!debug ||
        debug->struct_size < offsetof(mh_debug_service, machine_changed) + sizeof(void *) ||
        !debug->machine_changed)
        return;
    debug->machine_changed(c->session, MH_EVENT_RESET, detail_json);
}

mh_status tm_register_table(tm_plugin *plugin, const mh_tool_desc *tools, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        mh_tool_desc tool = tools[i];
        tool.flags |= MH_TOOL_NEEDS_SESSION;
        /* Unknown arguments are refused (a misspelt "overwrite" must not
         * pass silently): the object schemas get additionalProperties
         * false here, once, instead of in every literal. */
        char schema[2048];
        const char *in = tool.input_schema ? tool.input_schema : "{\"type\":\"object\",\"properties\":{}}";
        size_t length = strlen(in);
        if (!strstr(in, "additionalProperties") && length > 1 && in[length - 1] == '}' &&
            length + 32 < sizeof schema) {
            snprintf(schema, sizeof schema, "%.*s,\"additionalProperties\":false}", (int)(length - 1), in);
            tool.input_schema = schema;
        }
        mh_status status =
            mh_toolkit_register_tools(plugin->host, plugin->registry, &tool, 1, NULL, plugin);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}

void tm_buf_printf(tm_buf *b, const char *format, ...)
{
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, format);
        size_t room = b->capacity - b->length;
        int n = vsnprintf(b->text ? b->text + b->length : NULL, b->text ? room : 0, format, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->text && (size_t)n < room) {
            b->length += (size_t)n;
            return;
        }
        size_t capacity = b->capacity ? b->capacity * 2 : 256;
        while (capacity < b->length + (size_t)n + 1) capacity *= 2;
        char *text = realloc(b->text, capacity);
        if (!text) {
            b->failed = 1;
            return;
        }
        b->text = text;
        b->capacity = capacity;
    }
}

void tm_buf_free(tm_buf *b)
{
    free(b->text);
    memset(b, 0, sizeof *b);
}
