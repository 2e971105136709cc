/* Tests of mh_json_writer (json.write): layout, numbers, escaping and its
 * round trip through the parser, misuse and the latched error; and of
 * base64 (json.base64) against the RFC 4648 vectors. */
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

/* Finishes and frees the writer; compares with expected (NULL: must fail). */
static void check_output(mh_json_writer *w, const char *expected, unsigned line)
{
    size_t n = 0;
    char *text = mh_json_writer_finish(w, &n);
    if (expected) {
        check_str(text, expected, line, __FILE__);
        CU_assertImplementation(text && n == strlen(expected) ? CU_TRUE : CU_FALSE, line, "length", __FILE__, "",
                                CU_FALSE);
    } else {
        CU_assertImplementation(text == NULL ? CU_TRUE : CU_FALSE, line, "finish must fail", __FILE__, "",
                                CU_FALSE);
    }
    free(text);
    mh_json_writer_free(w);
}
#define OUTPUT(w, expected) check_output((w), (expected), __LINE__)

static void test_layout(void)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "a");
    mh_json_write_int(w, 1);
    mh_json_write_key(w, "b");
    mh_json_write_array_begin(w);
    mh_json_write_bool(w, true);
    mh_json_write_bool(w, false);
    mh_json_write_null(w);
    mh_json_write_array_begin(w);
    mh_json_write_array_end(w);
    mh_json_write_object_begin(w);
    mh_json_write_object_end(w);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "c");
    mh_json_write_string(w, "x");
    mh_json_write_key(w, "d");
    mh_json_write_object_begin(w);
    mh_json_write_keyn(w, "e\0f", 3);
    mh_json_write_uint(w, 7);
    mh_json_write_object_end(w);
    mh_json_write_object_end(w);
    CU_ASSERT_EQUAL(mh_json_writer_status(w), MH_OK);
    CHECK_STR(mh_json_writer_error(w), "");
    OUTPUT(w, "{\"a\":1,\"b\":[true,false,null,[],{}],\"c\":\"x\",\"d\":{\"e\\u0000f\":7}}");

    /* Scalars as the whole document. */
    w = mh_json_writer_new();
    mh_json_write_string(w, "solo");
    OUTPUT(w, "\"solo\"");
    w = mh_json_writer_new();
    mh_json_write_null(w);
    OUTPUT(w, "null");
}

static void test_numbers(void)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_array_begin(w);
    mh_json_write_int(w, INT64_MIN);
    mh_json_write_int(w, INT64_MAX);
    mh_json_write_int(w, -1);
    mh_json_write_uint(w, UINT64_MAX);
    mh_json_write_uint(w, 0);
    mh_json_write_double(w, 0.1);
    mh_json_write_double(w, 1.5);
    mh_json_write_double(w, -0.0);
    mh_json_write_double(w, 100.0);
    mh_json_write_double(w, 1e300);
    mh_json_write_double(w, 1e-7);
    mh_json_write_double(w, 0.30000000000000004);
    mh_json_write_double(w, 123456789.125);
    mh_json_write_array_end(w);
    OUTPUT(w, "[-9223372036854775808,9223372036854775807,-1,18446744073709551615,0,"
              "0.1,1.5,-0,100,1e+300,1e-07,0.30000000000000004,123456789.125]");

    /* Every double written reads back as exactly the same double. */
    static const double values[] = {0.1, 1.0 / 3.0, 2.0 / 3.0, 5e-324, 2.2250738585072014e-308,
                                    1.7976931348623157e308, 3.141592653589793, -2.718281828459045,
                                    9007199254740993.0, 1e23, 4.35, 0.000123456789};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        w = mh_json_writer_new();
        mh_json_write_double(w, values[i]);
        char *text = mh_json_writer_finish(w, NULL);
        mh_json_writer_free(w);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        mh_json_doc *doc = mh_json_parse(text, strlen(text), NULL, NULL);
        double back = 0;
        CU_ASSERT_EQUAL(mh_json_as_double(mh_json_root(doc), &back), MH_OK);
        CU_ASSERT_EQUAL(back, values[i]);
        CU_ASSERT(strlen(text) <= 24);
        mh_json_free(doc);
        free(text);
    }

    /* Not finite: refused. */
    w = mh_json_writer_new();
    mh_json_write_array_begin(w);
    mh_json_write_double(w, NAN);
    CU_ASSERT_EQUAL(mh_json_writer_status(w), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(mh_json_writer_error(w), "JSON has no NaN or infinity: only finite doubles can be written");
    mh_json_write_array_end(w);
    OUTPUT(w, NULL);
    w = mh_json_writer_new();
    mh_json_write_double(w, -INFINITY);
    OUTPUT(w, NULL);
}

static void test_escaping(void)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_stringn(w, "\"\\/\b\f\n\r\t\x01\x1f\x7f \0!", 14);
    OUTPUT(w, "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001F\\u007F \\u0000!\"");

    /* Valid UTF-8 passes through; U+2028/9 are escaped for JavaScript. */
    w = mh_json_writer_new();
    mh_json_write_string(w, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xe2\x80\xa8\xe2\x80\xa9");
    OUTPUT(w, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\\u2028\\u2029\"");

    /* Invalid UTF-8: each bad byte becomes U+FFFD. */
    w = mh_json_writer_new();
    mh_json_write_string(w, "a\xff" "b\xc0\xaf" "c\xed\xa0\x80" "d\xe2\x82");
    OUTPUT(w, "\"a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
              "d\xef\xbf\xbd\xef\xbf\xbd\"");

    /* Keys are escaped the same way. */
    w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "k\"\n");
    mh_json_write_int(w, 1);
    mh_json_write_object_end(w);
    OUTPUT(w, "{\"k\\\"\\n\":1}");
}

/* Writes s, parses the output, compares the bytes. */
static int round_trips(const char *s, size_t n)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_array_begin(w);
    mh_json_write_stringn(w, s, n);
    mh_json_write_array_end(w);
    size_t len = 0;
    char *text = mh_json_writer_finish(w, &len);
    mh_json_writer_free(w);
    if (!text) return 0;
    mh_json_doc *doc = mh_json_parse(text, len, NULL, NULL);
    size_t back_len = 0;
    const char *back = mh_json_as_string(mh_json_array_get(mh_json_root(doc), 0), &back_len);
    int ok = back && back_len == n && memcmp(back, s, n) == 0;
    mh_json_free(doc);
    free(text);
    return ok;
}

static void test_round_trip(void)
{
    char all_ascii[128];
    for (int i = 0; i < 128; i++) all_ascii[i] = (char)i;
    CU_ASSERT_TRUE(round_trips(all_ascii, sizeof all_ascii));
    CU_ASSERT_TRUE(round_trips("", 0));

    /* Random valid UTF-8 strings from random code points (deterministic). */
    uint32_t seed = 12345;
    char s[4 * 64];
    for (int round = 0; round < 2000; round++) {
        size_t n = 0;
        int count = (int)(seed % 64);
        for (int k = 0; k < count; k++) {
            seed = seed * 1103515245u + 12345u;
            uint32_t r = seed >> 8;
            uint32_t cp;
            switch (r % 4) {
            case 0: cp = r % 0x80; break;
            case 1: cp = 0x80 + r % (0x800 - 0x80); break;
            case 2: cp = 0x800 + r % (0x10000 - 0x800); break;
            default: cp = 0x10000 + r % (0x110000 - 0x10000); break;
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
            if (cp < 0x80) s[n++] = (char)cp;
            else if (cp < 0x800) {
                s[n++] = (char)(0xC0 | (cp >> 6));
                s[n++] = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                s[n++] = (char)(0xE0 | (cp >> 12));
                s[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                s[n++] = (char)(0x80 | (cp & 0x3F));
            } else {
                s[n++] = (char)(0xF0 | (cp >> 18));
                s[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                s[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                s[n++] = (char)(0x80 | (cp & 0x3F));
            }
        }
        seed = seed * 1103515245u + 12345u;
        if (!round_trips(s, n)) {
            CU_FAIL("string did not round-trip");
            break;
        }
    }

    /* A whole document: parse -> write the same structure -> parse again. */
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "text");
    mh_json_write_string(w, "line1\nline2\t\"q\" \\ \xc3\xa9");
    mh_json_write_key(w, "n");
    mh_json_write_int(w, -42);
    mh_json_write_key(w, "list");
    mh_json_write_array_begin(w);
    mh_json_write_double(w, 2.5);
    mh_json_write_raw(w, " {\"x\": [1, 2]} ", 15);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    char *text = mh_json_writer_finish(w, NULL);
    mh_json_writer_free(w);
    CHECK_STR(text, "{\"text\":\"line1\\nline2\\t\\\"q\\\" \\\\ \xc3\xa9\",\"n\":-42,\"list\":[2.5,{\"x\": [1, 2]}]}");
    mh_json_doc *doc = mh_json_parse(text, strlen(text), NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CHECK_STR(mh_json_get_string(mh_json_root(doc), "text", NULL), "line1\nline2\t\"q\" \\ \xc3\xa9");
    mh_json_free(doc);
    free(text);
}

static void test_misuse(void)
{
    static const struct { const char *what; mh_status status; } cases[] = {
        {"a value inside an object needs a key first", MH_ERR_STATE},
        {"a key is only allowed directly inside an object", MH_ERR_STATE},
        {"a key is only allowed directly inside an object", MH_ERR_STATE},
        {"two keys in a row: the first key has no value", MH_ERR_STATE},
        {"object end while an array is open", MH_ERR_STATE},
        {"array end without a matching begin", MH_ERR_STATE},
        {"the object ends after a key that has no value", MH_ERR_STATE},
        {"a document holds one top-level value; wrap several in an array or object", MH_ERR_STATE},
        {"NULL string (use mh_json_write_null for null)", MH_ERR_INVALID_ARGUMENT},
        {"raw text is not one complete JSON value", MH_ERR_INVALID_ARGUMENT},
        {"raw text is not one complete JSON value", MH_ERR_INVALID_ARGUMENT},
        {"finish with an object still open", MH_ERR_STATE},
        {"finish before any value was written", MH_ERR_STATE},
        {"NULL key", MH_ERR_INVALID_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mh_json_writer *w = mh_json_writer_new();
        switch (i) {
        case 0: mh_json_write_object_begin(w); mh_json_write_int(w, 1); break;
        case 1: mh_json_write_array_begin(w); mh_json_write_key(w, "k"); break;
        case 2: mh_json_write_key(w, "k"); break;
        case 3: mh_json_write_object_begin(w); mh_json_write_key(w, "a"); mh_json_write_key(w, "b"); break;
        case 4: mh_json_write_array_begin(w); mh_json_write_object_end(w); break;
        case 5: mh_json_write_array_end(w); break;
        case 6: mh_json_write_object_begin(w); mh_json_write_key(w, "a"); mh_json_write_object_end(w); break;
        case 7: mh_json_write_int(w, 1); mh_json_write_int(w, 2); break;
        case 8: mh_json_write_array_begin(w); mh_json_write_string(w, NULL); break;
        case 9: mh_json_write_raw(w, "[1,", 3); break;
        case 10: mh_json_write_raw(w, "1 2", 3); break;
        case 11: mh_json_write_object_begin(w); break;
        case 12: break;
        case 13: mh_json_write_object_begin(w); mh_json_write_key(w, NULL); break;
        }
        char *text = mh_json_writer_finish(w, NULL);
        CU_ASSERT_PTR_NULL(text);
        free(text);
        CU_ASSERT_EQUAL(mh_json_writer_status(w), cases[i].status);
        CHECK_STR(mh_json_writer_error(w), cases[i].what);
        mh_json_writer_free(w);
    }

    /* After the first error everything is ignored and the error stays. */
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_array_begin(w);
    mh_json_write_array_end(w);
    mh_json_write_array_end(w);
    mh_json_write_array_begin(w);
    mh_json_write_double(w, NAN);
    CU_ASSERT_EQUAL(mh_json_writer_status(w), MH_ERR_STATE);
    CHECK_STR(mh_json_writer_error(w), "array end without a matching begin");
    OUTPUT(w, NULL);

    /* A NULL writer (failed allocation) is harmless everywhere. */
    mh_json_write_object_begin(NULL);
    mh_json_write_key(NULL, "k");
    mh_json_write_string(NULL, "s");
    mh_json_write_int(NULL, 1);
    mh_json_write_raw(NULL, "1", 1);
    mh_json_write_base64(NULL, "x", 1);
    mh_json_write_object_end(NULL);
    CU_ASSERT_PTR_NULL(mh_json_writer_finish(NULL, NULL));
    CU_ASSERT_EQUAL(mh_json_writer_status(NULL), MH_ERR_NO_MEMORY);
    CU_ASSERT_PTR_NOT_NULL(mh_json_writer_error(NULL));
    mh_json_writer_free(NULL);
}

static void test_reuse_raw_base64(void)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_array_begin(w);
    mh_json_write_raw(w, "\n\t{\"a\" : [1, \"x\"]}\r\n", 20);
    mh_json_write_raw(w, "null", 4);
    mh_json_write_base64(w, "foobar", 6);
    mh_json_write_base64(w, "", 0);
    mh_json_write_array_end(w);
    char *first = mh_json_writer_finish(w, NULL);
    CHECK_STR(first, "[{\"a\" : [1, \"x\"]},null,\"Zm9vYmFy\",\"\"]");
    free(first);

    /* The writer is empty again after finish. */
    mh_json_write_int(w, 5);
    OUTPUT(w, "5");

    /* Deep nesting is only limited by memory. */
    w = mh_json_writer_new();
    for (int i = 0; i < 100000; i++) mh_json_write_array_begin(w);
    for (int i = 0; i < 100000; i++) mh_json_write_array_end(w);
    size_t n = 0;
    char *deep = mh_json_writer_finish(w, &n);
    mh_json_writer_free(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(deep);
    CU_ASSERT_EQUAL(n, 200000);
    mh_json_parse_opts opts = {0, 100000};
    mh_json_doc *doc = mh_json_parse(deep, n, &opts, NULL);
    CU_ASSERT_PTR_NOT_NULL(doc);
    mh_json_free(doc);
    free(deep);

    /* A large document: 64 KiB of memory as base64 inside an object. */
    unsigned char memory[65536];
    for (size_t i = 0; i < sizeof memory; i++) memory[i] = (unsigned char)(i * 7);
    w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "data");
    mh_json_write_base64(w, memory, sizeof memory);
    mh_json_write_object_end(w);
    char *text = mh_json_writer_finish(w, &n);
    mh_json_writer_free(w);
    CU_ASSERT_EQUAL(n, 87384 + 11);
    doc = mh_json_parse(text, n, NULL, NULL);
    size_t b64_len = 0;
    const char *b64 = mh_json_as_string(mh_json_object_get(mh_json_root(doc), "data"), &b64_len);
    unsigned char back[65536];
    CU_ASSERT_EQUAL(mh_base64_decode(back, sizeof back, b64, b64_len), sizeof back);
    CU_ASSERT_EQUAL(memcmp(back, memory, sizeof memory), 0);
    mh_json_free(doc);
    free(text);
}

MH_SUITE("json.write", NULL, NULL, MH_TEST(test_layout), MH_TEST(test_numbers), MH_TEST(test_escaping),
         MH_TEST(test_round_trip), MH_TEST(test_misuse), MH_TEST(test_reuse_raw_base64))

/* ---- json.base64 --------------------------------------------------------- */

static void test_rfc4648_vectors(void)
{
    static const struct { const char *plain, *encoded; } v[] = {
        {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        size_t n = strlen(v[i].plain);
        char out[16];
        CU_ASSERT_EQUAL(mh_base64_encoded_length(n), strlen(v[i].encoded));
        CU_ASSERT_EQUAL(mh_base64_encode(out, sizeof out, v[i].plain, n), strlen(v[i].encoded));
        CHECK_STR(out, v[i].encoded);
        char *alloc = mh_base64_encode_alloc(v[i].plain, n);
        CHECK_STR(alloc, v[i].encoded);
        free(alloc);
        unsigned char back[16];
        CU_ASSERT_EQUAL(mh_base64_decode(back, sizeof back, v[i].encoded, strlen(v[i].encoded)), n);
        CU_ASSERT_EQUAL(memcmp(back, v[i].plain, n), 0);
    }
}

static void test_base64_binary_and_limits(void)
{
    unsigned char all[256], back[256];
    for (int i = 0; i < 256; i++) all[i] = (unsigned char)(255 - i);
    char *text = mh_base64_encode_alloc(all, sizeof all);
    CU_ASSERT_EQUAL(strlen(text), 344);
    CU_ASSERT_EQUAL(mh_base64_decode(back, sizeof back, text, strlen(text)), 256);
    CU_ASSERT_EQUAL(memcmp(all, back, sizeof all), 0);
    CU_ASSERT_EQUAL(mh_base64_decode(back, 255, text, strlen(text)), SIZE_MAX); /* too small */
    free(text);
    text = mh_base64_encode_alloc("\xfb\xff", 2);
    CHECK_STR(text, "+/8=");
    free(text);

    char small[8];
    CU_ASSERT_EQUAL(mh_base64_encode(small, 8, "foobar", 6), SIZE_MAX); /* no room for the NUL */
    CU_ASSERT_EQUAL(mh_base64_encode(small, 5, "foo", 3), 4); /* exact fit */
    CHECK_STR(small, "Zm9v");
    CU_ASSERT_EQUAL(mh_base64_encoded_length(SIZE_MAX), SIZE_MAX);

    static const char *const bad[] = {"Zg=",  "Zg=a", "Z===", "Zh==", "Zm9=", "Zg==Zg==", "Zm9v\n",
                                      "Zm-v", "Zm_v", "=Zm9", "Zm 9", "Zg\0=", "===="};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = i == 11 ? 4 : strlen(bad[i]);
        CU_ASSERT_EQUAL(mh_base64_decode(back, sizeof back, bad[i], n), SIZE_MAX);
    }
}

MH_SUITE("json.base64", NULL, NULL, MH_TEST(test_rfc4648_vectors), MH_TEST(test_base64_binary_and_limits))

/* ---- json.utf8_prefix ---- */

static void test_utf8_prefix(void)
{
    /* "x" then e-acute (C3 A9), a euro sign (E2 82 AC) and a 4-byte emoji. */
    const char *text = "x\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z";
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 100), (int)strlen(text));
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 1), 1);
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 2), 1); /* not half an e-acute */
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 3), 3);
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 4), 3);
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 5), 3);
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 6), 6);
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 9), 6);
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 10), 10);
    CU_ASSERT_EQUAL(mh_utf8_prefix(text, 0), 0);
    CU_ASSERT_EQUAL(mh_utf8_prefix(NULL, 10), 0);
    /* Invalid UTF-8 (a run of continuation bytes) still ends: at most 3 back. */
    CU_ASSERT_EQUAL(mh_utf8_prefix("\x80\x80\x80\x80\x80\x80", 5), 2);
    char out[16];
    snprintf(out, sizeof out, "[%.*s]", mh_utf8_prefix(text, 2), text);
    CU_ASSERT_STRING_EQUAL(out, "[x]");
}

MH_SUITE("json.utf8_prefix", NULL, NULL, MH_TEST(test_utf8_prefix))
