/* td_annotations.c - the session's @mcp annotations and the
 * annotations_list, annotations_get and annotations_search tools
 * (td_annotations.h). */
#include "td_annotations.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mcphost/args.h>
#include <mcphost/files.h>
#include <mcphost/media.h>

#include "td_resolve.h"
#include "td_source.h"
#include "td_store.h"
#include "td_util.h"

#define MAX_SOURCE (8u * 1024u * 1024u)
#define MAX_LISTED 200
#define MAX_DISTANCE 255u
#define LABEL_LOOKAHEAD 20 /* lines after a comment searched for a label */

/* One annotation found in one file, before it has an address. */
typedef struct found_note {
    char type[TD_ANNOT_MAX_TYPE + 1];
    char *text;
    uint32_t line;
    char label[TD_MAX_SYMBOL_NAME + 1]; /* the next label defined after it, or "" */
} found_note;

typedef struct scan {
    found_note *items;
    size_t count;
    const char *source;
    size_t size;
} scan;

/* The start of line n (from 1) of text, or NULL. */
static const char *line_at(const char *text, size_t size, uint32_t n, size_t *length)
{
    const char *s = text, *end = text + size;
    for (uint32_t i = 1; i < n && s < end; i++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        s = nl ? nl + 1 : end;
    }
    if (s >= end) return NULL;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    *length = nl ? (size_t)(nl - s) : (size_t)(end - s);
    return s;
}

static int on_annotation(void *user, uint32_t line_no, const char *type, size_t type_length,
                         const char *text, size_t text_length)
{
    scan *s = user;
    if (s->count >= TD_MAX_ANNOTATIONS) return 1;
    found_note *items = realloc(s->items, (s->count + 1) * sizeof *items);
    if (!items) return 1;
    s->items = items;
    found_note *f = &items[s->count];
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < type_length; i++) /* types compare in lower case */
        f->type[i] = (char)(type[i] >= 'A' && type[i] <= 'Z' ? type[i] + 32 : type[i]);
    f->text = malloc(text_length + 1);
    if (!f->text) return 1;
    memcpy(f->text, text, text_length);
    f->text[text_length] = '\0';
    f->line = line_no;
    /* the next label defined at or after the comment's line */
    for (uint32_t n = line_no; n < line_no + LABEL_LOOKAHEAD; n++) {
        size_t length = 0;
        const char *line = line_at(s->source, s->size, n, &length);
        const char *name = NULL;
        size_t name_length = 0;
        if (!line) break;
        if (n > line_no && td_annot_line_label(line, length, &name, &name_length)) {
            snprintf(f->label, sizeof f->label, "%.*s", (int)name_length, name);
            break;
        }
    }
    s->count++;
    return 0;
}

/* The first address of the code at or after line in file (line table). */
static int next_code(const td_lines *lines, uint32_t file, uint32_t line, uint32_t *address)
{
    const td_line *best = NULL;
    for (size_t i = 0; i < lines->count; i++) {
        const td_line *l = &lines->items[i];
        if (l->file != file || l->line < line) continue;
        if (!best || l->line < best->line || (l->line == best->line && l->start < best->start)) best = l;
    }
    if (best) *address = best->start;
    return best != NULL;
}

/* The line-table index of a file name, or UINT32_MAX. */
static uint32_t file_index(const td_lines *lines, const char *name)
{
    for (size_t i = 0; i < lines->file_count; i++)
        if (td_lines_file_matches(&lines->files[i], name)) return (uint32_t)i;
    return UINT32_MAX;
}

static void drop_file(td_annots *a, const char *file)
{
    size_t kept = 0;
    for (size_t i = 0; i < a->count; i++) {
        if (strcmp(a->items[i].file, file) == 0) {
            free(a->items[i].text);
            free(a->items[i].file);
            continue;
        }
        a->items[kept++] = a->items[i];
    }
    a->count = kept;
}

static void store_found(td_session_state *state, const char *file, scan *s)
{
    td_annots *a = &state->annots;
    drop_file(a, file);
    uint32_t index = file_index(&state->lines, file);
    for (size_t i = 0; i < s->count && a->count < TD_MAX_ANNOTATIONS; i++) {
        td_annotation *items = realloc(a->items, (a->count + 1) * sizeof *items);
        char *name = strdup(file);
        if (!items || !name) {
            free(name);
            if (items) a->items = items;
            return;
        }
        a->items = items;
        td_annotation *t = &items[a->count++];
        memset(t, 0, sizeof *t);
        snprintf(t->type, sizeof t->type, "%s", s->items[i].type);
        t->text = s->items[i].text;
        s->items[i].text = NULL;
        t->file = name;
        t->line = s->items[i].line;
        if (index != UINT32_MAX) t->has_address = next_code(&state->lines, index, t->line, &t->address);
        if (!t->has_address && s->items[i].label[0]) {
            const td_symbol *sym = td_symbols_find(state, s->items[i].label, strlen(s->items[i].label));
            if (sym) {
                t->has_address = 1;
                t->address = sym->address;
            }
        }
    }
}

/* Reads path through mh.files/1; malloc'ed, NULL when it cannot. */
static char *read_source(td_plugin *p, const char *path, size_t *size)
{
    const mh_files_service *files = p->host->get_service(p->host, MH_FILES_SERVICE_ID);
    char resolved[PATH_MAX], why[256];
    if (!files || files->struct_size < sizeof *files || !files->resolve ||
        files->resolve(p->host, path, MH_FILES_READ, resolved, sizeof resolved, why, sizeof why) != MH_OK)
        return NULL;
    uint8_t *bytes = NULL;
    mh_media_error error;
    if (mh_media_load_file(resolved, MAX_SOURCE, &bytes, size, &error) != MH_OK) return NULL;
    return (char *)bytes;
}

/* Scans one file and stores its annotations under name. */
static size_t index_file(td_plugin *p, const char *session, const char *path, const char *name,
                         size_t *unreadable)
{
    size_t size = 0;
    char *text = read_source(p, path, &size);
    if (!text) {
        (*unreadable)++;
        return 0;
    }
    scan s = {NULL, 0, text, size};
    td_annot_scan(text, size, on_annotation, &s);
    td_session_state *state = td_store_lock(p->store, session, 1);
    if (state) store_found(state, name, &s);
    td_store_unlock(p->store);
    size_t count = s.count;
    for (size_t i = 0; i < s.count; i++) free(s.items[i].text);
    free(s.items);
    free(text);
    return count;
}

size_t td_annotations_index(td_plugin *p, const char *session, const char *const *paths,
                            size_t count, int from_lines, size_t *unreadable)
{
    size_t total = 0, files = 0;
    *unreadable = 0;
    char **copies = NULL; /* pairs: path, name, copied under the lock */
    if (from_lines) {
        td_session_state *state = td_store_lock(p->store, session, 0);
        files = state ? state->lines.file_count : 0;
        copies = files ? calloc(files * 2, sizeof *copies) : NULL;
        for (size_t i = 0; copies && i < files; i++) {
            copies[2 * i] = strdup(state->lines.files[i].path);
            copies[2 * i + 1] = strdup(state->lines.files[i].name);
        }
        td_store_unlock(p->store);
        if (!copies) files = 0;
    }
    for (size_t i = 0; i < files; i++)
        if (copies[2 * i] && copies[2 * i + 1])
            total += index_file(p, session, copies[2 * i], copies[2 * i + 1], unreadable);
    for (size_t i = 0; i < files * 2; i++) free(copies[i]);
    free(copies);
    for (size_t i = 0; i < count; i++) total += index_file(p, session, paths[i], paths[i], unreadable);
    return total;
}

const td_annotation *td_annotations_at(td_session_state *state, uint32_t address)
{
    const td_annotation *best = NULL;
    if (!state) return NULL;
    for (size_t i = 0; i < state->annots.count; i++) {
        const td_annotation *a = &state->annots.items[i];
        if (!a->has_address || a->address > address || address - a->address > MAX_DISTANCE) continue;
        if (!best || a->address > best->address) best = a;
    }
    return best;
}

/* ---- the tools ---- */

static void write_one(mh_json_writer *w, td_buf *text, td_session_state *state, const td_annotation *a)
{
    char symbol[TD_MAX_SYMBOL_NAME + 16] = "";
    if (a->has_address) td_resolve_format(state, a->address, symbol, sizeof symbol);
    mh_json_write_object_begin(w);
    mh_args_write_string(w, "type", a->type);
    mh_args_write_string(w, "text", a->text);
    mh_args_write_string(w, "file", a->file);
    mh_args_write_uint(w, "line", a->line);
    if (a->has_address) mh_args_write_address(w, "address", a->address);
    if (symbol[0]) mh_args_write_string(w, "symbol", symbol);
    mh_json_write_object_end(w);
    if (a->has_address) td_buf_printf(text, "$%04X ", (unsigned)a->address);
    else td_buf_printf(text, "----- ");
    td_buf_printf(text, "%s%s%s:%u @mcp-%s: %s\n", symbol, symbol[0] ? " " : "", a->file,
                  (unsigned)a->line, a->type, a->text);
}

typedef struct filter {
    const char *type, *text;
    int has_address;
    uint32_t address;
} filter;

static int contains_nocase(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *s = haystack; *s; s++)
        if (strncasecmp(s, needle, n) == 0) return 1;
    return n == 0;
}

static int matches(const td_annotation *a, const filter *f)
{
    if (f->type && strcasecmp(a->type, f->type) != 0) return 0;
    if (f->text && !contains_nocase(a->text, f->text) && !contains_nocase(a->type, f->text)) return 0;
    if (f->has_address && (!a->has_address || a->address != f->address)) return 0;
    return 1;
}

/* Lists what matches f (and, for a get with nothing at the address, the
 * annotation governing it). */
static void answer(td_call *c, const filter *f, const char *note)
{
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    if (note) td_buf_printf(&text, "%s\n", note);
    mh_json_write_object_begin(w);
    td_session_state *state = td_store_lock(c->plugin->store, td_session_name(c), 0);
    size_t count = 0, total = state ? state->annots.count : 0;
    if (f->has_address) {
        /* the label and line, without reading the file under the lock */
        char symbol[TD_MAX_SYMBOL_NAME + 16] = "";
        td_resolve_format(state, f->address, symbol, sizeof symbol);
        mh_args_write_address(w, "address", f->address);
        if (symbol[0]) mh_args_write_string(w, "symbol", symbol);
        const td_line *line = state ? td_lines_at(&state->lines, f->address) : NULL;
        if (line && line->file < state->lines.file_count) {
            mh_args_write_string(w, "file", state->lines.files[line->file].name);
            mh_args_write_uint(w, "line", line->line);
            td_buf_printf(&text, "$%04X %s %s:%u\n", (unsigned)f->address, symbol,
                          state->lines.files[line->file].name, (unsigned)line->line);
        } else {
            td_buf_printf(&text, "$%04X %s\n", (unsigned)f->address, symbol);
        }
    }
    mh_json_write_key(w, "annotations");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < total; i++) {
        const td_annotation *a = &state->annots.items[i];
        if (!matches(a, f)) continue;
        if (count < MAX_LISTED) write_one(w, &text, state, a);
        count++;
    }
    const td_annotation *governing = NULL;
    if (f->has_address && count == 0) governing = td_annotations_at(state, f->address);
    if (governing) {
        write_one(w, &text, state, governing);
        count = 1;
    }
    mh_json_write_array_end(w);
    mh_args_write_uint(w, "count", count);
    mh_args_write_uint(w, "total", total);
    if (governing) mh_args_write_bool(w, "governing", 1);
    mh_json_write_object_end(w);
    td_store_unlock(c->plugin->store);
    if (total == 0)
        td_buf_printf(&text, "no @mcp annotations in session \"%s\": symbols_load a .dbg with source "
                             "files, or give sources to annotations_list\n", td_session_name(c));
    else
        td_buf_printf(&text, "%zu of %zu annotation%s%s\n", count, total, total == 1 ? "" : "s",
                      count > MAX_LISTED ? " (the first 200 listed)" : "");
    td_result(c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
}

static int optional_string(td_call *c, const char *key, const char **out)
{
    mh_status st = mh_args_string(c->args, key, out, NULL, c->err, sizeof c->err);
    if (st == MH_OK || st == MH_ERR_NOT_FOUND) return 0;
    return td_fail_arg(c);
}

void td_annotations_list(void *user, mh_call *call)
{
    td_call c;
    filter f = {0};
    if (td_begin(&c, user, call, "annotations_list", 0) != 0 || optional_string(&c, "type", &f.type) != 0)
        goto done;
    const mh_json *sources = mh_json_object_get(c.args, "sources");
    char note[200] = "";
    if (sources && !mh_json_is_null(sources)) {
        size_t n = mh_json_typeof(sources) == MH_JSON_ARRAY ? mh_json_array_size(sources) : 0;
        const char *paths[64];
        if (n == 0 || n > 64) {
            td_fail(&c, "sources: give an array of 1-64 source file paths");
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            paths[i] = mh_json_as_string(mh_json_array_get(sources, i), NULL);
            if (!paths[i]) {
                td_fail(&c, "sources: item %zu is not a string", i);
                goto done;
            }
        }
        size_t unreadable = 0;
        size_t found = td_annotations_index(c.plugin, td_session_name(&c), paths, n, 0, &unreadable);
        snprintf(note, sizeof note, "indexed %zu annotation%s from %zu source%s%s", found,
                 found == 1 ? "" : "s", n, n == 1 ? "" : "s",
                 unreadable ? " (some could not be read: outside the allowed directories or missing)" : "");
        if (unreadable == n) {
            td_fail(&c, "sources: none could be read (paths must be inside the allowed directories)");
            goto done;
        }
    }
    answer(&c, &f, note[0] ? note : NULL);
done:
    td_end(&c);
}

void td_annotations_get(void *user, mh_call *call)
{
    td_call c;
    filter f = {0};
    if (td_begin(&c, user, call, "annotations_get", 0) != 0) goto done;
    if (td_resolve_arg(c.plugin->store, td_session_name(&c), c.args, "address", 0xFFFF, &f.address,
                       c.err, sizeof c.err) != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    f.has_address = 1;
    answer(&c, &f, NULL);
done:
    td_end(&c);
}

void td_annotations_search(void *user, mh_call *call)
{
    td_call c;
    filter f = {0};
    if (td_begin(&c, user, call, "annotations_search", 0) != 0 ||
        optional_string(&c, "type", &f.type) != 0 || optional_string(&c, "text", &f.text) != 0)
        goto done;
    if (!f.type && !f.text) {
        td_fail(&c, "give type (\"irq-handler\") or text to search for");
        goto done;
    }
    answer(&c, &f, NULL);
done:
    td_end(&c);
}
