/* parse.c - the strict RFC 8259 parser behind mh_json_parse().
 *
 * Iterative, so nesting depth costs heap, not C stack: open containers are
 * frames on an explicit stack, and finished values wait on a slot stack
 * until their container closes and moves them into the arena as one
 * contiguous array. Every failure stops at the first problem with its
 * position and what was expected there.
 */
#include "json_internal.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct slot {
    const char *key; /* object members: the decoded key */
    size_t key_length;
    size_t key_offset; /* where the key starts in the input, for messages */
    mh_json value;
} slot;

typedef struct frame {
    int is_object;
    size_t slot_base; /* first slot of this container */
    const char *key;  /* objects: the key waiting for its value */
    size_t key_length;
    size_t key_offset;
} frame;

typedef struct parser {
    const unsigned char *start, *p, *end;
    mh_arena *arena;
    slot *slots;
    size_t slot_count, slot_cap;
    frame *frames;
    size_t frame_count, frame_cap;
    uint32_t max_depth;
    mh_json_error *error;
} parser;

/* ---- Errors -------------------------------------------------------------- */

static void locate(const unsigned char *start, size_t offset, size_t *line, size_t *column)
{
    size_t l = 1, line_start = 0;
    for (size_t i = 0; i < offset; i++)
        if (start[i] == '\n') {
            l++;
            line_start = i + 1;
        }
    size_t c = 1;
    for (size_t i = line_start; i < offset; i++)
        if ((start[i] & 0xC0u) != 0x80u) c++;
    *line = l;
    *column = c;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail_at(parser *ps, const unsigned char *at, mh_status status, const char *fmt, ...)
{
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    mh_json_error *e = ps->error;
    e->status = status;
    e->offset = (size_t)(at - ps->start);
    locate(ps->start, e->offset, &e->line, &e->column);
    snprintf(e->message, sizeof e->message, "line %zu, column %zu: %s", e->line, e->column, what);
    return 0;
}

/* "expected X" at the current position, or at the end of the input
 * "unexpected end of input, expected X". */
static int fail_expected(parser *ps, const char *what)
{
    if (ps->p >= ps->end)
        return fail_at(ps, ps->end, MH_ERR_INVALID_ARGUMENT, "unexpected end of input, expected %s", what);
    return fail_at(ps, ps->p, MH_ERR_INVALID_ARGUMENT, "expected %s", what);
}

static int fail_memory(parser *ps)
{
    return fail_at(ps, ps->p, MH_ERR_NO_MEMORY, "out of memory");
}

/* ---- Small helpers ------------------------------------------------------- */

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

static int at_char(const parser *ps, unsigned char c)
{
    return ps->p < ps->end && *ps->p == c;
}

static int grow(void **items, size_t *cap, size_t item_size)
{
    size_t n = *cap ? *cap * 2 : 16;
    if (n > SIZE_MAX / item_size) return 0;
    void *grown = realloc(*items, n * item_size);
    if (!grown) return 0;
    *items = grown;
    *cap = n;
    return 1;
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Four hex digits at s (lim bounds the read), or -1. */
static long hex4(const unsigned char *s, const unsigned char *lim)
{
    if (lim - s < 4) return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(s[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* ---- Strings ------------------------------------------------------------- */

static const char *utf8_problem(mh_utf8_error why)
{
    switch (why) {
    case MH_UTF8_OVERLONG: return "overlong UTF-8 encoding in string";
    case MH_UTF8_SURROGATE: return "UTF-8 encoded surrogate (U+D800..U+DFFF) in string";
    case MH_UTF8_TOO_LARGE: return "UTF-8 sequence above U+10FFFF in string";
    case MH_UTF8_INCOMPLETE: return "incomplete UTF-8 sequence in string";
    case MH_UTF8_BAD_BYTE:
    case MH_UTF8_OK: break;
    }
    return "invalid UTF-8 byte in string";
}

static const char *control_name(unsigned char c)
{
    switch (c) {
    case '\n': return " (write it as \\n)";
    case '\r': return " (write it as \\r)";
    case '\t': return " (write it as \\t)";
    default: return "";
    }
}

/* Eight bytes at a time (SWAR): a nonzero result when any byte of the
 * word is a quote or a backslash, or (plain_only) any byte is not plain
 * ASCII text (below 0x20 or from 0x80). Long strings (a 128 KB hex dump)
 * are mostly such plain runs. */
#define MH_ONES 0x0101010101010101ull
#define MH_HIGHS 0x8080808080808080ull
static uint64_t special_bytes(uint64_t w, int plain_only)
{
    uint64_t quote = w ^ (MH_ONES * '"'), backslash = w ^ (MH_ONES * '\\');
    uint64_t hit = ((quote - MH_ONES) & ~quote) | ((backslash - MH_ONES) & ~backslash);
    if (plain_only) hit |= (w - MH_ONES * 0x20) | w;
    return hit & MH_HIGHS;
}

/* The first byte from s on that special_bytes() would flag, or lim; or
 * the start of the word that holds it (callers look at the next eight
 * bytes one by one). With SSE2 (every x86-64) long plain runs, a 128 KB
 * hex or base64 string, go sixteen bytes a step. */
static const unsigned char *skip_plain(const unsigned char *s, const unsigned char *lim,
                                       int plain_only)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (lim - s >= 16) {
        __m128i w = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(w, quote), _mm_cmpeq_epi8(w, backslash));
        /* signed: below 0x20, or from 0x80 (negative) */
        if (plain_only) hit = _mm_or_si128(hit, _mm_cmplt_epi8(w, space));
        if (_mm_movemask_epi8(hit)) break;
        s += 16;
    }
#endif
    while (lim - s >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        if (special_bytes(w, plain_only)) break;
        s += 8;
    }
    return s;
}

/* Decodes the string whose opening quote is at ps->p into the arena and
 * leaves ps->p after the closing quote. */
static int parse_string(parser *ps, const char **out, size_t *out_length)
{
    const unsigned char *body = ps->p + 1;
    const unsigned char *close = NULL;
    int plain = 1; /* only printable ASCII without escapes: copied as it is */
    /* Whole plain words are skipped; the word skip_plain stops at (it has
     * a special byte somewhere, or fewer than eight bytes are left) is
     * looked at byte by byte, so a short string costs one skip, not one
     * per byte. */
    for (const unsigned char *s = body; !close && s < ps->end;) {
        s = skip_plain(s, ps->end, 1);
        const unsigned char *word_end = ps->end - s < 8 ? ps->end : s + 8;
        for (; s < word_end; s++) {
            if (*s == '\\') {
                plain = 0;
                if (ps->end - s < 2) {
                    s = ps->end;
                    break;
                }
                s++;
            } else if (*s == '"') {
                close = s;
                break;
            } else if (*s < 0x20 || *s >= 0x80) {
                plain = 0;
            }
        }
    }
    const unsigned char *lim = close ? close : ps->end;
    char *dst = NULL;
    if (close) {
        dst = mh_arena_alloc(ps->arena, (size_t)(close - body) + 1, 1);
        if (!dst) return fail_memory(ps);
    }
    size_t o = 0;
    if (close && plain) {
        o = (size_t)(close - body);
        memcpy(dst, body, o);
        lim = body; /* nothing left to decode */
    }
    const unsigned char *s = body;
    while (s < lim) {
        unsigned char c = *s;
        if (c >= 0x20 && c < 0x80 && c != '\\') {
            /* Plain ASCII run. */
            const unsigned char *run = s;
            s = skip_plain(s, lim, 1);
            while (s < lim && *s >= 0x20 && *s < 0x80 && *s != '\\') s++;
            if (dst) memcpy(dst + o, run, (size_t)(s - run));
            o += (size_t)(s - run);
            continue;
        }
        if (c < 0x20)
            return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT,
                           "unescaped control character U+%04X in string%s", c, control_name(c));
        if (c >= 0x80) {
            uint32_t cp;
            mh_utf8_error why = MH_UTF8_OK;
            size_t n = mh_utf8_decode(s, (size_t)(lim - s), &cp, &why);
            if (n == 0) {
                if (why == MH_UTF8_BAD_BYTE)
                    return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT, "invalid UTF-8 byte 0x%02X in string", c);
                return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT, "%s", utf8_problem(why));
            }
            if (dst) memcpy(dst + o, s, n);
            o += n;
            s += n;
            continue;
        }
        /* Escape. */
        if (lim - s < 2) break; /* backslash right at the end of the input */
        char simple = 0;
        switch (s[1]) {
        case '"': simple = '"'; break;
        case '\\': simple = '\\'; break;
        case '/': simple = '/'; break;
        case 'b': simple = '\b'; break;
        case 'f': simple = '\f'; break;
        case 'n': simple = '\n'; break;
        case 'r': simple = '\r'; break;
        case 't': simple = '\t'; break;
        case 'u': break;
        default:
            if (s[1] >= 0x20 && s[1] < 0x7F)
                return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT,
                               "invalid escape '\\%c' in string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                               s[1]);
            return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT,
                           "invalid escape in string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
        }
        if (simple) {
            if (dst) dst[o] = simple;
            o++;
            s += 2;
            continue;
        }
        long cp = hex4(s + 2, lim);
        if (cp < 0) return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT, "expected 4 hex digits after \\u in string");
        size_t used = 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT,
                           "lone low surrogate \\u%04lX in string (it must follow a high surrogate \\uD800-\\uDBFF)",
                           cp);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            long low = -1;
            if (lim - s >= 12 && s[6] == '\\' && s[7] == 'u') low = hex4(s + 8, lim);
            if (low < 0xDC00 || low > 0xDFFF)
                return fail_at(ps, s, MH_ERR_INVALID_ARGUMENT,
                               "high surrogate \\u%04lX in string is not followed by a low surrogate \\uDC00-\\uDFFF",
                               cp);
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            used = 12;
        }
        char enc[4];
        size_t n = mh_utf8_encode((uint32_t)cp, enc);
        if (dst) memcpy(dst + o, enc, n);
        o += n;
        s += used;
    }
    if (!close)
        return fail_at(ps, ps->end, MH_ERR_INVALID_ARGUMENT,
                       "unexpected end of input in a string (missing closing '\"')");
    dst[o] = '\0';
    *out = dst;
    *out_length = o;
    ps->p = close + 1;
    return 1;
}

/* ---- Numbers and literals ------------------------------------------------ */

static int is_digit(const parser *ps, const unsigned char *s)
{
    return s < ps->end && *s >= '0' && *s <= '9';
}

static int parse_number(parser *ps, mh_json *out)
{
    const unsigned char *s = ps->p;
    mh_json_number_parts parts;
    memset(&parts, 0, sizeof parts);
    if (*s == '-') {
        parts.negative = 1;
        s++;
        if (!is_digit(ps, s)) {
            ps->p = s;
            return fail_expected(ps, "a digit after '-'");
        }
    }
    parts.int_begin = (const char *)s;
    if (*s == '0') {
        s++;
        if (is_digit(ps, s))
            return fail_at(ps, s - 1, MH_ERR_INVALID_ARGUMENT, "leading zeros are not allowed in numbers");
    } else {
        while (is_digit(ps, s)) s++;
    }
    parts.int_end = (const char *)s;
    parts.frac_begin = parts.frac_end = (const char *)s;
    if (s < ps->end && *s == '.') {
        s++;
        if (!is_digit(ps, s)) {
            ps->p = s;
            return fail_expected(ps, "a digit after the decimal point");
        }
        parts.frac_begin = (const char *)s;
        while (is_digit(ps, s)) s++;
        parts.frac_end = (const char *)s;
    }
    if (s < ps->end && (*s == 'e' || *s == 'E')) {
        s++;
        int exp_negative = 0;
        if (s < ps->end && (*s == '+' || *s == '-')) exp_negative = *s++ == '-';
        if (!is_digit(ps, s)) {
            ps->p = s;
            return fail_expected(ps, "a digit in the exponent");
        }
        long e = 0;
        while (is_digit(ps, s)) {
            e = e <= 99999999L ? e * 10 + (*s - '0') : 999999999L;
            s++;
        }
        parts.exponent = exp_negative ? -e : e;
    }
    parts.text = (const char *)ps->p;
    parts.text_length = (size_t)(s - ps->p);
    mh_status st = mh_json_i_number(&parts, out);
    if (st == MH_ERR_LIMIT)
        return fail_at(ps, ps->p, MH_ERR_LIMIT, "number is too large for a double");
    if (st != MH_OK) return fail_memory(ps);
    ps->p = s;
    return 1;
}

static int parse_literal(parser *ps, mh_json *out)
{
    static const struct { const char *word; uint8_t type, flags; } words[] = {
        {"true", MH_JSON_BOOL, MH_JSON_F_TRUE},
        {"false", MH_JSON_BOOL, 0},
        {"null", MH_JSON_NULL, 0}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (*ps->p != (unsigned char)words[i].word[0]) continue;
        size_t n = strlen(words[i].word);
        size_t have = (size_t)(ps->end - ps->p);
        if (have >= n && memcmp(ps->p, words[i].word, n) == 0) {
            memset(out, 0, sizeof *out);
            out->type = words[i].type;
            out->flags = words[i].flags;
            ps->p += n;
            return 1;
        }
        if (have < n && memcmp(ps->p, words[i].word, have) == 0)
            return fail_at(ps, ps->end, MH_ERR_INVALID_ARGUMENT,
                           "unexpected end of input, expected '%s'", words[i].word);
        break;
    }
    return fail_at(ps, ps->p, MH_ERR_INVALID_ARGUMENT, "invalid literal, expected true, false or null");
}

static const char *value_hint(unsigned char c)
{
    switch (c) {
    case '\'': return " (strings use double quotes)";
    case '/':
    case '#': return " (comments are not allowed)";
    case '+': return " (numbers cannot start with '+')";
    case '.': return " (numbers need a digit before '.')";
    default: return "";
    }
}

static int parse_scalar(parser *ps, mh_json *out)
{
    unsigned char c = *ps->p;
    if (c == '"') {
        memset(out, 0, sizeof *out);
        out->type = MH_JSON_STRING;
        return parse_string(ps, &out->u.str.bytes, &out->u.str.length);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number(ps, out);
    if (c >= 'a' && c <= 'z') return parse_literal(ps, out);
    return fail_at(ps, ps->p, MH_ERR_INVALID_ARGUMENT,
                   "expected a value (object, array, string, number, true, false or null)%s",
                   value_hint(c));
}

/* ---- Containers ---------------------------------------------------------- */

/* With ps->p on the key's opening quote (after whitespace): key, ':'. */
static int parse_key(parser *ps, frame *f, const char *expected)
{
    if (!at_char(ps, '"')) {
        if (at_char(ps, '\''))
            return fail_at(ps, ps->p, MH_ERR_INVALID_ARGUMENT, "expected %s (keys use double quotes)", expected);
        return fail_expected(ps, expected);
    }
    f->key_offset = (size_t)(ps->p - ps->start);
    if (!parse_string(ps, &f->key, &f->key_length)) return 0;
    skip_ws(ps);
    if (!at_char(ps, ':')) return fail_expected(ps, "':' after object key");
    ps->p++;
    return 1;
}

static int keys_equal(const slot *a, const slot *b)
{
    return a->key_length == b->key_length && memcmp(a->key, b->key, a->key_length) == 0;
}

static int fail_duplicate(parser *ps, const slot *dup)
{
    char quoted[64];
    mh_json_i_snippet(quoted, sizeof quoted, dup->key, dup->key_length, 40);
    return fail_at(ps, ps->start + dup->key_offset, MH_ERR_INVALID_ARGUMENT,
                   "duplicate object key %s", quoted);
}

static int check_duplicates(parser *ps, const slot *members, size_t n)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (keys_equal(&members[i], &members[j])) return fail_duplicate(ps, &members[i]);
        return 1;
    }
    size_t size = 32;
    while (size < n * 2) size *= 2;
    size_t *table = malloc(size * sizeof *table); /* slot index + 1; 0 = empty */
    if (!table) return fail_memory(ps);
    memset(table, 0, size * sizeof *table);
    for (size_t i = 0; i < n; i++) {
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        for (size_t k = 0; k < members[i].key_length; k++) {
            h ^= (unsigned char)members[i].key[k];
            h *= 1099511628211ull;
        }
        size_t at = (size_t)h & (size - 1);
        while (table[at]) {
            if (keys_equal(&members[table[at] - 1], &members[i])) {
                free(table);
                return fail_duplicate(ps, &members[i]);
            }
            at = (at + 1) & (size - 1);
        }
        table[at] = i + 1;
    }
    free(table);
    return 1;
}

/* Moves the top frame's slots into the arena as the finished container.
 * An empty container has no storage (and slots may still be NULL). */
static int close_container(parser *ps, mh_json *out)
{
    frame *f = &ps->frames[ps->frame_count - 1];
    size_t n = ps->slot_count - f->slot_base;
    const slot *first = n ? ps->slots + f->slot_base : NULL;
    memset(out, 0, sizeof *out);
    if (f->is_object) {
        mh_json_member *members = NULL;
        if (n && !check_duplicates(ps, first, n)) return 0;
        if (n && !(members = mh_arena_alloc(ps->arena, n * sizeof *members, alignof(mh_json_member))))
            return fail_memory(ps);
        for (size_t i = 0; i < n; i++) {
            members[i].key = first[i].key;
            members[i].key_length = first[i].key_length;
            members[i].value = first[i].value;
        }
        out->type = MH_JSON_OBJECT;
        out->u.obj.members = members;
        out->u.obj.count = n;
    } else {
        mh_json *items = NULL;
        if (n && !(items = mh_arena_alloc(ps->arena, n * sizeof *items, alignof(mh_json))))
            return fail_memory(ps);
        for (size_t i = 0; i < n; i++) items[i] = first[i].value;
        out->type = MH_JSON_ARRAY;
        out->u.arr.items = items;
        out->u.arr.count = n;
    }
    ps->slot_count = f->slot_base;
    ps->frame_count--;
    return 1;
}

static int open_container(parser *ps, int is_object)
{
    if (ps->frame_count >= ps->max_depth)
        return fail_at(ps, ps->p, MH_ERR_LIMIT, "nesting deeper than %u levels", (unsigned)ps->max_depth);
    if (ps->frame_count == ps->frame_cap &&
        !grow((void **)&ps->frames, &ps->frame_cap, sizeof *ps->frames))
        return fail_memory(ps);
    frame *f = &ps->frames[ps->frame_count++];
    memset(f, 0, sizeof *f);
    f->is_object = is_object;
    f->slot_base = ps->slot_count;
    return 1;
}

static int push_slot(parser *ps, const frame *f, const mh_json *value)
{
    if (ps->slot_count == ps->slot_cap && !grow((void **)&ps->slots, &ps->slot_cap, sizeof *ps->slots))
        return fail_memory(ps);
    slot *s = &ps->slots[ps->slot_count++];
    s->key = f->key;
    s->key_length = f->key_length;
    s->key_offset = f->key_offset;
    s->value = *value;
    return 1;
}

static int parse_document(parser *ps, mh_json *root)
{
    mh_json v;
    for (;;) {
        /* A value is expected here. */
        skip_ws(ps);
        if (ps->p >= ps->end) return fail_expected(ps, "a value");
        unsigned char c = *ps->p;
        if (c == '{' || c == '[') {
            int is_object = c == '{';
            if (!open_container(ps, is_object)) return 0;
            ps->p++;
            skip_ws(ps);
            if (at_char(ps, is_object ? '}' : ']')) {
                ps->p++;
                if (!close_container(ps, &v)) return 0;
            } else if (is_object) {
                if (!parse_key(ps, &ps->frames[ps->frame_count - 1], "a string key or '}'")) return 0;
                continue;
            } else {
                if (ps->p >= ps->end) return fail_expected(ps, "a value or ']'");
                continue;
            }
        } else if (!parse_scalar(ps, &v)) {
            return 0;
        }

        /* v is complete: hand it to its container, closing as many
         * containers as the input closes. */
        for (;;) {
            if (ps->frame_count == 0) {
                *root = v;
                skip_ws(ps);
                if (ps->p < ps->end)
                    return fail_at(ps, ps->p, MH_ERR_INVALID_ARGUMENT,
                                   "expected end of input after the JSON value");
                return 1;
            }
            frame *f = &ps->frames[ps->frame_count - 1];
            if (!push_slot(ps, f, &v)) return 0;
            skip_ws(ps);
            if (at_char(ps, ',')) {
                ps->p++;
                skip_ws(ps);
                if (f->is_object) {
                    if (at_char(ps, '}'))
                        return fail_at(ps, ps->p, MH_ERR_INVALID_ARGUMENT,
                                       "expected an object key after ',' (trailing commas are not allowed)");
                    if (!parse_key(ps, f, "a string key after ','")) return 0;
                } else if (at_char(ps, ']')) {
                    return fail_at(ps, ps->p, MH_ERR_INVALID_ARGUMENT,
                                   "expected a value after ',' (trailing commas are not allowed)");
                }
                break;
            }
            if (at_char(ps, f->is_object ? '}' : ']')) {
                ps->p++;
                if (!close_container(ps, &v)) return 0;
                continue;
            }
            return fail_expected(ps, f->is_object ? "',' or '}' after object member"
                                                  : "',' or ']' after array element");
        }
    }
}

/* ---- Public entry points ------------------------------------------------- */

struct mh_json_doc {
    mh_arena arena;
    mh_json root;
};

mh_json_doc *mh_json_parse(const char *text, size_t length, const mh_json_parse_opts *opts,
                           mh_json_error *error)
{
    mh_json_error local;
    mh_json_error *e = error ? error : &local;
    memset(e, 0, sizeof *e);

    size_t max_size = opts && opts->max_size ? opts->max_size : MH_JSON_DEFAULT_MAX_SIZE;
    uint32_t max_depth = opts && opts->max_depth ? opts->max_depth : MH_JSON_DEFAULT_MAX_DEPTH;
    if (!text) {
        e->status = MH_ERR_INVALID_ARGUMENT;
        snprintf(e->message, sizeof e->message, "no JSON text given");
        return NULL;
    }
    if (length > max_size) {
        e->status = MH_ERR_LIMIT;
        e->offset = max_size;
        snprintf(e->message, sizeof e->message, "the JSON text is %zu bytes, above the limit of %zu bytes",
                 length, max_size);
        return NULL;
    }

    mh_json_doc *doc = malloc(sizeof *doc);
    if (!doc) {
        e->status = MH_ERR_NO_MEMORY;
        snprintf(e->message, sizeof e->message, "out of memory");
        return NULL;
    }
    memset(doc, 0, sizeof *doc);

    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.start = ps.p = (const unsigned char *)text;
    ps.end = ps.start + length;
    ps.arena = &doc->arena;
    ps.max_depth = max_depth;
    ps.error = e;

    int ok = parse_document(&ps, &doc->root);
    free(ps.slots);
    free(ps.frames);
    if (!ok) {
        mh_json_free(doc);
        return NULL;
    }
    return doc;
}

void mh_json_free(mh_json_doc *doc)
{
    if (!doc) return;
    mh_arena_release(&doc->arena);
    free(doc);
}

const mh_json *mh_json_root(const mh_json_doc *doc)
{
    return doc ? &doc->root : NULL;
}
