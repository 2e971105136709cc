/* Hostile inputs for mh_json_parse() (json.hostile): deep nesting, every
 * truncation and many mutations of a valid document, huge numbers, invalid
 * and overlong UTF-8, lone surrogates, NUL bytes, 10 MB strings against the
 * size limit, huge objects and arrays. Inputs are exact-size heap copies, so
 * under ASan any read past the end is caught. */
#include "mh_test.h"

#include <mcphost/json.h>
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

static mh_json_doc *parse_opts(const char *text, size_t n, const mh_json_parse_opts *opts, mh_json_error *e)
{
    char *copy = malloc(n ? n : 1);
    memcpy(copy, text, n);
    mh_json_doc *doc = mh_json_parse(copy, n, opts, e);
    free(copy);
    return doc;
}

/* A growable byte buffer to build big inputs. */
typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

static void add(buf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void adds(buf *b, const char *s) { add(b, s, strlen(s)); }

static void repeat(buf *b, const char *s, size_t times)
{
    for (size_t i = 0; i < times; i++) adds(b, s);
}

/* ---- Nesting ------------------------------------------------------------- */

static void test_deep_nesting_rejected(void)
{
    buf b = {0};
    repeat(&b, "[", 100000);
    mh_json_error e;
    CU_ASSERT_PTR_NULL(parse_opts(b.data, b.len, NULL, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(e.offset, 128);
    CHECK_STR(e.message, "line 1, column 129: nesting deeper than 128 levels");

    b.len = 0;
    repeat(&b, "{\"a\":", 100000);
    CU_ASSERT_PTR_NULL(parse_opts(b.data, b.len, NULL, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(e.offset, 128 * 5);

    /* Exactly at the default limit is fine. */
    b.len = 0;
    repeat(&b, "[", 128);
    repeat(&b, "]", 128);
    mh_json_doc *doc = parse_opts(b.data, b.len, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL(doc);
    mh_json_free(doc);
    free(b.data);
}

static void test_deep_nesting_allowed(void)
{
    /* The parser is iterative: a caller may allow very deep documents. */
    enum { DEPTH = 100000 };
    buf b = {0};
    repeat(&b, "[", DEPTH);
    repeat(&b, "]", DEPTH);
    mh_json_parse_opts opts = {0, DEPTH};
    mh_json_error e;
    mh_json_doc *doc = parse_opts(b.data, b.len, &opts, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const mh_json *v = mh_json_root(doc);
    size_t depth = 1;
    while (mh_json_array_size(v) == 1) {
        v = mh_json_array_get(v, 0);
        depth++;
    }
    CU_ASSERT_EQUAL(depth, DEPTH);
    CU_ASSERT_EQUAL(mh_json_typeof(v), MH_JSON_ARRAY);
    mh_json_free(doc);

    b.len = 0;
    repeat(&b, "{\"a\":", DEPTH);
    adds(&b, "1");
    repeat(&b, "}", DEPTH);
    doc = parse_opts(b.data, b.len, &opts, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    v = mh_json_root(doc);
    for (size_t i = 0; i < DEPTH; i++) v = mh_json_object_get(v, "a");
    int64_t one = 0;
    CU_ASSERT_EQUAL(mh_json_as_int64(v, &one), MH_OK);
    CU_ASSERT_EQUAL(one, 1);
    mh_json_free(doc);

    /* One '[' too many for the limit. */
    b.len = 0;
    repeat(&b, "[", DEPTH + 1);
    repeat(&b, "]", DEPTH + 1);
    CU_ASSERT_PTR_NULL(parse_opts(b.data, b.len, &opts, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    free(b.data);
}

/* ---- Truncation and mutation --------------------------------------------- */

static const char rich_doc[] =
    "{\"pc\":49152,\"name\":\"C64 \\\"breadbox\\\"\",\"neg\":-12.5e-3,\"big\":1E+300,"
    "\"list\":[true,false,null,[],{},[0,-0,0.5]],\"esc\":\"\\u00e9\\uD83D\\uDE00\\n\\t\\/\","
    "\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\",\"nested\":{\"a\":{\"b\":[1,{\"c\":\"d\"}]}},"
    "\"z\":\"\"}";

static void test_truncated_everywhere(void)
{
    size_t n = sizeof rich_doc - 1;
    mh_json_error e;
    mh_json_doc *doc = parse_opts(rich_doc, n, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL(doc);
    mh_json_free(doc);
    size_t failures = 0, end_of_input = 0;
    for (size_t len = 0; len < n; len++) {
        memset(&e, 0, sizeof e);
        doc = parse_opts(rich_doc, len, NULL, &e);
        if (doc) {
            mh_json_free(doc);
            continue;
        }
        failures++;
        CU_ASSERT_EQUAL(e.status, MH_ERR_INVALID_ARGUMENT);
        CU_ASSERT(e.offset <= len);
        CU_ASSERT(e.line == 1 && e.column >= 1);
        CU_ASSERT_EQUAL(strncmp(e.message, "line 1, column ", 15), 0);
        if (strstr(e.message, "end of input")) end_of_input++;
    }
    /* The document is one object, so no proper prefix is valid JSON. */
    CU_ASSERT_EQUAL(failures, n);
    /* Nearly every prefix is reported as running out of input; the rest
     * stop inside a \u escape or a UTF-8 sequence cut in half. */
    CU_ASSERT(end_of_input * 10 >= n * 9);
}

static void test_mutated_everywhere(void)
{
    static const unsigned char bytes[] = {0x00, 0x01, '"', '\\', '[', ']', '{', '}', ',', ':', 0x80,
                                          0xC3, 0xED, 0xFF, 'e', '-', '0', '.', ' ', 'u', 'n'};
    size_t n = sizeof rich_doc - 1;
    char *copy = malloc(n);
    size_t ok = 0, failed = 0;
    for (size_t pos = 0; pos < n; pos++) {
        for (size_t k = 0; k < sizeof bytes; k++) {
            memcpy(copy, rich_doc, n);
            copy[pos] = (char)bytes[k];
            mh_json_error e;
            mh_json_doc *doc = mh_json_parse(copy, n, NULL, &e);
            if (doc) {
                ok++;
                mh_json_free(doc);
                continue;
            }
            failed++;
            if (e.offset > n || strncmp(e.message, "line ", 5) != 0 ||
                (e.status != MH_ERR_INVALID_ARGUMENT && e.status != MH_ERR_LIMIT)) {
                CU_FAIL("mutation gave a malformed error");
                fprintf(stderr, "\npos %zu byte %02X: status %d offset %zu: %s\n", pos, bytes[k], (int)e.status,
                        e.offset, e.message);
            }
        }
    }
    free(copy);
    CU_ASSERT(failed > ok); /* most mutations break the document */
    CU_ASSERT(ok > 0);      /* some do not (a digit for a digit...) */
}

/* ---- Numbers ------------------------------------------------------------- */

static void test_huge_numbers(void)
{
    mh_json_error e;
    buf b = {0};
    adds(&b, "1");
    repeat(&b, "0", 100000);
    CU_ASSERT_PTR_NULL(parse_opts(b.data, b.len, NULL, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    CHECK_STR(e.message, "line 1, column 1: number is too large for a double");

    /* 0.000...1: underflows to zero, which is fine. */
    b.len = 0;
    adds(&b, "0.");
    repeat(&b, "0", 100000);
    adds(&b, "1");
    mh_json_doc *doc = parse_opts(b.data, b.len, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    double d = -1;
    CU_ASSERT_EQUAL(mh_json_as_double(mh_json_root(doc), &d), MH_OK);
    CU_ASSERT_EQUAL(d, 0.0);
    CU_ASSERT_FALSE(mh_json_is_integer(mh_json_root(doc)));
    mh_json_free(doc);

    /* 100000 nines scaled back down: a long mantissa rounds correctly. */
    b.len = 0;
    repeat(&b, "9", 100000);
    adds(&b, "e-99990");
    doc = parse_opts(b.data, b.len, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(mh_json_as_double(mh_json_root(doc), &d), MH_OK);
    CU_ASSERT_EQUAL(d, 1e10);
    CU_ASSERT_FALSE(mh_json_is_integer(mh_json_root(doc))); /* 1e10 - 1e-99990, exactly */
    mh_json_free(doc);

    /* 300 digits: a whole number, too large for int64, fine as a double. */
    b.len = 0;
    adds(&b, "-");
    repeat(&b, "7", 300);
    doc = parse_opts(b.data, b.len, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    int64_t i = 0;
    CU_ASSERT_TRUE(mh_json_is_integer(mh_json_root(doc)));
    CU_ASSERT_EQUAL(mh_json_as_int64(mh_json_root(doc), &i), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(mh_json_as_double(mh_json_root(doc), &d), MH_OK);
    CU_ASSERT(d < -7.7e299 && d > -7.8e299);
    mh_json_free(doc);

    static const char *const limit[] = {"1e99999999999999999999999999", "-1e309", "[1.8e308]"};
    for (size_t k = 0; k < sizeof limit / sizeof limit[0]; k++) {
        CU_ASSERT_PTR_NULL(parse_opts(limit[k], strlen(limit[k]), NULL, &e));
        CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    }
    static const char *const fine[] = {"0e99999999999999999", "1e-99999999999999999", "-0.0e-0",
                                       "1.7976931348623157e308", "4.9e-324"};
    for (size_t k = 0; k < sizeof fine / sizeof fine[0]; k++) {
        doc = parse_opts(fine[k], strlen(fine[k]), NULL, &e);
        CU_ASSERT_PTR_NOT_NULL(doc);
        mh_json_free(doc);
    }
    free(b.data);
}

/* ---- UTF-8 --------------------------------------------------------------- */

static int parses_string(const char *inner, size_t n, mh_json_error *e)
{
    buf b = {0};
    adds(&b, "\"");
    add(&b, inner, n);
    adds(&b, "\"");
    mh_json_doc *doc = parse_opts(b.data, b.len, NULL, e);
    int ok = 0;
    if (doc) {
        size_t len = 0;
        const char *s = mh_json_as_string(mh_json_root(doc), &len);
        ok = s && len == n && memcmp(s, inner, n) == 0;
        mh_json_free(doc);
    }
    free(b.data);
    return ok;
}

static void test_invalid_utf8(void)
{
    static const char *const bad[] = {
        "\x80", "\xbf", "\x80\x80", "\xc0\x80", "\xc0\xaf", "\xc1\xbf",           /* stray, overlong 2 */
        "\xe0\x80\x80", "\xe0\x80\xaf", "\xe0\x9f\xbf",                           /* overlong 3 */
        "\xf0\x80\x80\x80", "\xf0\x80\x80\xaf", "\xf0\x8f\xbf\xbf",               /* overlong 4 */
        "\xed\xa0\x80", "\xed\xad\xbf", "\xed\xb0\x80", "\xed\xbf\xbf",           /* surrogates */
        "\xed\xa0\x80\xed\xb0\x80",                                               /* CESU-8 pair */
        "\xf4\x90\x80\x80", "\xf7\xbf\xbf\xbf",                                   /* > U+10FFFF */
        "\xf8\x88\x80\x80\x80", "\xfc\x84\x80\x80\x80\x80",                       /* 5 and 6 bytes */
        "\xfe", "\xff", "\xfe\xfe\xff\xff",                                       /* never valid */
        "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc3 ", "\xe2\x82x", "\xf0\x9f\x98\x7f", /* cut short */
        "a\xc3", "\xc3\xa9\x80"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mh_json_error e;
        if (parses_string(bad[k], strlen(bad[k]), &e)) {
            CU_FAIL("invalid UTF-8 accepted");
            fprintf(stderr, "\naccepted invalid UTF-8 #%zu\n", k);
        } else {
            CU_ASSERT_EQUAL(e.status, MH_ERR_INVALID_ARGUMENT);
            CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "UTF-8"));
        }
    }
    static const char *const good[] = {
        "\x7f",             "\xc2\x80",         "\xdf\xbf",         "\xe0\xa0\x80",
        "\xed\x9f\xbf",     "\xee\x80\x80",     "\xef\xbf\xbd",     "\xef\xbf\xbf",
        "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf3\xbf\xbf\xbf", "\xe2\x80\xa8"};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        mh_json_error e;
        if (!parses_string(good[k], strlen(good[k]), &e)) {
            CU_FAIL("valid UTF-8 rejected");
            fprintf(stderr, "\nrejected valid UTF-8 #%zu: %s\n", k, e.message);
        }
    }
    /* Invalid UTF-8 in a key, and a sequence cut by the end of the input. */
    mh_json_error e;
    CU_ASSERT_PTR_NULL(parse_opts("{\"\xc0\x80\":1}", 8, NULL, &e));
    CU_ASSERT_PTR_NULL(parse_opts("\"\xe2\x82", 3, NULL, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_INVALID_ARGUMENT);
}

static void test_surrogate_escapes(void)
{
    static const char *const bad[] = {"\"\\uD800\"",       "\"\\uDBFF\\n\"",        "\"\\uD800x\"",
                                      "\"\\uD800\\\"",     "\"\\uD800\\u\"",        "\"\\uD800\\uDBFF\"",
                                      "\"\\uDC00\"",       "\"\\uDFFF\\uD800\"",    "\"\\ud83d\"",
                                      "\"\\uD800\\uDC0\"", "\"\\uD800\\uE000\"",    "\"\\uD800\\u0000\""};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mh_json_error e;
        mh_json_doc *doc = parse_opts(bad[k], strlen(bad[k]), NULL, &e);
        if (doc) {
            CU_FAIL("lone surrogate accepted");
            fprintf(stderr, "\naccepted %s\n", bad[k]);
            mh_json_free(doc);
        }
    }
    static const struct { const char *json, *utf8; } good[] = {
        {"\"\\uD800\\uDC00\"", "\xf0\x90\x80\x80"},
        {"\"\\uDBFF\\uDFFF\"", "\xf4\x8f\xbf\xbf"},
        {"\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80"},
        {"\"\\uD7FF\\uE000\"", "\xed\x9f\xbf\xee\x80\x80"},
        {"\"\\uFFFF\"", "\xef\xbf\xbf"}};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        mh_json_error e;
        mh_json_doc *doc = parse_opts(good[k].json, strlen(good[k].json), NULL, &e);
        CU_ASSERT_PTR_NOT_NULL(doc);
        CHECK_STR(mh_json_as_string(mh_json_root(doc), NULL), good[k].utf8);
        mh_json_free(doc);
    }
}

static void test_nul_bytes(void)
{
    mh_json_error e;
    CU_ASSERT_PTR_NULL(parse_opts("\0", 1, NULL, &e));
    CU_ASSERT_PTR_NULL(parse_opts("[1,\0]", 5, NULL, &e));
    CU_ASSERT_PTR_NULL(parse_opts("\"\0\"", 3, NULL, &e));
    CHECK_STR(e.message, "line 1, column 2: unescaped control character U+0000 in string");
    CU_ASSERT_PTR_NULL(parse_opts("{\"a\0\":1}", 8, NULL, &e));
    CU_ASSERT_PTR_NULL(parse_opts("1\0", 2, NULL, &e));
    CHECK_STR(e.message, "line 1, column 2: expected end of input after the JSON value");

    const char *escaped = "[\"\\u0000\", \"\\u0000\\u0000x\"]";
    mh_json_doc *doc = parse_opts(escaped, strlen(escaped), NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    size_t n = 9;
    const char *s = mh_json_as_string(mh_json_array_get(mh_json_root(doc), 0), &n);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(s[0], '\0');
    s = mh_json_as_string(mh_json_array_get(mh_json_root(doc), 1), &n);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(memcmp(s, "\0\0x", 4), 0);
    mh_json_free(doc);
}

/* ---- Size ---------------------------------------------------------------- */

static void test_big_strings(void)
{
    enum { TEN_MB = 10 * 1024 * 1024 };
    char *text = malloc(TEN_MB + 2);
    text[0] = '"';
    memset(text + 1, 'a', TEN_MB);
    text[TEN_MB + 1] = '"';
    mh_json_error e;

    /* Refused before any parsing with a small limit... */
    mh_json_parse_opts small = {1024 * 1024, 0};
    CU_ASSERT_PTR_NULL(mh_json_parse(text, TEN_MB + 2, &small, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    CHECK_STR(e.message, "the JSON text is 10485762 bytes, above the limit of 1048576 bytes");
    /* ...and by one byte. */
    mh_json_parse_opts exact = {TEN_MB + 1, 0};
    CU_ASSERT_PTR_NULL(mh_json_parse(text, TEN_MB + 2, &exact, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);

    /* Accepted under the default 16 MiB limit. */
    mh_json_doc *doc = mh_json_parse(text, TEN_MB + 2, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    size_t n = 0;
    const char *s = mh_json_as_string(mh_json_root(doc), &n);
    CU_ASSERT_EQUAL(n, TEN_MB);
    CU_ASSERT_EQUAL(s[0], 'a');
    CU_ASSERT_EQUAL(s[TEN_MB - 1], 'a');
    CU_ASSERT_EQUAL(s[TEN_MB], '\0');
    mh_json_free(doc);

    /* Unterminated: reported at the end. */
    CU_ASSERT_PTR_NULL(mh_json_parse(text, TEN_MB + 1, NULL, &e));
    CU_ASSERT_EQUAL(e.offset, TEN_MB + 1);
    CHECK_STR(e.message, "line 1, column 10485762: unexpected end of input in a string (missing closing '\"')");

    /* Escape-dense: 10 MB of \n escapes decode to 1/2 the size. */
    for (size_t i = 1; i + 1 < TEN_MB + 1; i += 2) {
        text[i] = '\\';
        text[i + 1] = 'n';
    }
    doc = mh_json_parse(text, TEN_MB + 2, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    s = mh_json_as_string(mh_json_root(doc), &n);
    CU_ASSERT_EQUAL(n, TEN_MB / 2);
    CU_ASSERT_EQUAL(s[n - 1], '\n');
    mh_json_free(doc);
    free(text);
}

static void test_huge_containers(void)
{
    enum { KEYS = 100000 };
    buf b = {0};
    char item[32];
    adds(&b, "{");
    for (int i = 0; i < KEYS; i++) {
        snprintf(item, sizeof item, "%s\"k%d\":%d", i ? "," : "", i, i);
        adds(&b, item);
    }
    size_t open_len = b.len;
    adds(&b, "}");
    mh_json_error e;
    mh_json_doc *doc = parse_opts(b.data, b.len, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(mh_json_object_size(mh_json_root(doc)), KEYS);
    int64_t v = 0;
    CU_ASSERT_EQUAL(mh_json_get_int(mh_json_root(doc), "k99999", &v), MH_OK);
    CU_ASSERT_EQUAL(v, 99999);
    mh_json_free(doc);

    /* The same with one duplicate at the end: found without O(n^2). */
    b.len = open_len;
    adds(&b, ",\"k5\":0}");
    CU_ASSERT_PTR_NULL(parse_opts(b.data, b.len, NULL, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(e.offset, open_len + 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "duplicate object key \"k5\""));

    /* A million-element array. */
    b.len = 0;
    adds(&b, "[0");
    repeat(&b, ",1", 999999);
    adds(&b, "]");
    doc = parse_opts(b.data, b.len, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(mh_json_array_size(mh_json_root(doc)), 1000000);
    CU_ASSERT_EQUAL(mh_json_as_int64(mh_json_array_get(mh_json_root(doc), 999999), &v), MH_OK);
    CU_ASSERT_EQUAL(v, 1);
    mh_json_free(doc);

    /* A 1 MB key, and a long duplicate key shown shortened in the message. */
    b.len = 0;
    adds(&b, "{\"");
    repeat(&b, "x", 1000000);
    adds(&b, "\":1,\"");
    repeat(&b, "x", 1000000);
    adds(&b, "\":2}");
    CU_ASSERT_PTR_NULL(parse_opts(b.data, b.len, NULL, &e));
    CHECK_STR(e.message, "line 1, column 1000007: duplicate object key "
                         "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"");
    free(b.data);
}

MH_SUITE("json.hostile", NULL, NULL, MH_TEST(test_deep_nesting_rejected), MH_TEST(test_deep_nesting_allowed),
         MH_TEST(test_truncated_everywhere), MH_TEST(test_mutated_everywhere), MH_TEST(test_huge_numbers),
         MH_TEST(test_invalid_utf8), MH_TEST(test_surrogate_escapes), MH_TEST(test_nul_bytes),
         MH_TEST(test_big_strings), MH_TEST(test_huge_containers))
