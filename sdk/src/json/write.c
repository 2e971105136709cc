/* write.c - mh_json_writer: compact JSON text into a growable buffer, with
 * separators placed automatically and the first misuse or allocation
 * failure latched, so the output is valid JSON or nothing. */
#include "json_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mh_json_writer {
    char *buf; /* the text so far, NUL-terminated when non-NULL */
    size_t length, cap;
    unsigned char *stack; /* per open container: '{' or '[' */
    size_t depth, stack_cap;
    mh_status status;
    const char *error;
    bool first;     /* the open container has no member/element yet */
    bool after_key; /* inside an object: a key waits for its value */
    bool done;      /* the top-level value is complete */
};

mh_json_writer *mh_json_writer_new(void)
{
    mh_json_writer *w = calloc(1, sizeof *w);
    if (w) w->error = "";
    return w;
}

void mh_json_writer_free(mh_json_writer *w)
{
    if (!w) return;
    free(w->buf);
    free(w->stack);
    free(w);
}

mh_status mh_json_writer_status(const mh_json_writer *w)
{
    return w ? w->status : MH_ERR_NO_MEMORY;
}

const char *mh_json_writer_error(const mh_json_writer *w)
{
    return w ? w->error : "out of memory (no writer)";
}

static void fail(mh_json_writer *w, mh_status status, const char *why)
{
    if (w->status != MH_OK) return;
    w->status = status;
    w->error = why;
}

void mh_json_i_writer_fail(mh_json_writer *w, mh_status status, const char *why)
{
    if (w) fail(w, status, why);
}

/* Room for `extra` more bytes plus the NUL. */
static bool reserve(mh_json_writer *w, size_t extra)
{
    if (w->status != MH_OK) return false;
    if (extra > SIZE_MAX - 1 - w->length) {
        fail(w, MH_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    size_t need = w->length + extra + 1;
    if (need <= w->cap) return true;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *grown = realloc(w->buf, cap);
    if (!grown) {
        fail(w, MH_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    w->buf = grown;
    w->cap = cap;
    return true;
}

static void put(mh_json_writer *w, const char *s, size_t n)
{
    if (!reserve(w, n)) return;
    memcpy(w->buf + w->length, s, n);
    w->length += n;
    w->buf[w->length] = '\0';
}

static void put_char(mh_json_writer *w, char c)
{
    put(w, &c, 1);
}

/* Separator and state checks before any value. */
static bool before_value(mh_json_writer *w)
{
    if (!w || w->status != MH_OK) return false;
    if (w->depth == 0) {
        if (w->done) {
            fail(w, MH_ERR_STATE, "a document holds one top-level value; wrap several in an array or object");
            return false;
        }
        return true;
    }
    if (w->stack[w->depth - 1] == '{') {
        if (!w->after_key) {
            fail(w, MH_ERR_STATE, "a value inside an object needs a key first");
            return false;
        }
        w->after_key = false;
    } else if (!w->first) {
        put_char(w, ',');
    }
    w->first = false;
    return w->status == MH_OK;
}

static void after_value(mh_json_writer *w)
{
    if (w->depth == 0) w->done = true;
}

/* ---- Strings ------------------------------------------------------------- */

static void put_escaped(mh_json_writer *w, const char *text, size_t length)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    put_char(w, '"');
    while (i < length && w->status == MH_OK) {
        size_t run = i;
        while (run < length && s[run] >= 0x20 && s[run] < 0x7F && s[run] != '"' && s[run] != '\\') run++;
        if (run > i) {
            put(w, text + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = s[i];
        char esc[7] = {'\\', 0, 0, 0, 0, 0, 0};
        size_t esc_len = 2;
        if (c < 0x80) {
            switch (c) {
            case '"': esc[1] = '"'; break;
            case '\\': esc[1] = '\\'; break;
            case '\b': esc[1] = 'b'; break;
            case '\f': esc[1] = 'f'; break;
            case '\n': esc[1] = 'n'; break;
            case '\r': esc[1] = 'r'; break;
            case '\t': esc[1] = 't'; break;
            default: /* other control characters and DEL */
                esc[1] = 'u';
                esc[2] = '0';
                esc[3] = '0';
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
                esc_len = 6;
            }
            put(w, esc, esc_len);
            i++;
            continue;
        }
        uint32_t cp;
        mh_utf8_error why;
        size_t n = mh_utf8_decode(s + i, length - i, &cp, &why);
        if (n == 0) {
            put(w, "\xEF\xBF\xBD", 3); /* U+FFFD for each invalid byte */
            i++;
        } else if (cp == 0x2028 || cp == 0x2029) {
            put(w, cp == 0x2028 ? "\\u2028" : "\\u2029", 6);
            i += n;
        } else {
            put(w, text + i, n);
            i += n;
        }
    }
    put_char(w, '"');
}

void mh_json_write_keyn(mh_json_writer *w, const char *key, size_t length)
{
    if (!w || w->status != MH_OK) return;
    if (w->depth == 0 || w->stack[w->depth - 1] != '{') {
        fail(w, MH_ERR_STATE, "a key is only allowed directly inside an object");
        return;
    }
    if (w->after_key) {
        fail(w, MH_ERR_STATE, "two keys in a row: the first key has no value");
        return;
    }
    if (!key) {
        fail(w, MH_ERR_INVALID_ARGUMENT, "NULL key");
        return;
    }
    if (!w->first) put_char(w, ',');
    w->first = false;
    put_escaped(w, key, length);
    put_char(w, ':');
    w->after_key = true;
}

void mh_json_write_key(mh_json_writer *w, const char *key)
{
    mh_json_write_keyn(w, key, key ? strlen(key) : 0);
}

void mh_json_write_stringn(mh_json_writer *w, const char *text, size_t length)
{
    if (w && w->status == MH_OK && !text) {
        fail(w, MH_ERR_INVALID_ARGUMENT, "NULL string (use mh_json_write_null for null)");
        return;
    }
    if (!before_value(w)) return;
    put_escaped(w, text, length);
    after_value(w);
}

void mh_json_write_string(mh_json_writer *w, const char *text)
{
    mh_json_write_stringn(w, text, text ? strlen(text) : 0);
}

/* ---- Containers ---------------------------------------------------------- */

static void begin(mh_json_writer *w, unsigned char kind)
{
    if (!before_value(w)) return;
    if (w->depth == w->stack_cap) {
        size_t cap = w->stack_cap ? w->stack_cap * 2 : 32;
        unsigned char *grown = cap > w->stack_cap ? realloc(w->stack, cap) : NULL;
        if (!grown) {
            fail(w, MH_ERR_NO_MEMORY, "out of memory");
            return;
        }
        w->stack = grown;
        w->stack_cap = cap;
    }
    w->stack[w->depth++] = kind;
    w->first = true;
    put_char(w, (char)kind);
}

static void end(mh_json_writer *w, unsigned char kind)
{
    if (!w || w->status != MH_OK) return;
    if (w->depth == 0) {
        fail(w, MH_ERR_STATE, kind == '{' ? "object end without a matching begin"
                                          : "array end without a matching begin");
        return;
    }
    if (w->stack[w->depth - 1] != kind) {
        fail(w, MH_ERR_STATE, kind == '{' ? "object end while an array is open"
                                          : "array end while an object is open");
        return;
    }
    if (w->after_key) {
        fail(w, MH_ERR_STATE, "the object ends after a key that has no value");
        return;
    }
    put_char(w, kind == '{' ? '}' : ']');
    w->depth--;
    w->first = false;
    after_value(w);
}

void mh_json_write_object_begin(mh_json_writer *w) { begin(w, '{'); }
void mh_json_write_object_end(mh_json_writer *w) { end(w, '{'); }
void mh_json_write_array_begin(mh_json_writer *w) { begin(w, '['); }
void mh_json_write_array_end(mh_json_writer *w) { end(w, '['); }

/* ---- Scalars ------------------------------------------------------------- */

void mh_json_write_int(mh_json_writer *w, int64_t value)
{
    char text[24];
    if (!before_value(w)) return;
    int n = snprintf(text, sizeof text, "%" PRId64, value);
    put(w, text, (size_t)n);
    after_value(w);
}

void mh_json_write_uint(mh_json_writer *w, uint64_t value)
{
    char text[24];
    if (!before_value(w)) return;
    int n = snprintf(text, sizeof text, "%" PRIu64, value);
    put(w, text, (size_t)n);
    after_value(w);
}

void mh_json_write_double(mh_json_writer *w, double value)
{
    if (w && w->status == MH_OK && !isfinite(value)) {
        fail(w, MH_ERR_INVALID_ARGUMENT, "JSON has no NaN or infinity: only finite doubles can be written");
        return;
    }
    if (!before_value(w)) return;
    char text[32];
    put(w, text, mh_json_i_format_double(text, value));
    after_value(w);
}

void mh_json_write_bool(mh_json_writer *w, bool value)
{
    if (!before_value(w)) return;
    if (value) put(w, "true", 4);
    else put(w, "false", 5);
    after_value(w);
}

void mh_json_write_null(mh_json_writer *w)
{
    if (!before_value(w)) return;
    put(w, "null", 4);
    after_value(w);
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

void mh_json_write_raw(mh_json_writer *w, const char *json, size_t length)
{
    if (!w || w->status != MH_OK) return;
    mh_json_doc *doc = json ? mh_json_parse(json, length, NULL, NULL) : NULL;
    if (!doc) {
        fail(w, MH_ERR_INVALID_ARGUMENT, "raw text is not one complete JSON value");
        return;
    }
    mh_json_free(doc);
    size_t b = 0, e = length;
    while (b < e && is_ws(json[b])) b++;
    while (e > b && is_ws(json[e - 1])) e--;
    if (!before_value(w)) return;
    put(w, json + b, e - b);
    after_value(w);
}

void mh_json_write_base64(mh_json_writer *w, const void *data, size_t size)
{
    if (w && w->status == MH_OK && !data && size) {
        fail(w, MH_ERR_INVALID_ARGUMENT, "NULL data for base64");
        return;
    }
    if (!before_value(w)) return;
    size_t n = mh_base64_encoded_length(size);
    if (n == SIZE_MAX || n > SIZE_MAX - 3) {
        fail(w, MH_ERR_NO_MEMORY, "out of memory");
        return;
    }
    if (!reserve(w, n + 2)) return;
    w->buf[w->length++] = '"';
    w->length += mh_base64_encode(w->buf + w->length, n + 1, data, size);
    w->buf[w->length++] = '"';
    w->buf[w->length] = '\0';
    after_value(w);
}

/* ---- Finish -------------------------------------------------------------- */

char *mh_json_writer_finish(mh_json_writer *w, size_t *length)
{
    if (!w || w->status != MH_OK) return NULL;
    if (w->depth > 0) {
        fail(w, MH_ERR_STATE, w->stack[w->depth - 1] == '{' ? "finish with an object still open"
                                                            : "finish with an array still open");
        return NULL;
    }
    if (!w->done) {
        fail(w, MH_ERR_STATE, "finish before any value was written");
        return NULL;
    }
    char *text = w->buf;
    if (w->cap > w->length + 1 + 256) {
        char *shrunk = realloc(text, w->length + 1);
        if (shrunk) text = shrunk;
    }
    if (length) *length = w->length;
    w->buf = NULL;
    w->length = w->cap = 0;
    w->done = false;
    w->first = false;
    w->after_key = false;
    return text;
}
