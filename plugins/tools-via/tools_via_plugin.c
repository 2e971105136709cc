/* tools_via_plugin.c - the tools-via plugin (docs/tools-via.md):
 * via_registers_get, via_timers_get and via_registers_set against
 * "mh.chip.via/1" only. Without `instance` the read tools show every VIA
 * of the session (a VIC-20's via1 and via2); register addresses come from
 * each chip's io_range. Handlers run [emu-thread] (the tools `require` the
 * chip), so each read is a consistent snapshot of a running machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/args.h>
#include <mcphost/mcphost.h>
#include <mcphost/toolkit.h>

#include "via_decode.h"

#define MAX_VIAS 4

/* One VIA of the session. */
typedef struct via_ref {
    const mh_chip *chip;
    const mh_chip_via_iface *via;
    mh_chip_io_range io;
} via_ref;

/* One call. */
typedef struct via_call {
    mh_toolkit_services *services;
    mh_call *call;
    mh_json_doc *doc;
    const mh_json *args;
    via_ref vias[MAX_VIAS];
    size_t count;  /* VIAs of the session (the chosen one first when no list) */
    size_t chosen; /* index of the chip the call names (or the host's default) */
    int named;     /* `instance` was given */
    char err[MH_ARGS_ERROR_SIZE];
} via_call;

#define fail(c, ...) mh_toolkit_fail((c)->services->call, (c)->call, __VA_ARGS__)

static void ref_of(const mh_chip *chip, via_ref *out)
{
    out->chip = chip;
    out->via = chip->vtable;
    memset(&out->io, 0, sizeof out->io);
    out->via->io_range(chip->context, &out->io);
}

/* Arguments, the chip the host resolved and the session's other VIAs.
 * Returns 0, or -1 after answering with an error. */
static int begin(mh_toolkit_services *services, mh_call *call, via_call *c)
{
    memset(c, 0, sizeof *c);
    c->services = services;
    c->call = call;
    c->args = mh_toolkit_args(services->call, call, &c->doc, c->err, sizeof c->err);
    if (!c->args) return -1;
    const size_t need = sizeof(mh_chip_via_iface); /* io_range, the last field, included */
    const mh_chip *own = mh_toolkit_chip_or_fail(services->call, call, need, "VIA",
                                                 MH_CHIP_VIA_IFACE, "tools-via");
    if (!own) return -1;
    c->named = mh_json_object_get(c->args, "instance") != NULL;
    mh_session *session = services->call->session(call);
    const mh_session_service *sessions = services->sessions;
    for (size_t i = 0; sessions && session && i < sessions->chip_count(session); i++) {
        const mh_chip *chip = sessions->chip_at(session, i);
        if (!chip || strcmp(chip->interface_id, MH_CHIP_VIA_IFACE) != 0 || c->count == MAX_VIAS ||
            ((const mh_chip_via_iface *)chip->vtable)->struct_size < need)
            continue;
        if (chip->context == own->context) c->chosen = c->count;
        ref_of(chip, &c->vias[c->count++]);
    }
    if (c->count == 0) { /* no session service: the host's chip alone */
        ref_of(own, &c->vias[0]);
        c->count = 1;
    }
    return 0;
}

static void end(via_call *c) { mh_json_free(c->doc); }

static int read_view(via_call *c, const via_ref *r, mh_chip_via_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    if (r->via->view(r->chip->context, v) == MH_OK) return 0;
    fail(c, "the machine could not decode the %s registers", r->chip->instance);
    return -1;
}

static void send(via_call *c, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(c->services->call, c->call, w, text) != MH_OK)
        fail(c, "internal error: the result could not be written (%s)", mh_json_writer_error(w));
    mh_json_writer_free(w);
}

/* The registers or the timers of the named VIA, or of every VIA. */
static void read_tool(void *user, mh_call *call, int timers_only)
{
    via_call c;
    if (begin(user, call, &c) != 0) {
        end(&c);
        return;
    }
    mh_json_writer *w = mh_json_writer_new();
    char text[2048];
    size_t n = 0;
    text[0] = '\0';
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "vias");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < c.count; i++) {
        if (c.named && i != c.chosen) continue;
        const via_ref *r = &c.vias[i];
        mh_chip_via_view v;
        if (read_view(&c, r, &v) != 0) {
            mh_json_writer_free(w);
            end(&c);
            return;
        }
        if (timers_only)
            tvia_write_timers(w, r->chip->instance, &v);
        else
            tvia_write_view(w, r->chip->instance, &r->io, &v);
        int m = timers_only ? tvia_timers_text(text + n, sizeof text - n, r->chip->instance, &v)
                            : tvia_view_text(text + n, sizeof text - n, r->chip->instance, &v);
        if (m > 0) n = n + (size_t)m < sizeof text ? n + (size_t)m : sizeof text - 1;
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    send(&c, w, text);
    end(&c);
}

static void registers_get(void *user, mh_call *call) { read_tool(user, call, 0); }
static void timers_get(void *user, mh_call *call) { read_tool(user, call, 1); }

/* The VIA and register `register` names: a name or number on the chosen
 * chip; an address on the chip it belongs to (without `instance`, the VIA
 * whose own 16 bytes hold it). Returns the register, or -1 after an error. */
static int pick_register(via_call *c, size_t *which)
{
    const mh_json *r = mh_json_object_get(c->args, "register");
    int reg = tvia_register_by_name(mh_json_as_string(r, NULL));
    *which = c->chosen;
    if (reg >= 0) return reg;
    uint32_t value = 0;
    if (mh_args_address_value(r, "register", 0xFFFF, &value, c->err, sizeof c->err) != MH_OK) {
        fail(c, "%s; give 0-15, a name (ORB ORA DDRB DDRA T1CL T1CH T1LL T1LH T2CL T2CH SR ACR "
                "PCR IFR IER ORA_NH) or an address", r ? c->err : "register is missing");
        return -1;
    }
    if (!c->named)
        for (size_t i = 0; value >= 16 && i < c->count; i++)
            if (c->vias[i].io.size && value >= c->vias[i].io.base &&
                value < c->vias[i].io.base + 16u)
                *which = i;
    const via_ref *own = &c->vias[*which];
    for (size_t i = 0; i < c->count; i++) {
        if (i == *which) continue;
        if (tvia_register(value, &own->io, &c->vias[i].io) == -2) {
            fail(c, "$%04X belongs to %s, not %s: give instance \"%s\" or a register number 0-15",
                 (unsigned)value, c->vias[i].chip->instance, own->chip->instance,
                 c->vias[i].chip->instance);
            return -1;
        }
    }
    reg = tvia_register(value, &own->io, NULL);
    if (reg < 0 && own->io.size)
        fail(c, "$%04X is not a register of %s: give 0-15, a name or an address in $%04X-$%04X",
             (unsigned)value, own->chip->instance, (unsigned)own->io.base,
             (unsigned)(own->io.base + own->io.size - 1));
    else if (reg < 0)
        fail(c, "$%04X is not a VIA register: give 0-15 or a name", (unsigned)value);
    return reg;
}

static void registers_set(void *user, mh_call *call)
{
    via_call c;
    if (begin(user, call, &c) != 0) {
        end(&c);
        return;
    }
    size_t which = 0;
    int reg = pick_register(&c, &which);
    int64_t value = 0;
    mh_status st = reg < 0 ? MH_ERR_INVALID_ARGUMENT
                           : mh_args_int(c.args, "value", 0, 255, &value, c.err, sizeof c.err);
    if (reg >= 0 && st != MH_OK)
        fail(&c, "%s (a byte 0-255, e.g. 127 or \"$7F\")",
             st == MH_ERR_NOT_FOUND ? "value is missing" : c.err);
    if (st != MH_OK) {
        end(&c);
        return;
    }
    const via_ref *r = &c.vias[which];
    r->via->write(r->chip->context, (uint16_t)reg, (uint8_t)value);
    const uint8_t now = r->via->peek(r->chip->context, (uint16_t)reg);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "instance");
    mh_json_write_string(w, r->chip->instance);
    mh_json_write_key(w, "register");
    mh_json_write_uint(w, (unsigned)reg);
    mh_json_write_key(w, "name");
    mh_json_write_string(w, tvia_register_name((unsigned)reg));
    if (r->io.size) mh_args_write_address(w, "address", r->io.base + (unsigned)reg);
    mh_args_write_byte(w, "value", (uint8_t)value);
    mh_args_write_byte(w, "read_back", now);
    mh_json_write_object_end(w);
    char text[160];
    snprintf(text, sizeof text, "%s %s <- $%02X (reads $%02X)", r->chip->instance,
             tvia_register_name((unsigned)reg), (unsigned)value, now);
    send(&c, w, text);
    end(&c);
}

static const char no_args[] = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";

static const mh_tool_desc tools[] = {
    {0, "via_registers_get", "VIA registers",
     "6522 VIAs decoded without side effects (all, or instance): ports, timers, shift "
     "register, CA/CB lines, IFR/IER.",
     no_args, "{\"type\":\"object\",\"required\":[\"vias\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL, "vice.via.registers.get", registers_get,
     NULL},
    {0, "via_timers_get", "VIA timers", "T1 and T2 of the VIAs: counter, latch, mode, PB7.",
     no_args, "{\"type\":\"object\",\"required\":[\"vias\"]}", MH_TOOL_READ_ONLY, 0, NULL,
     "vice.via.timers.get", timers_get, NULL},
    {0, "via_registers_set", "Write a VIA register",
     "Writes a VIA register as a CPU store would (T1CH starts T1, IFR clears flags).",
     "{\"type\":\"object\",\"properties\":{\"register\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"0-15, a name (T1CH, IER ...) or an address\"},\"value\":{\"type\":["
     "\"integer\",\"string\"],\"description\":\"Byte 0-255\"}},\"required\":[\"register\","
     "\"value\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"instance\",\"read_back\"]}", 0, 0, NULL,
     "vice.via.registers.set", registers_set, NULL},
};

static mh_status register_tools(mh_toolkit_services *services)
{
    return mh_toolkit_register_tools(services->host, services->registry, tools,
                                     sizeof tools / sizeof tools[0], MH_CHIP_VIA_IFACE, services);
}

static const mh_toolkit_group_fn groups[] = {register_tools};

static mh_status tools_via_init(const mh_host *host, void **data)
{
    return mh_toolkit_init(host, groups, 1, 0, data);
}

static void tools_via_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.mcphost.tools-via", "tools-via", "0.1.0",
                 "VIA 6522 tools: ports, timers, shift register, handshake lines, interrupts",
                 MH_PLUGIN_TOOLSET, tools_via_init, tools_via_deinit);
