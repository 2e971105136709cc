/* ted_decode.c - the pure part of the TED toolset (ted_decode.h). */
#include "ted_decode.h"

#include <stdio.h>

#include <mcphost/args.h>

const char *tted_mode_name(unsigned mode)
{
    static const char *const names[8] = {"text",         "multicolor_text", "bitmap",
                                         "multicolor_bitmap", "ecm_text", "invalid_text",
                                         "invalid_bitmap", "invalid_multicolor_bitmap"};
    return names[mode & 7u];
}

const char *tted_hue_name(unsigned hue)
{
    static const char *const names[16] = {
        "black",  "white", "red",          "cyan", "purple",     "green",      "blue",
        "yellow", "orange", "brown", "yellow-green", "pink", "blue-green", "light blue",
        "dark blue", "light green"};
    return names[hue & 15u];
}

const char *tted_irq_name(unsigned bit)
{
    static const char *const names[8] = {NULL, "raster", "lightpen", "timer1", "timer2", NULL,
                                         "timer3", NULL};
    return names[bit & 7u];
}

int tted_register(uint32_t value, const mh_chip_io_range *range)
{
    return mh_chip_io_register(range, 64, 64, value);
}

static void write_color(mh_json_writer *w, const mh_chip_ted_color *c)
{
    char rgb[8];
    snprintf(rgb, sizeof rgb, "#%06X", (unsigned)(c->rgb & 0xFFFFFFu));
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "value", c->value);
    mh_args_write_uint(w, "hue", c->hue);
    mh_args_write_string(w, "hue_name", tted_hue_name(c->hue));
    mh_args_write_uint(w, "luminance", c->luminance);
    mh_args_write_string(w, "rgb", rgb);
    mh_json_write_object_end(w);
}

static void write_timer_list(mh_json_writer *w, const mh_chip_ted_view *v)
{
    mh_json_write_key(w, "timers");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 3; i++) {
        const mh_chip_ted_timer *t = &v->timers[i];
        mh_json_write_object_begin(w);
        mh_args_write_uint(w, "timer", i + 1);
        mh_args_write_address(w, "counter", t->counter);
        mh_args_write_address(w, "reload", t->reload);
        mh_args_write_bool(w, "running", t->running);
        mh_args_write_uint(w, "underflows", t->underflows);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
}

static void write_display(mh_json_writer *w, const mh_chip_ted_view *v)
{
    mh_args_write_string(w, "mode", tted_mode_name(v->mode));
    mh_args_write_bool(w, "blank", v->blank);
    mh_args_write_uint(w, "rows", v->rows25 ? 25 : 24);
    mh_args_write_uint(w, "columns", v->columns40 ? 40 : 38);
    mh_args_write_uint(w, "xscroll", v->xscroll);
    mh_args_write_uint(w, "yscroll", v->yscroll);
    mh_args_write_bool(w, "hardware_reverse", !v->reverse_off);
    mh_args_write_bool(w, "frozen", v->frozen);
    mh_json_write_key(w, "memory");
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "screen", v->screen_address);
    mh_args_write_address(w, "attributes", v->attribute_address);
    mh_args_write_address(w, "charset", v->charset_address);
    mh_args_write_bool(w, "charset_in_rom", v->charset_in_rom);
    mh_args_write_address(w, "bitmap", v->bitmap_address);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "colors");
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "background");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 4; i++) write_color(w, &v->background[i]);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "border");
    write_color(w, &v->border);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "cursor");
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "position", v->cursor_position);
    mh_args_write_uint(w, "row", v->cursor_position / 40u);
    mh_args_write_uint(w, "column", v->cursor_position % 40u);
    mh_args_write_bool(w, "visible", v->cursor_visible);
    mh_args_write_bool(w, "flash_on", v->flash_on);
    mh_json_write_object_end(w);
}

void tted_write_view(mh_json_writer *w, const char *instance, const mh_chip_io_range *io,
                     const mh_chip_ted_view *v)
{
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "instance", instance);
    mh_args_write_string(w, "model", v->model);
    mh_args_write_string(w, "standard", v->standard);
    if (io && io->size) mh_args_write_address(w, "address", io->base);
    write_display(w, v);
    write_timer_list(w, v);
    mh_json_write_key(w, "sound");
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "volume", v->volume);
    mh_args_write_bool(w, "da_mode", v->da_mode);
    mh_json_write_key(w, "voices");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 2; i++) {
        const mh_chip_ted_voice *s = &v->voices[i];
        mh_json_write_object_begin(w);
        mh_args_write_uint(w, "frequency", s->frequency);
        mh_args_write_bool(w, "on", s->on);
        if (i == 1) mh_args_write_bool(w, "noise", s->noise);
        mh_json_write_key(w, "hz");
        mh_json_write_double(w, s->hz);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "raster");
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "line", v->raster_line);
    mh_args_write_uint(w, "column", v->raster_column);
    mh_args_write_uint(w, "compare", v->raster_compare);
    mh_args_write_uint(w, "frame", v->frame);
    mh_args_write_bool(w, "bad_line", v->bad_line);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "irq");
    mh_json_write_object_begin(w);
    mh_args_write_byte(w, "flags", v->irq_flags);
    mh_args_write_byte(w, "mask", v->irq_mask);
    mh_args_write_bit_names(w, "pending", v->irq_flags, 7, tted_irq_name);
    mh_args_write_bit_names(w, "enabled", v->irq_mask, 7, tted_irq_name);
    mh_args_write_bool(w, "asserted", v->irq);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "clock");
    mh_json_write_object_begin(w);
    mh_args_write_bool(w, "single_forced", v->single_clock_forced);
    mh_args_write_bool(w, "double_now", v->double_clock_now);
    mh_args_write_uint(w, "single_hz", v->cpu_hz_single);
    mh_json_write_object_end(w);
    mh_args_write_bool(w, "rom_enabled", v->rom_enabled);
    mh_json_write_key(w, "registers");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 64; i++) mh_json_write_uint(w, v->regs[i]);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
}

void tted_write_timers(mh_json_writer *w, const char *instance, const mh_chip_ted_view *v)
{
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "instance", instance);
    write_timer_list(w, v);
    mh_json_write_object_end(w);
}

int tted_timers_text(char *out, size_t size, const mh_chip_ted_view *v)
{
    int n = 0;
    for (unsigned i = 0; i < 3 && n >= 0 && (size_t)n < size; i++) {
        const mh_chip_ted_timer *t = &v->timers[i];
        n += snprintf(out + n, size - (size_t)n, "timer %u: $%04X (reload $%04X) %s, %u underflows\n",
                      i + 1, t->counter, t->reload, t->running ? "running" : "stopped",
                      (unsigned)t->underflows);
    }
    return n;
}

int tted_view_text(char *out, size_t size, const mh_chip_ted_view *v)
{
    int n = snprintf(out, size,
                     "TED %s (%s): %s mode, %ux%u%s; screen $%04X, attributes $%04X, charset $%04X%s, "
                     "bitmap $%04X\nborder $%02X (%s, luminance %u), background $%02X (%s, "
                     "luminance %u); cursor %u; raster line %u (compare %u), IRQ flags $%02X mask "
                     "$%02X%s; %s, %s clock\n",
                     v->model ? v->model : "?", v->standard ? v->standard : "?",
                     tted_mode_name(v->mode), v->columns40 ? 40u : 38u, v->rows25 ? 25u : 24u,
                     v->blank ? ", blanked" : "", v->screen_address, v->attribute_address,
                     v->charset_address, v->charset_in_rom ? " (ROM)" : "", v->bitmap_address,
                     v->border.value, tted_hue_name(v->border.hue), v->border.luminance,
                     v->background[0].value, tted_hue_name(v->background[0].hue),
                     v->background[0].luminance, v->cursor_position, v->raster_line,
                     v->raster_compare, v->irq_flags, v->irq_mask, v->irq ? ", IRQ asserted" : "",
                     v->rom_enabled ? "ROM" : "RAM",
                     v->single_clock_forced ? "single (forced)" : "single/double");
    if (n < 0 || (size_t)n >= size) return n;
    int m = tted_timers_text(out + n, size - (size_t)n, v);
    if (m < 0 || (size_t)(n + m) >= size) return n + m;
    n += m;
    return n + snprintf(out + n, size - (size_t)n,
                        "sound volume %u: voice 1 %s %.1f Hz, voice 2 %s%s %.1f Hz",
                        v->volume, v->voices[0].on ? "on" : "off", v->voices[0].hz,
                        v->voices[1].on ? "on" : "off", v->voices[1].noise ? " (noise)" : "",
                        v->voices[1].hz);
}
