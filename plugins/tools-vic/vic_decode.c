/* vic_decode.c - the pure part of the VIC toolset (vic_decode.h). */
#include "vic_decode.h"

#include <stdio.h>
#include <strings.h>

#include <mcphost/args.h>

static const char *const register_names[16] = {"CR0", "CR1", "CR2", "CR3", "CR4", "CR5",
                                               "CR6", "CR7", "CR8", "CR9", "CRA", "CRB",
                                               "CRC", "CRD", "CRE", "CRF"};

const char *tvic_register_name(unsigned reg) { return register_names[reg & 15u]; }

int tvic_register(const char *name, uint32_t value, const mh_chip_io_range *range)
{
    for (int i = 0; name && i < 16; i++)
        if (strcasecmp(name, register_names[i]) == 0) return i;
    return name ? -1 : mh_chip_io_register(range, 16, 16, value);
}

const char *tvic_color_name(unsigned color)
{
    static const char *const names[16] = {
        "black",  "white",        "red",        "cyan",         "purple",      "green",
        "blue",   "yellow",       "orange",     "light orange", "pink",        "light cyan",
        "light purple", "light green", "light blue", "light yellow"};
    return names[color & 15u];
}

const char *tvic_voice_name(unsigned voice)
{
    static const char *const names[4] = {"bass", "alto", "soprano", "noise"};
    return names[voice & 3u];
}

/* "key": {"address": cpu, "address_hex": .., "vic_address": .., ...} */
static void write_area(mh_json_writer *w, const char *key, uint16_t cpu, int vic, uint16_t vic_addr)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "address", cpu);
    if (vic) mh_args_write_address(w, "vic_address", vic_addr);
}

static void write_color(mh_json_writer *w, const char *key, unsigned color)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "value", color);
    mh_args_write_string(w, "name", tvic_color_name(color));
    mh_json_write_object_end(w);
}

static void write_pair(mh_json_writer *w, const char *key, const char *a, unsigned x,
                       const char *b, unsigned y)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, a, x);
    mh_args_write_uint(w, b, y);
    mh_json_write_object_end(w);
}

void tvic_write_view(mh_json_writer *w, const char *instance, const mh_chip_io_range *io,
                     const mh_chip_vic_view *v)
{
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "instance", instance);
    mh_args_write_string(w, "model", v->model);
    mh_args_write_string(w, "standard", v->standard);
    if (io && io->size) mh_args_write_address(w, "address", io->base);
    mh_args_write_uint(w, "clock_hz", v->clock_hz);
    mh_args_write_uint(w, "cycles_per_line", v->cycles_per_line);
    mh_args_write_uint(w, "lines_per_frame", v->lines_per_frame);
    write_area(w, "screen", v->screen_address, 1, v->screen_vic_address);
    mh_json_write_object_end(w);
    write_area(w, "color_ram", v->color_address, 0, 0);
    mh_json_write_object_end(w);
    write_area(w, "charset", v->charset_address, 1, v->charset_vic_address);
    mh_args_write_bool(w, "in_rom", v->charset_in_rom);
    mh_json_write_object_end(w);
    mh_args_write_uint(w, "columns", v->columns);
    mh_args_write_uint(w, "rows", v->rows);
    mh_args_write_uint(w, "char_height", v->char_height);
    mh_args_write_bool(w, "interlace", v->interlace);
    write_pair(w, "origin", "x", v->origin_x, "y", v->origin_y);
    mh_json_write_key(w, "raster");
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "line", v->raster_line);
    mh_args_write_uint(w, "cycle", v->raster_cycle);
    mh_args_write_uint(w, "frame", v->frame);
    mh_json_write_object_end(w);
    write_pair(w, "light_pen", "x", v->lightpen_x, "y", v->lightpen_y);
    write_pair(w, "paddles", "x", v->paddle_x, "y", v->paddle_y);
    mh_json_write_key(w, "colors");
    mh_json_write_object_begin(w);
    write_color(w, "border", v->border_color);
    write_color(w, "background", v->background_color);
    write_color(w, "auxiliary", v->auxiliary_color);
    mh_args_write_bool(w, "reverse", v->reverse);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "sound");
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "volume", v->volume);
    mh_json_write_key(w, "voices");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 4; i++) {
        const mh_chip_vic_voice *s = &v->voices[i];
        mh_json_write_object_begin(w);
        mh_args_write_string(w, "name", tvic_voice_name(i));
        mh_args_write_byte(w, "register", s->reg);
        mh_args_write_bool(w, "on", s->on);
        mh_args_write_uint(w, "value", s->value);
        mh_json_write_key(w, "hz");
        mh_json_write_double(w, s->frequency_hz);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    mh_json_write_key(w, "registers");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 16; i++) mh_json_write_uint(w, v->regs[i]);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
}

int tvic_view_text(char *out, size_t size, const mh_chip_vic_view *v)
{
    int n = snprintf(out, size,
                     "VIC %s (%s): screen $%04X, colour RAM $%04X, charset $%04X%s; %ux%u "
                     "characters %u lines high%s, origin %u,%u\n"
                     "border %u (%s), background %u (%s), auxiliary %u (%s)%s; raster line %u "
                     "cycle %u, frame %llu\nsound volume %u:",
                     v->model ? v->model : "?", v->standard ? v->standard : "?",
                     v->screen_address, v->color_address, v->charset_address,
                     v->charset_in_rom ? " (ROM)" : "", v->columns, v->rows, v->char_height,
                     v->interlace ? ", interlaced" : "", v->origin_x, v->origin_y,
                     v->border_color, tvic_color_name(v->border_color), v->background_color,
                     tvic_color_name(v->background_color), v->auxiliary_color,
                     tvic_color_name(v->auxiliary_color), v->reverse ? ", reverse" : "",
                     v->raster_line, v->raster_cycle, (unsigned long long)v->frame, v->volume);
    for (unsigned i = 0; i < 4 && n > 0 && (size_t)n < size; i++) {
        const mh_chip_vic_voice *s = &v->voices[i];
        if (s->on)
            n += snprintf(out + n, size - (size_t)n, " %s %.1f Hz", tvic_voice_name(i),
                          s->frequency_hz);
        else
            n += snprintf(out + n, size - (size_t)n, " %s off", tvic_voice_name(i));
    }
    return n;
}
