/* td_symbols.c - symbols_load and symbols_list: the session's symbol table
 * (td_store.h), loaded from files the host's "mh.files/1" service allows.
 * The file syntax is td_symfile.h's. Lines that are not symbols are counted
 * as skipped and the first ones reported with their line numbers. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mcphost/files.h>

#include "td_code.h"
#include "td_store.h"
#include <mcphost/media.h>

#include "td_symfile.h"
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

void td_symbols_load(void *user, mh_call *call)
{
    td_call c;
    char *data = NULL;
    if (td_begin(&c, user, call, "symbols_load", 0) != 0) goto done;
    const char *path = NULL;
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
    /* Parse everything first; load only when the file is a symbol file. */
    size_t good = 0, skipped = 0, line_no = 0;
    uint32_t bad_lines[MAX_REPORTED];
    const char *bad_why[MAX_REPORTED];
    td_symfile_line line;
    for (const char *pos = data; td_symfile_next(&pos, data + size, &line);) {
        line_no++;
        if (line.kind == TD_SYMFILE_SYMBOL) good++;
        if (line.kind == TD_SYMFILE_BAD) {
            if (skipped < MAX_REPORTED) {
                bad_lines[skipped] = (uint32_t)line_no;
                bad_why[skipped] = line.why;
            }
            skipped++;
        }
    }
    if (good == 0) {
        td_buf b = {0};
        td_buf_printf(&b, "path \"%.*s\": no symbols found, nothing was loaded",
                      mh_utf8_prefix(path, 300), path);
        for (size_t i = 0; i < skipped && i < MAX_REPORTED; i++)
            td_buf_printf(&b, "%sline %u: %s", i ? "; " : " (", (unsigned)bad_lines[i], bad_why[i]);
        td_buf_printf(&b, "%s. Lines look like \"al C:1000 .start\" or \"start = $1000\"",
                      skipped ? ")" : "");
        td_fail(&c, "%s", b.text ? b.text : "no symbols");
        td_buf_free(&b);
        goto done;
    }
    td_session_state *state = td_store_lock(c.plugin->store, td_session_name(&c), 1);
    size_t loaded = 0;
    int full = 0;
    if (state) {
        if (replace) td_symbols_clear(state);
        for (const char *pos = data; !full && td_symfile_next(&pos, data + size, &line);) {
            if (line.kind != TD_SYMFILE_SYMBOL) continue;
            if (td_symbols_add(state, line.name, line.name_length, line.value) == MH_OK) loaded++;
            else full = 1;
        }
        td_symbols_sort(state);
    }
    size_t total = state ? state->symbol_count : 0;
    td_store_unlock(c.plugin->store);
    if (!state) {
        td_fail(&c, "symbols_load: out of memory");
        goto done;
    }
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "path");
    mh_json_write_string(w, resolved);
    mh_json_write_key(w, "loaded");
    mh_json_write_uint(w, loaded);
    mh_json_write_key(w, "total");
    mh_json_write_uint(w, total);
    mh_json_write_key(w, "skipped");
    mh_json_write_uint(w, skipped);
    mh_json_write_key(w, "errors");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < skipped && i < MAX_REPORTED; i++) {
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "line");
        mh_json_write_uint(w, bad_lines[i]);
        mh_json_write_key(w, "error");
        mh_json_write_string(w, bad_why[i]);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    td_buf_printf(&text, "Loaded %zu symbol%s from %s; the session has %zu%s", loaded,
                  loaded == 1 ? "" : "s", resolved, total, replace ? " (replaced)" : "");
    if (full) td_buf_printf(&text, "; stopped at the limit of %u symbols", TD_MAX_SYMBOLS);
    if (skipped) {
        td_buf_printf(&text, "; skipped %zu line%s:", skipped, skipped == 1 ? "" : "s");
        for (size_t i = 0; i < skipped && i < MAX_REPORTED; i++)
            td_buf_printf(&text, " line %u (%s)%s", (unsigned)bad_lines[i], bad_why[i],
                          i + 1 < skipped && i + 1 < MAX_REPORTED ? "," : "");
    }
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
done:
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
    status = mh_args_range(c.args, 0xFFFF, 0x10000, 0x10000, &lo, &length, c.err, sizeof c.err);
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
