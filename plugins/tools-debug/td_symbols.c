/* td_symbols.c - symbols_load and symbols_list: the session's symbol table
 * (td_store.h), loaded from files the host's "mh.files/1" service allows.
 * The formats are td_symfmt.h's (detected from the content, or named by
 * `format`); debug info with line numbers also fills the session's line
 * table (td_lines.h). Lines that are not understood are counted as skipped
 * and the first ones reported with their line numbers. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mcphost/files.h>

#include "td_code.h"
#include "td_store.h"
#include <mcphost/media.h>

#include "td_symfmt.h"
#include "td_annotations.h"
#include "td_resolve.h"
#include "td_util.h"

#define MAX_FILE (16u * 1024u * 1024u)
#define MAX_REPORTED 8

/* The whole file, NUL-terminated, through the SDK's loader (regular files
 * only, never blocking on a FIFO); NULL with error set. */
static char *read_file(const char *path, size_t *size, char *error, size_t error_size)
{
    uint8_t *bytes = NULL;
    mh_media_error why;
    if (mh_media_load_file(path, MAX_FILE, &bytes, size, &why) != MH_OK) {
        snprintf(error, error_size, "%s", why.message);
        return NULL;
    }
    char *text = realloc(bytes, *size + 1);
    if (!text) {
        free(bytes);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    text[*size] = '\0';
    return text;
}

/* ---- what a parse found, before it goes into the session ---- */

typedef struct found_symbol {
    char *name;
    uint32_t value;
} found_symbol;

typedef struct found_file {
    uint32_t id;
    char *name;
} found_file;

typedef struct load {
    found_symbol *symbols;
    size_t symbol_count, symbol_capacity;
    found_file *files;
    size_t file_count;
    td_line *lines; /* file holds the format's file id */
    size_t line_count, line_capacity;
    size_t skipped;
    uint32_t bad_lines[MAX_REPORTED];
    const char *bad_why[MAX_REPORTED];
    int failed; /* out of memory or past a limit */
} load;

static int grow(void **items, size_t *capacity, size_t count, size_t size, size_t limit)
{
    if (count < *capacity) return 1;
    if (count >= limit) return 0;
    size_t cap = *capacity ? *capacity * 2 : 64;
    void *more = realloc(*items, cap * size);
    if (!more) return 0;
    *items = more;
    *capacity = cap;
    return 1;
}

static int on_symbol(void *user, const char *name, size_t length, uint32_t value)
{
    load *l = user;
    char *copy = malloc(length + 1);
    if (!copy || !grow((void **)&l->symbols, &l->symbol_capacity, l->symbol_count,
                       sizeof *l->symbols, TD_MAX_SYMBOLS)) {
        free(copy);
        return l->failed = 1;
    }
    memcpy(copy, name, length);
    copy[length] = '\0';
    l->symbols[l->symbol_count++] = (found_symbol){copy, value};
    return 0;
}

static int on_file(void *user, uint32_t id, const char *name, size_t length)
{
    load *l = user;
    if (l->file_count >= TD_MAX_SOURCE_FILES) return 0; /* the rest stay without lines */
    found_file *files = realloc(l->files, (l->file_count + 1) * sizeof *files);
    char *copy = malloc(length + 1);
    if (files) l->files = files;
    if (!files || !copy) {
        free(copy);
        return l->failed = 1;
    }
    memcpy(copy, name, length);
    copy[length] = '\0';
    l->files[l->file_count++] = (found_file){id, copy};
    return 0;
}

static int on_line(void *user, uint32_t file_id, uint32_t line, uint32_t start, uint32_t end)
{
    load *l = user;
    if (!grow((void **)&l->lines, &l->line_capacity, l->line_count, sizeof *l->lines, TD_MAX_LINES))
        return l->failed = 1;
    l->lines[l->line_count++] = (td_line){start, end, file_id, line};
    return 0;
}

static void on_bad(void *user, uint32_t line_no, const char *why)
{
    load *l = user;
    if (l->skipped < MAX_REPORTED) {
        l->bad_lines[l->skipped] = line_no;
        l->bad_why[l->skipped] = why;
    }
    l->skipped++;
}

static void load_free(load *l)
{
    for (size_t i = 0; i < l->symbol_count; i++) free(l->symbols[i].name);
    for (size_t i = 0; i < l->file_count; i++) free(l->files[i].name);
    free(l->symbols);
    free(l->files);
    free(l->lines);
}

/* The folder of a resolved path ("" for none), for relative source names. */
static void folder_of(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n >= size) n = 0;
    memcpy(out, path, n);
    out[n] = '\0';
}

/* Moves what l found into the session; returns the lines added. */
static size_t store_load(td_session_state *state, load *l, const char *folder, size_t *loaded,
                         int *full)
{
    for (size_t i = 0; i < l->symbol_count && !*full; i++) {
        const found_symbol *s = &l->symbols[i];
        if (td_symbols_add(state, s->name, strlen(s->name), s->value) == MH_OK) (*loaded)++;
        else *full = 1;
    }
    td_symbols_sort(state);
    size_t added = 0;
    uint32_t *index = l->file_count ? malloc(l->file_count * sizeof *index) : NULL;
    for (size_t f = 0; index && f < l->file_count; f++)
        if (td_lines_add_file(&state->lines, l->files[f].name, strlen(l->files[f].name), folder,
                              &index[f]) != MH_OK)
            index[f] = UINT32_MAX;
    for (size_t i = 0; index && i < l->line_count; i++) {
        const td_line *ln = &l->lines[i];
        size_t f = 0;
        while (f < l->file_count && l->files[f].id != ln->file) f++;
        if (f == l->file_count || index[f] == UINT32_MAX) continue;
        if (td_lines_add(&state->lines, index[f], ln->line, ln->start, ln->end) != MH_OK) break;
        added++;
    }
    free(index);
    return added;
}

void td_symbols_load(void *user, mh_call *call)
{
    td_call c;
    char *data = NULL;
    load l;
    memset(&l, 0, sizeof l);
    if (td_begin(&c, user, call, "symbols_load", 0) != 0) goto done;
    const char *path = NULL, *format_name = NULL;
    mh_status status = mh_args_string(c.args, "path", &path, NULL, c.err, sizeof c.err);
    if (status != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    bool replace = false;
    status = mh_args_bool(c.args, "replace", &replace, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    const td_symfmt *format = NULL;
    status = mh_args_string(c.args, "format", &format_name, NULL, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (format_name && strcmp(format_name, "auto") != 0 && !(format = td_symfmt_named(format_name))) {
        td_buf b = {0};
        for (size_t i = 0; i < td_symfmt_count(); i++)
            td_buf_printf(&b, "%s\"%s\"", i ? ", " : "", td_symfmt_at(i)->name);
        td_fail(&c, "format: unknown \"%.*s\"; give \"auto\" or one of %s", mh_utf8_prefix(format_name, 64),
                format_name, b.text ? b.text : "");
        td_buf_free(&b);
        goto done;
    }
    const mh_files_service *files = c.plugin->host->get_service(c.plugin->host, MH_FILES_SERVICE_ID);
    if (!files || files->struct_size < sizeof *files || !files->resolve) {
        td_fail(&c, "symbols_load: this host has no file service (%s), so it cannot open files",
                MH_FILES_SERVICE_ID);
        goto done;
    }
    char resolved[PATH_MAX], error[512];
    status = files->resolve(c.plugin->host, path, MH_FILES_READ, resolved, sizeof resolved, error,
                            sizeof error);
    if (status != MH_OK) {
        td_fail(&c, "path: %s", error);
        goto done;
    }
    size_t size = 0;
    data = read_file(resolved, &size, error, sizeof error);
    if (!data) {
        td_fail(&c, "path \"%.*s\": %s", mh_utf8_prefix(path, 300), path, error);
        goto done;
    }
    /* Unrecognised text is read as labels: its errors then say what a
     * label line looks like. */
    if (!format) format = td_symfmt_detect(data, size);
    if (!format) format = td_symfmt_named("labels");
    /* Parse everything first; load only when something was found. */
    td_symfmt_sink sink = {&l, on_symbol, on_file, on_line, on_bad};
    format->parse(data, size, &sink);
    if (l.symbol_count == 0 && l.line_count == 0) {
        td_buf b = {0};
        td_buf_printf(&b, "path \"%.*s\" (%s): no symbols found, nothing was loaded",
                      mh_utf8_prefix(path, 300), path, format->name);
        for (size_t i = 0; i < l.skipped && i < MAX_REPORTED; i++)
            td_buf_printf(&b, "%sline %u: %s", i ? "; " : " (", (unsigned)l.bad_lines[i], l.bad_why[i]);
        td_buf_printf(&b, "%s", l.skipped ? ")" : "");
        if (strcmp(format->name, "labels") == 0)
            td_buf_printf(&b, ". Lines look like \"al C:1000 .start\" or \"start = $1000\"; other "
                              "formats: ca65 .dbg, KickAssembler .sym/.dbg, dasm -s, xa65 -l");
        td_fail(&c, "%s", b.text ? b.text : "no symbols");
        td_buf_free(&b);
        goto done;
    }
    char folder[PATH_MAX];
    folder_of(resolved, folder, sizeof folder);
    td_session_state *state = td_store_lock(c.plugin->store, td_session_name(&c), 1);
    size_t loaded = 0, lines = 0, total = 0, total_lines = 0;
    int full = l.failed;
    if (state) {
        if (replace) {
            td_symbols_clear(state);
            td_lines_clear(&state->lines);
        }
        lines = store_load(state, &l, folder, &loaded, &full);
        total = state->symbol_count;
        total_lines = state->lines.count;
    }
    td_store_unlock(c.plugin->store);
    if (!state) {
        td_fail(&c, "symbols_load: out of memory");
        goto done;
    }
    /* @mcp annotations of the sources the debug info names */
    size_t unreadable = 0;
    size_t annotations = lines ? td_annotations_index(c.plugin, td_session_name(&c), NULL, 0, 1, &unreadable) : 0;
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "path", resolved);
    mh_args_write_string(w, "format", format->name);
    mh_args_write_uint(w, "loaded", loaded);
    mh_args_write_uint(w, "total", total);
    mh_args_write_uint(w, "lines", lines);
    mh_args_write_uint(w, "total_lines", total_lines);
    mh_args_write_uint(w, "annotations", annotations);
    mh_args_write_uint(w, "skipped", l.skipped);
    mh_json_write_key(w, "errors");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < l.skipped && i < MAX_REPORTED; i++) {
        mh_json_write_object_begin(w);
        mh_args_write_uint(w, "line", l.bad_lines[i]);
        mh_args_write_string(w, "error", l.bad_why[i]);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    td_buf_printf(&text, "Loaded %zu symbol%s", loaded, loaded == 1 ? "" : "s");
    if (lines) td_buf_printf(&text, " and %zu source line range%s", lines, lines == 1 ? "" : "s");
    td_buf_printf(&text, " (%s) from %s; the session has %zu symbols%s", format->name, resolved,
                  total, replace ? " (replaced)" : "");
    if (total_lines) td_buf_printf(&text, " and %zu line ranges", total_lines);
    if (annotations) td_buf_printf(&text, "; %zu @mcp annotation%s in the sources", annotations,
                                   annotations == 1 ? "" : "s");
    if (full) td_buf_printf(&text, "; stopped at a limit (%u symbols, %u lines) or out of memory",
                            TD_MAX_SYMBOLS, TD_MAX_LINES);
    if (l.skipped) {
        td_buf_printf(&text, "; skipped %zu line%s:", l.skipped, l.skipped == 1 ? "" : "s");
        for (size_t i = 0; i < l.skipped && i < MAX_REPORTED; i++)
            td_buf_printf(&text, " line %u (%s)%s", (unsigned)l.bad_lines[i], l.bad_why[i],
                          i + 1 < l.skipped && i + 1 < MAX_REPORTED ? "," : "");
    }
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
done:
    load_free(&l);
    free(data);
    td_end(&c);
}

static int contains_nocase(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *s = haystack; *s; s++)
        if (strncasecmp(s, needle, n) == 0) return 1;
    return n == 0;
}

void td_symbols_list(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "symbols_list", 0) != 0) goto done;
    const char *filter = NULL;
    mh_status status = mh_args_string(c.args, "filter", &filter, NULL, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    int64_t limit = 200;
    status = mh_args_int(c.args, "limit", 1, 100000, &limit, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    uint32_t lo = 0, length = 0x10000;
    status = td_resolve_range(c.plugin->store, td_session_name(&c), c.args, 0xFFFF, 0x10000, 0x10000,
                              &lo, &length, c.err, sizeof c.err);
    if (status == MH_ERR_NOT_FOUND) {
        lo = 0;
        length = 0x10000;
    } else if (status != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    uint64_t hi = (uint64_t)lo + length; /* exclusive */
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "symbols");
    mh_json_write_array_begin(w);
    size_t count = 0, total = 0;
    td_session_state *state = td_store_lock(c.plugin->store, td_session_name(&c), 0);
    if (state) {
        td_symbols_sort(state);
        total = state->symbol_count;
        for (size_t i = 0; i < state->symbol_count; i++) {
            const td_symbol *s = &state->symbols[i];
            if (s->address < lo || s->address >= hi) continue;
            if (filter && !contains_nocase(s->name, filter)) continue;
            if (count < (size_t)limit) {
                mh_json_write_object_begin(w);
                mh_json_write_key(w, "name");
                mh_json_write_string(w, s->name);
                mh_args_write_address(w, "address", s->address);
                mh_json_write_object_end(w);
                td_buf_printf(&text, "$%04X %s\n", (unsigned)s->address, s->name);
            }
            count++;
        }
    }
    td_store_unlock(c.plugin->store);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "count");
    mh_json_write_uint(w, count);
    mh_json_write_key(w, "total");
    mh_json_write_uint(w, total);
    mh_json_write_key(w, "truncated");
    mh_json_write_bool(w, count > (size_t)limit);
    mh_json_write_object_end(w);
    if (total == 0)
        td_buf_printf(&text, "session \"%s\" has no symbols; load some with symbols_load or "
                             "assemble with keep_labels",
                      td_session_name(&c));
    else
        td_buf_printf(&text, "%zu of %zu symbol%s match%s", count, total, total == 1 ? "" : "s",
                      count > (size_t)limit ? " (raise limit to see the rest)" : "");
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
done:
    td_end(&c);
}
