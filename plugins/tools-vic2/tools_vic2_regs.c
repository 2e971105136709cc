/* tools_vic2_regs.c - vic2_registers_get, vic2_registers_set,
 * vic2_raster_get, vic2_memory_map. */
#include <stdio.h>
#include <string.h>

#include "tools_vic2.h"

/* ---- vic2_registers_get ---- */

static void write_irq(mh_json_writer *w, const mh_chip_vic2_view *v)
{
    mh_json_write_key(w, "irq");
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "flags", v->irq_flags);
    mh_args_write_byte(w, "mask", v->irq_mask);
    static const char *const sources[4] = {"raster", "sprite_background", "sprite_sprite",
                                           "lightpen"};
    mh_json_write_key(w, "pending");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 4; i++)
        if (v->irq_flags & (1u << i)) mh_json_write_string(w, sources[i]);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "enabled");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 4; i++)
        if (v->irq_mask & (1u << i)) mh_json_write_string(w, sources[i]);
    mh_json_write_array_end(w);
    mh_args_write_bool(w, "asserted", v->irq);
    mh_json_write_object_end(w);
}

static void write_memory(mh_json_writer *w, const mh_chip_vic2_view *v)
{
    mh_json_write_key(w, "memory");
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "bank", v->bank);
    mh_args_write_address(w, "bank_base", v->bank_base);
    mh_args_write_address(w, "screen", v->screen_address);
    mh_args_write_address(w, "charset", v->charset_address);
    mh_args_write_bool(w, "charset_in_rom", v->charset_in_rom);
    mh_args_write_address(w, "bitmap", v->bitmap_address);
    mh_args_write_bool(w, "bitmap_in_rom", v->bitmap_in_rom);
    mh_args_write_address(w, "sprite_pointers", v->sprite_pointers);
    mh_json_write_object_end(w);
}

static void write_raster(mh_json_writer *w, const mh_chip_vic2_view *v)
{
    mh_args_write_uint(w, "line", v->raster_line);
    mh_args_write_uint(w, "cycle", v->raster_cycle);
    mh_args_write_uint(w, "compare", v->raster_compare);
    mh_args_write_uint(w, "cycles_per_line", v->cycles_per_line);
    mh_args_write_uint(w, "lines_per_frame", v->lines_per_frame);
    mh_args_write_uint(w, "frame", v->frame);
    mh_args_write_bool(w, "bad_line", v->bad_line);
    mh_args_write_bool(w, "display_state", v->display_state);
    mh_args_write_bool(w, "vertical_border", v->vertical_border);
}

static void registers_get(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) { tv_end(&c); return; }
    const mh_chip_vic2_view *v = &c.view;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "model");
    mh_json_write_string(w, v->model);
    mh_json_write_key(w, "standard");
    mh_json_write_string(w, v->standard);
    mh_json_write_key(w, "mode");
    mh_json_write_string(w, tv_mode_name(v->mode));
    mh_args_write_uint(w, "mode_number", v->mode);
    mh_json_write_key(w, "control");
    mh_json_write_object_begin(w);
    mh_args_write_bool(w, "ecm", v->ecm);
    mh_args_write_bool(w, "bmm", v->bmm);
    mh_args_write_bool(w, "mcm", v->mcm);
    mh_args_write_bool(w, "den", v->den);
    mh_args_write_bool(w, "rsel", v->rsel);
    mh_args_write_uint(w, "rows", v->rsel ? 25 : 24);
    mh_args_write_bool(w, "csel", v->csel);
    mh_args_write_uint(w, "columns", v->csel ? 40 : 38);
    mh_args_write_uint(w, "xscroll", v->xscroll);
    mh_args_write_uint(w, "yscroll", v->yscroll);
    mh_args_write_bool(w, "res", v->res);
    mh_json_write_object_end(w);
    write_memory(w, v);
    mh_json_write_key(w, "raster");
    mh_json_write_object_begin(w);
    write_raster(w, v);
    mh_json_write_object_end(w);
    write_irq(w, v);
    mh_json_write_key(w, "colors");
    mh_json_write_object_begin(w);
    tv_write_color(w, "border", v->border_color);
    static const char *const bg[4] = {"background0", "background1", "background2",
                                      "background3"};
    for (unsigned i = 0; i < 4; i++) tv_write_color(w, bg[i], v->background[i]);
    tv_write_color(w, "sprite_multicolor0", v->sprite_multicolor[0]);
    tv_write_color(w, "sprite_multicolor1", v->sprite_multicolor[1]);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "collisions");
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "sprite_sprite", v->sprite_sprite_collisions);
    mh_args_write_byte(w, "sprite_background", v->sprite_background_collisions);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "lightpen");
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "x", v->lightpen_x);
    mh_args_write_uint(w, "y", v->lightpen_y);
    mh_json_write_object_end(w);
    mh_args_write_byte(w, "sprites_enabled", v->regs[0x15]);
    mh_json_write_key(w, "registers");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 0x2F; i++) mh_json_write_uint(w, v->regs[i]);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);

    char text[1536];
    int n = snprintf(text, sizeof text,
                     "VIC-II %s (%s): %s, DEN %u, %u rows, %u columns, XSCROLL %u YSCROLL %u\n"
                     "bank %u ($%04X): screen $%04X, charset $%04X%s, bitmap $%04X\n"
                     "raster line %u cycle %u, compare line %u; IRQ flags $%02X mask $%02X%s\n"
                     "border %u (%s), background %u (%s), sprites enabled $%02X\n",
                     v->model, v->standard, tv_mode_name(v->mode), v->den, v->rsel ? 25u : 24u,
                     v->csel ? 40u : 38u, v->xscroll, v->yscroll, v->bank, v->bank_base,
                     v->screen_address, v->charset_address,
                     v->charset_in_rom ? " (character ROM)" : "", v->bitmap_address,
                     v->raster_line, v->raster_cycle, v->raster_compare, v->irq_flags,
                     v->irq_mask, v->irq ? ", IRQ asserted" : "", v->border_color,
                     tv_color_name(v->border_color), v->background[0],
                     tv_color_name(v->background[0]), v->regs[0x15]);
    for (unsigned row = 0; row < 3 && n > 0 && (size_t)n < sizeof text; row++) {
        n += snprintf(text + n, sizeof text - (size_t)n, "$%04X:", (unsigned)(c.io.base + row * 16));
        for (unsigned i = 0; i < 16 && row * 16 + i < 0x2F; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, " %02X", v->regs[row * 16 + i]);
        n += snprintf(text + n, sizeof text - (size_t)n, "\n");
    }
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- vic2_registers_set ---- */

typedef struct reg_write {
    int reg;
    uint8_t value;
} reg_write;

/* One {register, value} pair from obj (the arguments or an array element). */
static int parse_write(tv_ctx *c, const mh_json *obj, const char *where, reg_write *out)
{
    uint32_t reg = 0;
    int64_t value = 0;
    mh_status st = mh_args_address_value(mh_json_object_get(obj, "register"), "register", 0xFFFF,
                                         &reg, c->err, sizeof c->err);
    if (st != MH_OK) {
        tv_fail(c, "%s%s; give a register number 0-63 or its address", where,
                st == MH_ERR_NOT_FOUND ? "register is missing" : c->err);
        return -1;
    }
    out->reg = tv_vic_register(reg, &c->io);
    if (out->reg < 0 && c->io.size) {
        tv_fail(c, "%sregister $%04X is not a VIC-II register: give 0-63 or an address "
                   "$%04X-$%04X (the registers repeat every 64 bytes)", where, (unsigned)reg,
                (unsigned)c->io.base, (unsigned)(c->io.base + c->io.size - 1));
        return -1;
    }
    if (out->reg < 0) {
        tv_fail(c, "%sregister $%04X is not a VIC-II register: give 0-63", where, (unsigned)reg);
        return -1;
    }
    st = mh_args_int(obj, "value", 0, 255, &value, c->err, sizeof c->err);
    if (st != MH_OK) {
        tv_fail(c, "%s%s (a byte 0-255, e.g. 14 or \"$0E\")", where,
                st == MH_ERR_NOT_FOUND ? "value is missing" : c->err);
        return -1;
    }
    out->value = (uint8_t)value;
    return 0;
}

static void registers_set(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) { tv_end(&c); return; }
    reg_write writes[64];
    size_t count = 0;
    const mh_json *list = mh_json_object_get(c.args, "writes");
    const int single = mh_json_object_get(c.args, "register") || mh_json_object_get(c.args, "value");
    if (list && single) {
        tv_fail(&c, "give either register + value or writes, not both");
        { tv_end(&c); return; }
    }
    if (list) {
        count = mh_json_array_size(list);
        if (mh_json_typeof(list) != MH_JSON_ARRAY || count == 0 || count > 64) {
            tv_fail(&c, "writes: expected an array of 1-64 {\"register\", \"value\"} objects");
            { tv_end(&c); return; }
        }
        for (size_t i = 0; i < count; i++) {
            char where[48];
            snprintf(where, sizeof where, "writes[%zu]: ", i);
            if (parse_write(&c, mh_json_array_get(list, i), where, &writes[i]) != 0)
                { tv_end(&c); return; }
        }
    } else {
        if (!single) {
            tv_fail(&c, "nothing to write: give register and value (e.g. {\"register\": "
                        "\"$D020\", \"value\": 0}) or writes: [{...}, ...]");
            { tv_end(&c); return; }
        }
        if (parse_write(&c, c.args, "", &writes[0]) != 0) { tv_end(&c); return; }
        count = 1;
    }
    for (size_t i = 0; i < count; i++) c.vic->write(c.chip, (uint16_t)writes[i].reg, writes[i].value);

    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "writes");
    mh_json_write_array_begin(w);
    char text[2048];
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        const int r = writes[i].reg;
        const uint8_t now = c.vic->peek(c.chip, (uint16_t)r);
        const int ignored = r == 0x13 || r == 0x14 || r == 0x1E || r == 0x1F || r >= 0x2F;
        mh_json_write_object_begin(w);
        mh_args_write_uint(w, "register", (unsigned)r);
        if (c.io.size) mh_args_write_address(w, "address", c.io.base + (unsigned)r);
        mh_args_write_byte(w, "value", writes[i].value);
        mh_args_write_byte(w, "read_back", now);
        if (ignored) {
            mh_json_write_key(w, "note");
            mh_json_write_string(w, "this register ignores writes");
        }
        mh_json_write_object_end(w);
        if (n < sizeof text)
            n += (size_t)snprintf(text + n, sizeof text - n, "$%04X <- $%02X (reads $%02X)%s\n",
                                  (unsigned)(c.io.base + (unsigned)r), writes[i].value, now,
                                  ignored ? ": this register ignores writes" : "");
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- vic2_raster_get ---- */

static void raster_get(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) { tv_end(&c); return; }
    const mh_chip_vic2_view *v = &c.view;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    write_raster(w, v);
    mh_args_write_byte(w, "irq_flags", v->irq_flags);
    mh_args_write_byte(w, "irq_mask", v->irq_mask);
    mh_json_write_key(w, "standard");
    mh_json_write_string(w, v->standard);
    mh_json_write_object_end(w);
    char text[256];
    snprintf(text, sizeof text,
             "raster line %u ($%03X), cycle %u of %u (%u lines, %s), frame %llu; IRQ compare "
             "line %u%s%s",
             v->raster_line, v->raster_line, v->raster_cycle, v->cycles_per_line,
             v->lines_per_frame, v->standard, (unsigned long long)v->frame, v->raster_compare,
             v->bad_line ? "; bad line" : "", v->vertical_border ? "; in the vertical border" : "");
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- vic2_memory_map ---- */

static void write_region(mh_json_writer *w, const char *name, uint32_t address, uint32_t length,
                         int in_use, int in_rom, const char *what)
{
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "name");
    mh_json_write_string(w, name);
    mh_args_write_address(w, "address", address);
    mh_args_write_address(w, "end", address + length - 1u);
    mh_args_write_uint(w, "length", length);
    mh_args_write_bool(w, "in_use", in_use);
    mh_args_write_bool(w, "in_rom", in_rom);
    mh_json_write_key(w, "what");
    mh_json_write_string(w, what);
    mh_json_write_object_end(w);
}

static void memory_map(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) { tv_end(&c); return; }
    const mh_chip_vic2_view *v = &c.view;
    const int bitmap = v->bmm != 0, blank = !v->den;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "bank", v->bank);
    mh_args_write_address(w, "bank_base", v->bank_base);
    mh_args_write_address(w, "bank_end", v->bank_base + 0x3FFFu);
    mh_json_write_key(w, "mode");
    mh_json_write_string(w, tv_mode_name(v->mode));
    mh_json_write_key(w, "regions");
    mh_json_write_array_begin(w);
    char text[2048];
    int n = snprintf(text, sizeof text, "VIC bank %u: $%04X-$%04X, %s%s\n", v->bank, v->bank_base,
                     v->bank_base + 0x3FFFu, tv_mode_name(v->mode),
                     blank ? " (display disabled: DEN 0)" : "");
    write_region(w, "screen", v->screen_address, 1000, !blank, 0,
                 bitmap ? "video matrix: colours of the bitmap cells" : "video matrix: screen codes");
    n += snprintf(text + n, sizeof text - (size_t)n, "screen          $%04X-$%04X%s\n",
                  v->screen_address, v->screen_address + 999u,
                  bitmap ? " (bitmap colours)" : " (screen codes)");
    write_region(w, "charset", v->charset_address, 2048, !bitmap && !blank, v->charset_in_rom,
                 "character set (text modes)");
    n += snprintf(text + n, sizeof text - (size_t)n, "charset         $%04X-$%04X%s%s\n",
                  v->charset_address, v->charset_address + 2047u,
                  v->charset_in_rom ? " character ROM" : " RAM", bitmap ? ", unused in bitmap mode" : "");
    write_region(w, "bitmap", v->bitmap_address, 8000, bitmap && !blank, v->bitmap_in_rom,
                 "bitmap (bitmap modes)");
    n += snprintf(text + n, sizeof text - (size_t)n, "bitmap          $%04X-$%04X%s\n",
                  v->bitmap_address, v->bitmap_address + 7999u,
                  bitmap ? "" : ", unused in text modes");
    write_region(w, "sprite_pointers", v->sprite_pointers, 8, v->regs[0x15] != 0, 0,
                 "sprite pointers (screen + $3F8)");
    n += snprintf(text + n, sizeof text - (size_t)n, "sprite pointers $%04X-$%04X\n",
                  v->sprite_pointers, v->sprite_pointers + 7u);
    for (unsigned i = 0; i < 8; i++) {
        char name[16], what[48];
        const mh_chip_vic2_sprite *s = &v->sprites[i];
        snprintf(name, sizeof name, "sprite%u", i);
        snprintf(what, sizeof what, "sprite %u data (pointer $%02X)", i, s->pointer);
        write_region(w, name, s->data_address, 63, s->enabled, 0, what);
        if ((size_t)n < sizeof text)
            n += snprintf(text + n, sizeof text - (size_t)n,
                          "sprite %u data   $%04X-$%04X (pointer $%02X)%s\n", i, s->data_address,
                          s->data_address + 62u, s->pointer, s->enabled ? "" : ", disabled");
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- registration ---- */

static const char registers_set_schema[] =
    "{\"type\":\"object\",\"properties\":{\"register\":{\"type\":[\"integer\",\"string\"],"
    "\"description\":\"Register 0-63 or its address, e.g. \\\"$D020\\\" (mirrors too)\"},"
    "\"value\":{\"type\":[\"integer\",\"string\"],\"description\":\"Byte 0-255\"},"
    "\"writes\":{\"type\":\"array\",\"description\":\"Several writes in order, instead of "
    "register + value\",\"minItems\":1,\"maxItems\":64,\"items\":{\"type\":\"object\","
    "\"properties\":{\"register\":{\"type\":[\"integer\",\"string\"],\"description\":\"As "
    "register\"},\"value\":{\"type\":[\"integer\",\"string\"],\"description\":\"Byte "
    "0-255\"}},\"required\":[\"register\",\"value\"],\"additionalProperties\":false}}},"
    "\"additionalProperties\":false}";

static const mh_tool_desc tools[] = {
    {0, "vic2_registers_get", "VIC-II registers",
     "The VIC-II registers decoded (mode, scroll, memory addresses, raster, IRQ, colours, "
     "collisions) and raw, without side effects.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"properties\":{\"mode\":{\"type\":\"string\"},"
     "\"memory\":{\"type\":\"object\"},\"registers\":{\"type\":\"array\"}}}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.vic2.registers.get", registers_get, NULL},
    {0, "vic2_registers_set", "Write VIC-II registers",
     "Writes VIC-II registers as a CPU store would (writing the IRQ flags acknowledges them); "
     "returns what they read after.",
     registers_set_schema,
     "{\"type\":\"object\",\"properties\":{\"writes\":{\"type\":\"array\"}}}",
     0, 0, NULL,
     "vice.vic2.registers.set", registers_set, NULL},
    {0, "vic2_raster_get", "VIC-II raster position",
     "The beam's line and cycle, the IRQ compare line, frame, bad line and border state.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"properties\":{\"line\":{\"type\":\"integer\"},"
     "\"cycle\":{\"type\":\"integer\"}}}",
     MH_TOOL_READ_ONLY, 0, NULL,
     "vice.vic2.raster.get", raster_get, NULL},
    {0, "vic2_memory_map", "What the VIC-II sees",
     "The VIC bank and where the screen, character set (RAM or ROM), bitmap, sprite pointers "
     "and sprite data lie, as CPU addresses.",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"properties\":{\"bank\":{\"type\":\"integer\"},"
     "\"regions\":{\"type\":\"array\"}}}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.vic2.memory.map", memory_map, NULL},
};

mh_status tv_register_registers(tv_plugin *plugin)
{
    return tv_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
