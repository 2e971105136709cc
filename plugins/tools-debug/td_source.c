/* td_source.c - addresses to labels and source lines, stop records with
 * them, and the source_lines tool (td_source.h). */
#include "td_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mcphost/args.h>
#include <mcphost/files.h>
#include <mcphost/media.h>

#include "td_annotations.h"
#include "td_lines.h"
#include "td_resolve.h"
#include "td_store.h"
#include "td_util.h"

#define MAX_SOURCE_FILE (8u * 1024u * 1024u)
#define MAX_MATCHES 64

/* A source line as last read for a session: every stop wants its line
 * twice, for the stop event (td_where_stop_members, on the emulation
 * thread) and for the tool's answer (td_where_stop_json), so the second
 * finds it here instead of reading the file again. Valid while the file
 * is the same one, unchanged: same path, device, inode, size and mtime. */
typedef struct td_line_memo {
    char resolved[PATH_MAX];
    uint32_t line;
    uint64_t dev, ino, size;
    int64_t mtime_s, mtime_ns;
    char text[TD_SOURCE_TEXT + 1];
} td_line_memo;

static int read_line_text(const char *resolved, uint32_t line, char *out, size_t size);
static int resolve_source(td_plugin *plugin, const char *path, char *resolved, size_t size);

static int same_line(const td_line_memo *a, const td_line_memo *b)
{
    return a->line == b->line && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns &&
           strcmp(a->resolved, b->resolved) == 0;
}

/* w->text for w->path:w->line, from the session's memo when the file has
 * not changed since it was read. Under the plugin's source lock (the
 * file is read with the store unlocked). */
static void where_line_text_locked(td_plugin *plugin, const char *session, td_where *w)
{
    td_line_memo key;
    struct stat st;
    memset(&key, 0, sizeof key);
    if (w->line == 0 || !resolve_source(plugin, w->path, key.resolved, sizeof key.resolved) ||
        stat(key.resolved, &st) != 0)
        return;
    key.line = w->line;
    key.dev = (uint64_t)st.st_dev;
    key.ino = (uint64_t)st.st_ino;
    key.size = (uint64_t)st.st_size;
    key.mtime_s = (int64_t)st.st_mtim.tv_sec;
    key.mtime_ns = (int64_t)st.st_mtim.tv_nsec;
    int hit = 0;
    td_session_state *state = td_store_lock(plugin->store, session, 0);
    if (state && state->line_memo && same_line(state->line_memo, &key)) {
        memcpy(w->text, state->line_memo->text, sizeof w->text);
        hit = 1;
    }
    td_store_unlock(plugin->store);
    if (hit) return;
    read_line_text(key.resolved, key.line, key.text, sizeof key.text);
    memcpy(w->text, key.text, sizeof w->text);
    state = td_store_lock(plugin->store, session, 0);
    if (state && !state->line_memo) state->line_memo = malloc(sizeof *state->line_memo);
    if (state && state->line_memo) *state->line_memo = key;
    td_store_unlock(plugin->store);
}

static void where_line_text(td_plugin *plugin, const char *session, td_where *w)
{
    pthread_mutex_lock(&plugin->source_lock);
    where_line_text_locked(plugin, session, w);
    pthread_mutex_unlock(&plugin->source_lock);
}

void td_where_of(td_plugin *plugin, const char *session, uint32_t address, int read_text,
                 td_where *w)
{
    memset(w, 0, sizeof *w);
    if (!plugin->store || !session) return;
    td_session_state *state = td_store_lock(plugin->store, session, 0);
    if (state) {
        td_resolve_format(state, address, w->symbol, sizeof w->symbol);
        const td_annotation *a = td_annotations_at(state, address);
        if (a) {
            snprintf(w->annotation_type, sizeof w->annotation_type, "%s", a->type);
            snprintf(w->annotation, sizeof w->annotation, "%s", a->text);
        }
        const td_line *line = td_lines_at(&state->lines, address);
        if (line && line->file < state->lines.file_count) {
            const td_src_file *f = &state->lines.files[line->file];
            w->has_line = 1;
            snprintf(w->file, sizeof w->file, "%s", f->name);
            snprintf(w->path, sizeof w->path, "%s", f->path);
            w->line = line->line;
            w->start = line->start;
            w->end = line->end;
        }
    }
    td_store_unlock(plugin->store);
    if (w->has_line && read_text) where_line_text(plugin, session, w);
}

/* path through mh.files/1 (the allowed directories) into resolved. */
static int resolve_source(td_plugin *plugin, const char *path, char *resolved, size_t size)
{
    const mh_files_service *files = plugin->host->get_service(plugin->host, MH_FILES_SERVICE_ID);
    char why[256];
    return files && files->struct_size >= sizeof *files && files->resolve &&
           files->resolve(plugin->host, path, MH_FILES_READ, resolved, size, why, sizeof why) ==
               MH_OK;
}

int td_source_line_text(td_plugin *plugin, const char *path, uint32_t line, char *out, size_t size)
{
    if (size) out[0] = '\0';
    char resolved[PATH_MAX];
    if (line == 0 || !resolve_source(plugin, path, resolved, sizeof resolved)) return 0;
    return read_line_text(resolved, line, out, size);
}

/* Line `line` of the file at resolved (a checked path) into out. */
static int read_line_text(const char *resolved, uint32_t line, char *out, size_t size)
{
    if (size) out[0] = '\0';
    uint8_t *bytes = NULL;
    size_t length = 0;
    mh_media_error error;
    if (mh_media_load_file(resolved, MAX_SOURCE_FILE, &bytes, &length, &error) != MH_OK) return 0;
    const char *s = (const char *)bytes, *end = s + length;
    for (uint32_t n = 1; n < line && s < end; n++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        s = nl ? nl + 1 : end;
    }
    int found = s < end;
    if (found) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (n && s[n - 1] == '\r') n--;
        while (n && (*s == ' ' || *s == '\t')) s++, n--;
        if (n >= size) n = size - 1;
        for (size_t i = 0; i < n; i++) /* control bytes (and tabs) as spaces */
            out[i] = (unsigned char)s[i] < 0x20 ? ' ' : s[i];
        out[n] = '\0';
        /* never end in the middle of a UTF-8 sequence */
        n = (size_t)mh_utf8_prefix(out, n);
        out[n] = '\0';
    }
    free(bytes);
    return found;
}

void td_where_write(mh_json_writer *writer, const td_where *w)
{
    if (w->symbol[0]) mh_args_write_string(writer, "symbol", w->symbol);
    if (w->annotation_type[0]) {
        mh_json_write_key(writer, "annotation");
        mh_json_write_object_begin(writer);
        mh_args_write_string(writer, "type", w->annotation_type);
        mh_args_write_string(writer, "text", w->annotation);
        mh_json_write_object_end(writer);
    }
    if (!w->has_line) return;
    mh_json_write_key(writer, "source");
    mh_json_write_object_begin(writer);
    mh_args_write_string(writer, "file", w->file);
    mh_args_write_uint(writer, "line", w->line);
    mh_args_write_string(writer, "text", w->text);
    mh_json_write_object_end(writer);
}

char *td_where_stop_json(td_plugin *plugin, const char *session, char *json, char *text,
                         size_t size)
{
    if (size) text[0] = '\0';
    mh_json_doc *doc = mh_json_parse(json, strlen(json), NULL, NULL);
    const mh_json *stop = doc ? mh_json_object_get(mh_json_root(doc), "stop") : NULL;
    int64_t pc = -1;
    if (!stop || mh_json_get_int(stop, "pc", &pc) != MH_OK || pc < 0 || pc > 0xFFFF) {
        mh_json_free(doc);
        return json;
    }
    mh_json_free(doc);
    td_where w;
    td_where_of(plugin, session, (uint32_t)pc, 1, &w);
    if (!w.symbol[0] && !w.has_line && !w.annotation_type[0]) return json;
    char *at = strstr(json, "\"stop\":{");
    if (!at) return json;
    mh_json_writer *writer = mh_json_writer_new();
    mh_json_write_object_begin(writer);
    td_where_write(writer, &w);
    mh_json_write_object_end(writer);
    char *members = mh_json_writer_finish(writer, NULL); /* "{...}" */
    size_t inner = members ? strlen(members) : 0;
    char *out = inner > 2 ? malloc(strlen(json) + inner + 2) : NULL;
    if (out) {
        size_t head = (size_t)(at - json) + 8;
        memcpy(out, json, head);
        memcpy(out + head, members + 1, inner - 2); /* without the braces */
        size_t pos = head + inner - 2;
        const char *rest = json + head;
        if (*rest != '}') out[pos++] = ',';
        strcpy(out + pos, rest);
        free(json);
        json = out;
    }
    free(members);
    mh_json_writer_free(writer);
    td_where_text(&w, text, size);
    return json;
}

size_t td_where_stop_members(void *user, mh_session *session, uint16_t pc, char *members,
                             size_t size)
{
    td_plugin *plugin = user;
    const char *name = session ? plugin->sessions->name(session) : NULL;
    td_where w;
    td_where_of(plugin, name, pc, 1, &w);
    if (!w.symbol[0] && !w.has_line && !w.annotation_type[0]) return 0;
    char text[600];
    td_where_text(&w, text, sizeof text);
    mh_json_writer *writer = mh_json_writer_new();
    mh_json_write_object_begin(writer);
    td_where_write(writer, &w);
    mh_args_write_string(writer, "where", text + 3); /* without " | " */
    mh_json_write_object_end(writer);
    size_t n = 0;
    char *object = mh_json_writer_finish(writer, &n); /* "{...}" */
    mh_json_writer_free(writer);
    size_t inner = object && n > 2 ? n - 2 : 0;
    if (inner >= size) inner = 0; /* too long: nothing rather than a cut member */
    if (inner) memcpy(members, object + 1, inner);
    if (size) members[inner] = '\0';
    free(object);
    return inner;
}

void td_where_text(const td_where *w, char *text, size_t size)
{
    if (size) text[0] = '\0';
    int used = 0;
    if (w->symbol[0]) used = snprintf(text, size, " | %s", w->symbol);
    if (w->has_line && used >= 0 && (size_t)used < size)
        used += snprintf(text + used, size - (size_t)used, " | %s:%u: %s", w->file,
                         (unsigned)w->line, w->text);
    if (w->annotation_type[0] && used >= 0 && (size_t)used < size)
        snprintf(text + used, size - (size_t)used, " | @mcp-%s: %s", w->annotation_type,
                 w->annotation);
}

char *td_where_trace_json(td_plugin *plugin, const char *session, char *json)
{
    static const char key[] = "\"pc_hex\":\"$";
    if (!plugin->store || !session || !strstr(json, key)) return json;
    td_buf out = {0};
    const char *from = json;
    td_session_state *state = td_store_lock(plugin->store, session, 0);
    if (state && (state->symbol_count || state->annots.count)) {
        for (const char *at; (at = strstr(from, key)) != NULL;) {
            const char *digits = at + sizeof key - 1;
            char *end = NULL;
            unsigned long pc = strtoul(digits, &end, 16);
            if (!end || *end != '"') break;
            td_buf_append(&out, from, (size_t)(end + 1 - from));
            from = end + 1;
            char name[TD_MAX_SYMBOL_NAME + 16];
            if (pc > 0xFFFF) continue;
            const td_annotation *a = td_annotations_at(state, (uint32_t)pc);
            int named = td_resolve_format(state, (uint32_t)pc, name, sizeof name);
            if (!named && !a) continue;
            /* the members, written as an object whose braces are dropped */
            mh_json_writer *w = mh_json_writer_new();
            mh_json_write_object_begin(w);
            if (named) mh_args_write_string(w, "symbol", name);
            if (a) {
                mh_json_write_key(w, "annotation");
                mh_json_write_object_begin(w);
                mh_args_write_string(w, "type", a->type);
                mh_args_write_string(w, "text", a->text);
                mh_json_write_object_end(w);
            }
            mh_json_write_object_end(w);
            size_t n = 0;
            char *members = mh_json_writer_finish(w, &n);
            mh_json_writer_free(w);
            if (members && n > 2) {
                td_buf_append(&out, ",", 1);
                td_buf_append(&out, members + 1, n - 2);
            }
            free(members);
        }
    }
    td_store_unlock(plugin->store);
    if (!out.text || out.failed) {
        td_buf_free(&out);
        return json;
    }
    td_buf_append(&out, from, strlen(from));
    free(json);
    return out.text; /* td_buf's text is malloc'ed: the caller frees it */
}

/* ---- source_lines ---- */

static void write_range(mh_json_writer *writer, const td_where *w)
{
    mh_json_write_object_begin(writer);
    mh_args_write_address(writer, "address", w->start);
    mh_args_write_address(writer, "end", w->end);
    td_where_write(writer, w);
    mh_json_write_object_end(writer);
}

void td_source_lines(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "source_lines", 0) != 0) goto done;
    const char *file = NULL;
    int64_t line = 0;
    const char *session = td_session_name(&c);
    mh_status fs = mh_args_string(c.args, "file", &file, NULL, c.err, sizeof c.err);
    mh_status ls = mh_args_int(c.args, "line", 1, TD_MAX_LINES * 100LL, &line, c.err, sizeof c.err);
    int has_address = mh_json_object_get(c.args, "address") != NULL;
    if (has_address && (fs != MH_ERR_NOT_FOUND || ls != MH_ERR_NOT_FOUND)) {
        td_fail(&c, "give either address or file and line, not both");
        goto done;
    }
    if (!has_address && fs == MH_ERR_NOT_FOUND && ls == MH_ERR_NOT_FOUND) {
        td_fail(&c, "give address (a number or label) or file and line (\"main.s\", 12)");
        goto done;
    }
    if (!has_address && (fs != MH_OK || ls != MH_OK)) {
        if (fs == MH_ERR_NOT_FOUND || ls == MH_ERR_NOT_FOUND)
            td_fail(&c, "give file and line together (\"main.s\", 12)");
        else
            td_fail(&c, "%s", fs != MH_OK ? "file: expected a string" : c.err);
        goto done;
    }
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "lines");
    mh_json_write_array_begin(w);
    size_t count = 0;
    if (has_address) {
        uint32_t address = 0;
        if (td_resolve_arg(c.plugin->store, session, c.args, "address", 0xFFFF, &address, c.err,
                           sizeof c.err) != MH_OK) {
            mh_json_writer_free(w);
            td_fail_arg(&c);
            goto done;
        }
        td_where where;
        td_where_of(c.plugin, session, address, 1, &where);
        if (where.has_line) {
            write_range(w, &where);
            count = 1;
            td_buf_printf(&text, "$%04X-$%04X %s%s%s:%u: %s\n", (unsigned)where.start,
                          (unsigned)where.end, where.symbol, where.symbol[0] ? " " : "", where.file,
                          (unsigned)where.line, where.text);
        } else {
            td_buf_printf(&text, "$%04X has no source line in session \"%s\"%s", (unsigned)address,
                          session, " (symbols_load a ca65 or KickAssembler .dbg gives lines)\n");
        }
    } else {
        /* the ranges of file:line, copied under the lock, described after */
        uint32_t starts[MAX_MATCHES];
        size_t total = 0;
        const td_line *found[MAX_MATCHES];
        td_session_state *state = c.plugin->store ? td_store_lock(c.plugin->store, session, 0) : NULL;
        if (state) {
            total = td_lines_find(&state->lines, file, (uint32_t)line, found, MAX_MATCHES);
            for (size_t i = 0; i < total && i < MAX_MATCHES; i++) starts[i] = found[i]->start;
        }
        if (c.plugin->store) td_store_unlock(c.plugin->store);
        for (size_t i = 0; i < total && i < MAX_MATCHES; i++) {
            td_where where;
            td_where_of(c.plugin, session, starts[i], i == 0, &where);
            write_range(w, &where);
            td_buf_printf(&text, "%s:%u: $%04X-$%04X %s%s%s\n", where.file, (unsigned)where.line,
                          (unsigned)where.start, (unsigned)where.end, where.symbol,
                          i == 0 ? " " : "", i == 0 ? where.text : "");
        }
        count = total < MAX_MATCHES ? total : MAX_MATCHES;
        if (total == 0)
            td_buf_printf(&text, "no code from %s:%u in session \"%s\"'s line table\n", file,
                          (unsigned)line, session);
    }
    mh_json_write_array_end(w);
    mh_args_write_uint(w, "count", count);
    mh_json_write_object_end(w);
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
done:
    td_end(&c);
}
