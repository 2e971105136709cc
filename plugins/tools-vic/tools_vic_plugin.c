/* tools_vic_plugin.c - the tools-vic plugin (docs/tools-vic.md): the
 * per-call context, vic_registers_get and vic_registers_set; the raster
 * breakpoint is in tools_vic_raster.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_vic.h"

int tvic_begin(mh_toolkit_services *services, mh_call *call, tvic_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->services = services;
    ctx->call = call;
    ctx->args = mh_toolkit_args(services->call, call, &ctx->doc, ctx->err, sizeof ctx->err);
    if (!ctx->args) return -1;
    const mh_chip *chip = mh_toolkit_chip_or_fail(services->call, call, sizeof(mh_chip_vic_iface),
                                                  "VIC", MH_CHIP_VIC_IFACE, "tools-vic");
    if (!chip) return -1;
    ctx->vic = chip->vtable;
    ctx->chip = chip->context;
    ctx->instance = chip->instance;
    ctx->vic->io_range(ctx->chip, &ctx->io);
    ctx->view.struct_size = sizeof ctx->view;
    if (ctx->vic->view(ctx->chip, &ctx->view) != MH_OK) {
        tvic_fail(ctx, "the machine could not decode the %s registers", ctx->instance);
        return -1;
    }
    return 0;
}

void tvic_end(tvic_ctx *ctx)
{
    mh_json_free(ctx->doc);
    ctx->doc = NULL;
}

void tvic_send(tvic_ctx *ctx, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(ctx->services->call, ctx->call, w, text) != MH_OK)
        tvic_fail(ctx, "internal error: the result could not be written (%s)",
                  mh_json_writer_error(w));
    mh_json_writer_free(w);
}

static void registers_get(void *user, mh_call *call)
{
    tvic_ctx c;
    if (tvic_begin(user, call, &c) == 0) {
        mh_json_writer *w = mh_json_writer_new();
        tvic_write_view(w, c.instance, &c.io, &c.view);
        char text[1024];
        tvic_view_text(text, sizeof text, &c.view);
        tvic_send(&c, w, text);
    }
    tvic_end(&c);
}

static int read_register(tvic_ctx *c)
{
    const mh_json *r = mh_json_object_get(c->args, "register");
    const char *name = mh_json_as_string(r, NULL);
    if (name && (name[0] == '$' || (name[0] >= '0' && name[0] <= '9'))) name = NULL;
    uint32_t value = 0;
    if (!name && mh_args_address_value(r, "register", 0xFFFF, &value, c->err, sizeof c->err) !=
                     MH_OK) {
        tvic_fail(c, "%s; give 0-15, CR0-CRF or an address", r ? c->err : "register is missing");
        return -1;
    }
    int reg = tvic_register(name, value, &c->io);
    if (reg < 0)
        tvic_fail(c, "%s is not a VIC register: give 0-15, CR0-CRF or an address in $%04X-$%04X",
                  name ? name : "that", (unsigned)c->io.base,
                  (unsigned)(c->io.base + (c->io.size ? c->io.size : 16) - 1));
    return reg;
}

static void registers_set(void *user, mh_call *call)
{
    tvic_ctx c;
    if (tvic_begin(user, call, &c) != 0) {
        tvic_end(&c);
        return;
    }
    const int reg = read_register(&c);
    int64_t value = 0;
    mh_status st = reg < 0 ? MH_ERR_INVALID_ARGUMENT
                           : mh_args_int(c.args, "value", 0, 255, &value, c.err, sizeof c.err);
    if (reg >= 0 && st != MH_OK)
        tvic_fail(&c, "%s (a byte 0-255, e.g. 8 or \"$08\")",
                  st == MH_ERR_NOT_FOUND ? "value is missing" : c.err);
    if (st == MH_OK) {
        c.vic->write(c.chip, (uint16_t)reg, (uint8_t)value);
        const uint8_t now = c.vic->peek(c.chip, (uint16_t)reg);
        mh_json_writer *w = mh_json_writer_new();
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "register");
        mh_json_write_uint(w, (unsigned)reg);
        mh_args_write_address(w, "address", c.io.base + (unsigned)reg);
        mh_args_write_byte(w, "value", (uint8_t)value);
        mh_args_write_byte(w, "read_back", now);
        mh_json_write_object_end(w);
        char text[96];
        snprintf(text, sizeof text, "$%04X (%s) <- $%02X (reads $%02X)",
                 (unsigned)(c.io.base + (unsigned)reg), tvic_register_name((unsigned)reg),
                 (unsigned)value, now);
        tvic_send(&c, w, text);
    }
    tvic_end(&c);
}

static const mh_tool_desc tools[] = {
    {0, "vic_registers_get", "VIC registers",
     "The VIC 6560/6561 decoded: screen, colour and charset addresses, size, origin, colours, "
     "raster, light pen, voices in Hz, volume.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"screen\",\"raster\",\"sound\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL, "vice.vic.registers.get", registers_get,
     NULL},
    {0, "vic_registers_set", "Write a VIC register", "Writes a VIC register as a CPU store would.",
     "{\"type\":\"object\",\"properties\":{\"register\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"0-15, CR0-CRF or an address\"},\"value\":{\"type\":[\"integer\","
     "\"string\"],\"description\":\"Byte 0-255\"}},\"required\":[\"register\",\"value\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"register\",\"read_back\"]}", 0, 0, NULL,
     "vice.vic.registers.set", registers_set, NULL},
};

static mh_status register_tools(mh_toolkit_services *services)
{
    return mh_toolkit_register_tools(services->host, services->registry, tools,
                                     sizeof tools / sizeof tools[0], MH_CHIP_VIC_IFACE, services);
}

static const mh_toolkit_group_fn groups[] = {register_tools, tvic_register_raster};

static mh_status tools_vic_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, sizeof groups / sizeof groups[0], 0, data);
}

static void tools_vic_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-vic", "tools-vic", "0.1.0",
                 "VIC 6560/6561 tools: registers decoded and written, raster breakpoint",
                 MH_PLUGIN_TOOLSET, tools_vic_init, tools_vic_deinit);
