/* tools_vic2_borders.c - vic2_borders_get: border and background colour
 * per raster line. (The screen itself: screen_capture and screen_text of
 * tools-screen.) */
#include <stdio.h>

#include "tools_vic2.h"

#define END_CALL { tv_end(&c); return; }

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
    {0, "vic2_borders_get", "Border and background per raster line",
     "Border and background colour of each raster line of the last frame, as runs: shows "
     "raster bars and split screens.",
     "{\"type\":\"object\",\"properties\":{\"first_line\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"First line (default 0)\"},\"last_line\":{\"type\":[\"integer\","
     "\"string\"],\"description\":\"Last line (default the frame's last)\"}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"runs\"]}",
     MH_TOOL_READ_ONLY, 0, NULL,
     "vice.vic2.borders.get", borders_get, NULL},
};

mh_status tv_register_borders(tv_plugin *plugin)
{
    return tv_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
