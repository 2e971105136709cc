/* tools_cia_regs.c - cia_registers_get, cia_timers_get, cia_registers_set. */
#include <stdio.h>
#include <strings.h>

#include "tools_cia.h"

#define END_CALL { tc_end(&c); return; }

static void write_port(mh_json_writer *w, const char *key, uint8_t latch, uint8_t ddr,
                       uint8_t out, uint8_t pins)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "latch", latch);
    mh_args_write_byte(w, "ddr", ddr);
    mh_args_write_byte(w, "driven", out);
    mh_args_write_byte(w, "pins", pins);
    mh_json_write_object_end(w);
}

/* "timer A $1234 (latch $4025) running continuous, counts phi2" */
static int timer_text(char *out, size_t size, const char *name, const mh_chip_cia_timer *t)
{
    return snprintf(out, size, "timer %s: $%04X (latch $%04X), %s, %s, counts %s, %u underflows\n",
                    name, t->counter, t->latch, t->running ? "running" : "stopped",
                    t->oneshot ? "one-shot" : "continuous", tc_input_name(t->input),
                    (unsigned)t->underflows);
}

/* ---- cia_registers_get ---- */

static void registers_get(void *user, mh_call *call)
{
    tc_ctx c;
    if (tc_begin(user, call, &c) != 0) END_CALL
    const mh_chip_cia_view *v = &c.view;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "instance");
    mh_json_write_string(w, c.instance);
    mh_json_write_key(w, "model");
    mh_json_write_string(w, v->model);
    write_port(w, "port_a", v->pra, v->ddra, v->pa_out, v->pa_pins);
    write_port(w, "port_b", v->prb, v->ddrb, v->pb_out, v->pb_pins);
    tc_write_timer(w, "timer_a", &v->timer_a);
    tc_write_timer(w, "timer_b", &v->timer_b);
    tc_write_tod(w, v);
    mh_json_write_key(w, "icr");
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "flags", v->icr_flags);
    mh_args_write_byte(w, "mask", v->icr_mask);
    mh_args_write_bit_names(w, "pending", v->icr_flags, 5, tc_icr_source);
    mh_args_write_bit_names(w, "enabled", v->icr_mask, 5, tc_icr_source);
    mh_args_write_bool(w, "irq", v->irq);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "serial");
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "sdr", v->sdr);
    mh_json_write_key(w, "direction");
    mh_json_write_string(w, v->sp_output ? "output" : "input");
    mh_json_write_key(w, "bits_left");
    mh_json_write_uint(w, v->sp_bits_left);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "registers");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 16; i++) mh_json_write_uint(w, v->regs[i]);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);

    char text[1024], tod[16], alarm[16];
    tc_time_text(&v->tod, tod);
    tc_time_text(&v->alarm, alarm);
    int n = snprintf(text, sizeof text,
                     "%s (%s): PA latch $%02X DDR $%02X pins $%02X, PB latch $%02X DDR $%02X pins "
                     "$%02X\n",
                     c.instance, v->model, v->pra, v->ddra, v->pa_pins, v->prb, v->ddrb,
                     v->pb_pins);
    n += timer_text(text + n, sizeof text - (size_t)n, "A", &v->timer_a);
    n += timer_text(text + n, sizeof text - (size_t)n, "B", &v->timer_b);
    n += snprintf(text + n, sizeof text - (size_t)n,
                  "TOD %s%s, alarm %s; ICR flags $%02X mask $%02X%s; SDR $%02X (%s)\nregisters:",
                  tod, v->tod_running ? "" : " (halted)", alarm, v->icr_flags, v->icr_mask,
                  v->irq ? ", IRQ asserted" : "", v->sdr, v->sp_output ? "output" : "input");
    for (unsigned i = 0; i < 16 && n > 0 && (size_t)n < sizeof text; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, " %02X", v->regs[i]);
    tc_send(&c, w, text);
    tc_end(&c);
}

/* ---- cia_timers_get ---- */

static void timers_get(void *user, mh_call *call)
{
    tc_ctx c;
    if (tc_begin(user, call, &c) != 0) END_CALL
    const mh_chip_cia_view *v = &c.view;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "instance");
    mh_json_write_string(w, c.instance);
    tc_write_timer(w, "timer_a", &v->timer_a);
    tc_write_timer(w, "timer_b", &v->timer_b);
    tc_write_tod(w, v);
    mh_json_write_object_end(w);
    char text[512], tod[16];
    tc_time_text(&v->tod, tod);
    int n = snprintf(text, sizeof text, "%s ", c.instance);
    n += timer_text(text + n, sizeof text - (size_t)n, "A", &v->timer_a);
    n += timer_text(text + n, sizeof text - (size_t)n, "B", &v->timer_b);
    snprintf(text + n, sizeof text - (size_t)n, "TOD %s%s", tod, v->tod_running ? "" : " (halted)");
    tc_send(&c, w, text);
    tc_end(&c);
}

/* ---- cia_registers_set ---- */

typedef struct reg_write {
    int reg;
    uint8_t value;
} reg_write;

static int parse_write(tc_ctx *c, const mh_json *obj, const char *where, reg_write *out)
{
    const mh_json *r = mh_json_object_get(obj, "register");
    const char *name = mh_json_as_string(r, NULL);
    out->reg = -1;
    for (unsigned i = 0; name && i < 16; i++)
        if (strcasecmp(name, tc_register_name(i)) == 0) out->reg = (int)i;
    if (out->reg < 0) {
        uint32_t value = 0;
        mh_status st = mh_args_address_value(r, "register", 0xFFFF, &value, c->err, sizeof c->err);
        if (st != MH_OK) {
            tc_fail(c, "%s%s; give a register number 0-15, a name like \"CRA\", or an address "
                       "like \"$DC0E\"", where, r ? c->err : "register is missing");
            return -1;
        }
        out->reg = tc_cia_register(value, &c->io);
        const char *other = out->reg < 0 ? tc_other_cia_at(c, value) : NULL;
        if (other) {
            tc_fail(c, "%s$%04X belongs to the other CIA, not %s: give instance \"%s\" or the "
                       "register number 0-15", where, (unsigned)value, c->instance, other);
            return -1;
        }
        if (out->reg < 0 && c->io.size) {
            tc_fail(c, "%sregister $%04X is not a CIA register: give 0-15, a name (PRA ... CRB) "
                       "or an address in $%04X-$%04X (%s)",
                    where, (unsigned)value, (unsigned)c->io.base,
                    (unsigned)(c->io.base + c->io.size - 1), c->instance);
            return -1;
        }
        if (out->reg < 0) {
            tc_fail(c, "%sregister $%04X is not a CIA register: give 0-15 or a name (PRA ... "
                       "CRB)", where, (unsigned)value);
            return -1;
        }
    }
    int64_t value = 0;
    mh_status st = mh_args_int(obj, "value", 0, 255, &value, c->err, sizeof c->err);
    if (st != MH_OK) {
        tc_fail(c, "%s%s (a byte 0-255, e.g. 127 or \"$7F\")", where,
                st == MH_ERR_NOT_FOUND ? "value is missing" : c->err);
        return -1;
    }
    out->value = (uint8_t)value;
    return 0;
}

static void registers_set(void *user, mh_call *call)
{
    tc_ctx c;
    if (tc_begin(user, call, &c) != 0) END_CALL
    reg_write writes[16];
    size_t count = 0;
    const mh_json *list = mh_json_object_get(c.args, "writes");
    const int single = mh_json_object_get(c.args, "register") || mh_json_object_get(c.args, "value");
    if (list && single) {
        tc_fail(&c, "give either register + value or writes, not both");
        END_CALL
    }
    if (list) {
        count = mh_json_array_size(list);
        if (mh_json_typeof(list) != MH_JSON_ARRAY || count == 0 || count > 16) {
            tc_fail(&c, "writes: expected an array of 1-16 {\"register\", \"value\"} objects");
            END_CALL
        }
        for (size_t i = 0; i < count; i++) {
            char where[48];
            snprintf(where, sizeof where, "writes[%zu]: ", i);
            if (parse_write(&c, mh_json_array_get(list, i), where, &writes[i]) != 0) END_CALL
        }
    } else {
        if (!single) {
            tc_fail(&c, "nothing to write: give register and value (e.g. {\"register\": \"CRA\", "
                        "\"value\": 17}) or writes: [{...}, ...]");
            END_CALL
        }
        if (parse_write(&c, c.args, "", &writes[0]) != 0) END_CALL
        count = 1;
    }
    for (size_t i = 0; i < count; i++) c.cia->write(c.chip, (uint16_t)writes[i].reg, writes[i].value);

    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "instance");
    mh_json_write_string(w, c.instance);
    mh_json_write_key(w, "writes");
    mh_json_write_array_begin(w);
    char text[1024];
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        const uint8_t now = c.cia->peek(c.chip, (uint16_t)writes[i].reg);
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "register");
        mh_json_write_uint(w, (unsigned)writes[i].reg);
        mh_json_write_key(w, "name");
        mh_json_write_string(w, tc_register_name((unsigned)writes[i].reg));
        mh_args_write_byte(w, "value", writes[i].value);
        mh_args_write_byte(w, "read_back", now);
        mh_json_write_object_end(w);
        if (n < sizeof text)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s %s <- $%02X (reads $%02X)\n",
                                  c.instance, tc_register_name((unsigned)writes[i].reg),
                                  writes[i].value, now);
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    tc_send(&c, w, text);
    tc_end(&c);
}

static const mh_tool_desc tools[] = {
    {0, "cia_registers_get", "CIA registers",
     "A CIA decoded without side effects: ports, timers, TOD and alarm, ICR, serial port, raw "
     "registers.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"instance\"],\"properties\":{\"timer_a\":{},"
     "\"timer_b\":{},\"icr\":{},\"registers\":{}}}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.cia.registers.get", registers_get, NULL},
    {0, "cia_timers_get", "CIA timers",
     "Timers A and B (counter, latch, mode, underflows) and the TOD clock.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"timer_a\",\"timer_b\"],\"properties\":{\"tod\":{}}}",
     MH_TOOL_READ_ONLY, 0, NULL,
     "vice.cia.timers.get", timers_get, NULL},
    {0, "cia_registers_set", "Write CIA registers",
     "Writes CIA registers as a CPU store would (ICR sets or clears mask bits, CRA bit 4 "
     "force-loads).",
     "{\"type\":\"object\",\"properties\":{\"register\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"0-15, a name (PRA PRB DDRA DDRB TALO TAHI TBLO TBHI TOD10 TODSEC "
     "TODMIN TODHR SDR ICR CRA CRB) or an address\"},\"value\":{\"type\":[\"integer\","
     "\"string\"],\"description\":\"Byte 0-255\"},\"writes\":{\"type\":\"array\","
     "\"description\":\"Several writes in order, instead of register + value\",\"minItems\":1,"
     "\"maxItems\":16,\"items\":{\"type\":\"object\",\"properties\":{\"register\":{\"type\":["
     "\"integer\",\"string\"],\"description\":\"As register\"},"
     "\"value\":{\"type\":[\"integer\",\"string\"],\"description\":\"Byte 0-255\"}},"
     "\"required\":[\"register\",\"value\"],\"additionalProperties\":false}}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"writes\"]}",
     0, 0, NULL,
     "vice.cia.registers.set", registers_set, NULL},
};

mh_status tc_register_registers(tc_plugin *plugin)
{
    return mh_toolkit_register_tools(plugin->host, plugin->registry, tools,
                                     sizeof tools / sizeof tools[0], MH_CHIP_CIA_IFACE, plugin);
}
