/* Tests of mh_json_parse() and the tree accessors: valid documents
 * (json.parse) and every kind of syntax error with its exact message
 * (json.errors). */
#include "mh_test.h"

#include <mcphost/json.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_str(const char *actual, const char *expected, unsigned line, const char *file)
{
    char cond[700];
    int ok = actual && strcmp(actual, expected) == 0;
    snprintf(cond, sizeof cond, "expected \"%s\", got \"%s\"", expected, actual ? actual : "(null)");
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, cond, file, "", CU_FALSE);
}
#define CHECK_STR(actual, expected) check_str((actual), (expected), __LINE__, __FILE__)

/* Parses an exact-size heap copy (no NUL after it, so ASan sees overreads). */
static mh_json_doc *parse_n(const char *text, size_t n, mh_json_error *e)
{
    char *copy = malloc(n ? n : 1);
    memcpy(copy, text, n);
    mh_json_doc *doc = mh_json_parse(copy, n, NULL, e);
    free(copy);
    return doc;
}

static mh_json_doc *parse(const char *text)
{
    mh_json_error e;
    mh_json_doc *doc = parse_n(text, strlen(text), &e);
    if (!doc) fprintf(stderr, "\nunexpected parse error: %s\n", e.message);
    return doc;
}

/* ---- json.parse ---------------------------------------------------------- */

static void test_scalars(void)
{
    bool b = false;
    mh_json_doc *doc = parse(" true ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(mh_json_typeof(mh_json_root(doc)), MH_JSON_BOOL);
    CU_ASSERT_EQUAL(mh_json_as_bool(mh_json_root(doc), &b), MH_OK);
    CU_ASSERT_TRUE(b);
    mh_json_free(doc);

    doc = parse("false");
    CU_ASSERT_EQUAL(mh_json_as_bool(mh_json_root(doc), &b), MH_OK);
    CU_ASSERT_FALSE(b);
    mh_json_free(doc);

    doc = parse("\r\n\tnull\n");
    CU_ASSERT_TRUE(mh_json_is_null(mh_json_root(doc)));
    CU_ASSERT_EQUAL(mh_json_as_bool(mh_json_root(doc), &b), MH_ERR_INVALID_ARGUMENT);
    mh_json_free(doc);

    doc = parse("\"hi\"");
    size_t n = 0;
    CHECK_STR(mh_json_as_string(mh_json_root(doc), &n), "hi");
    CU_ASSERT_EQUAL(n, 2);
    mh_json_free(doc);
}

static void test_object_and_array(void)
{
    mh_json_doc *doc = parse("{\"pc\": 49152, \"regs\": {\"a\": 1, \"x\": 2}, \"list\": [1, \"two\", [3], {}, []],"
                             " \"name\": \"c64\", \"on\": true, \"none\": null}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const mh_json *root = mh_json_root(doc);
    CU_ASSERT_EQUAL(mh_json_typeof(root), MH_JSON_OBJECT);
    CU_ASSERT_EQUAL(mh_json_object_size(root), 6);

    size_t key_len = 0;
    CHECK_STR(mh_json_object_key(root, 0, &key_len), "pc");
    CU_ASSERT_EQUAL(key_len, 2);
    CHECK_STR(mh_json_object_key(root, 5, NULL), "none");
    CU_ASSERT_PTR_NULL(mh_json_object_key(root, 6, NULL));
    CU_ASSERT_PTR_NULL(mh_json_object_value(root, 6));
    CU_ASSERT_PTR_EQUAL(mh_json_object_value(root, 1), mh_json_object_get(root, "regs"));

    int64_t v = 0;
    CU_ASSERT_EQUAL(mh_json_get_int(root, "pc", &v), MH_OK);
    CU_ASSERT_EQUAL(v, 49152);
    CU_ASSERT_EQUAL(mh_json_get_int(mh_json_object_get(root, "regs"), "x", &v), MH_OK);
    CU_ASSERT_EQUAL(v, 2);

    const mh_json *list = mh_json_object_get(root, "list");
    CU_ASSERT_EQUAL(mh_json_array_size(list), 5);
    CHECK_STR(mh_json_as_string(mh_json_array_get(list, 1), NULL), "two");
    CU_ASSERT_EQUAL(mh_json_array_size(mh_json_array_get(list, 2)), 1);
    CU_ASSERT_EQUAL(mh_json_typeof(mh_json_array_get(list, 3)), MH_JSON_OBJECT);
    CU_ASSERT_EQUAL(mh_json_object_size(mh_json_array_get(list, 3)), 0);
    CU_ASSERT_EQUAL(mh_json_typeof(mh_json_array_get(list, 4)), MH_JSON_ARRAY);
    CU_ASSERT_EQUAL(mh_json_array_size(mh_json_array_get(list, 4)), 0);
    CU_ASSERT_PTR_NULL(mh_json_array_get(list, 5));

    /* Wrong-type and missing lookups chain to NULL / NONE. */
    CU_ASSERT_PTR_NULL(mh_json_object_get(list, "a"));
    CU_ASSERT_PTR_NULL(mh_json_array_get(root, 0));
    CU_ASSERT_EQUAL(mh_json_typeof(mh_json_object_get(mh_json_object_get(root, "nope"), "x")), MH_JSON_NONE);
    CU_ASSERT_EQUAL(mh_json_array_size(NULL), 0);
    CU_ASSERT_EQUAL(mh_json_object_size(list), 0);
    CU_ASSERT_PTR_NULL(mh_json_object_get(root, NULL));

    CHECK_STR(mh_json_get_string(root, "name", "?"), "c64");
    CHECK_STR(mh_json_get_string(root, "pc", "?"), "?");
    CHECK_STR(mh_json_get_string(root, "missing", "dflt"), "dflt");
    bool b = false;
    CU_ASSERT_EQUAL(mh_json_get_bool(root, "on", &b), MH_OK);
    CU_ASSERT_TRUE(b);
    CU_ASSERT_EQUAL(mh_json_get_bool(root, "pc", &b), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_json_get_int(root, "missing", &v), MH_ERR_NOT_FOUND);
    CU_ASSERT_EQUAL(mh_json_get_int(root, "name", &v), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(v, 2); /* untouched on failure */
    CU_ASSERT_TRUE(mh_json_is_null(mh_json_object_get(root, "none")));
    CU_ASSERT_FALSE(mh_json_is_null(mh_json_object_get(root, "missing")));
    double d = 0;
    CU_ASSERT_EQUAL(mh_json_get_double(root, "pc", &d), MH_OK);
    CU_ASSERT_EQUAL(d, 49152.0);
    mh_json_free(doc);
}

static void test_strings(void)
{
    size_t n = 0;
    mh_json_doc *doc = parse("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u00e9\\u00E9\", \"\\uD83D\\uDE00\", "
                             "\"a\\u0000b\", \"\xc3\xa9\xf0\x9f\x98\x80\", \"\", \"\\u20AC\", \"\\uDBFF\\uDFFF\", "
                             "\"\x7f\"]");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const mh_json *a = mh_json_root(doc);
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 0), NULL), "\"\\/\b\f\n\r\t");
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 1), NULL), "\xc3\xa9\xc3\xa9");
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 2), NULL), "\xf0\x9f\x98\x80");
    const char *s = mh_json_as_string(mh_json_array_get(a, 3), &n);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(memcmp(s, "a\0b", 4), 0); /* NUL inside, NUL-terminated */
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 4), NULL), "\xc3\xa9\xf0\x9f\x98\x80");
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 5), &n), "");
    CU_ASSERT_EQUAL(n, 0);
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 6), NULL), "\xe2\x82\xac");
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 7), NULL), "\xf4\x8f\xbf\xbf");
    CHECK_STR(mh_json_as_string(mh_json_array_get(a, 8), NULL), "\x7f");
    CU_ASSERT_PTR_NULL(mh_json_as_string(a, NULL));
    mh_json_free(doc);

    /* Keys are decoded too, and may hold NUL. */
    doc = parse("{\"k\\u0000ey\": 1, \"\\u00e9\": 2}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_PTR_NOT_NULL(mh_json_object_getn(mh_json_root(doc), "k\0ey", 4));
    CU_ASSERT_PTR_NULL(mh_json_object_get(mh_json_root(doc), "k"));
    CU_ASSERT_PTR_NOT_NULL(mh_json_object_get(mh_json_root(doc), "\xc3\xa9"));
    mh_json_free(doc);
}

/* The number in `text` as int64 / uint64 / double. */
static mh_status as_i64(const char *text, int64_t *out)
{
    mh_json_doc *doc = parse(text);
    if (!doc) return MH_ERR_INTERNAL;
    mh_status st = mh_json_as_int64(mh_json_root(doc), out);
    mh_json_free(doc);
    return st;
}

static mh_status as_u64(const char *text, uint64_t *out)
{
    mh_json_doc *doc = parse(text);
    if (!doc) return MH_ERR_INTERNAL;
    mh_status st = mh_json_as_uint64(mh_json_root(doc), out);
    mh_json_free(doc);
    return st;
}

static double as_double(const char *text)
{
    double d = -12345.0;
    mh_json_doc *doc = parse(text);
    if (!doc) return NAN;
    CU_ASSERT_EQUAL(mh_json_as_double(mh_json_root(doc), &d), MH_OK);
    mh_json_free(doc);
    return d;
}

static void test_integers(void)
{
    int64_t i = 0;
    uint64_t u = 0;
    CU_ASSERT_EQUAL(as_i64("42", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 42);
    CU_ASSERT_EQUAL(as_i64("-0", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 0);
    CU_ASSERT_EQUAL(as_i64("4.2e1", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 42);
    CU_ASSERT_EQUAL(as_i64("1E3", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 1000);
    CU_ASSERT_EQUAL(as_i64("10.000", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 10);
    CU_ASSERT_EQUAL(as_i64("1500e-2", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 15);
    CU_ASSERT_EQUAL(as_i64("0.000e5", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 0);
    CU_ASSERT_EQUAL(as_i64("9223372036854775807", &i), MH_OK);
    CU_ASSERT_EQUAL(i, INT64_MAX);
    CU_ASSERT_EQUAL(as_i64("-9223372036854775808", &i), MH_OK);
    CU_ASSERT_EQUAL(i, INT64_MIN);
    /* Exact, not through the double (which would round to ...992). */
    CU_ASSERT_EQUAL(as_i64("9007199254740993", &i), MH_OK);
    CU_ASSERT_EQUAL(i, INT64_C(9007199254740993));
    CU_ASSERT_EQUAL(as_double("9007199254740993"), 9007199254740992.0);

    i = 7;
    CU_ASSERT_EQUAL(as_i64("9223372036854775808", &i), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(as_i64("-9223372036854775809", &i), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(as_i64("1e19", &i), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(as_i64("123456789012345678901234567890", &i), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(as_i64("1.5", &i), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(as_i64("1e-2", &i), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(as_i64("0.1e1", &i), MH_OK);
    CU_ASSERT_EQUAL(i, 1);
    CU_ASSERT_EQUAL(as_i64("\"5\"", &i), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(as_i64("1.0000000000000000000001", &i), MH_ERR_INVALID_ARGUMENT);

    CU_ASSERT_EQUAL(as_u64("18446744073709551615", &u), MH_OK);
    CU_ASSERT_EQUAL(u, UINT64_MAX);
    CU_ASSERT_EQUAL(as_u64("9223372036854775808", &u), MH_OK);
    CU_ASSERT_EQUAL(u, UINT64_C(9223372036854775808));
    CU_ASSERT_EQUAL(as_u64("18446744073709551616", &u), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(as_u64("-1", &u), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(as_u64("-0", &u), MH_OK);
    CU_ASSERT_EQUAL(u, 0);
    CU_ASSERT_EQUAL(as_u64("1844674407370955161.5e1", &u), MH_OK);
    CU_ASSERT_EQUAL(u, UINT64_C(18446744073709551615));

    mh_json_error e;
    const char *too_large = "[123456789012345678901234567890, 2.5, 1e400000000000]";
    CU_ASSERT_PTR_NULL(mh_json_parse(too_large, strlen(too_large), NULL, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    mh_json_doc *doc = parse("[123456789012345678901234567890, 2.5, 1e-400000000000]");
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_TRUE(mh_json_is_integer(mh_json_array_get(mh_json_root(doc), 0)));
    CU_ASSERT_FALSE(mh_json_is_integer(mh_json_array_get(mh_json_root(doc), 1)));
    CU_ASSERT_FALSE(mh_json_is_integer(mh_json_array_get(mh_json_root(doc), 2)));
    CU_ASSERT_FALSE(mh_json_is_integer(mh_json_root(doc)));
    mh_json_free(doc);
}

static void test_doubles(void)
{
    CU_ASSERT_EQUAL(as_double("0.1"), 0.1);
    CU_ASSERT_EQUAL(as_double("-2.5"), -2.5);
    CU_ASSERT_EQUAL(as_double("1e308"), 1e308);
    CU_ASSERT_EQUAL(as_double("1.7976931348623157e308"), 1.7976931348623157e308);
    CU_ASSERT_EQUAL(as_double("5e-324"), 5e-324);
    CU_ASSERT_EQUAL(as_double("2.2250738585072011e-308"), 2.2250738585072011e-308);
    CU_ASSERT_EQUAL(as_double("1e-400"), 0.0);
    CU_ASSERT_EQUAL(as_double("123456789012345678901234567890"), 123456789012345678901234567890.0);
    CU_ASSERT_EQUAL(as_double("0.30000000000000004"), 0.30000000000000004);
    CU_ASSERT_EQUAL(as_double("3.141592653589793238462643383279"), 3.141592653589793);
    CU_ASSERT_EQUAL(as_double("1E+2"), 100.0);
    CU_ASSERT_EQUAL(as_double("1e-7"), 1e-7);
    CU_ASSERT_EQUAL(as_double("12345678901234567890e-10"), 1234567890.1234567890);
    double z = as_double("-0");
    CU_ASSERT_EQUAL(z, 0.0);
    CU_ASSERT_TRUE(signbit(z));
    z = as_double("-0.0e10");
    CU_ASSERT_TRUE(signbit(z));
}

static void test_limits_options(void)
{
    mh_json_error e;
    mh_json_parse_opts opts = {0, 2};
    mh_json_doc *doc = mh_json_parse("[[1]]", 5, &opts, &e);
    CU_ASSERT_PTR_NOT_NULL(doc);
    mh_json_free(doc);
    doc = mh_json_parse("[[[1]]]", 7, &opts, &e);
    CU_ASSERT_PTR_NULL(doc);
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    CHECK_STR(e.message, "line 1, column 3: nesting deeper than 2 levels");

    mh_json_parse_opts small = {10, 0};
    doc = mh_json_parse("[1,2,3,4,5]", 11, &small, &e);
    CU_ASSERT_PTR_NULL(doc);
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(e.offset, 10);
    CU_ASSERT_EQUAL(e.line, 0);
    CHECK_STR(e.message, "the JSON text is 11 bytes, above the limit of 10 bytes");
    doc = mh_json_parse("[1,2,3,45]", 10, &small, &e);
    CU_ASSERT_PTR_NOT_NULL(doc);
    CU_ASSERT_EQUAL(e.status, MH_OK);
    mh_json_free(doc);

    /* A NULL error pointer is fine; so is text without a NUL after it. */
    CU_ASSERT_PTR_NULL(mh_json_parse("[", 1, NULL, NULL));
    doc = mh_json_parse("[7]xxxx", 3, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL(doc);
    mh_json_free(doc);
    CU_ASSERT_PTR_NULL(mh_json_parse(NULL, 0, NULL, &e));
    CHECK_STR(e.message, "no JSON text given");
    mh_json_free(NULL);
    CU_ASSERT_PTR_NULL(mh_json_root(NULL));
}

static void test_type_names(void)
{
    CHECK_STR(mh_json_type_name(MH_JSON_NONE), "nothing");
    CHECK_STR(mh_json_type_name(MH_JSON_NULL), "null");
    CHECK_STR(mh_json_type_name(MH_JSON_BOOL), "boolean");
    CHECK_STR(mh_json_type_name(MH_JSON_NUMBER), "number");
    CHECK_STR(mh_json_type_name(MH_JSON_STRING), "string");
    CHECK_STR(mh_json_type_name(MH_JSON_ARRAY), "array");
    CHECK_STR(mh_json_type_name(MH_JSON_OBJECT), "object");
    CU_ASSERT_EQUAL(mh_json_typeof(NULL), MH_JSON_NONE);
    double d;
    CU_ASSERT_EQUAL(mh_json_as_double(NULL, &d), MH_ERR_NOT_FOUND);
}

/* A larger realistic document: a Harte-style CPU test vector. */
static void test_realistic(void)
{
    const char *text =
        "[\n"
        "  {\n"
        "    \"name\": \"a9 42 00\",\n"
        "    \"initial\": {\"pc\": 1234, \"s\": 253, \"a\": 0, \"x\": 0, \"y\": 0, \"p\": 36,\n"
        "                \"ram\": [[1234, 169], [1235, 66], [1236, 0]]},\n"
        "    \"final\": {\"pc\": 1236, \"s\": 253, \"a\": 66, \"x\": 0, \"y\": 0, \"p\": 36,\n"
        "              \"ram\": [[1234, 169], [1235, 66], [1236, 0]]},\n"
        "    \"cycles\": [[1234, 169, \"read\"], [1235, 66, \"read\"]]\n"
        "  }\n"
        "]\n";
    mh_json_doc *doc = parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const mh_json *t = mh_json_array_get(mh_json_root(doc), 0);
    int64_t v = 0;
    CU_ASSERT_EQUAL(mh_json_get_int(mh_json_object_get(t, "final"), "a", &v), MH_OK);
    CU_ASSERT_EQUAL(v, 66);
    const mh_json *cycle = mh_json_array_get(mh_json_object_get(t, "cycles"), 1);
    CHECK_STR(mh_json_as_string(mh_json_array_get(cycle, 2), NULL), "read");
    CU_ASSERT_EQUAL(mh_json_as_int64(mh_json_array_get(cycle, 1), &v), MH_OK);
    CU_ASSERT_EQUAL(v, 66);
    mh_json_free(doc);
}

/* Long strings are scanned eight bytes at a time: whatever falls at any
 * position of such a word (an escape, a quote, UTF-8, a control character,
 * invalid UTF-8) is still decoded or refused exactly. */
static void test_long_strings(void)
{
    static const struct {
        const char *json, *decoded; /* decoded NULL: refused */
    } specials[] = {
        {"\\n", "\n"}, {"\\\"", "\""}, {"\\\\", "\\"}, {"\\u00e9", "\xc3\xa9"},
        {"\xc3\xa9", "\xc3\xa9"}, {"\x7f", "\x7f"}, {"\x01", NULL}, {"\n", NULL}, {"\xff", NULL},
    };
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++)
        for (size_t at = 0; at < 24; at++) {
            char text[128], expected[128];
            snprintf(text, sizeof text, "\"%.*s%s%.*s\"", (int)at, "aaaaaaaaaaaaaaaaaaaaaaaa",
                     specials[k].json, (int)(23 - at), "bbbbbbbbbbbbbbbbbbbbbbb");
            snprintf(expected, sizeof expected, "%.*s%s%.*s", (int)at, "aaaaaaaaaaaaaaaaaaaaaaaa",
                     specials[k].decoded ? specials[k].decoded : "", (int)(23 - at),
                     "bbbbbbbbbbbbbbbbbbbbbbb");
            mh_json_error e;
            mh_json_doc *doc = parse_n(text, strlen(text), &e);
            if (!specials[k].decoded) {
                CU_ASSERT_PTR_NULL(doc);
                CU_ASSERT_EQUAL(e.offset, at + 1);
                mh_json_free(doc);
                continue;
            }
            CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
            CHECK_STR(mh_json_as_string(mh_json_root(doc), NULL), expected);
            mh_json_free(doc);
        }
    /* an unterminated long string is refused, not read past its end */
    mh_json_error e;
    const char *open = "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    CU_ASSERT_PTR_NULL(parse_n(open, strlen(open), &e));
}

/* Strings scanned in 16- and 8-byte steps: a special byte (escape, UTF-8,
 * a control character, the closing quote) at every position of strings up
 * to 70 bytes is found where it is. */
static void test_special_byte_at_every_position(void)
{
    char text[128], want[128];
    for (size_t length = 0; length <= 70; length++) {
        /* plain: decoded as it is */
        memset(want, 'a', length);
        want[length] = '\0';
        text[0] = '"';
        memcpy(text + 1, want, length);
        text[1 + length] = '"';
        text[2 + length] = '\0';
        mh_json_doc *doc = mh_json_parse(text, strlen(text), NULL, NULL);
        size_t n = 0;
        const char *got = doc ? mh_json_as_string(mh_json_root(doc), &n) : NULL;
        CU_ASSERT(got && n == length && memcmp(got, want, length) == 0);
        mh_json_free(doc);
        for (size_t at = 0; at < length; at++) {
            /* an escape at `at`: "\n" decodes to one newline */
            memset(text, 'a', sizeof text);
            text[0] = '"';
            memcpy(text + 1 + at, "\\n", 2);
            text[1 + length + 1] = '"';
            doc = mh_json_parse(text, length + 3, NULL, NULL);
            got = doc ? mh_json_as_string(mh_json_root(doc), &n) : NULL;
            CU_ASSERT(got && n == length && got[at] == '\n' && (at == 0 || got[at - 1] == 'a'));
            mh_json_free(doc);
            /* UTF-8 at `at` (2 bytes): kept */
            memset(text, 'a', sizeof text);
            text[0] = '"';
            memcpy(text + 1 + at, "\xc3\xa9", 2);
            text[1 + length + 1] = '"';
            doc = mh_json_parse(text, length + 3, NULL, NULL);
            got = doc ? mh_json_as_string(mh_json_root(doc), &n) : NULL;
            CU_ASSERT(got && n == length + 1 && (unsigned char)got[at] == 0xC3);
            mh_json_free(doc);
            /* a raw control character at `at`: refused */
            memset(text, 'a', sizeof text);
            text[0] = '"';
            text[1 + at] = '\t';
            text[1 + length] = '"';
            CU_ASSERT_PTR_NULL(mh_json_parse(text, length + 2, NULL, NULL));
            /* the closing quote early: what follows is not JSON */
            memset(text, 'a', sizeof text);
            text[0] = '"';
            text[1 + at] = '"';
            text[1 + length] = '"';
            CU_ASSERT_PTR_NULL(mh_json_parse(text, length + 2, NULL, NULL));
        }
    }
}

MH_SUITE("json.parse", NULL, NULL, MH_TEST(test_scalars), MH_TEST(test_object_and_array), MH_TEST(test_strings),
         MH_TEST(test_integers), MH_TEST(test_doubles), MH_TEST(test_limits_options), MH_TEST(test_type_names),
         MH_TEST(test_realistic), MH_TEST(test_long_strings),
         MH_TEST(test_special_byte_at_every_position))

/* ---- json.errors --------------------------------------------------------- */

static void check_error(const char *text, size_t n, mh_status status, const char *message, unsigned line)
{
    mh_json_error e;
    memset(&e, 0x55, sizeof e);
    mh_json_doc *doc = parse_n(text, n, &e);
    CU_assertImplementation(doc == NULL ? CU_TRUE : CU_FALSE, line, "parse must fail", __FILE__, "", CU_FALSE);
    if (doc) {
        mh_json_free(doc);
        return;
    }
    char cond[64];
    snprintf(cond, sizeof cond, "status %d == %d", (int)e.status, (int)status);
    CU_assertImplementation(e.status == status ? CU_TRUE : CU_FALSE, line, cond, __FILE__, "", CU_FALSE);
    CU_assertImplementation(e.offset <= n ? CU_TRUE : CU_FALSE, line, "offset within input", __FILE__, "",
                            CU_FALSE);
    check_str(e.message, message, line, __FILE__);
}
#define ERR(text, message) check_error((text), sizeof(text) - 1, MH_ERR_INVALID_ARGUMENT, (message), __LINE__)
#define ERR_LIMIT(text, message) check_error((text), sizeof(text) - 1, MH_ERR_LIMIT, (message), __LINE__)

#define VALUE_KINDS "expected a value (object, array, string, number, true, false or null)"

static void test_structure_errors(void)
{
    ERR("{\"ab\" 1}", "line 1, column 7: expected ':' after object key");
    ERR("{\"a\"", "line 1, column 5: unexpected end of input, expected ':' after object key");
    ERR("{\"a\":", "line 1, column 6: unexpected end of input, expected a value");
    ERR("", "line 1, column 1: unexpected end of input, expected a value");
    ERR("   ", "line 1, column 4: unexpected end of input, expected a value");
    ERR("[", "line 1, column 2: unexpected end of input, expected a value or ']'");
    ERR("{", "line 1, column 2: unexpected end of input, expected a string key or '}'");
    ERR("[1", "line 1, column 3: unexpected end of input, expected ',' or ']' after array element");
    ERR("{\"a\":1", "line 1, column 7: unexpected end of input, expected ',' or '}' after object member");
    ERR("[1 2]", "line 1, column 4: expected ',' or ']' after array element");
    ERR("{\"a\":1 \"b\":2}", "line 1, column 8: expected ',' or '}' after object member");
    ERR("[1,]", "line 1, column 4: expected a value after ',' (trailing commas are not allowed)");
    ERR("{\"a\":1,}", "line 1, column 8: expected an object key after ',' (trailing commas are not allowed)");
    ERR("{\"a\":1,2}", "line 1, column 8: expected a string key after ','");
    ERR("{1:2}", "line 1, column 2: expected a string key or '}'");
    ERR("{'a':1}", "line 1, column 2: expected a string key or '}' (keys use double quotes)");
    /* Found by fuzz_json: closing the first, empty container (UBSan). */
    ERR("[[[]]f]]]ZZZ", "line 1, column 6: expected ',' or ']' after array element");
    ERR("[1}", "line 1, column 3: expected ',' or ']' after array element");
    ERR("{\"a\":1]", "line 1, column 7: expected ',' or '}' after object member");
    ERR("[,1]", "line 1, column 2: " VALUE_KINDS);
    ERR("]", "line 1, column 1: " VALUE_KINDS);
    ERR("1 2", "line 1, column 3: expected end of input after the JSON value");
    ERR("{} {}", "line 1, column 4: expected end of input after the JSON value");
    ERR("[1]\0", "line 1, column 4: expected end of input after the JSON value");
    ERR("{\"a\":1,\"a\":2}", "line 1, column 8: duplicate object key \"a\"");
    ERR("{\"x\":{\"k\\n\":1,\"k\\u000a\":2}}", "line 1, column 15: duplicate object key \"k\\u000A\"");
    ERR("// comment\n1", "line 1, column 1: " VALUE_KINDS " (comments are not allowed)");
    ERR("[1, /* c */ 2]", "line 1, column 5: " VALUE_KINDS " (comments are not allowed)");
    ERR("'a'", "line 1, column 1: " VALUE_KINDS " (strings use double quotes)");
    ERR("[\x01]", "line 1, column 2: " VALUE_KINDS);
    ERR("\xef\xbb\xbf[]", "line 1, column 1: " VALUE_KINDS); /* no BOM */
}

static void test_position_errors(void)
{
    /* Line and column, columns counting characters, not bytes. */
    ERR("{\n  \"a\": 1,\n  \"b\" 2\n}", "line 3, column 7: expected ':' after object key");
    ERR("[\"\xc3\xa9\", x]", "line 1, column 7: invalid literal, expected true, false or null");
    ERR("[\r\n\r\n  @]", "line 3, column 3: " VALUE_KINDS);
    ERR("\n\n\n", "line 4, column 1: unexpected end of input, expected a value");

    mh_json_error e;
    CU_ASSERT_PTR_NULL(mh_json_parse("[\n 1,\n 2 3]", 11, NULL, &e));
    CU_ASSERT_EQUAL(e.offset, 9);
    CU_ASSERT_EQUAL(e.line, 3);
    CU_ASSERT_EQUAL(e.column, 4);
}

static void test_literal_number_errors(void)
{
    ERR("tru", "line 1, column 4: unexpected end of input, expected 'true'");
    ERR("[nul", "line 1, column 5: unexpected end of input, expected 'null'");
    ERR("trux", "line 1, column 1: invalid literal, expected true, false or null");
    ERR("nan", "line 1, column 1: invalid literal, expected true, false or null");
    ERR("True", "line 1, column 1: " VALUE_KINDS);
    ERR("truex", "line 1, column 5: expected end of input after the JSON value");
    ERR("[01]", "line 1, column 2: leading zeros are not allowed in numbers");
    ERR("-01", "line 1, column 2: leading zeros are not allowed in numbers");
    ERR("-", "line 1, column 2: unexpected end of input, expected a digit after '-'");
    ERR("-a", "line 1, column 2: expected a digit after '-'");
    ERR("- 1", "line 1, column 2: expected a digit after '-'");
    ERR("1.", "line 1, column 3: unexpected end of input, expected a digit after the decimal point");
    ERR("1.e5", "line 1, column 3: expected a digit after the decimal point");
    ERR("1e", "line 1, column 3: unexpected end of input, expected a digit in the exponent");
    ERR("1e+x", "line 1, column 4: expected a digit in the exponent");
    ERR("+1", "line 1, column 1: " VALUE_KINDS " (numbers cannot start with '+')");
    ERR(".5", "line 1, column 1: " VALUE_KINDS " (numbers need a digit before '.')");
    ERR("0x10", "line 1, column 2: expected end of input after the JSON value");
    ERR("Infinity", "line 1, column 1: " VALUE_KINDS);
    ERR_LIMIT("[1e400]", "line 1, column 2: number is too large for a double");
    ERR_LIMIT("-1e99999999999999999999", "line 1, column 1: number is too large for a double");
}

static void test_string_errors(void)
{
    ERR("\"abc", "line 1, column 5: unexpected end of input in a string (missing closing '\"')");
    ERR("\"a\\\"", "line 1, column 5: unexpected end of input in a string (missing closing '\"')");
    ERR("\"\\", "line 1, column 3: unexpected end of input in a string (missing closing '\"')");
    ERR("\"a\\x\"", "line 1, column 3: invalid escape '\\x' in string "
                    "(allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
    ERR("\"\\'\"", "line 1, column 2: invalid escape '\\'' in string "
                   "(allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
    ERR("\"\\\x01\"", "line 1, column 2: invalid escape in string "
                      "(allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
    ERR("\"\\u12G4\"", "line 1, column 2: expected 4 hex digits after \\u in string");
    ERR("\"\\u12\"", "line 1, column 2: expected 4 hex digits after \\u in string");
    ERR("\"\\u12", "line 1, column 2: expected 4 hex digits after \\u in string");
    ERR("\"\\uD800\"", "line 1, column 2: high surrogate \\uD800 in string is not followed by a low surrogate "
                       "\\uDC00-\\uDFFF");
    ERR("\"\\uD83D\\u0041\"", "line 1, column 2: high surrogate \\uD83D in string is not followed by a low "
                              "surrogate \\uDC00-\\uDFFF");
    ERR("\"\\uD800\\uD800\"", "line 1, column 2: high surrogate \\uD800 in string is not followed by a low "
                              "surrogate \\uDC00-\\uDFFF");
    ERR("\"\\uDC00\"", "line 1, column 2: lone low surrogate \\uDC00 in string "
                       "(it must follow a high surrogate \\uD800-\\uDBFF)");
    ERR("\"a\nb\"", "line 1, column 3: unescaped control character U+000A in string (write it as \\n)");
    ERR("\"\t\"", "line 1, column 2: unescaped control character U+0009 in string (write it as \\t)");
    ERR("\"a\0b\"", "line 1, column 3: unescaped control character U+0000 in string");
    ERR("\"\x1f\"", "line 1, column 2: unescaped control character U+001F in string");
    ERR("\"\xc0\xaf\"", "line 1, column 2: overlong UTF-8 encoding in string");
    ERR("\"\xe0\x80\xaf\"", "line 1, column 2: overlong UTF-8 encoding in string");
    ERR("\"\xf0\x80\x80\xaf\"", "line 1, column 2: overlong UTF-8 encoding in string");
    ERR("\"\xed\xa0\x80\"", "line 1, column 2: UTF-8 encoded surrogate (U+D800..U+DFFF) in string");
    ERR("\"\xf4\x90\x80\x80\"", "line 1, column 2: UTF-8 sequence above U+10FFFF in string");
    ERR("\"\xe2\x82\"", "line 1, column 2: incomplete UTF-8 sequence in string");
    ERR("\"\xc3\"", "line 1, column 2: incomplete UTF-8 sequence in string");
    ERR("\"\x80\"", "line 1, column 2: invalid UTF-8 byte 0x80 in string");
    ERR("\"\xff\"", "line 1, column 2: invalid UTF-8 byte 0xFF in string");
    ERR("{\"a\xff\":1}", "line 1, column 4: invalid UTF-8 byte 0xFF in string");
}

MH_SUITE("json.errors", NULL, NULL, MH_TEST(test_structure_errors), MH_TEST(test_position_errors),
         MH_TEST(test_literal_number_errors), MH_TEST(test_string_errors))

/* ---- json.locale --------------------------------------------------------- */

/* Numbers must not depend on LC_NUMERIC: a host or library may switch to a
 * locale whose decimal point is ','. Runs where such a locale exists (none
 * is needed to pass; set LOCPATH to a localedef'd de_DE.UTF-8 to try). */
static void test_comma_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                                        "fr_FR.utf8",  "de_DE",      "nl_NL.UTF-8"};
    const char *found = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !found; i++)
        if (setlocale(LC_NUMERIC, names[i]) && strcmp(localeconv()->decimal_point, ".") != 0) found = names[i];
    if (!found) {
        setlocale(LC_NUMERIC, "C");
        return;
    }
    /* Short mantissas take the exact fast path, long ones go to strtod(). */
    const char *text = "[0.5, 3.141592653589793238462643383279, 12345678901234567890.5, 1e-400]";
    mh_json_doc *doc = mh_json_parse(text, strlen(text), NULL, NULL);
    double d[4] = {0, 0, 0, 1};
    for (size_t i = 0; i < 4; i++) mh_json_as_double(mh_json_array_get(mh_json_root(doc), i), &d[i]);
    mh_json_free(doc);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_array_begin(w);
    mh_json_write_double(w, 0.1);
    mh_json_write_double(w, -2.5e-300);
    mh_json_write_array_end(w);
    char *out = mh_json_writer_finish(w, NULL);
    mh_json_writer_free(w);
    setlocale(LC_NUMERIC, "C");
    CU_ASSERT_EQUAL(d[0], 0.5);
    CU_ASSERT_EQUAL(d[1], 3.141592653589793);
    CU_ASSERT_EQUAL(d[2], 12345678901234567890.5);
    CU_ASSERT_EQUAL(d[3], 0.0);
    CHECK_STR(out, "[0.1,-2.5e-300]");
    free(out);
}

MH_SUITE("json.locale", NULL, NULL, MH_TEST(test_comma_locale))
