/* args_number.c - integers in every form the tool conventions accept, and
 * the wording shared by the argument error messages. */
#include "args_internal.h"
#include "json_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

mh_status mh_args_i_fail(char *err, size_t err_size, mh_status status, const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

const mh_json *mh_args_i_member(const mh_json *args, const char *name)
{
    const mh_json *v = mh_json_object_get(args, name);
    return mh_json_is_null(v) ? NULL : v;
}

static int digit_value(char c, unsigned base)
{
    unsigned d;
    if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
    else return -1;
    return d < base ? (int)d : -1;
}

static mh_args_num_result parse_text(const char *s, size_t n, uint64_t *magnitude, int *negative)
{
    unsigned base = 10;
    size_t i = 0;
    *negative = 0;
    if (n > 0 && s[0] == '$') {
        base = 16;
        i = 1;
    } else if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (n > 0 && s[0] == '%') {
        base = 2;
        i = 1;
    } else if (n > 0 && s[0] == '-') {
        *negative = 1;
        i = 1;
    }
    if (i == n) return MH_ARGS_NUM_MALFORMED;
    uint64_t v = 0;
    int overflow = 0;
    for (; i < n; i++) {
        int d = digit_value(s[i], base);
        if (d < 0) return MH_ARGS_NUM_MALFORMED;
        if (v > (UINT64_MAX - (unsigned)d) / base) overflow = 1;
        else v = v * base + (unsigned)d;
    }
    if (overflow) return MH_ARGS_NUM_TOO_LARGE;
    *magnitude = v;
    return MH_ARGS_NUM_OK;
}

mh_args_num_result mh_args_i_number(const mh_json *value, uint64_t *magnitude, int *negative)
{
    size_t n;
    const char *s = mh_json_as_string(value, &n);
    if (s) return parse_text(s, n, magnitude, negative);
    if (mh_json_typeof(value) != MH_JSON_NUMBER || !mh_json_is_integer(value)) return MH_ARGS_NUM_MALFORMED;
    *negative = (value->flags & MH_JSON_F_NEGATIVE) != 0;
    if (!(value->flags & MH_JSON_F_FITS)) return MH_ARGS_NUM_TOO_LARGE;
    *magnitude = value->u.num.magnitude;
    if (*magnitude == 0) *negative = 0;
    return MH_ARGS_NUM_OK;
}

void mh_args_i_describe(const mh_json *value, char *buf, size_t size)
{
    size_t n;
    const char *s = mh_json_as_string(value, &n);
    if (s) {
        mh_json_i_snippet(buf, size, s, n, 40);
        return;
    }
    switch (mh_json_typeof(value)) {
    case MH_JSON_NUMBER: {
        char text[32];
        if ((value->flags & MH_JSON_F_FITS) && !(value->flags & MH_JSON_F_NEGATIVE))
            snprintf(text, sizeof text, "%" PRIu64, value->u.num.magnitude);
        else
            mh_json_i_format_double(text, value->u.num.value);
        snprintf(buf, size, "%s", text);
        return;
    }
    case MH_JSON_BOOL: snprintf(buf, size, "%s", (value->flags & MH_JSON_F_TRUE) ? "true" : "false"); return;
    case MH_JSON_NULL: snprintf(buf, size, "null"); return;
    case MH_JSON_ARRAY: snprintf(buf, size, "an array"); return;
    case MH_JSON_OBJECT: snprintf(buf, size, "an object"); return;
    case MH_JSON_STRING:
    case MH_JSON_NONE: break;
    }
    snprintf(buf, size, "nothing");
}

void mh_args_i_echo(const mh_json *value, int with_hex, char *buf, size_t size)
{
    size_t n;
    const char *s = mh_json_as_string(value, &n);
    if (s) {
        /* Well-formed number text is plain ASCII; keep it short. */
        if (n > 40) snprintf(buf, size, "%.*s...", mh_utf8_prefix(s, 40), s);
        else snprintf(buf, size, "%s", s);
        return;
    }
    uint64_t m;
    int negative;
    if (mh_args_i_number(value, &m, &negative) != MH_ARGS_NUM_OK) {
        char text[32];
        mh_json_i_format_double(text, value ? value->u.num.value : 0.0);
        snprintf(buf, size, "%s", text);
        return;
    }
    if (negative) snprintf(buf, size, "-%" PRIu64, m);
    else if (with_hex) snprintf(buf, size, "%" PRIu64 " ($%04" PRIX64 ")", m, m);
    else snprintf(buf, size, "%" PRIu64, m);
}
