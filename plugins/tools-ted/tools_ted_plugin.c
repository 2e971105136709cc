/* tools_ted_plugin.c - the tools-ted plugin (docs/tools-ted.md):
 * ted_registers_get, ted_timers_get and ted_registers_set against
 * "mh.chip.ted/1" only; register addresses come from the chip's io_range.
 * Handlers run [emu-thread] (the tools `require` the chip), so each read
 * is a consistent snapshot of a running machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/args.h>
#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

#include "ted_decode.h"

typedef struct ted_call {
    mh_toolkit_services *services;
    mh_call *call;
    mh_json_doc *doc;
    const mh_json *args;
    const mh_chip_ted_iface *ted;
    void *chip;
    const char *instance;
    mh_chip_io_range io;
    mh_chip_ted_view view;
    char err[MH_ARGS_ERROR_SIZE];
} ted_call;

#define fail(c, ...) mh_toolkit_fail((c)->services->call, (c)->call, __VA_ARGS__)

/* Returns 0, or -1 after answering with an error; end() either way. */
static int begin(mh_toolkit_services *services, mh_call *call, ted_call *c)
{
    memset(c, 0, sizeof *c);
    c->services = services;
    c->call = call;
    c->args = mh_toolkit_args(services->call, call, &c->doc, c->err, sizeof c->err);
    if (!c->args) return -1;
    const mh_chip *chip = mh_toolkit_chip_or_fail(services->call, call, sizeof(mh_chip_ted_iface),
                                                  "TED", MH_CHIP_TED_IFACE, "tools-ted");
    if (!chip) return -1;
    c->ted = chip->vtable;
    c->chip = chip->context;
    c->instance = chip->instance;
    c->ted->io_range(c->chip, &c->io);
    c->view.struct_size = sizeof c->view;
    if (c->ted->view(c->chip, &c->view) != MH_OK) {
        fail(c, "the machine could not decode the %s registers", c->instance);
        return -1;
    }
    return 0;
}

static void end(ted_call *c) { mh_json_free(c->doc); }

static void send(ted_call *c, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(c->services->call, c->call, w, text) != MH_OK)
        fail(c, "internal error: the result could not be written (%s)", mh_json_writer_error(w));
    mh_json_writer_free(w);
}

static void registers_get(void *user, mh_call *call)
{
    ted_call c;
    if (begin(user, call, &c) == 0) {
        mh_json_writer *w = mh_json_writer_new();
        tted_write_view(w, c.instance, &c.io, &c.view);
        char text[1536];
        tted_view_text(text, sizeof text, &c.view);
        send(&c, w, text);
    }
    end(&c);
}

static void timers_get(void *user, mh_call *call)
{
    ted_call c;
    if (begin(user, call, &c) == 0) {
        mh_json_writer *w = mh_json_writer_new();
        tted_write_timers(w, c.instance, &c.view);
        char text[256];
        tted_timers_text(text, sizeof text, &c.view);
        send(&c, w, text);
    }
    end(&c);
}

static void registers_set(void *user, mh_call *call)
{
    ted_call c;
    if (begin(user, call, &c) != 0) {
        end(&c);
        return;
    }
    uint32_t address = 0;
    int64_t value = 0;
    mh_status st = mh_args_address(c.args, "register", 0xFFFF, &address, c.err, sizeof c.err);
    const int reg = st == MH_OK ? tted_register(address, &c.io) : -1;
    if (reg < 0) {
        fail(&c, "%s; give a TED register 0-63 or its address $%04X-$%04X",
             st == MH_OK ? "register: not a TED register" : c.err, (unsigned)c.io.base,
             (unsigned)(c.io.base + (c.io.size ? c.io.size : 64) - 1));
        end(&c);
        return;
    }
    st = mh_args_int(c.args, "value", 0, 255, &value, c.err, sizeof c.err);
    if (st != MH_OK) {
        fail(&c, "%s (a byte 0-255, e.g. 8 or \"$08\")",
             st == MH_ERR_NOT_FOUND ? "value is missing" : c.err);
        end(&c);
        return;
    }
    c.ted->write(c.chip, (uint16_t)reg, (uint8_t)value);
    const uint8_t now = c.ted->peek(c.chip, (uint16_t)reg);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "register");
    mh_json_write_uint(w, (unsigned)reg);
    mh_args_write_address(w, "address", c.io.base + (unsigned)reg);
    mh_args_write_byte(w, "value", (uint8_t)value);
    mh_args_write_byte(w, "read_back", now);
    mh_json_write_object_end(w);
    char text[96];
    snprintf(text, sizeof text, "$%04X <- $%02X (reads $%02X)",
             (unsigned)(c.io.base + (unsigned)reg), (unsigned)value, now);
    send(&c, w, text);
    end(&c);
}

static const char no_args[] = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";

static const mh_tool_desc tools[] = {
    {0, "ted_registers_get", "TED registers",
     "The TED decoded: mode, addresses, colours (hue, luminance, RGB), cursor, timers, sound, "
     "raster and IRQ, clock, ROM/RAM.",
     no_args, "{\"type\":\"object\",\"required\":[\"mode\",\"memory\",\"timers\",\"irq\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL, "vice.ted.registers.get", registers_get,
     NULL},
    {0, "ted_timers_get", "TED timers", "The three TED timers: counter, reload, running.", no_args,
     "{\"type\":\"object\",\"required\":[\"timers\"]}", MH_TOOL_READ_ONLY, 0, NULL,
     "vice.ted.timers.get", timers_get, NULL},
    {0, "ted_registers_set", "Write a TED register",
     "Writes a TED register as a CPU store would ($FF3E/$FF3F switch ROM/RAM).",
     "{\"type\":\"object\",\"properties\":{\"register\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"0-63 or an address\"},\"value\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Byte 0-255\"}},\"required\":[\"register\",\"value\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"register\",\"read_back\"]}", 0, 0, NULL,
     "vice.ted.registers.set", registers_set, NULL},
};

static mh_status register_tools(mh_toolkit_services *services)
{
    return mh_toolkit_register_tools(services->host, services->registry, tools,
                                     sizeof tools / sizeof tools[0], MH_CHIP_TED_IFACE, services);
}

static const mh_toolkit_group_fn groups[] = {register_tools};

static mh_status tools_ted_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, 1, 0, data);
}

static void tools_ted_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-ted", "tools-ted", "0.1.0",
                 "TED 7360/8360 tools: registers decoded and written, the three timers",
                 MH_PLUGIN_TOOLSET, tools_ted_init, tools_ted_deinit);
