/* tools_cia_plugin.c - the tools-cia plugin entry, the per-call context
 * and the result helpers (docs/tools-cia.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_cia.h"

int tc_begin(tc_plugin *plugin, mh_call *call, tc_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->plugin = plugin;
    ctx->call = call;
    ctx->args = mh_toolkit_args(plugin->call, call, &ctx->doc, ctx->err, sizeof ctx->err);
    if (!ctx->args) return -1;
    /* io_range (ABI 1.3) is optional: checked where used. */
    const mh_chip *chip =
        mh_toolkit_chip_or_fail(plugin->call, call, offsetof(mh_chip_cia_iface, io_range), "CIA",
                                MH_CHIP_CIA_IFACE, "tools-cia");
    if (!chip) return -1;
    ctx->cia = chip->vtable;
    ctx->chip = chip->context;
    ctx->instance = chip->instance;
    if (MH_CHIP_IFACE_HAS(ctx->cia, mh_chip_cia_iface, io_range))
        ctx->cia->io_range(ctx->chip, &ctx->io);
    ctx->view.struct_size = sizeof ctx->view;
    if (ctx->cia->view(ctx->chip, &ctx->view) != MH_OK) {
        tc_fail(ctx, "the machine could not decode the %s registers", ctx->instance);
        return -1;
    }
    return 0;
}

const char *tc_other_cia_at(tc_ctx *ctx, uint32_t address)
{
    const mh_session_service *sessions = ctx->plugin->sessions;
    mh_session *session = ctx->plugin->call->session(ctx->call);
    if (!sessions || !session) return NULL;
    for (size_t i = 0; i < sessions->chip_count(session); i++) {
        const mh_chip *chip = sessions->chip_at(session, i);
        if (!chip || strcmp(chip->interface_id, MH_CHIP_CIA_IFACE) != 0 ||
            chip->context == ctx->chip)
            continue;
        const mh_chip_cia_iface *cia = chip->vtable;
        mh_chip_io_range io = {0, 0};
        if (MH_CHIP_IFACE_HAS(cia, mh_chip_cia_iface, io_range)) cia->io_range(chip->context, &io);
        if (tc_cia_register(address, &io) >= 0 && address >= 16) return chip->instance;
    }
    return NULL;
}

void tc_end(tc_ctx *ctx)
{
    mh_json_free(ctx->doc);
    ctx->doc = NULL;
}

void tc_send(tc_ctx *ctx, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(ctx->plugin->call, ctx->call, w, text) != MH_OK)
        tc_fail(ctx, "internal error: the result could not be written (%s)",
                mh_json_writer_error(w));
    mh_json_writer_free(w);
}


void tc_write_timer(mh_json_writer *w, const char *key, const mh_chip_cia_timer *t)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "counter", t->counter);
    mh_args_write_address(w, "latch", t->latch);
    mh_args_write_byte(w, "control", t->control);
    mh_args_write_bool(w, "running", t->running);
    mh_args_write_bool(w, "oneshot", t->oneshot);
    mh_json_write_key(w, "input");
    mh_json_write_string(w, tc_input_name(t->input));
    mh_args_write_bool(w, "pb_output", t->pb_on);
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
    mh_args_write_bool(w, "pm", t->pm);
    mh_json_write_object_end(w);
}

void tc_write_tod(mh_json_writer *w, const mh_chip_cia_view *v)
{
    mh_json_write_key(w, "tod");
    mh_json_write_object_begin(w);
    write_time(w, "time", &v->tod);
    write_time(w, "alarm", &v->alarm);
    mh_args_write_bool(w, "running", v->tod_running);
    mh_args_write_bool(w, "latched", v->tod_latched);
    mh_json_write_key(w, "pin_hz");
    mh_json_write_uint(w, v->tod_50hz ? 50 : 60);
    mh_args_write_bool(w, "writes_set_alarm", v->tod_writes_alarm);
    mh_json_write_object_end(w);
}

static const mh_toolkit_group_fn groups[] = {tc_register_registers, tc_register_keyboard};

static mh_status tools_cia_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, sizeof groups / sizeof groups[0], 0, data);
}

static void tools_cia_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-cia", "tools-cia", "0.1.0",
                 "CIA 6526 tools: registers, timers, TOD, interrupts, keyboard matrix",
                 MH_PLUGIN_TOOLSET, tools_cia_init, tools_cia_deinit);
