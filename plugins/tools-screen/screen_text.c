/* screen_text.c - screen_text: any machine's text screen ("mh.textscreen/1")
 * as readable lines, the screen codes decoded with the character set the
 * machine shows (mcphost/screen_codes.h); colors: true adds the colours
 * per cell and the reverse-video cells. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/args.h>
#include <mcphost/json.h>
#include <mcphost/screen_codes.h>
#include <mcphost/text_screen.h>

#include "tools_screen.h"

/* One string per row: per cell the colour as 1 hex digit (2 when the
 * machine has more than 16 colours). */
static void write_color_rows(mh_json_writer *w, const char *key, const mh_text_screen *s,
                             const uint8_t *cells)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned digits = s->color_count > 16 ? 2u : 1u;
    char line[2 * 80 + 1];
    mh_json_write_key(w, key);
    mh_json_write_array_begin(w);
    for (uint32_t row = 0; row < s->rows; row++) {
        size_t n = 0;
        for (uint32_t col = 0; col < s->columns && n + digits < sizeof line; col++) {
            const uint8_t v = cells[row * s->columns + col];
            if (digits == 2) line[n++] = hex[(v >> 4) & 15u];
            line[n++] = hex[v & 15u];
        }
        mh_json_write_stringn(w, line, n);
    }
    mh_json_write_array_end(w);
}

static void write_color(mh_json_writer *w, const char *key, const mh_text_screen *s, int32_t c)
{
    if (c < 0) return;
    mh_json_write_key(w, key);
    mh_json_write_uint(w, (uint64_t)c);
    if (s->color_names && (uint32_t)c < s->color_count) {
        char name[32];
        snprintf(name, sizeof name, "%s_name", key);
        mh_json_write_key(w, name);
        mh_json_write_string(w, s->color_names[c]);
    }
}

static void write_colors(mh_json_writer *w, const mh_text_screen *s)
{
    mh_json_write_key(w, "colors");
    mh_json_write_object_begin(w);
    if (s->has_colors) write_color_rows(w, "foreground", s, s->colors);
    if (s->has_backgrounds) write_color_rows(w, "background_cells", s, s->backgrounds);
    mh_json_write_key(w, "reverse");
    mh_json_write_array_begin(w);
    char line[81];
    for (uint32_t row = 0; row < s->rows; row++) {
        uint32_t col = 0;
        for (; col < s->columns && col < sizeof line - 1; col++)
            line[col] = s->reverse_bit && (s->codes[row * s->columns + col] & s->reverse_bit)
                            ? 'R' : '.';
        mh_json_write_stringn(w, line, col);
    }
    mh_json_write_array_end(w);
    write_color(w, "border", s, s->border);
    write_color(w, "background", s, s->background);
    mh_json_write_object_end(w);
}

static void write_lines(mh_json_writer *w, const mh_text_screen *s, const char *text)
{
    mh_json_write_key(w, "lines");
    mh_json_write_array_begin(w);
    const char *p = text;
    for (uint32_t row = 0; row < s->rows; row++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        mh_json_write_stringn(w, p, len);
        p = nl ? nl + 1 : p + len;
    }
    mh_json_write_array_end(w);
}

static void answer(mh_toolkit_services *p, mh_call *call, const mh_text_screen *s, bool colors)
{
    /* at most 3 UTF-8 bytes per cell, a newline per row */
    const size_t text_size = (size_t)s->columns * s->rows * 3 + s->rows + 1;
    char *text = malloc(text_size);
    if (!text) {
        mh_toolkit_fail(p->call, call, "out of memory");
        return;
    }
    mh_text_screen_lines(s, text, text_size);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    write_lines(w, s, text);
    mh_json_write_key(w, "columns");
    mh_json_write_uint(w, s->columns);
    mh_json_write_key(w, "rows");
    mh_json_write_uint(w, s->rows);
    mh_args_write_address(w, "screen", s->address);
    mh_json_write_key(w, "mode");
    mh_json_write_string(w, s->mode ? s->mode : "text");
    char charset[96];
    snprintf(charset, sizeof charset, "%s%s", s->custom_charset ? "custom (RAM), read as " : "",
             mh_charset_name(s->charset));
    mh_json_write_key(w, "charset");
    mh_json_write_string(w, charset);
    if (colors) write_colors(w, s);
    mh_json_write_object_end(w);
    char *json = mh_json_writer_finish(w, NULL);
    if (!json) {
        mh_toolkit_fail(p->call, call, "internal error: the result could not be written (%s)",
                        mh_json_writer_error(w));
    } else {
        /* The facts the screen does not show (mh_toolkit_facts_text) first,
         * then the screen itself, so the text ends with its last line as a
         * screen does (a reader waiting for "READY." at the end finds it). */
        char *facts = mh_toolkit_facts_text(json, text, 0);
        size_t n = (facts ? strlen(facts) : 0) + strlen(text) + 3;
        char *full = malloc(n);
        if (full) snprintf(full, n, "%s%s%s", facts ? facts : "", facts ? "\n\n" : "", text);
        p->call->text(call, full ? full : text);
        p->call->structured(call, json);
        free(full);
        free(facts);
        free(json);
    }
    mh_json_writer_free(w);
    free(text);
}

static void screen_text(void *user, mh_call *call)
{
    mh_toolkit_services *p = user;
    char err[MH_ARGS_ERROR_SIZE];
    mh_json_doc *doc = NULL;
    const mh_json *args = mh_toolkit_args(p->call, call, &doc, err, sizeof err);
    if (!args) return;
    bool colors = false;
    mh_status st = mh_args_bool(args, "colors", &colors, err, sizeof err);
    mh_json_free(doc);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        mh_toolkit_fail(p->call, call, "%s", err);
        return;
    }
    const mh_chip *chip = mh_toolkit_chip_or_fail(p->call, call, sizeof(mh_text_screen_iface),
                                                  "text screen", MH_IFACE_TEXT_SCREEN,
                                                  "tools-screen");
    if (!chip) return;
    const mh_text_screen_iface *iface = chip->vtable;
    mh_text_screen *s = calloc(1, sizeof *s);
    if (!s) {
        mh_toolkit_fail(p->call, call, "out of memory");
        return;
    }
    s->struct_size = sizeof *s;
    char why[512] = "";
    st = iface->read(chip->context, s, why, sizeof why);
    if (st != MH_OK)
        mh_toolkit_fail(p->call, call, "%s", why[0] ? why : "the machine could not read its screen");
    else if (!s->columns || !s->rows || s->columns > 80 ||
             s->columns * s->rows > MH_TEXT_SCREEN_MAX_CELLS)
        mh_toolkit_fail(p->call, call, "the machine reported a %ux%u text screen, which "
                                       "screen_text cannot show (a machine plugin bug)",
                        s->columns, s->rows);
    else
        answer(p, call, s, colors);
    free(s);
}

static const mh_tool_desc tools[] = {
    {0, "screen_text", "Screen text",
     "The text screen as lines of UTF-8, screen codes decoded with the machine's character "
     "set. Fails in bitmap modes.",
     "{\"type\":\"object\",\"properties\":{\"colors\":{\"type\":\"boolean\","
     "\"description\":\"Add colours per cell and reverse-video cells\"}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"lines\",\"columns\",\"rows\",\"mode\",\"charset\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.vic2.screen.text", screen_text, NULL},
};

mh_status tsc_register_text(mh_toolkit_services *plugin)
{
    return mh_toolkit_register_tools(plugin->host, plugin->registry, tools,
                                     sizeof tools / sizeof tools[0], MH_IFACE_TEXT_SCREEN, plugin);
}
