/* tv_util.c - per-call context and result helpers of tools-vic2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_vic2.h"

int tv_begin(tv_plugin *plugin, mh_call *call, tv_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->plugin = plugin;
    ctx->call = call;
    ctx->args = mh_toolkit_args(plugin->call, call, &ctx->doc, ctx->err, sizeof ctx->err);
    if (!ctx->args) return -1;
    /* io_range (ABI 1.3) is optional: checked where used. */
    const mh_chip *chip =
        mh_toolkit_chip_or_fail(plugin->call, call, offsetof(mh_chip_vic2_iface, io_range),
                                "VIC-II", MH_CHIP_VIC2_IFACE, "tools-vic2");
    if (!chip) return -1;
    ctx->vic = chip->vtable;
    ctx->chip = chip->context;
    if (MH_CHIP_IFACE_HAS(ctx->vic, mh_chip_vic2_iface, io_range))
        ctx->vic->io_range(ctx->chip, &ctx->io);
    ctx->view.struct_size = sizeof ctx->view;
    if (ctx->vic->view(ctx->chip, &ctx->view) != MH_OK) {
        tv_fail(ctx, "the machine could not decode its VIC-II registers");
        return -1;
    }
    return 0;
}

void tv_end(tv_ctx *ctx)
{
    mh_json_free(ctx->doc);
    ctx->doc = NULL;
}

void tv_send(tv_ctx *ctx, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(ctx->plugin->call, ctx->call, w, text) != MH_OK)
        tv_fail(ctx, "internal error: the result could not be written (%s)",
                mh_json_writer_error(w));
    mh_json_writer_free(w);
}

const void *tv_find(tv_ctx *ctx, const char *interface_id, void **context)
{
    mh_session *s = ctx->plugin->call->session(ctx->call);
    const mh_chip *chip = mh_toolkit_session_chip(ctx->plugin->sessions, s, interface_id, 0);
    if (!chip) return NULL;
    *context = chip->context;
    return chip->vtable;
}


void tv_write_color(mh_json_writer *w, const char *key, unsigned color)
{
    char name[64];
    snprintf(name, sizeof name, "%s_name", key);
    mh_json_write_key(w, key);
    mh_json_write_uint(w, color & 15u);
    mh_json_write_key(w, name);
    mh_json_write_string(w, tv_color_name(color));
}

static void write_bool(mh_json_writer *w, const char *key, int value)
{
    mh_json_write_key(w, key);
    mh_json_write_bool(w, value != 0);
}

void tv_write_sprite(mh_json_writer *w, unsigned n, const mh_chip_vic2_sprite *s)
{
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "sprite");
    mh_json_write_uint(w, n);
    write_bool(w, "enabled", s->enabled);
    mh_json_write_key(w, "x");
    mh_json_write_uint(w, s->x);
    mh_json_write_key(w, "y");
    mh_json_write_uint(w, s->y);
    tv_write_color(w, "color", s->color);
    write_bool(w, "multicolor", s->multicolor);
    write_bool(w, "expand_x", s->expand_x);
    write_bool(w, "expand_y", s->expand_y);
    write_bool(w, "behind_background", s->behind_background);
    mh_args_write_byte(w, "pointer", s->pointer);
    mh_args_write_address(w, "data_address", s->data_address);
    write_bool(w, "collided_sprite", s->collided_sprite);
    write_bool(w, "collided_background", s->collided_background);
    write_bool(w, "dma", s->dma);
    write_bool(w, "displayed", s->displayed);
    mh_json_write_object_end(w);
}

int tv_sprite_arg(tv_ctx *ctx, int required, unsigned *out)
{
    int64_t v = 0;
    mh_status st = mh_args_int(ctx->args, "sprite", 0, 7, &v, ctx->err, sizeof ctx->err);
    if (st == MH_ERR_NOT_FOUND && !required) return 1;
    if (st != MH_OK) {
        tv_fail(ctx, "%s (sprites are numbered 0-7)", ctx->err);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}
