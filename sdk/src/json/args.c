/* args.c - the shared tool argument conventions: the arguments object,
 * addresses, ranges, integers, booleans, strings and choices. */
#include "args_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const mh_json *mh_args_parse(const char *json_text, mh_json_doc **doc, char *err, size_t err_size)
{
    mh_json_error e;
    *doc = NULL;
    mh_json_doc *d = mh_json_parse(json_text, json_text ? strlen(json_text) : 0, NULL, &e);
    if (!d) {
        mh_args_i_fail(err, err_size, e.status, "arguments: %s", e.message);
        return NULL;
    }
    const mh_json *root = mh_json_root(d);
    if (mh_json_typeof(root) != MH_JSON_OBJECT) {
        mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "arguments: expected a JSON object, got %s %s",
                       mh_json_typeof(root) == MH_JSON_ARRAY ? "an" : "a",
                       mh_json_type_name(mh_json_typeof(root)));
        mh_json_free(d);
        return NULL;
    }
    *doc = d;
    return root;
}

/* True when s is bare hex with at least one letter ("C000"): a likely
 * missing "$". */
static int looks_like_bare_hex(const mh_json *value)
{
    size_t n;
    const char *s = mh_json_as_string(value, &n);
    int letter = 0;
    if (!s || n == 0 || n > 16) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) letter = 1;
        else if (!(c >= '0' && c <= '9')) return 0;
    }
    return letter;
}

mh_status mh_args_address_value(const mh_json *value, const char *name, uint32_t max_address,
                                uint32_t *out, char *err, size_t err_size)
{
    char got[64], highest[16];
    uint64_t m = 0;
    int negative = 0;
    if (!value || mh_json_is_null(value))
        return mh_args_i_fail(err, err_size, MH_ERR_NOT_FOUND, "%s: missing; give %s", name,
                              MH_ARGS_ADDRESS_FORMS);
    mh_args_num_result r = mh_args_i_number(value, &m, &negative);
    if (r == MH_ARGS_NUM_MALFORMED) {
        mh_args_i_describe(value, got, sizeof got);
        if (looks_like_bare_hex(value)) {
            size_t n;
            const char *s = mh_json_as_string(value, &n);
            return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                                  "%s: expected %s, got %s (for hex write \"$%s\")", name,
                                  MH_ARGS_ADDRESS_FORMS, got, s);
        }
        return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "%s: expected %s, got %s", name,
                              MH_ARGS_ADDRESS_FORMS, got);
    }
    /* The value is echoed only in a message: a good address costs none. */
    if (r == MH_ARGS_NUM_OK && negative) {
        mh_args_i_echo(value, 1, got, sizeof got);
        return mh_args_i_fail(err, err_size, MH_ERR_LIMIT, "%s: %s is below the lowest address $0000", name, got);
    }
    if (r == MH_ARGS_NUM_TOO_LARGE || m > max_address) {
        mh_args_i_echo(value, 1, got, sizeof got);
        mh_args_format_address(highest, sizeof highest, max_address);
        return mh_args_i_fail(err, err_size, MH_ERR_LIMIT, "%s: %s is above the highest address %s", name, got,
                              highest);
    }
    *out = (uint32_t)m;
    return MH_OK;
}

mh_status mh_args_address(const mh_json *args, const char *name, uint32_t max_address, uint32_t *out,
                          char *err, size_t err_size)
{
    return mh_args_address_value(mh_args_i_member(args, name), name, max_address, out, err, err_size);
}

/* "an integer", "an integer from 1 to 100", "an integer of at least 1" ... */
static void describe_bounds(char *buf, size_t size, int64_t min, int64_t max)
{
    if (min == INT64_MIN && max == INT64_MAX) snprintf(buf, size, "an integer");
    else if (max == INT64_MAX) snprintf(buf, size, "an integer of at least %" PRId64, min);
    else if (min == INT64_MIN) snprintf(buf, size, "an integer of at most %" PRId64, max);
    else snprintf(buf, size, "an integer from %" PRId64 " to %" PRId64, min, max);
}

mh_status mh_args_int(const mh_json *args, const char *name, int64_t min, int64_t max, int64_t *out,
                      char *err, size_t err_size)
{
    char wanted[80], got[64];
    const mh_json *value = mh_args_i_member(args, name);
    if (!value) { /* often fine for the caller (a default): still says what to give */
        describe_bounds(wanted, sizeof wanted, min, max);
        return mh_args_i_fail(err, err_size, MH_ERR_NOT_FOUND, "%s: missing; give %s", name, wanted);
    }
    uint64_t m = 0;
    int negative = 0;
    mh_args_num_result r = mh_args_i_number(value, &m, &negative);
    if (r == MH_ARGS_NUM_MALFORMED) {
        describe_bounds(wanted, sizeof wanted, min, max);
        mh_args_i_describe(value, got, sizeof got);
        return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "%s: expected %s, got %s", name, wanted,
                              got);
    }
    int64_t v = 0;
    int below = 0, above = 0;
    if (r == MH_ARGS_NUM_TOO_LARGE) {
        below = negative;
        above = !negative;
    } else if (negative) {
        if (m > (uint64_t)INT64_MAX + 1) below = 1;
        else v = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
    } else {
        if (m > (uint64_t)INT64_MAX) above = 1;
        else v = (int64_t)m;
    }
    if (below || (!above && v < min)) {
        mh_args_i_echo(value, 0, got, sizeof got);
        return mh_args_i_fail(err, err_size, MH_ERR_LIMIT, "%s: %s is below the minimum %" PRId64, name, got, min);
    }
    if (above || v > max) {
        mh_args_i_echo(value, 0, got, sizeof got);
        return mh_args_i_fail(err, err_size, MH_ERR_LIMIT, "%s: %s is above the maximum %" PRId64, name, got, max);
    }
    *out = v;
    return MH_OK;
}

mh_status mh_args_range(const mh_json *args, uint32_t max_address, uint32_t default_length, uint32_t max_length,
                        uint32_t *start, uint32_t *length, char *err, size_t err_size)
{
    uint32_t first = 0, last = 0;
    mh_status st = mh_args_address(args, "address", max_address, &first, err, err_size);
    if (st != MH_OK) return st;
    const mh_json *len_value = mh_args_i_member(args, "length");
    const mh_json *end_value = mh_args_i_member(args, "end");
    uint64_t span_limit = max_length ? max_length : (uint64_t)max_address + 1;
    char a[16], b[16];
    mh_args_format_address(a, sizeof a, first);
    if (len_value && end_value)
        return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                              "end: give either length or end (the last address, inclusive), not both");
    uint64_t count;
    if (end_value) {
        st = mh_args_address_value(end_value, "end", max_address, &last, err, err_size);
        if (st != MH_OK) return st;
        if (last < first) {
            mh_args_format_address(b, sizeof b, last);
            return mh_args_i_fail(err, err_size, MH_ERR_LIMIT,
                                  "end: %s is below address %s (end is the last address, inclusive)", b, a);
        }
        count = (uint64_t)last - first + 1;
        if (count > span_limit) {
            mh_args_format_address(b, sizeof b, last);
            return mh_args_i_fail(err, err_size, MH_ERR_LIMIT,
                                  "end: the range %s-%s is %" PRIu64 " bytes, above the maximum %" PRIu64, a, b,
                                  count, span_limit);
        }
    } else if (len_value) {
        int64_t n = 0;
        st = mh_args_int(args, "length", 1, INT64_MAX, &n, err, err_size);
        if (st != MH_OK) return st;
        count = (uint64_t)n;
        if (count > span_limit)
            return mh_args_i_fail(err, err_size, MH_ERR_LIMIT, "length: %" PRIu64 " is above the maximum %" PRIu64,
                                  count, span_limit);
    } else if (default_length) {
        count = default_length;
    } else {
        return mh_args_i_fail(err, err_size, MH_ERR_NOT_FOUND,
                              "length: missing; give length (a byte count) or end (the last address, inclusive)");
    }
    if (count - 1 > (uint64_t)max_address - first) {
        mh_args_format_address(b, sizeof b, max_address);
        return mh_args_i_fail(err, err_size, MH_ERR_LIMIT,
                              "length: %s + %" PRIu64 " bytes runs past the highest address %s (at most %" PRIu64
                              " bytes fit)",
                              a, count, b, (uint64_t)max_address - first + 1);
    }
    *start = first;
    *length = (uint32_t)count;
    return MH_OK;
}

mh_status mh_args_bool(const mh_json *args, const char *name, bool *out, char *err, size_t err_size)
{
    char got[64];
    const mh_json *value = mh_args_i_member(args, name);
    if (!value) return mh_args_i_fail(err, err_size, MH_ERR_NOT_FOUND, "%s: missing; give true or false", name);
    if (mh_json_as_bool(value, out) == MH_OK) return MH_OK;
    mh_args_i_describe(value, got, sizeof got);
    return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "%s: expected true or false, got %s", name, got);
}

mh_status mh_args_string(const mh_json *args, const char *name, const char **out, size_t *length, char *err,
                         size_t err_size)
{
    char got[64];
    const mh_json *value = mh_args_i_member(args, name);
    if (!value) return mh_args_i_fail(err, err_size, MH_ERR_NOT_FOUND, "%s: missing; give a string", name);
    size_t n;
    const char *s = mh_json_as_string(value, &n);
    if (!s) {
        mh_args_i_describe(value, got, sizeof got);
        return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "%s: expected a string, got %s", name, got);
    }
    if (memchr(s, '\0', n))
        return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT,
                              "%s: the string contains a NUL character (\\u0000), which is not allowed here", name);
    *out = s;
    if (length) *length = n;
    return MH_OK;
}

/* Appends "\"a\", \"b\", \"c\"" to buf. */
static void list_choices(char *buf, size_t size, const char *const *choices, size_t count)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && o + 1 < size; i++) {
        int n = snprintf(buf + o, size - o, "%s\"%s\"", i ? ", " : "", choices[i]);
        if (n < 0) break;
        o += (size_t)n;
    }
}

mh_status mh_args_choice(const mh_json *args, const char *name, const char *const *choices, size_t count,
                         size_t *index, char *err, size_t err_size)
{
    char listed[160], got[64];
    const mh_json *value = mh_args_i_member(args, name);
    if (!value) { /* often fine for the caller (a default): still says what to give */
        list_choices(listed, sizeof listed, choices, count);
        return mh_args_i_fail(err, err_size, MH_ERR_NOT_FOUND, "%s: missing; give one of %s", name, listed);
    }
    size_t n;
    const char *s = mh_json_as_string(value, &n);
    for (size_t i = 0; s && i < count; i++) {
        if (strlen(choices[i]) == n && memcmp(choices[i], s, n) == 0) {
            *index = i;
            return MH_OK;
        }
    }
    list_choices(listed, sizeof listed, choices, count);
    mh_args_i_describe(value, got, sizeof got);
    return mh_args_i_fail(err, err_size, MH_ERR_INVALID_ARGUMENT, "%s: expected one of %s, got %s", name, listed,
                          got);
}
