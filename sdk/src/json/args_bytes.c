/* args_bytes.c - byte lists: an array of byte values, or a hex string such
 * as "A9 00 8D 20 D0", "a9008d20d0" or "$A9,$00". */
#include "args_internal.h"
#include "json_internal.h"

#include <stdio.h>
#include <string.h>

#define BYTES_FORMS "an array of byte values or a hex string like \"A9 00 8D 20 D0\""

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int is_separator(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',';
}

static void store(uint8_t *buf, size_t capacity, size_t *count, unsigned value)
{
    if (*count < capacity) buf[*count] = (uint8_t)value;
    (*count)++;
}

static mh_status hex_string(const char *name, const char *s, size_t n, uint8_t *buf, size_t capacity,
                            size_t *count, char *err, size_t err_size)
{
    char token_text[64];
    size_t i = 0;
    *count = 0;
    while (i < n) {
        if (is_separator(s[i])) {
            i++;
            continue;
        }
        size_t begin = i;
        while (i < n && !is_separator(s[i])) i++;
        const char *t = s + begin;
        size_t len = i - begin, digits_at = 0;
        if (len > 0 && t[0] == '$') digits_at = 1;
        else if (len > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) digits_at = 2;
        mh_json_i_snippet(token_text, sizeof token_text, t, len, 24);
        size_t digits = len - digits_at;
        for (size_t k = digits_at; k < len; k++) {
            if (hex_digit(t[k]) < 0) {
                char bad[32];
                uint32_t cp;
                mh_utf8_error why;
                size_t char_len = mh_utf8_decode((const unsigned char *)t + k, len - k, &cp, &why);
                mh_json_i_snippet(bad, sizeof bad, t + k, char_len ? char_len : 1, 1);
                return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                                      "%s: %s in the hex string is not a hex byte: %s is not a hex digit "
                                      "(give %s)",
                                      name, token_text, bad, BYTES_FORMS);
            }
        }
        if (digits == 0)
            return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                                  "%s: %s in the hex string has no hex digits", name, token_text);
        if (digits <= 2) {
            unsigned v = 0;
            for (size_t k = digits_at; k < len; k++) v = v * 16 + (unsigned)hex_digit(t[k]);
            store(buf, capacity, count, v);
            continue;
        }
        if (digits_at)
            return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                                  "%s: %s is more than one byte; a \"$\" or \"0x\" token is one byte (00-FF), "
                                  "separate bytes with spaces",
                                  name, token_text);
        if (digits % 2)
            return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                                  "%s: %s in the hex string has an odd number of digits; write two digits per "
                                  "byte (\"a9008d\") or separate bytes with spaces",
                                  name, token_text);
        for (size_t k = 0; k < digits; k += 2)
            store(buf, capacity, count, (unsigned)(hex_digit(t[k]) * 16 + hex_digit(t[k + 1])));
    }
    return MH_OK;
}

static mh_status byte_array(const char *name, const mh_json *array, uint8_t *buf, size_t capacity, size_t *count,
                            char *err, size_t err_size)
{
    size_t n = mh_json_array_size(array);
    *count = n;
    if (n > capacity) return MH_OK; /* reported by the caller */
    for (size_t i = 0; i < n; i++) {
        const mh_json *item = mh_json_array_get(array, i);
        char got[64];
        uint64_t m = 0;
        int negative = 0;
        mh_args_num_result r = mh_args_i_number(item, &m, &negative);
        if (r == MH_ARGS_NUM_MALFORMED) {
            mh_args_i_describe(item, got, sizeof got);
            return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                                  "%s[%zu]: expected a byte (0-255) as an integer or a string like \"$A9\", got %s",
                                  name, i, got);
        }
        if (r == MH_ARGS_NUM_TOO_LARGE || negative || m > 255) {
            mh_args_i_echo(item, 0, got, sizeof got);
            return mh_args_i_fail(err, err_size, MH_ERR_LIMIT, "%s[%zu]: %s is not a byte (0-255)", name, i, got);
        }
        buf[i] = (uint8_t)m;
    }
    return MH_OK;
}

mh_status mh_args_bytes(const mh_json *args, const char *name, uint8_t *buf, size_t capacity, size_t *count,
                        char *err, size_t err_size)
{
    char got[64];
    const mh_json *value = mh_args_i_member(args, name);
    if (!value) return mh_args_i_fail(err, err_size, MH_ERR_NOT_FOUND, "%s: missing; give %s", name, BYTES_FORMS);
    size_t n = 0, length;
    const char *s = mh_json_as_string(value, &length);
    mh_status st;
    if (s) {
        st = hex_string(name, s, length, buf, capacity, &n, err, err_size);
    } else if (mh_json_typeof(value) == MH_JSON_ARRAY) {
        st = byte_array(name, value, buf, capacity, &n, err, err_size);
    } else {
        mh_args_i_describe(value, got, sizeof got);
        return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "%s: expected %s, got %s", name, BYTES_FORMS,
                              got);
    }
    if (st != MH_OK) return st;
    if (n == 0) return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "%s: is empty; give at least one byte", name);
    if (n > capacity)
        return mh_args_i_fail(err, err_size, MH_ERR_LIMIT, "%s: %zu bytes are more than the %zu allowed", name, n,
                              capacity);
    *count = n;
    return MH_OK;
}
