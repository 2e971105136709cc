/* tools_vic2_screen.c - vic2_screen_capture, vic2_screen_text,
 * vic2_borders_get. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/png.h>

#include "tools_vic2.h"

#define END_CALL { tv_end(&c); return; }

/* ---- vic2_screen_capture ---- */

static void screen_capture(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) END_CALL
    int64_t scale = 1;
    mh_status st = mh_args_int(c.args, "scale", 1, 4, &scale, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s", c.err);
        END_CALL
    }
    void *vctx = NULL;
    const mh_video_iface *video = tv_find(&c, MH_IFACE_VIDEO, &vctx);
    mh_video_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    if (!video || video->frame(vctx, &frame) != MH_OK || !frame.pixels || !frame.palette) {
        tv_fail(&c, "this machine does not show its picture (%s): no screen capture; "
                    "vic2_screen_text reads the text screen instead", MH_IFACE_VIDEO);
        END_CALL
    }
    uint8_t rgb[256 * 3];
    mh_png_desc desc;
    uint8_t *png = NULL;
    size_t size = 0;
    if (mh_png_desc_from_frame(&frame, (unsigned)scale, rgb, &desc) != MH_OK ||
        mh_png_encode(&desc, &png, &size) != MH_OK) {
        tv_fail(&c, "internal error: the frame could not be encoded as PNG");
        END_CALL
    }
    char text[256];
    snprintf(text, sizeof text,
             "frame %llu: %ux%u pixels (%s, the visible area with borders)%s, %zu bytes of PNG",
             (unsigned long long)frame.frame_number, frame.width * (unsigned)scale,
             frame.height * (unsigned)scale, c.view.standard,
             scale > 1 ? ", scaled" : "", size);
    c.plugin->call->text(call, text);
    c.plugin->call->image(call, "image/png", png, size);
    free(png);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "width");
    mh_json_write_uint(w, frame.width * (unsigned)scale);
    mh_json_write_key(w, "height");
    mh_json_write_uint(w, frame.height * (unsigned)scale);
    mh_json_write_key(w, "scale");
    mh_json_write_uint(w, (uint64_t)scale);
    mh_json_write_key(w, "frame");
    mh_json_write_uint(w, frame.frame_number);
    mh_json_write_key(w, "bytes");
    mh_json_write_uint(w, size);
    mh_json_write_object_end(w);
    tv_send(&c, w, NULL);
    tv_end(&c);
}

/* ---- vic2_screen_text ---- */

static void write_hex_rows(mh_json_writer *w, const char *key, const uint8_t *cells, int ecm_bg)
{
    static const char hex[] = "0123456789ABCDEF";
    mh_json_write_key(w, key);
    mh_json_write_array_begin(w);
    for (unsigned row = 0; row < 25; row++) {
        char line[41];
        for (unsigned col = 0; col < 40; col++) {
            uint8_t v = cells[row * 40 + col];
            line[col] = hex[ecm_bg ? (v >> 6) : (v & 15u)];
        }
        line[40] = '\0';
        mh_json_write_string(w, line);
    }
    mh_json_write_array_end(w);
}

static void screen_text(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) END_CALL
    bool colors = false;
    mh_status st = mh_args_bool(c.args, "colors", &colors, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s", c.err);
        END_CALL
    }
    const mh_chip_vic2_view *v = &c.view;
    if (v->bmm) {
        tv_fail(&c, "the VIC-II shows %s: there is no text screen (the video matrix at $%04X "
                    "holds colours). Use vic2_screen_capture for the picture",
                tv_mode_name(v->mode), v->screen_address);
        END_CALL
    }
    uint8_t codes[1000], cells[1000], color_ram[1000];
    c.vic->vic_read(c.chip, (uint16_t)(v->screen_address - v->bank_base), codes, sizeof codes);
    memcpy(cells, codes, sizeof cells);
    if (v->ecm)
        for (size_t i = 0; i < sizeof codes; i++) codes[i] &= 0x3Fu;
    /* The ROM's second set ($0800 into the character ROM) is lower case. */
    const int lowercase = v->charset_in_rom && (v->charset_address & 0x0800u);
    char text[25 * 41 * 3 + 1];
    tv_screen_text(codes, lowercase, text, sizeof text);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "lines");
    mh_json_write_array_begin(w);
    const char *p = text;
    for (unsigned row = 0; row < 25; row++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        mh_json_write_stringn(w, p, len);
        p = nl ? nl + 1 : p + len;
    }
    mh_json_write_array_end(w);
    mh_args_write_address(w, "screen", v->screen_address);
    mh_json_write_key(w, "mode");
    mh_json_write_string(w, tv_mode_name(v->mode));
    mh_json_write_key(w, "charset");
    mh_json_write_string(w, !v->charset_in_rom ? "custom (RAM), read as the ROM's upper case set"
                                               : lowercase ? "lower/upper case" : "upper case/graphics");
    if (colors) {
        c.vic->color_read(c.chip, 0, color_ram, sizeof color_ram);
        mh_json_write_key(w, "colors");
        mh_json_write_object_begin(w);
        write_hex_rows(w, "foreground", color_ram, 0);
        if (v->ecm) write_hex_rows(w, "background_select", cells, 1);
        mh_json_write_key(w, "reverse");
        mh_json_write_array_begin(w);
        for (unsigned row = 0; row < 25; row++) {
            char line[41];
            for (unsigned col = 0; col < 40; col++)
                line[col] = !v->ecm && (cells[row * 40 + col] & 0x80u) ? 'R' : '.';
            line[40] = '\0';
            mh_json_write_string(w, line);
        }
        mh_json_write_array_end(w);
        tv_write_color(w, "border", v->border_color);
        tv_write_color(w, "background", v->background[0]);
        mh_json_write_object_end(w);
    }
    mh_json_write_object_end(w);
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- vic2_borders_get ---- */

static void borders_get(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) END_CALL
    uint8_t border[MH_CHIP_VIC2_MAX_LINES], background[MH_CHIP_VIC2_MAX_LINES];
    size_t lines = c.vic->line_colors(c.chip, border, background, MH_CHIP_VIC2_MAX_LINES);
    if (lines == 0) {
        tv_fail(&c, "no frame has been completed since reset: run the machine for a frame "
                    "first");
        END_CALL
    }
    if (lines > MH_CHIP_VIC2_MAX_LINES) lines = MH_CHIP_VIC2_MAX_LINES;
    int64_t first = 0, last = (int64_t)lines - 1;
    mh_status st = mh_args_int(c.args, "first_line", 0, last, &first, c.err, sizeof c.err);
    if (st == MH_OK || st == MH_ERR_NOT_FOUND)
        st = mh_args_int(c.args, "last_line", first, (int64_t)lines - 1, &last, c.err,
                         sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s (this frame has lines 0-%zu)", c.err, lines - 1);
        END_CALL
    }
    tv_color_run runs[MH_CHIP_VIC2_MAX_LINES];
    size_t count = tv_color_runs(border, background, (size_t)first, (size_t)last, runs,
                                 MH_CHIP_VIC2_MAX_LINES);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "lines_per_frame");
    mh_json_write_uint(w, lines);
    mh_json_write_key(w, "first_line");
    mh_json_write_uint(w, (uint64_t)first);
    mh_json_write_key(w, "last_line");
    mh_json_write_uint(w, (uint64_t)last);
    mh_json_write_key(w, "runs");
    mh_json_write_array_begin(w);
    char text[8192];
    int n = snprintf(text, sizeof text,
                     "border/background per raster line of the last complete frame (colour in "
                     "each line's last cycle), lines %lld-%lld, %zu run(s):\n",
                     (long long)first, (long long)last, count);
    for (size_t i = 0; i < count; i++) {
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "first");
        mh_json_write_uint(w, runs[i].first);
        mh_json_write_key(w, "last");
        mh_json_write_uint(w, runs[i].last);
        tv_write_color(w, "border", runs[i].border);
        tv_write_color(w, "background", runs[i].background);
        mh_json_write_object_end(w);
        if (n > 0 && (size_t)n < sizeof text)
            n += snprintf(text + n, sizeof text - (size_t)n,
                          "lines %3u-%3u: border %2u (%s), background %2u (%s)\n", runs[i].first,
                          runs[i].last, runs[i].border, tv_color_name(runs[i].border),
                          runs[i].background, tv_color_name(runs[i].background));
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- registration ---- */

static const mh_tool_desc tools[] = {
    {0, "vic2_screen_capture", "Screen capture",
     "The last complete frame as a PNG image: the whole visible area with borders (384x272 on "
     "PAL), exactly the machine's framebuffer, optionally scaled 1-4x.",
     "{\"type\":\"object\",\"properties\":{\"scale\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Integer scale 1-4 (default 1)\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"properties\":{\"width\":{\"type\":\"integer\"},\"height\":{\"type\":"
     "\"integer\"},\"frame\":{\"type\":\"integer\"}},\"required\":[\"width\",\"height\"]}",
     MH_TOOL_READ_ONLY, 0, NULL, "vice.vic2.screen.capture", screen_capture, NULL},
    {0, "vic2_screen_text", "Screen text",
     "The text screen (40x25) as readable text, decoded from the screen codes in video memory "
     "with the character set in use; colors: true adds the colour RAM per cell, reverse-video "
     "cells and the border/background colours. Fails in bitmap modes.",
     "{\"type\":\"object\",\"properties\":{\"colors\":{\"type\":\"boolean\",\"description\":"
     "\"Also return colours per cell (hex digit per cell)\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"properties\":{\"lines\":{\"type\":\"array\",\"items\":{\"type\":"
     "\"string\"}}},\"required\":[\"lines\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL, "vice.vic2.screen.text", screen_text, NULL},
    {0, "vic2_borders_get", "Border and background per raster line",
     "Border ($D020) and background ($D021) colour of every raster line of the last complete "
     "frame, as runs of lines with the same colours: shows raster bars and split screens. "
     "Optional first_line/last_line.",
     "{\"type\":\"object\",\"properties\":{\"first_line\":{\"type\":[\"integer\",\"string\"]},"
     "\"last_line\":{\"type\":[\"integer\",\"string\"]}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"properties\":{\"runs\":{\"type\":\"array\"},\"lines_per_frame\":{"
     "\"type\":\"integer\"}},\"required\":[\"runs\"]}",
     MH_TOOL_READ_ONLY, 0, NULL, "vice.vic2.borders.get", borders_get, NULL},
};

mh_status tv_register_screen(tv_plugin *plugin)
{
    return tv_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
