/* facts.c - a structured tool result (JSON object) rendered as text a model
 * reads well (mcphost/toolkit.h, mh_toolkit_facts_text): one "key: value"
 * line per fact, small objects inline, arrays of records as Markdown
 * tables, and a number that has a "<key>_hex" twin shown in its hex form
 * only. Many MCP clients show the model only the text content, so every
 * fact of structuredContent must be readable there. */
#include "mcphost/toolkit.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BUDGET 16384
#define INLINE_WIDTH 110 /* an object of scalars up to this long stays on one line */

typedef struct facts {
    char *text;
    size_t length, capacity;
    size_t budget;
    int failed, cut;
    const char *known; /* text already shown (a summary): long strings in it are not repeated */
} facts;

static void put(facts *f, const char *s, size_t n)
{
    if (f->failed) return;
    if (f->length + n + 1 > f->capacity) {
        size_t capacity = f->capacity ? f->capacity : 1024;
        while (f->length + n + 1 > capacity) capacity *= 2;
        char *grown = realloc(f->text, capacity);
        if (!grown) {
            f->failed = 1;
            return;
        }
        f->text = grown;
        f->capacity = capacity;
    }
    memcpy(f->text + f->length, s, n);
    f->length += n;
    f->text[f->length] = '\0';
}

static void puts_(facts *f, const char *s) { put(f, s, strlen(s)); }

static void putf(facts *f, const char *format, ...) MH_TOOLKIT_PRINTF(2, 3);
static void putf(facts *f, const char *format, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(buf, sizeof buf, format, ap);
    va_end(ap);
    if (n > 0) put(f, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void indent(facts *f, int depth)
{
    for (int i = 0; i < depth; i++) puts_(f, "  ");
}

static int is_scalar(const mh_json *v)
{
    mh_json_type t = mh_json_typeof(v);
    return t != MH_JSON_OBJECT && t != MH_JSON_ARRAY;
}

/* The key's "_hex" twin in object when the value is a number that has one. */
static const char *hex_twin(const mh_json *object, const char *key, size_t key_length)
{
    char name[96];
    if (!object || key_length + 5 > sizeof name) return NULL;
    memcpy(name, key, key_length);
    memcpy(name + key_length, "_hex", 5);
    const mh_json *twin = mh_json_object_get(object, name);
    return twin && mh_json_typeof(twin) == MH_JSON_STRING ? mh_json_as_string(twin, NULL) : NULL;
}

/* A "<base>_hex" key whose base is a number in the same object: shown with it. */
static int is_hex_twin(const mh_json *object, const char *key, size_t key_length)
{
    if (key_length <= 4 || memcmp(key + key_length - 4, "_hex", 4) != 0) return 0;
    const mh_json *base = mh_json_object_getn(object, key, key_length - 4);
    return base && mh_json_typeof(base) == MH_JSON_NUMBER;
}

/* One scalar as text; `twin` (a hex form) replaces a number. Newlines in a
 * table cell become " / " and "|" is escaped there. */
static void scalar(facts *f, const mh_json *v, const char *twin, int in_cell)
{
    if (twin) {
        puts_(f, twin);
        return;
    }
    switch (mh_json_typeof(v)) {
    case MH_JSON_STRING: {
        size_t n = 0;
        const char *s = mh_json_as_string(v, &n);
        if (!in_cell) {
            put(f, s, n);
            return;
        }
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\n') puts_(f, " / ");
            else if (s[i] == '|') puts_(f, "\\|");
            else put(f, s + i, 1);
        }
        return;
    }
    case MH_JSON_NUMBER: {
        int64_t i = 0;
        uint64_t u = 0;
        double d = 0;
        if (mh_json_is_integer(v) && mh_json_as_int64(v, &i) == MH_OK) putf(f, "%lld", (long long)i);
        else if (mh_json_is_integer(v) && mh_json_as_uint64(v, &u) == MH_OK)
            putf(f, "%llu", (unsigned long long)u);
        else if (mh_json_as_double(v, &d) == MH_OK) putf(f, "%g", d);
        return;
    }
    case MH_JSON_BOOL: {
        bool b = false;
        mh_json_as_bool(v, &b);
        puts_(f, b ? "yes" : "no");
        return;
    }
    default:
        puts_(f, "none");
        return;
    }
}

static void inline_value(facts *f, const mh_json *v, int in_cell);

/* "a=1, b=$02, c=[x, y]": an object on one line. */
static void inline_object(facts *f, const mh_json *o, int in_cell)
{
    size_t n = mh_json_object_size(o), shown = 0;
    for (size_t i = 0; i < n; i++) {
        size_t kl = 0;
        const char *k = mh_json_object_key(o, i, &kl);
        if (is_hex_twin(o, k, kl)) continue;
        if (shown++) puts_(f, ", ");
        put(f, k, kl);
        puts_(f, "=");
        const mh_json *v = mh_json_object_value(o, i);
        if (is_scalar(v)) scalar(f, v, hex_twin(o, k, kl), in_cell);
        else inline_value(f, v, in_cell);
    }
}

static void inline_value(facts *f, const mh_json *v, int in_cell)
{
    if (is_scalar(v)) {
        scalar(f, v, NULL, in_cell);
    } else if (mh_json_typeof(v) == MH_JSON_OBJECT) {
        puts_(f, "{");
        inline_object(f, v, in_cell);
        puts_(f, "}");
    } else {
        puts_(f, "[");
        for (size_t i = 0; i < mh_json_array_size(v); i++) {
            if (i) puts_(f, ", ");
            inline_value(f, mh_json_array_get(v, i), in_cell);
        }
        puts_(f, "]");
    }
}

/* The inline form's length, to decide between one line and a block. */
static size_t inline_length(const mh_json *v)
{
    facts probe = {0};
    inline_value(&probe, v, 0);
    size_t n = probe.failed ? (size_t)-1 : probe.length;
    free(probe.text);
    return n;
}

static int over_budget(facts *f)
{
    if (f->length <= f->budget) return 0;
    f->cut = 1;
    return 1;
}

static void object_lines(facts *f, const mh_json *o, int depth);

/* Records wider than this read better one per line than as a table. */
#define TABLE_MAX_COLUMNS 14

/* An array of wide records: one "- key=value, ..." line each. */
static void record_lines(facts *f, const mh_json *a, int depth)
{
    const size_t rows = mh_json_array_size(a);
    for (size_t r = 0; r < rows; r++) {
        if (over_budget(f)) {
            indent(f, depth);
            putf(f, "(%zu more rows not shown)\n", rows - r);
            return;
        }
        indent(f, depth);
        puts_(f, "- ");
        inline_object(f, mh_json_array_get(a, r), 0);
        puts_(f, "\n");
    }
}

/* An array of objects as a Markdown table: the columns are every key the
 * rows have (hex twins folded into their numbers); more than
 * TABLE_MAX_COLUMNS make it a list of records instead. */
static void table(facts *f, const mh_json *a, int depth)
{
    const size_t rows = mh_json_array_size(a);
    const char *cols[TABLE_MAX_COLUMNS];
    size_t col_len[TABLE_MAX_COLUMNS], ncols = 0;
    for (size_t r = 0; r < rows; r++) {
        const mh_json *row = mh_json_array_get(a, r);
        for (size_t i = 0; i < mh_json_object_size(row); i++) {
            size_t kl = 0;
            const char *k = mh_json_object_key(row, i, &kl);
            if (is_hex_twin(row, k, kl)) continue;
            size_t c = 0;
            while (c < ncols && !(col_len[c] == kl && memcmp(cols[c], k, kl) == 0)) c++;
            if (c < ncols) continue;
            if (ncols == TABLE_MAX_COLUMNS) {
                record_lines(f, a, depth);
                return;
            }
            cols[ncols] = k;
            col_len[ncols++] = kl;
        }
    }
    indent(f, depth);
    puts_(f, "|");
    for (size_t c = 0; c < ncols; c++) {
        puts_(f, " ");
        put(f, cols[c], col_len[c]);
        puts_(f, " |");
    }
    puts_(f, "\n");
    indent(f, depth);
    puts_(f, "|");
    for (size_t c = 0; c < ncols; c++) puts_(f, "---|");
    puts_(f, "\n");
    for (size_t r = 0; r < rows; r++) {
        if (over_budget(f)) {
            indent(f, depth);
            putf(f, "(%zu more rows not shown)\n", rows - r);
            return;
        }
        const mh_json *row = mh_json_array_get(a, r);
        indent(f, depth);
        puts_(f, "|");
        for (size_t c = 0; c < ncols; c++) {
            const mh_json *v = mh_json_object_getn(row, cols[c], col_len[c]);
            puts_(f, " ");
            if (v) {
                if (is_scalar(v)) scalar(f, v, hex_twin(row, cols[c], col_len[c]), 1);
                else inline_value(f, v, 1);
            }
            puts_(f, " |");
        }
        puts_(f, "\n");
    }
}

static int all_objects(const mh_json *a)
{
    for (size_t i = 0; i < mh_json_array_size(a); i++)
        if (mh_json_typeof(mh_json_array_get(a, i)) != MH_JSON_OBJECT) return 0;
    return mh_json_array_size(a) > 0;
}

/* One member: "key: value", or "key:" and a block below. */
static void member(facts *f, const mh_json *o, const char *k, size_t kl, const mh_json *v,
                   int depth)
{
    indent(f, depth);
    put(f, k, kl);
    if (is_scalar(v)) {
        size_t n = 0;
        const char *s = mh_json_typeof(v) == MH_JSON_STRING ? mh_json_as_string(v, &n) : NULL;
        if (s && memchr(s, '\n', n)) { /* a multi-line text: as a block */
            puts_(f, ":\n");
            put(f, s, n);
            if (n && s[n - 1] != '\n') puts_(f, "\n");
            return;
        }
        puts_(f, ": ");
        scalar(f, v, hex_twin(o, k, kl), 0);
        puts_(f, "\n");
        return;
    }
    if (mh_json_typeof(v) == MH_JSON_ARRAY && mh_json_array_size(v) == 0) {
        puts_(f, ": none\n");
        return;
    }
    if (mh_json_typeof(v) == MH_JSON_ARRAY && all_objects(v)) {
        putf(f, " (%zu):\n", mh_json_array_size(v));
        table(f, v, depth);
        return;
    }
    if (inline_length(v) + (size_t)depth * 2 + kl <= INLINE_WIDTH ||
        mh_json_typeof(v) == MH_JSON_ARRAY) {
        puts_(f, ": ");
        if (mh_json_typeof(v) == MH_JSON_OBJECT) inline_object(f, v, 0);
        else
            for (size_t i = 0, n = mh_json_array_size(v); i < n; i++) {
                if (over_budget(f)) { /* a long list of values: cut, saying so */
                    putf(f, " ... (%zu more not shown)", n - i);
                    break;
                }
                if (i) puts_(f, ", ");
                inline_value(f, mh_json_array_get(v, i), 0);
            }
        puts_(f, "\n");
        return;
    }
    puts_(f, ":\n");
    object_lines(f, v, depth + 1);
}

/* Whether known holds s[0..n) (trailing newlines aside). */
static int known_holds(const char *known, const char *s, size_t n)
{
    while (n && s[n - 1] == '\n') n--;
    if (memchr(s, '\0', n)) return 0;
    char *copy = malloc(n + 1);
    if (!copy) return 0;
    memcpy(copy, s, n);
    copy[n] = '\0';
    int found = strstr(known, copy) != NULL;
    free(copy);
    return found;
}

/* Whether [from, to) holds word as a token of its own (not part of a
 * longer run of letters and digits), case-insensitively for hex. */
static int line_has_token(const char *from, const char *to, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = from; n && p + n <= to; p++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)p[k]) == tolower((unsigned char)word[k])) k++;
        if (k < n) continue;
        const int open = p == from || !isalnum((unsigned char)p[-1]);
        const int close = p + n == to || !isalnum((unsigned char)p[n]);
        if (open && close) return 1;
    }
    return 0;
}

/* Whether the line [from, to) of the summary shows every scalar of row: a
 * string verbatim, a number as a token in decimal or as its hex twin (with
 * or without the "$"). A boolean cannot be checked (a summary tends to name
 * set flags in its own words and leave clear ones out), so a row with one
 * is never taken as shown; null has nothing to show. */
static int line_shows_row(const char *from, const char *to, const mh_json *row)
{
    for (size_t i = 0; i < mh_json_object_size(row); i++) {
        size_t kl = 0, n = 0;
        const char *k = mh_json_object_key(row, i, &kl);
        const mh_json *v = mh_json_object_value(row, i);
        char word[64];
        switch (mh_json_typeof(v)) {
        case MH_JSON_STRING: {
            const char *s = mh_json_as_string(v, &n);
            if (is_hex_twin(row, k, kl) || n == 0) break;
            int found = 0;
            for (const char *p = from; !found && p + n <= to; p++) found = memcmp(p, s, n) == 0;
            if (!found) return 0;
            break;
        }
        case MH_JSON_NUMBER: {
            const char *twin = hex_twin(row, k, kl);
            int64_t value = 0;
            if (twin && (line_has_token(from, to, twin[0] == '$' ? twin + 1 : twin))) break;
            if (mh_json_as_int64(v, &value) != MH_OK) return 0;
            snprintf(word, sizeof word, "%lld", (long long)value);
            if (!line_has_token(from, to, word)) return 0;
            break;
        }
        case MH_JSON_NULL:
            break;
        default: /* a boolean, an object, an array */
            return 0;
        }
    }
    return 1;
}

/* An array of records the summary lists in order, one per line or several
 * on a line (a disassembly listing, a list of matches): every row's scalars
 * on one line of it, at or after the line of the row before. */
static int rows_shown(const char *known, const mh_json *a)
{
    const char *line = known;
    for (size_t r = 0; r < mh_json_array_size(a); r++) {
        const mh_json *row = mh_json_array_get(a, r);
        if (mh_json_typeof(row) != MH_JSON_OBJECT) return 0;
        for (;;) {
            if (!*line) return 0;
            const char *end = strchr(line, '\n');
            if (!end) end = line + strlen(line);
            if (line_shows_row(line, end, row)) break;
            line = *end ? end + 1 : end;
        }
    }
    return 1;
}

/* A string of some length the summary already shows verbatim, an array of
 * only such strings (screen lines), or of records it lists line by line
 * (rows_shown): not repeated. */
static int already_shown(const facts *f, const mh_json *v)
{
    if (!f->known) return 0;
    if (mh_json_typeof(v) == MH_JSON_STRING) {
        size_t n = 0;
        const char *s = mh_json_as_string(v, &n);
        return n >= 16 && known_holds(f->known, s, n);
    }
    if (mh_json_typeof(v) != MH_JSON_ARRAY || mh_json_array_size(v) == 0) return 0;
    if (all_objects(v)) return rows_shown(f->known, v);
    for (size_t i = 0; i < mh_json_array_size(v); i++) {
        const mh_json *item = mh_json_array_get(v, i);
        size_t n = 0;
        const char *s = mh_json_as_string(item, &n);
        if (mh_json_typeof(item) != MH_JSON_STRING || (n && !strstr(f->known, s))) return 0;
    }
    return 1;
}

static void object_lines(facts *f, const mh_json *o, int depth)
{
    for (size_t i = 0; i < mh_json_object_size(o); i++) {
        if (over_budget(f)) {
            indent(f, depth);
            puts_(f, "(more not shown)\n");
            return;
        }
        size_t kl = 0;
        const char *k = mh_json_object_key(o, i, &kl);
        if (is_hex_twin(o, k, kl) || already_shown(f, mh_json_object_value(o, i))) continue;
        member(f, o, k, kl, mh_json_object_value(o, i), depth);
    }
}

static char *facts_text(const char *json_object, size_t max_bytes, const char *known)
{
    if (!json_object) return NULL;
    mh_json_doc *doc = mh_json_parse(json_object, strlen(json_object), NULL, NULL);
    const mh_json *root = doc ? mh_json_root(doc) : NULL;
    if (!root || mh_json_typeof(root) != MH_JSON_OBJECT) {
        mh_json_free(doc);
        return NULL;
    }
    facts f = {0};
    f.budget = max_bytes ? max_bytes : DEFAULT_BUDGET;
    f.known = known;
    object_lines(&f, root, 0);
    mh_json_free(doc);
    if (!f.failed && !f.text) puts_(&f, "(no facts)\n");
    if (f.failed) {
        free(f.text);
        return NULL;
    }
    while (f.length && f.text[f.length - 1] == '\n') f.text[--f.length] = '\0';
    return f.text;
}

char *mh_toolkit_facts_text(const char *json_object, const char *shown, size_t max_bytes)
{
    return facts_text(json_object, max_bytes, shown);
}

char *mh_toolkit_text_with_facts(const char *summary, const char *json_object)
{
    char *rendered = facts_text(json_object, 0, summary);
    /* One blank line between a summary (ending in newlines or not) and the facts. */
    int kept = summary ? (int)strlen(summary) : 0;
    while (rendered && kept > 0 && summary[kept - 1] == '\n') kept--;
    size_t n = (size_t)kept + 2 + (rendered ? strlen(rendered) : 0) + 1;
    char *text = malloc(n);
    if (text && rendered)
        snprintf(text, n, "%.*s%s%s", kept, summary ? summary : "", summary ? "\n\n" : "",
                 rendered);
    else if (text)
        snprintf(text, n, "%s", summary ? summary : "");
    free(rendered);
    return text;
}

mh_status mh_toolkit_send_facts(const mh_call_service *service, mh_call *call, mh_json_writer *w,
                                const char *summary)
{
    char *json = mh_json_writer_finish(w, NULL);
    if (!json) {
        mh_status status = mh_json_writer_status(w);
        return status != MH_OK ? status : MH_ERR_STATE;
    }
    char *text = mh_toolkit_text_with_facts(summary, json);
    if (text || summary) service->text(call, text ? text : summary);
    free(text);
    service->structured(call, json);
    free(json);
    return MH_OK;
}
