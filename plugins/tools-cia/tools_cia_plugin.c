/* tools_cia_plugin.c - the tools-cia plugin entry, the per-call context
 * and the result helpers (docs/tools-cia.md). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_cia.h"

int tc_begin(tc_plugin *plugin, mh_call *call, tc_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->plugin = plugin;
    ctx->call = call;
    ctx->args = mh_args_parse(plugin->call->args(call), &ctx->doc, ctx->err, sizeof ctx->err);
    if (!ctx->args) {
        plugin->call->error(call, ctx->err);
        return -1;
    }
    const mh_chip *chip = plugin->call->chip(call);
    const mh_chip_cia_iface *cia = chip ? chip->vtable : NULL;
    if (!cia || cia->struct_size < sizeof(mh_chip_cia_iface)) {
        tc_fail(ctx, "this machine's CIA interface (%s) is older than tools-cia needs: update "
                     "the machine plugin", MH_CHIP_CIA_IFACE);
        return -1;
    }
    ctx->cia = cia;
    ctx->chip = chip->context;
    ctx->instance = chip->instance;
    ctx->view.struct_size = sizeof ctx->view;
    if (cia->view(ctx->chip, &ctx->view) != MH_OK) {
        tc_fail(ctx, "the machine could not decode the %s registers", ctx->instance);
        return -1;
    }
    return 0;
}

void tc_end(tc_ctx *ctx)
{
    mh_json_free(ctx->doc);
    ctx->doc = NULL;
}

void tc_fail(tc_ctx *ctx, const char *format, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof message, format, ap);
    va_end(ap);
    ctx->plugin->call->error(ctx->call, message);
}

void tc_send(tc_ctx *ctx, mh_json_writer *w, const char *text)
{
    char *json = mh_json_writer_finish(w, NULL);
    if (!json) {
        tc_fail(ctx, "internal error: the result could not be written (%s)",
                mh_json_writer_error(w));
        mh_json_writer_free(w);
        return;
    }
    if (text) ctx->plugin->call->text(ctx->call, text);
    ctx->plugin->call->structured(ctx->call, json);
    free(json);
    mh_json_writer_free(w);
}

void tc_write_byte(mh_json_writer *w, const char *key, unsigned value)
{
    char hex[8], name[64];
    snprintf(hex, sizeof hex, "$%02X", value & 0xFFu);
    snprintf(name, sizeof name, "%s_hex", key);
    mh_json_write_key(w, key);
    mh_json_write_uint(w, value);
    mh_json_write_key(w, name);
    mh_json_write_string(w, hex);
}

static void write_bool(mh_json_writer *w, const char *key, int value)
{
    mh_json_write_key(w, key);
    mh_json_write_bool(w, value != 0);
}

static void write_word(mh_json_writer *w, const char *key, unsigned value)
{
    char hex[8], name[64];
    snprintf(hex, sizeof hex, "$%04X", value & 0xFFFFu);
    snprintf(name, sizeof name, "%s_hex", key);
    mh_json_write_key(w, key);
    mh_json_write_uint(w, value);
    mh_json_write_key(w, name);
    mh_json_write_string(w, hex);
}

void tc_write_timer(mh_json_writer *w, const char *key, const mh_chip_cia_timer *t)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    write_word(w, "counter", t->counter);
    write_word(w, "latch", t->latch);
    tc_write_byte(w, "control", t->control);
    write_bool(w, "running", t->running);
    write_bool(w, "oneshot", t->oneshot);
    mh_json_write_key(w, "input");
    mh_json_write_string(w, tc_input_name(t->input));
    write_bool(w, "pb_output", t->pb_on);
    mh_json_write_key(w, "pb_mode");
    mh_json_write_string(w, t->pb_toggle ? "toggle" : "pulse");
    mh_json_write_key(w, "pb_level");
    mh_json_write_uint(w, t->pb_level);
    mh_json_write_key(w, "underflows");
    mh_json_write_uint(w, t->underflows);
    mh_json_write_object_end(w);
}

static void write_time(mh_json_writer *w, const char *key, const mh_chip_cia_time *t)
{
    char text[16];
    tc_time_text(t, text);
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "text");
    mh_json_write_string(w, text);
    mh_json_write_key(w, "hours");
    mh_json_write_uint(w, t->hours);
    mh_json_write_key(w, "minutes");
    mh_json_write_uint(w, t->minutes);
    mh_json_write_key(w, "seconds");
    mh_json_write_uint(w, t->seconds);
    mh_json_write_key(w, "tenths");
    mh_json_write_uint(w, t->tenths);
    write_bool(w, "pm", t->pm);
    mh_json_write_object_end(w);
}

void tc_write_tod(mh_json_writer *w, const mh_chip_cia_view *v)
{
    mh_json_write_key(w, "tod");
    mh_json_write_object_begin(w);
    write_time(w, "time", &v->tod);
    write_time(w, "alarm", &v->alarm);
    write_bool(w, "running", v->tod_running);
    write_bool(w, "latched", v->tod_latched);
    mh_json_write_key(w, "pin_hz");
    mh_json_write_uint(w, v->tod_50hz ? 50 : 60);
    write_bool(w, "writes_set_alarm", v->tod_writes_alarm);
    mh_json_write_object_end(w);
}

mh_status tc_register_table(tc_plugin *plugin, const mh_tool_desc *tools, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        mh_tool_desc tool = tools[i];
        tool.struct_size = sizeof tool;
        tool.requires = MH_CHIP_CIA_IFACE;
        tool.user_data = plugin;
        mh_status status = plugin->registry->add_tool(plugin->host, &tool);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}

static mh_status tools_cia_init(const mh_host *host, void **data)
{
    tc_plugin *plugin = calloc(1, sizeof *plugin);
    if (!plugin) return MH_ERR_NO_MEMORY;
    plugin->host = host;
    plugin->registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    plugin->call = host->get_service(host, MH_CALL_SERVICE_ID);
    if (!plugin->registry || !plugin->call) {
        free(plugin);
        return MH_ERR_UNSUPPORTED;
    }
    mh_status status = tc_register_registers(plugin);
    if (status == MH_OK) status = tc_register_keyboard(plugin);
    if (status != MH_OK) {
        free(plugin); /* the host removes what was registered */
        return status;
    }
    *data = plugin;
    return MH_OK;
}

static void tools_cia_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-cia", "tools-cia", "0.1.0",
                 "CIA 6526 tools: registers, timers, TOD, interrupts, keyboard matrix",
                 MH_PLUGIN_TOOLSET, tools_cia_init, tools_cia_deinit);
