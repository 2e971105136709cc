/* tools_vic2_breakpoints.c - state-based breakpoints on the host's debug
 * engine (mh.debug/1): breakpoints_raster, breakpoints_sprite_collision,
 * breakpoints_composite (check breakpoints: a callback here reads the
 * VIC-II at every instruction boundary) and breakpoints_vic_register_write
 * (a write watchpoint over the chip's io_range - $D000-$D3FF on a C64 -
 * all register mirrors, with a condition on address & $3F). They stop with the engine's stop record,
 * whose breakpoint.detail says what fired; list, delete, toggle and the
 * trace are the tools-debug breakpoints_* tools. Handlers run on the
 * session's thread (the tools require the VIC-II). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_vic2.h"

#define END_CALL { tv_end(&c); return; }
#define MAX_TERMS 8

/* What a check callback needs; owned by the engine once added. */
typedef struct vbp {
    const mh_chip_vic2_iface *vic;
    void *chip;
    const mh_cpu6502_iface *cpu; /* composite pc terms */
    void *cpu_ctx;
    mh_toolkit_raster raster;
    uint8_t collision_reg, mask, prev;
    uint8_t any, was_true;
    size_t term_count;
    tv_term terms[MAX_TERMS];
} vbp;

static int check_raster(void *user, mh_session *session, char *detail, size_t size)
{
    (void)session;
    vbp *b = user;
    uint16_t line = 0, cycle = 0;
    b->vic->beam(b->chip, &line, &cycle);
    if (!mh_toolkit_raster_step(&b->raster, line)) return 0;
    snprintf(detail, size, "\"line\":%u,\"cycle\":%u", line, cycle);
    return 1;
}

static int check_collision(void *user, mh_session *session, char *detail, size_t size)
{
    (void)session;
    vbp *b = user;
    uint8_t fresh = tv_collision_step(&b->prev, b->vic->peek(b->chip, b->collision_reg), b->mask);
    if (!fresh) return 0;
    uint16_t line = 0, cycle = 0;
    b->vic->beam(b->chip, &line, &cycle);
    int n = snprintf(detail, size, "\"collision\":\"%s\",\"sprites\":[",
                     b->collision_reg == 0x1E ? "sprite_sprite" : "sprite_background");
    for (unsigned i = 0, first = 1; i < 8 && n > 0 && (size_t)n < size; i++)
        if (fresh & (1u << i)) {
            n += snprintf(detail + n, size - (size_t)n, "%s%u", first ? "" : ",", i);
            first = 0;
        }
    if (n > 0 && (size_t)n < size)
        snprintf(detail + n, size - (size_t)n, "],\"latch\":%u,\"line\":%u,\"cycle\":%u",
                 b->prev, line, cycle);
    return 1;
}

static uint32_t term_value(const vbp *b, const tv_term *t)
{
    uint16_t line = 0, cycle = 0;
    switch (t->kind) {
    case TV_TERM_RASTER: b->vic->beam(b->chip, &line, &cycle); return line;
    case TV_TERM_SPRITE_Y: return b->vic->peek(b->chip, (uint16_t)(1u + 2u * t->index));
    case TV_TERM_REGISTER: {
        /* Colour registers compare as colours (their unused bits read 1). */
        const uint8_t v = b->vic->peek(b->chip, t->index);
        return t->index >= 0x20 && t->index <= 0x2E ? v & 0x0Fu : v;
    }
    default: return b->cpu ? b->cpu->state(b->cpu_ctx)->pc : 0;
    }
}

static int check_composite(void *user, mh_session *session, char *detail, size_t size)
{
    (void)session;
    vbp *b = user;
    uint32_t values[MAX_TERMS];
    for (size_t i = 0; i < b->term_count; i++) values[i] = term_value(b, &b->terms[i]);
    const int now = tv_terms_hold(b->terms, values, b->term_count, b->any);
    const int fire = now && !b->was_true;
    b->was_true = (uint8_t)now;
    if (!fire) return 0;
    int n = snprintf(detail, size, "\"op\":\"%s\",\"values\":{", b->any ? "or" : "and");
    for (size_t i = 0; i < b->term_count && n > 0 && (size_t)n < size; i++) {
        const tv_term *t = &b->terms[i];
        if (t->kind == TV_TERM_SPRITE_Y || t->kind == TV_TERM_REGISTER)
            n += snprintf(detail + n, size - (size_t)n, "%s\"%s%u\":%u", i ? "," : "",
                          tv_term_name(t->kind), t->index, values[i]);
        else
            n += snprintf(detail + n, size - (size_t)n, "%s\"%s\":%u", i ? "," : "",
                          tv_term_name(t->kind), values[i]);
    }
    if (n > 0 && (size_t)n < size) snprintf(detail + n, size - (size_t)n, "}");
    return 1;
}

/* ---- shared argument handling ---- */

/* condition, group, label, temporary, log_only, enabled, ignore_count. */
static int read_common(tv_ctx *c, mh_breakpoint_spec *spec)
{
    if (mh_toolkit_breakpoint_options(c->args, spec, c->err, sizeof c->err) == MH_OK) return 0;
    tv_fail(c, "%s", c->err);
    return -1;
}

static int need_debug(tv_ctx *c, const char *tool)
{
    if (c->plugin->debug) return 0;
    tv_fail(c, "%s needs the host's debug engine (%s), which this host does not offer", tool,
            MH_DEBUG_SERVICE_ID);
    return -1;
}

/* Adds the breakpoint (the engine owns b from here, even on failure) and
 * answers with its id. */
static void add_and_answer(tv_ctx *c, mh_breakpoint_spec *spec, vbp *b, const char *kind,
                           const char *what)
{
    if (b) {
        spec->check_user = b;
        spec->check_free = free;
    }
    uint32_t id = 0;
    char error[512];
    mh_session *s = c->plugin->call->session(c->call);
    if (c->plugin->debug->bp_add(s, spec, &id, error, sizeof error) != MH_OK) {
        free(b); /* the engine owns check_user only after a successful add */
        tv_fail(c, "%s", error);
        return;
    }
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "id");
    mh_json_write_uint(w, id);
    mh_json_write_key(w, "kind");
    mh_json_write_string(w, kind);
    mh_json_write_key(w, "label");
    mh_json_write_string(w, spec->label ? spec->label : what);
    mh_json_write_key(w, "log_only");
    mh_json_write_bool(w, (spec->flags & MH_BP_LOG_ONLY) != 0);
    if (spec->condition) {
        mh_json_write_key(w, "condition");
        mh_json_write_string(w, spec->condition);
    }
    mh_json_write_key(w, "state");
    mh_json_write_string(w, mh_exec_state_name(c->plugin->debug->state(s)));
    mh_json_write_object_end(w);
    char text[640];
    snprintf(text, sizeof text,
             "breakpoint #%u: %s%s%s%s (the machine is %s; execution_run then execution_wait "
             "returns the stop record)",
             id, spec->label ? spec->label : what, spec->condition ? " if " : "",
             spec->condition ? spec->condition : "",
             (spec->flags & MH_BP_LOG_ONLY) ? ", log only: hits go to breakpoints_trace" : "",
             mh_exec_state_name(c->plugin->debug->state(s)));
    tv_send(c, w, text);
}

static vbp *new_vbp(tv_ctx *c)
{
    vbp *b = calloc(1, sizeof *b);
    if (!b) {
        tv_fail(c, "out of memory");
        return NULL;
    }
    b->vic = c->vic;
    b->chip = c->chip;
    return b;
}

/* ---- breakpoints_raster ---- */

static void bp_raster(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0 || need_debug(&c, "breakpoints_raster") != 0) END_CALL
    const int64_t lines = c.view.lines_per_frame ? c.view.lines_per_frame : 312;
    int64_t first = 0, last = -1;
    mh_status st = mh_args_int(c.args, "line", 0, lines - 1, &first, c.err, sizeof c.err);
    if (st != MH_OK) {
        tv_fail(&c, "%s (this VIC-II has lines 0-%lld)", c.err, (long long)lines - 1);
        END_CALL
    }
    last = first;
    st = mh_args_int(c.args, "end_line", first, lines - 1, &last, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s (end_line is the last line of the range, from line to %lld)", c.err,
                (long long)lines - 1);
        END_CALL
    }
    static const char *const modes[] = {"entry", "every_line"};
    size_t mode = 0;
    st = mh_args_choice(c.args, "mode", modes, 2, &mode, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s", c.err);
        END_CALL
    }
    mh_breakpoint_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.struct_size = sizeof spec;
    spec.kinds = MH_BP_CHECK;
    spec.check = check_raster;
    if (read_common(&c, &spec) != 0) END_CALL
    vbp *b = new_vbp(&c);
    if (!b) END_CALL
    mh_toolkit_raster_init(&b->raster, (unsigned)first, (unsigned)last, mode == 1, c.view.raster_line);
    char what[96];
    if (first == last)
        snprintf(what, sizeof what, "raster line %lld%s", (long long)first,
                 mode ? " (every time)" : "");
    else
        snprintf(what, sizeof what, "raster lines %lld-%lld (%s)", (long long)first,
                 (long long)last, mode ? "every line" : "on entry");
    if (!spec.label) spec.label = what;
    add_and_answer(&c, &spec, b, "raster", what);
    tv_end(&c);
}

/* ---- breakpoints_sprite_collision ---- */

/* `sprites` as a mask 0-255 or an array of sprite numbers; default all. */
static int read_sprite_mask(tv_ctx *c, uint8_t *mask)
{
    const mh_json *v = mh_json_object_get(c->args, "sprites");
    *mask = 0xFF;
    if (!v || mh_json_is_null(v)) return 0;
    if (mh_json_typeof(v) == MH_JSON_ARRAY) {
        size_t n = mh_json_array_size(v);
        *mask = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t s = -1;
            if (mh_json_as_int64(mh_json_array_get(v, i), &s) != MH_OK || s < 0 || s > 7) {
                tv_fail(c, "sprites[%zu]: expected a sprite number 0-7", i);
                return -1;
            }
            *mask = (uint8_t)(*mask | (1u << s));
        }
        if (!*mask) {
            tv_fail(c, "sprites: give at least one sprite number 0-7 (or leave it out for all)");
            return -1;
        }
        return 0;
    }
    int64_t m = 0;
    if (mh_args_int(c->args, "sprites", 1, 255, &m, c->err, sizeof c->err) != MH_OK) {
        tv_fail(c, "%s (a mask with bit n for sprite n, or an array like [0, 1])", c->err);
        return -1;
    }
    *mask = (uint8_t)m;
    return 0;
}

static void bp_collision(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0 || need_debug(&c, "breakpoints_sprite_collision") != 0)
        END_CALL
    static const char *const kinds[] = {"sprite_sprite", "sprite_background"};
    size_t kind = 0;
    mh_status st = mh_args_choice(c.args, "kind", kinds, 2, &kind, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s", c.err);
        END_CALL
    }
    uint8_t mask = 0xFF;
    if (read_sprite_mask(&c, &mask) != 0) END_CALL
    mh_breakpoint_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.struct_size = sizeof spec;
    spec.kinds = MH_BP_CHECK;
    spec.check = check_collision;
    if (read_common(&c, &spec) != 0) END_CALL
    vbp *b = new_vbp(&c);
    if (!b) END_CALL
    b->collision_reg = kind ? 0x1F : 0x1E;
    b->mask = mask;
    b->prev = (uint8_t)(c.vic->peek(c.chip, b->collision_reg) & mask);
    char what[96];
    snprintf(what, sizeof what, "%s collision of sprites $%02X",
             kind ? "sprite-background" : "sprite-sprite", mask);
    if (!spec.label) spec.label = what;
    add_and_answer(&c, &spec, b, kinds[kind], what);
    tv_end(&c);
}

/* ---- breakpoints_vic_register_write ---- */

static void bp_register_write(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0 || need_debug(&c, "breakpoints_vic_register_write") != 0)
        END_CALL
    uint32_t reg_value = 0;
    mh_status st = mh_args_address(c.args, "register", 0xFFFF, &reg_value, c.err, sizeof c.err);
    int reg = st == MH_OK ? tv_vic_register(reg_value, &c.io) : -1;
    if (reg < 0) {
        tv_fail(&c, "%s; give a VIC-II register 0-63 or its address $%04X-$%04X",
                st == MH_OK ? "register: not a VIC-II register" : c.err, (unsigned)c.io.base,
                (unsigned)(c.io.base + c.io.size - 1));
        END_CALL
    }
    if (!c.io.size) {
        tv_fail(&c, "this machine does not say where its VIC-II registers are (%s io_range): "
                    "a register write cannot be watched", MH_CHIP_VIC2_IFACE);
        END_CALL
    }
    int64_t value = -1, frames = 0;
    st = mh_args_int(c.args, "value", 0, 255, &value, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s (fire only when this byte is written)", c.err);
        END_CALL
    }
    st = mh_args_int(c.args, "frames", 1, 100000, &frames, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s (log for this many frames)", c.err);
        END_CALL
    }
    mh_breakpoint_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.struct_size = sizeof spec;
    spec.kinds = MH_BP_WRITE;
    spec.start = c.io.base;
    spec.end = c.io.base + c.io.size - 1;
    if (read_common(&c, &spec) != 0) END_CALL
    /* Log for N frames' worth of cycles from now (not N frame numbers: a
     * frame already half run would count as one). */
    uint64_t until = 0;
    if (frames) {
        until = c.plugin->debug->cycles(c.plugin->call->session(c.call)) +
                (uint64_t)frames * c.view.cycles_per_line * c.view.lines_per_frame;
        spec.flags |= MH_BP_LOG_ONLY;
    }
    /* Every mirror of the register: the write watch covers the chip's whole
     * range ($D000-$D3FF on a C64) and the condition keeps the register's
     * own addresses. */
    char condition[1024];
    int n = c.io.base & 0x3Fu
                ? snprintf(condition, sizeof condition, "((address - $%04X) & $3F) == $%02X",
                           (unsigned)c.io.base, (unsigned)reg)
                : snprintf(condition, sizeof condition, "(address & $3F) == $%02X", (unsigned)reg);
    if (value >= 0)
        n += snprintf(condition + n, sizeof condition - (size_t)n, " && value == $%02X",
                      (unsigned)value);
    if (frames)
        n += snprintf(condition + n, sizeof condition - (size_t)n, " && cycles < %llu",
                      (unsigned long long)until);
    if (spec.condition)
        n += snprintf(condition + n, sizeof condition - (size_t)n, " && (%s)", spec.condition);
    if (n < 0 || (size_t)n >= sizeof condition) {
        tv_fail(&c, "condition: too long (at most 900 characters)");
        END_CALL
    }
    spec.condition = condition;
    char what[128];
    n = snprintf(what, sizeof what, "write of $%04X", (unsigned)(c.io.base + (unsigned)reg));
    if (value >= 0) n += snprintf(what + n, sizeof what - (size_t)n, " = $%02X", (unsigned)value);
    if (frames)
        snprintf(what + n, sizeof what - (size_t)n, ", logged for %lld frame(s)",
                 (long long)frames);
    if (!spec.label) spec.label = what;
    add_and_answer(&c, &spec, NULL, "register_write", what);
    tv_end(&c);
}

/* ---- breakpoints_composite ---- */

static int read_term(tv_ctx *c, const mh_json *t, size_t i, tv_term *out)
{
    static const char *const kinds[] = {"raster", "sprite_y", "register", "pc"};
    size_t kind = 0;
    char where[32];
    snprintf(where, sizeof where, "terms[%zu]", i);
    if (mh_json_typeof(t) != MH_JSON_OBJECT) {
        tv_fail(c, "%s: expected an object like {\"what\": \"raster\", \"equals\": 100}", where);
        return -1;
    }
    if (mh_args_choice(t, "what", kinds, 4, &kind, c->err, sizeof c->err) != MH_OK) {
        tv_fail(c, "%s.%s", where, c->err);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->kind = (uint8_t)kind;
    const uint32_t top = kind == TV_TERM_PC ? 0xFFFFu : kind == TV_TERM_RASTER ? 511u : 255u;
    if (kind == TV_TERM_SPRITE_Y) {
        int64_t s = 0;
        if (mh_args_int(t, "sprite", 0, 7, &s, c->err, sizeof c->err) != MH_OK) {
            tv_fail(c, "%s.%s (sprite_y needs sprite 0-7)", where, c->err);
            return -1;
        }
        out->index = (uint8_t)s;
    } else if (kind == TV_TERM_REGISTER) {
        uint32_t r = 0;
        int reg = mh_args_address(t, "register", 0xFFFF, &r, c->err, sizeof c->err) == MH_OK
                      ? tv_vic_register(r, &c->io) : -1;
        if (reg < 0) {
            tv_fail(c, "%s: register needs a VIC-II register 0-63 or its address", where);
            return -1;
        }
        out->index = (uint8_t)reg;
    }
    uint32_t eq = 0, lo = 0, hi = top;
    mh_status se = mh_args_address(t, "equals", top, &eq, c->err, sizeof c->err);
    if (se == MH_OK) {
        lo = hi = eq;
    } else if (se != MH_ERR_NOT_FOUND) {
        tv_fail(c, "%s.%s", where, c->err);
        return -1;
    }
    mh_status smin = mh_args_address(t, "min", top, &lo, c->err, sizeof c->err);
    mh_status smax = smin == MH_OK || smin == MH_ERR_NOT_FOUND
                         ? mh_args_address(t, "max", top, &hi, c->err, sizeof c->err)
                         : smin;
    if ((smin != MH_OK && smin != MH_ERR_NOT_FOUND) || (smax != MH_OK && smax != MH_ERR_NOT_FOUND)) {
        tv_fail(c, "%s.%s", where, c->err);
        return -1;
    }
    if (se == MH_OK && (smin == MH_OK || smax == MH_OK)) {
        tv_fail(c, "%s: give equals, or min and/or max, not both", where);
        return -1;
    }
    if (se != MH_OK && smin != MH_OK && smax != MH_OK) {
        tv_fail(c, "%s: give equals, or min and/or max (inclusive)", where);
        return -1;
    }
    if (lo > hi) {
        tv_fail(c, "%s: min %u is above max %u", where, lo, hi);
        return -1;
    }
    out->min = lo;
    out->max = hi;
    return 0;
}

static void bp_composite(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0 || need_debug(&c, "breakpoints_composite") != 0) END_CALL
    static const char *const ops[] = {"and", "or"};
    size_t op = 0;
    mh_status st = mh_args_choice(c.args, "op", ops, 2, &op, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s", c.err);
        END_CALL
    }
    const mh_json *terms = mh_json_object_get(c.args, "terms");
    size_t count = mh_json_array_size(terms);
    if (mh_json_typeof(terms) != MH_JSON_ARRAY || count == 0 || count > MAX_TERMS) {
        tv_fail(&c, "terms: expected an array of 1-%d terms such as {\"what\": \"raster\", "
                    "\"equals\": 100}, {\"what\": \"sprite_y\", \"sprite\": 0, \"min\": 50}, "
                    "{\"what\": \"register\", \"register\": \"$D020\", \"equals\": 2}, "
                    "{\"what\": \"pc\", \"equals\": \"$C000\"}", MAX_TERMS);
        END_CALL
    }
    mh_breakpoint_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.struct_size = sizeof spec;
    spec.kinds = MH_BP_CHECK;
    spec.check = check_composite;
    if (read_common(&c, &spec) != 0) END_CALL
    tv_term parsed[MAX_TERMS];
    for (size_t i = 0; i < count; i++)
        if (read_term(&c, mh_json_array_get(terms, i), i, &parsed[i]) != 0) END_CALL
    vbp *b = new_vbp(&c);
    if (!b) END_CALL
    b->any = (uint8_t)op;
    b->term_count = count;
    memcpy(b->terms, parsed, count * sizeof parsed[0]);
    for (size_t i = 0; i < count; i++)
        if (parsed[i].kind == TV_TERM_PC && !b->cpu) {
            b->cpu = tv_find(&c, MH_IFACE_CPU6502, &b->cpu_ctx);
            if (!b->cpu) {
                free(b);
                tv_fail(&c, "a pc term needs the machine's CPU (%s)", MH_IFACE_CPU6502);
                END_CALL
            }
        }
    /* Armed while false: a composite that already holds fires when it next
     * becomes true. */
    uint32_t values[MAX_TERMS];
    for (size_t i = 0; i < count; i++) values[i] = term_value(b, &b->terms[i]);
    b->was_true = (uint8_t)tv_terms_hold(b->terms, values, count, b->any);
    char what[512];
    int n = snprintf(what, sizeof what, "composite:");
    for (size_t i = 0; i < count && n > 0 && (size_t)n < sizeof what; i++) {
        const tv_term *t = &parsed[i];
        char name[24];
        if (t->kind == TV_TERM_REGISTER)
            snprintf(name, sizeof name, "$%04X", (unsigned)(c.io.base + t->index));
        else if (t->kind == TV_TERM_SPRITE_Y)
            snprintf(name, sizeof name, "sprite_y[%u]", t->index);
        else
            snprintf(name, sizeof name, "%s", tv_term_name(t->kind));
        const char *sep = i == 0 ? " " : op ? " or " : " and ";
        if (t->min == t->max)
            n += snprintf(what + n, sizeof what - (size_t)n, "%s%s == %u", sep, name, t->min);
        else
            n += snprintf(what + n, sizeof what - (size_t)n, "%s%u <= %s <= %u", sep, t->min, name,
                          t->max);
    }
    if (!spec.label) spec.label = what;
    add_and_answer(&c, &spec, b, "composite", what);
    tv_end(&c);
}

/* ---- registration ---- */

static const char bp_output[] =
    "{\"type\":\"object\",\"required\":[\"id\",\"kind\"]}";

static const mh_tool_desc tools[] = {
    {0, "breakpoints_raster", "Raster breakpoint",
     "Stops when the beam reaches a raster line or range, at the first instruction boundary "
     "there; the stop record gives line and cycle.",
     "{\"type\":\"object\",\"properties\":{\"line\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Raster line\"},\"end_line\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Last line of a range\"},\"mode\":{\"type\":\"string\","
     "\"description\":\"entry (default): once on entering; every_line: on each line\","
     "\"enum\":[\"entry\",\"every_line\"]},\"condition\":{\"type\":\"string\","
     "\"description\":\"Also require this (breakpoints_set syntax)\"},"
     MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA
     "},\"required\":[\"line\"],\"additionalProperties\":false}",
     bp_output,
     0, 0, NULL,
     "vice.breakpoints.raster", bp_raster, NULL},
    {0, "breakpoints_sprite_collision", "Sprite collision breakpoint",
     "Stops when a sprite-sprite or sprite-background collision is latched for one of the "
     "sprites; the stop record names them.",
     "{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\","
     "\"description\":\"Which collisions (default both)\",\"enum\":[\"sprite_sprite\","
     "\"sprite_background\"]},\"sprites\":{\"type\":[\"integer\",\"string\",\"array\"],"
     "\"description\":\"Bit mask or array of sprite numbers 0-7 (default all)\"},"
     "\"condition\":{\"type\":\"string\",\"description\":\"Also require this (breakpoints_set "
     "syntax)\"},"
     MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA
     "},\"additionalProperties\":false}",
     bp_output,
     0, 0, NULL,
     "vice.breakpoints.sprite_collision", bp_collision, NULL},
    {0, "breakpoints_vic_register_write", "VIC-II register write breakpoint",
     "Stops when the CPU writes a VIC-II register (any mirror), or only logs the writes "
     "(log_only or frames).",
     "{\"type\":\"object\",\"properties\":{\"register\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Register 0-63 or its address, e.g. \\\"$D020\\\"\"},"
     "\"value\":{\"type\":[\"integer\",\"string\"],\"description\":\"Only writes of this "
     "value\"},\"frames\":{\"type\":[\"integer\",\"string\"],\"description\":\"Log only, for "
     "this many frames from now\"},\"condition\":{\"type\":\"string\",\"description\":\"Also "
     "require this (breakpoints_set syntax)\"},"
     MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA
     "},\"required\":[\"register\"],\"additionalProperties\":false}",
     bp_output,
     0, 0, NULL,
     "vice.breakpoints.vic_register_write", bp_register_write, NULL},
    {0, "breakpoints_composite", "Composite breakpoint",
     "Stops when its terms (raster, sprite y, VIC-II register, PC) become true, all (and) or "
     "any (or).",
     "{\"type\":\"object\",\"properties\":{\"op\":{\"type\":\"string\",\"description\":\"and "
     "(default) or or\",\"enum\":[\"and\",\"or\"]},\"terms\":{\"type\":\"array\","
     "\"description\":\"1-8 conditions\",\"minItems\":1,\"maxItems\":8,"
     "\"items\":{\"type\":\"object\",\"properties\":{\"what\":{\"type\":\"string\","
     "\"description\":\"The value tested\",\"enum\":[\"raster\",\"sprite_y\",\"register\","
     "\"pc\"]},\"sprite\":{\"type\":\"integer\",\"description\":\"Sprite 0-7 (sprite_y)\"},"
     "\"register\":{\"type\":[\"integer\",\"string\"],\"description\":\"Register (register; "
     "colours as 0-15)\"},\"equals\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Exact value\"},\"min\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Lowest value\"},\"max\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Highest value\"}},\"required\":[\"what\"],"
     "\"additionalProperties\":false}},\"condition\":{\"type\":\"string\","
     "\"description\":\"Also require this (breakpoints_set syntax)\"},"
     MH_TOOLKIT_BREAKPOINT_OPTIONS_SCHEMA
     "},\"required\":[\"terms\"],\"additionalProperties\":false}",
     bp_output,
     0, 0, NULL,
     "vice.breakpoints.composite", bp_composite, NULL},
};

mh_status tv_register_breakpoints(tv_plugin *plugin)
{
    return tv_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
