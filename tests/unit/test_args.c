/* Tests of mcphost/args.h, the shared tool argument conventions: addresses
 * (args.address), ranges (args.range), integers (args.int), byte lists
 * (args.bytes), and parse/bool/string/choice/format (args.misc). Every
 * error case checks the exact message an agent would read. */
#include "mh_test.h"

#include <mcphost/args.h>
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

static void check_status(mh_status actual, mh_status expected, unsigned line)
{
    char cond[64];
    snprintf(cond, sizeof cond, "status %d == %d", (int)actual, (int)expected);
    CU_assertImplementation(actual == expected ? CU_TRUE : CU_FALSE, line, cond, __FILE__, "", CU_FALSE);
}

/* The arguments object of the current check; freed by the next one. */
static mh_json_doc *current;

static const mh_json *A(const char *text)
{
    char err[MH_ARGS_ERROR_SIZE];
    mh_json_free(current);
    const mh_json *args = mh_args_parse(text, &current, err, sizeof err);
    if (!args) fprintf(stderr, "\nbad test arguments %s: %s\n", text, err);
    return args;
}

static int cleanup(void)
{
    mh_json_free(current);
    current = NULL;
    return 0;
}

/* ---- args.address -------------------------------------------------------- */

static void addr_ok(const char *text, uint32_t max, uint32_t expected, unsigned line)
{
    char err[MH_ARGS_ERROR_SIZE] = "";
    uint32_t out = 0xDEADBEEF;
    mh_status st = mh_args_address(A(text), "address", max, &out, err, sizeof err);
    check_status(st, MH_OK, line);
    char cond[300];
    snprintf(cond, sizeof cond, "%s -> $%X (got $%X, %s)", text, expected, out, err);
    CU_assertImplementation(out == expected ? CU_TRUE : CU_FALSE, line, cond, __FILE__, "", CU_FALSE);
}

static void addr_err(const char *text, uint32_t max, mh_status status, const char *message, unsigned line)
{
    char err[MH_ARGS_ERROR_SIZE] = "";
    uint32_t out = 0x1234;
    mh_status st = mh_args_address(A(text), "address", max, &out, err, sizeof err);
    check_status(st, status, line);
    check_str(err, message, line, __FILE__);
    CU_assertImplementation(out == 0x1234 ? CU_TRUE : CU_FALSE, line, "out untouched", __FILE__, "", CU_FALSE);
}
#define ADDR_OK(text, expected) addr_ok((text), 0xFFFF, (expected), __LINE__)
#define ADDR_ERR(text, status, message) addr_err((text), 0xFFFF, (status), (message), __LINE__)

#define FORMS_PLAIN "an integer or a string like \"$C000\", \"0xC000\" or \"49152\""
#define EXPECTED "address: expected an integer or a string like \"$C000\", \"0xC000\" or \"49152\", got "

static void test_address_forms(void)
{
    ADDR_OK("{\"address\": 49152}", 0xC000);
    ADDR_OK("{\"address\": \"$C000\"}", 0xC000);
    ADDR_OK("{\"address\": \"$c000\"}", 0xC000);
    ADDR_OK("{\"address\": \"0xC000\"}", 0xC000);
    ADDR_OK("{\"address\": \"0XdEaD\"}", 0xDEAD);
    ADDR_OK("{\"address\": \"49152\"}", 0xC000);
    ADDR_OK("{\"address\": \"%1100000000000000\"}", 0xC000);
    ADDR_OK("{\"address\": \"%1\"}", 1);
    ADDR_OK("{\"address\": 0}", 0);
    ADDR_OK("{\"address\": \"$0\"}", 0);
    ADDR_OK("{\"address\": \"0\"}", 0);
    ADDR_OK("{\"address\": 65535}", 0xFFFF);
    ADDR_OK("{\"address\": \"$FFFF\"}", 0xFFFF);
    ADDR_OK("{\"address\": \"$000000C000\"}", 0xC000);
    ADDR_OK("{\"address\": 4.9152e4}", 0xC000);
    ADDR_OK("{\"address\": 53280.0}", 0xD020);
    ADDR_OK("{\"address\": -0}", 0);
    addr_ok("{\"address\": \"$FFFFFF\"}", 0xFFFFFF, 0xFFFFFF, __LINE__);
    addr_ok("{\"address\": 4294967295}", 0xFFFFFFFF, 0xFFFFFFFF, __LINE__);
}

static void test_address_errors(void)
{
    ADDR_ERR("{\"address\": \"$G000\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"$G000\"");
    ADDR_ERR("{\"address\": \"C000\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"C000\" (for hex write \"$C000\")");
    ADDR_ERR("{\"address\": \"d020\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"d020\" (for hex write \"$d020\")");
    ADDR_ERR("{\"address\": \"\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"\"");
    ADDR_ERR("{\"address\": \"$\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"$\"");
    ADDR_ERR("{\"address\": \"0x\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"0x\"");
    ADDR_ERR("{\"address\": \"%102\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"%102\"");
    ADDR_ERR("{\"address\": \" $C000\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\" $C000\"");
    ADDR_ERR("{\"address\": \"$C000 \"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"$C000 \"");
    ADDR_ERR("{\"address\": \"49152.5\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"49152.5\"");
    ADDR_ERR("{\"address\": \"line\\nbreak\\\"\"}", MH_ERR_INVALID_ARGUMENT, EXPECTED "\"line\\u000Abreak\\\"\"");
    ADDR_ERR("{\"address\": 1.5}", MH_ERR_INVALID_ARGUMENT, EXPECTED "1.5");
    ADDR_ERR("{\"address\": true}", MH_ERR_INVALID_ARGUMENT, EXPECTED "true");
    ADDR_ERR("{\"address\": []}", MH_ERR_INVALID_ARGUMENT, EXPECTED "an array");
    ADDR_ERR("{\"address\": {\"lo\": 0}}", MH_ERR_INVALID_ARGUMENT, EXPECTED "an object");
    ADDR_ERR("{\"address\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}", MH_ERR_INVALID_ARGUMENT,
             EXPECTED "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\"");

    ADDR_ERR("{\"address\": \"$10000\"}", MH_ERR_LIMIT, "address: $10000 is above the highest address $FFFF");
    ADDR_ERR("{\"address\": 65536}", MH_ERR_LIMIT, "address: 65536 ($10000) is above the highest address $FFFF");
    ADDR_ERR("{\"address\": \"0x10000\"}", MH_ERR_LIMIT, "address: 0x10000 is above the highest address $FFFF");
    ADDR_ERR("{\"address\": \"65536\"}", MH_ERR_LIMIT, "address: 65536 is above the highest address $FFFF");
    ADDR_ERR("{\"address\": \"$FFFFFFFFFFFFFFFFFFFF\"}", MH_ERR_LIMIT,
             "address: $FFFFFFFFFFFFFFFFFFFF is above the highest address $FFFF");
    ADDR_ERR("{\"address\": 1e30}", MH_ERR_LIMIT, "address: 1e+30 is above the highest address $FFFF");
    ADDR_ERR("{\"address\": -1}", MH_ERR_LIMIT, "address: -1 is below the lowest address $0000");
    ADDR_ERR("{\"address\": \"-1\"}", MH_ERR_LIMIT, "address: -1 is below the lowest address $0000");
    addr_err("{\"address\": \"$1000000\"}", 0xFFFFFF, MH_ERR_LIMIT,
             "address: $1000000 is above the highest address $FFFFFF", __LINE__);
    addr_err("{\"address\": \"$200\"}", 0x1FF, MH_ERR_LIMIT, "address: $200 is above the highest address $01FF",
             __LINE__);

    ADDR_ERR("{}", MH_ERR_NOT_FOUND, "address: missing; give " FORMS_PLAIN);
    ADDR_ERR("{\"address\": null}", MH_ERR_NOT_FOUND, "address: missing; give " FORMS_PLAIN);
    ADDR_ERR("{\"Address\": 1}", MH_ERR_NOT_FOUND, "address: missing; give " FORMS_PLAIN);
}

static void test_address_value_and_buffers(void)
{
    char err[MH_ARGS_ERROR_SIZE];
    uint32_t out = 0;
    /* Another argument name is used in its messages. */
    const mh_json *args = A("{\"start\": \"$C000\", \"list\": [\"$D020\", \"x\"]}");
    CU_ASSERT_EQUAL(mh_args_address(args, "start", 0xFFFF, &out, err, sizeof err), MH_OK);
    CU_ASSERT_EQUAL(out, 0xC000);
    const mh_json *list = mh_json_object_get(args, "list");
    CU_ASSERT_EQUAL(mh_args_address_value(mh_json_array_get(list, 0), "list[0]", 0xFFFF, &out, err, sizeof err),
                    MH_OK);
    CU_ASSERT_EQUAL(out, 0xD020);
    CU_ASSERT_EQUAL(mh_args_address_value(mh_json_array_get(list, 1), "list[1]", 0xFFFF, &out, err, sizeof err),
                    MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(err, "list[1]: expected an integer or a string like \"$C000\", \"0xC000\" or \"49152\", got \"x\"");

    /* Small or missing error buffers are safe. */
    char tiny[8];
    CU_ASSERT_EQUAL(mh_args_address(args, "list", 0xFFFF, &out, tiny, sizeof tiny), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(tiny, "list: e");
    CU_ASSERT_EQUAL(mh_args_address(args, "list", 0xFFFF, &out, NULL, 0), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_args_address(args, "list", 0xFFFF, &out, tiny, 0), MH_ERR_INVALID_ARGUMENT);
    /* No arguments object at all. */
    CU_ASSERT_EQUAL(mh_args_address(NULL, "address", 0xFFFF, &out, err, sizeof err), MH_ERR_NOT_FOUND);
}

MH_SUITE("args.address", NULL, cleanup, MH_TEST(test_address_forms), MH_TEST(test_address_errors),
         MH_TEST(test_address_value_and_buffers))

/* ---- args.range ---------------------------------------------------------- */

static void range_check(const char *text, uint32_t def, uint32_t max_len, mh_status status, uint32_t start,
                        uint32_t length, const char *message, unsigned line)
{
    char err[MH_ARGS_ERROR_SIZE] = "";
    uint32_t s = 0x1111, n = 0x2222;
    mh_status st = mh_args_range(A(text), 0xFFFF, def, max_len, &s, &n, err, sizeof err);
    check_status(st, status, line);
    if (status == MH_OK) {
        char cond[400];
        snprintf(cond, sizeof cond, "%s -> $%X+%u, got $%X+%u (%s)", text, start, length, s, n, err);
        CU_assertImplementation(s == start && n == length ? CU_TRUE : CU_FALSE, line, cond, __FILE__, "",
                                CU_FALSE);
    } else {
        check_str(err, message, line, __FILE__);
        CU_assertImplementation(s == 0x1111 && n == 0x2222 ? CU_TRUE : CU_FALSE, line, "out untouched", __FILE__,
                                "", CU_FALSE);
    }
}
#define RANGE_OK(text, start, length) range_check((text), 0, 0, MH_OK, (start), (length), NULL, __LINE__)
#define RANGE_ERR(text, status, message) range_check((text), 0, 0, (status), 0, 0, (message), __LINE__)

static void test_ranges(void)
{
    RANGE_OK("{\"address\": \"$C000\", \"length\": 256}", 0xC000, 256);
    RANGE_OK("{\"address\": \"$C000\", \"end\": \"$C0FF\"}", 0xC000, 256);
    RANGE_OK("{\"address\": 49152, \"end\": 49152}", 0xC000, 1);
    RANGE_OK("{\"address\": \"$C000\", \"length\": \"$100\"}", 0xC000, 256);
    RANGE_OK("{\"address\": 0, \"length\": 65536}", 0, 65536);
    RANGE_OK("{\"address\": \"$0000\", \"end\": \"$FFFF\"}", 0, 65536);
    RANGE_OK("{\"address\": \"$FFFF\", \"length\": 1}", 0xFFFF, 1);
    RANGE_OK("{\"address\": \"$C000\", \"length\": 16, \"end\": null}", 0xC000, 16);
    range_check("{\"address\": \"$C000\"}", 32, 0, MH_OK, 0xC000, 32, NULL, __LINE__);
    range_check("{\"address\": \"$FFF0\"}", 32, 0, MH_ERR_LIMIT, 0, 0,
                "length: $FFF0 + 32 bytes runs past the highest address $FFFF (at most 16 bytes fit)", __LINE__);

    RANGE_ERR("{\"length\": 16}", MH_ERR_NOT_FOUND,
              "address: missing; give an integer or a string like \"$C000\", \"0xC000\" or \"49152\"");
    RANGE_ERR("{\"address\": \"$C000\"}", MH_ERR_NOT_FOUND,
              "length: missing; give length (a byte count) or end (the last address, inclusive)");
    RANGE_ERR("{\"address\": \"$C000\", \"length\": 16, \"end\": \"$C00F\"}", MH_ERR_INVALID_ARGUMENT,
              "end: give either length or end (the last address, inclusive), not both");
    RANGE_ERR("{\"address\": \"$C000\", \"length\": 0}", MH_ERR_LIMIT, "length: 0 is below the minimum 1");
    RANGE_ERR("{\"address\": \"$C000\", \"length\": -5}", MH_ERR_LIMIT, "length: -5 is below the minimum 1");
    RANGE_ERR("{\"address\": \"$C000\", \"length\": \"lots\"}", MH_ERR_INVALID_ARGUMENT,
              "length: expected an integer of at least 1, got \"lots\"");
    RANGE_ERR("{\"address\": \"$C000\", \"end\": \"$BFFF\"}", MH_ERR_LIMIT,
              "end: $BFFF is below address $C000 (end is the last address, inclusive)");
    RANGE_ERR("{\"address\": \"$C000\", \"end\": \"$10000\"}", MH_ERR_LIMIT,
              "end: $10000 is above the highest address $FFFF");
    RANGE_ERR("{\"address\": \"$C000\", \"end\": \"top\"}", MH_ERR_INVALID_ARGUMENT,
              "end: expected an integer or a string like \"$C000\", \"0xC000\" or \"49152\", got \"top\"");
    RANGE_ERR("{\"address\": \"$FFF0\", \"length\": 32}", MH_ERR_LIMIT,
              "length: $FFF0 + 32 bytes runs past the highest address $FFFF (at most 16 bytes fit)");
    RANGE_ERR("{\"address\": 0, \"length\": 65537}", MH_ERR_LIMIT, "length: 65537 is above the maximum 65536");
    RANGE_ERR("{\"address\": 0, \"length\": 1e100}", MH_ERR_LIMIT,
              "length: 1e+100 is above the maximum 9223372036854775807");

    /* A cap on the length, e.g. for a disassembly window. */
    range_check("{\"address\": \"$C000\", \"length\": 257}", 0, 256, MH_ERR_LIMIT, 0, 0,
                "length: 257 is above the maximum 256", __LINE__);
    range_check("{\"address\": \"$C000\", \"end\": \"$C1FF\"}", 0, 256, MH_ERR_LIMIT, 0, 0,
                "end: the range $C000-$C1FF is 512 bytes, above the maximum 256", __LINE__);
    range_check("{\"address\": \"$C000\", \"end\": \"$C0FF\"}", 0, 256, MH_OK, 0xC000, 256, NULL, __LINE__);
}

MH_SUITE("args.range", NULL, cleanup, MH_TEST(test_ranges))

/* ---- args.int ------------------------------------------------------------ */

static void int_check(const char *text, int64_t min, int64_t max, mh_status status, int64_t expected,
                      const char *message, unsigned line)
{
    char err[MH_ARGS_ERROR_SIZE] = "";
    int64_t out = 77;
    mh_status st = mh_args_int(A(text), "count", min, max, &out, err, sizeof err);
    check_status(st, status, line);
    if (status == MH_OK) {
        CU_assertImplementation(out == expected ? CU_TRUE : CU_FALSE, line, text, __FILE__, "", CU_FALSE);
    } else {
        check_str(err, message, line, __FILE__);
        CU_assertImplementation(out == 77 ? CU_TRUE : CU_FALSE, line, "out untouched", __FILE__, "", CU_FALSE);
    }
}
#define INT_OK(text, expected) int_check((text), 1, 1000, MH_OK, (expected), NULL, __LINE__)
#define INT_ERR(text, status, message) int_check((text), 1, 1000, (status), 0, (message), __LINE__)

static void test_integers(void)
{
    INT_OK("{\"count\": 10}", 10);
    INT_OK("{\"count\": \"$10\"}", 16);
    INT_OK("{\"count\": \"0x3E8\"}", 1000);
    INT_OK("{\"count\": \"%101\"}", 5);
    INT_OK("{\"count\": \"12\"}", 12);
    INT_OK("{\"count\": 1e2}", 100);
    INT_ERR("{\"count\": 0}", MH_ERR_LIMIT, "count: 0 is below the minimum 1");
    INT_ERR("{\"count\": 1001}", MH_ERR_LIMIT, "count: 1001 is above the maximum 1000");
    INT_ERR("{\"count\": \"$3E9\"}", MH_ERR_LIMIT, "count: $3E9 is above the maximum 1000");
    INT_ERR("{\"count\": -3}", MH_ERR_LIMIT, "count: -3 is below the minimum 1");
    INT_ERR("{\"count\": 1e30}", MH_ERR_LIMIT, "count: 1e+30 is above the maximum 1000");
    INT_ERR("{\"count\": -1e30}", MH_ERR_LIMIT, "count: -1e+30 is below the minimum 1");
    INT_ERR("{\"count\": \"ten\"}", MH_ERR_INVALID_ARGUMENT, "count: expected an integer from 1 to 1000, got \"ten\"");
    INT_ERR("{\"count\": 2.5}", MH_ERR_INVALID_ARGUMENT, "count: expected an integer from 1 to 1000, got 2.5");
    INT_ERR("{\"count\": false}", MH_ERR_INVALID_ARGUMENT, "count: expected an integer from 1 to 1000, got false");
    INT_ERR("{}", MH_ERR_NOT_FOUND, "count: missing; give an integer from 1 to 1000");

    int_check("{\"count\": -9223372036854775808}", INT64_MIN, INT64_MAX, MH_OK, INT64_MIN, NULL, __LINE__);
    int_check("{\"count\": \"-9223372036854775808\"}", INT64_MIN, INT64_MAX, MH_OK, INT64_MIN, NULL, __LINE__);
    int_check("{\"count\": 9223372036854775807}", INT64_MIN, INT64_MAX, MH_OK, INT64_MAX, NULL, __LINE__);
    int_check("{\"count\": 9223372036854775808}", INT64_MIN, INT64_MAX, MH_ERR_LIMIT, 0,
              "count: 9223372036854775808 is above the maximum 9223372036854775807", __LINE__);
    int_check("{\"count\": -9223372036854775809}", INT64_MIN, INT64_MAX, MH_ERR_LIMIT, 0,
              "count: -9223372036854775809 is below the minimum -9223372036854775808", __LINE__);
    int_check("{\"count\": \"x\"}", INT64_MIN, INT64_MAX, MH_ERR_INVALID_ARGUMENT, 0,
              "count: expected an integer, got \"x\"", __LINE__);
    int_check("{\"count\": \"x\"}", 0, INT64_MAX, MH_ERR_INVALID_ARGUMENT, 0,
              "count: expected an integer of at least 0, got \"x\"", __LINE__);
    int_check("{\"count\": \"x\"}", INT64_MIN, 9, MH_ERR_INVALID_ARGUMENT, 0,
              "count: expected an integer of at most 9, got \"x\"", __LINE__);
    int_check("{\"count\": \"-5\"}", -10, 10, MH_OK, -5, NULL, __LINE__);
}

MH_SUITE("args.int", NULL, cleanup, MH_TEST(test_integers))

/* ---- args.bytes ---------------------------------------------------------- */

static void bytes_ok(const char *text, const char *expected, size_t n, unsigned line)
{
    char err[MH_ARGS_ERROR_SIZE] = "";
    uint8_t buf[16];
    size_t count = 99;
    mh_status st = mh_args_bytes(A(text), "bytes", buf, sizeof buf, &count, err, sizeof err);
    check_status(st, MH_OK, line);
    char cond[300];
    snprintf(cond, sizeof cond, "%s: %zu bytes (got %zu, %s)", text, n, count, err);
    CU_assertImplementation(count == n && memcmp(buf, expected, n) == 0 ? CU_TRUE : CU_FALSE, line, cond, __FILE__,
                            "", CU_FALSE);
}

static void bytes_err(const char *text, size_t capacity, mh_status status, const char *message, unsigned line)
{
    char err[MH_ARGS_ERROR_SIZE] = "";
    uint8_t buf[16];
    size_t count = 99;
    mh_status st = mh_args_bytes(A(text), "bytes", buf, capacity, &count, err, sizeof err);
    check_status(st, status, line);
    check_str(err, message, line, __FILE__);
    CU_assertImplementation(count == 99 ? CU_TRUE : CU_FALSE, line, "count untouched", __FILE__, "", CU_FALSE);
}
#define BYTES_OK(text, expected) bytes_ok((text), (expected), sizeof(expected) - 1, __LINE__)
#define BYTES_ERR(text, status, message) bytes_err((text), 16, (status), (message), __LINE__)

#define BYTE_FORMS "an array of byte values or a hex string like \"A9 00 8D 20 D0\""

static void test_bytes(void)
{
    BYTES_OK("{\"bytes\": [169, 0, 141, 32, 208]}", "\xa9\x00\x8d\x20\xd0");
    BYTES_OK("{\"bytes\": [\"$A9\", \"0x00\", 141, \"%100000\", 208.0]}", "\xa9\x00\x8d\x20\xd0");
    BYTES_OK("{\"bytes\": \"A9 00 8D 20 D0\"}", "\xa9\x00\x8d\x20\xd0");
    BYTES_OK("{\"bytes\": \"a9008d20d0\"}", "\xa9\x00\x8d\x20\xd0");
    BYTES_OK("{\"bytes\": \"$A9,$00, 0x8d\\n20\\t d0\"}", "\xa9\x00\x8d\x20\xd0");
    BYTES_OK("{\"bytes\": \"0 1 f\"}", "\x00\x01\x0f");
    BYTES_OK("{\"bytes\": \"a900 8d\"}", "\xa9\x00\x8d");
    BYTES_OK("{\"bytes\": \",,ff,,\"}", "\xff");
    BYTES_OK("{\"bytes\": [255]}", "\xff");
    bytes_ok("{\"bytes\": \"000102030405060708090a0b0c0d0e0f\"}",
             "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f", 16, __LINE__);

    BYTES_ERR("{\"bytes\": \"A9 0G\"}", MH_ERR_INVALID_ARGUMENT,
              "bytes: \"0G\" in the hex string is not a hex byte: \"G\" is not a hex digit (give " BYTE_FORMS ")");
    BYTES_ERR("{\"bytes\": \"A9 00 8D 20 D0 LDA\"}", MH_ERR_INVALID_ARGUMENT,
              "bytes: \"LDA\" in the hex string is not a hex byte: \"L\" is not a hex digit (give " BYTE_FORMS ")");
    BYTES_ERR("{\"bytes\": \"A9 \u00e9\u00e9\"}", MH_ERR_INVALID_ARGUMENT,
              "bytes: \"\xc3\xa9\xc3\xa9\" in the hex string is not a hex byte: \"\xc3\xa9\" is not a hex digit "
              "(give " BYTE_FORMS ")");
    BYTES_ERR("{\"bytes\": \"a90\"}", MH_ERR_INVALID_ARGUMENT,
              "bytes: \"a90\" in the hex string has an odd number of digits; write two digits per byte "
              "(\"a9008d\") or separate bytes with spaces");
    BYTES_ERR("{\"bytes\": \"$A900\"}", MH_ERR_INVALID_ARGUMENT,
              "bytes: \"$A900\" is more than one byte; a \"$\" or \"0x\" token is one byte (00-FF), separate "
              "bytes with spaces");
    BYTES_ERR("{\"bytes\": \"A9 $\"}", MH_ERR_INVALID_ARGUMENT, "bytes: \"$\" in the hex string has no hex digits");
    BYTES_ERR("{\"bytes\": [256]}", MH_ERR_LIMIT, "bytes[0]: 256 is not a byte (0-255)");
    BYTES_ERR("{\"bytes\": [1, -1]}", MH_ERR_LIMIT, "bytes[1]: -1 is not a byte (0-255)");
    BYTES_ERR("{\"bytes\": [1, \"$100\"]}", MH_ERR_LIMIT, "bytes[1]: $100 is not a byte (0-255)");
    BYTES_ERR("{\"bytes\": [1, true]}", MH_ERR_INVALID_ARGUMENT,
              "bytes[1]: expected a byte (0-255) as an integer or a string like \"$A9\", got true");
    BYTES_ERR("{\"bytes\": [1, 2.5]}", MH_ERR_INVALID_ARGUMENT,
              "bytes[1]: expected a byte (0-255) as an integer or a string like \"$A9\", got 2.5");
    BYTES_ERR("{\"bytes\": \"\"}", MH_ERR_INVALID_ARGUMENT, "bytes: is empty; give at least one byte");
    BYTES_ERR("{\"bytes\": \" , \"}", MH_ERR_INVALID_ARGUMENT, "bytes: is empty; give at least one byte");
    BYTES_ERR("{\"bytes\": []}", MH_ERR_INVALID_ARGUMENT, "bytes: is empty; give at least one byte");
    BYTES_ERR("{\"bytes\": 5}", MH_ERR_INVALID_ARGUMENT, "bytes: expected " BYTE_FORMS ", got 5");
    BYTES_ERR("{\"bytes\": {}}", MH_ERR_INVALID_ARGUMENT, "bytes: expected " BYTE_FORMS ", got an object");
    BYTES_ERR("{}", MH_ERR_NOT_FOUND, "bytes: missing; give " BYTE_FORMS);
    bytes_err("{\"bytes\": \"01 02 03 04 05\"}", 4, MH_ERR_LIMIT, "bytes: 5 bytes are more than the 4 allowed",
              __LINE__);
    bytes_err("{\"bytes\": [1, 2, 3, 4, 5]}", 4, MH_ERR_LIMIT, "bytes: 5 bytes are more than the 4 allowed",
              __LINE__);
    bytes_err("{\"bytes\": \"0102030405060708090a0b0c0d0e0f1011\"}", 16, MH_ERR_LIMIT,
              "bytes: 17 bytes are more than the 16 allowed", __LINE__);
}

static void test_bytes_large(void)
{
    /* 64 KiB as a hex string: the whole C64 address space. */
    size_t n = 65536;
    char *text = malloc(n * 2 + 16);
    strcpy(text, "{\"bytes\": \"");
    size_t o = strlen(text);
    for (size_t i = 0; i < n; i++) o += (size_t)sprintf(text + o, "%02x", (unsigned)(i & 0xFF));
    strcpy(text + o, "\"}");
    uint8_t *buf = malloc(n);
    size_t count = 0;
    char err[MH_ARGS_ERROR_SIZE];
    CU_ASSERT_EQUAL(mh_args_bytes(A(text), "bytes", buf, n, &count, err, sizeof err), MH_OK);
    CU_ASSERT_EQUAL(count, n);
    CU_ASSERT_EQUAL(buf[0x1234], 0x34);
    CU_ASSERT_EQUAL(mh_args_bytes(A(text), "bytes", buf, n - 1, &count, err, sizeof err), MH_ERR_LIMIT);
    CHECK_STR(err, "bytes: 65536 bytes are more than the 65535 allowed");
    free(buf);
    free(text);
}

MH_SUITE("args.bytes", NULL, cleanup, MH_TEST(test_bytes), MH_TEST(test_bytes_large))

/* ---- args.misc ----------------------------------------------------------- */

static void test_parse(void)
{
    char err[MH_ARGS_ERROR_SIZE];
    mh_json_doc *doc = (mh_json_doc *)1;
    CU_ASSERT_PTR_NULL(mh_args_parse("[1]", &doc, err, sizeof err));
    CU_ASSERT_PTR_NULL(doc);
    CHECK_STR(err, "arguments: expected a JSON object, got an array");
    CU_ASSERT_PTR_NULL(mh_args_parse("\"x\"", &doc, err, sizeof err));
    CHECK_STR(err, "arguments: expected a JSON object, got a string");
    CU_ASSERT_PTR_NULL(mh_args_parse("{", &doc, err, sizeof err));
    CHECK_STR(err, "arguments: line 1, column 2: unexpected end of input, expected a string key or '}'");
    CU_ASSERT_PTR_NULL(mh_args_parse(NULL, &doc, err, sizeof err));
    CHECK_STR(err, "arguments: no JSON text given");
    const mh_json *args = mh_args_parse(" {} ", &doc, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(args);
    CU_ASSERT_EQUAL(mh_json_object_size(args), 0);
    mh_json_free(doc);
}

static void test_bool_string_choice(void)
{
    char err[MH_ARGS_ERROR_SIZE] = "";
    const mh_json *args = A("{\"on\": true, \"off\": false, \"n\": 1, \"s\": \"text\", \"z\": \"a\\u0000b\","
                            " \"fmt\": \"hex\", \"bad\": \"bin\", \"none\": null}");
    bool b = false;
    CU_ASSERT_EQUAL(mh_args_bool(args, "on", &b, err, sizeof err), MH_OK);
    CU_ASSERT_TRUE(b);
    CU_ASSERT_EQUAL(mh_args_bool(args, "off", &b, err, sizeof err), MH_OK);
    CU_ASSERT_FALSE(b);
    CU_ASSERT_EQUAL(mh_args_bool(args, "n", &b, err, sizeof err), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(err, "n: expected true or false, got 1");
    CU_ASSERT_EQUAL(mh_args_bool(args, "s", &b, err, sizeof err), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(err, "s: expected true or false, got \"text\"");
    b = true;
    CU_ASSERT_EQUAL(mh_args_bool(args, "none", &b, err, sizeof err), MH_ERR_NOT_FOUND);
    CHECK_STR(err, "none: missing; give true or false");
    CU_ASSERT_TRUE(b); /* the caller's default stays */

    const char *s = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(mh_args_string(args, "s", &s, &len, err, sizeof err), MH_OK);
    CHECK_STR(s, "text");
    CU_ASSERT_EQUAL(len, 4);
    CU_ASSERT_EQUAL(mh_args_string(args, "n", &s, NULL, err, sizeof err), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(err, "n: expected a string, got 1");
    CU_ASSERT_EQUAL(mh_args_string(args, "z", &s, NULL, err, sizeof err), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(err, "z: the string contains a NUL character (\\u0000), which is not allowed here");
    CU_ASSERT_EQUAL(mh_args_string(args, "missing", &s, NULL, err, sizeof err), MH_ERR_NOT_FOUND);
    CHECK_STR(err, "missing: missing; give a string");

    static const char *const formats[] = {"hex", "text", "petscii"};
    size_t index = 9;
    CU_ASSERT_EQUAL(mh_args_choice(args, "fmt", formats, 3, &index, err, sizeof err), MH_OK);
    CU_ASSERT_EQUAL(index, 0);
    CU_ASSERT_EQUAL(mh_args_choice(args, "bad", formats, 3, &index, err, sizeof err), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(err, "bad: expected one of \"hex\", \"text\", \"petscii\", got \"bin\"");
    CU_ASSERT_EQUAL(mh_args_choice(args, "n", formats, 3, &index, err, sizeof err), MH_ERR_INVALID_ARGUMENT);
    CHECK_STR(err, "n: expected one of \"hex\", \"text\", \"petscii\", got 1");
    CU_ASSERT_EQUAL(mh_args_choice(args, "none", formats, 2, &index, err, sizeof err), MH_ERR_NOT_FOUND);
    CHECK_STR(err, "none: missing; give one of \"hex\", \"text\"");
    CU_ASSERT_EQUAL(index, 0);
}

static void test_format_and_write(void)
{
    char buf[16];
    CU_ASSERT_EQUAL(mh_args_format_address(buf, sizeof buf, 0), 5);
    CHECK_STR(buf, "$0000");
    mh_args_format_address(buf, sizeof buf, 0xC000);
    CHECK_STR(buf, "$C000");
    mh_args_format_address(buf, sizeof buf, 0xd020);
    CHECK_STR(buf, "$D020");
    CU_ASSERT_EQUAL(mh_args_format_address(buf, sizeof buf, 0x10000), 6);
    CHECK_STR(buf, "$10000");
    mh_args_format_address(buf, sizeof buf, 0xFFFFFFFF);
    CHECK_STR(buf, "$FFFFFFFF");
    CU_ASSERT_EQUAL(mh_args_format_address(buf, 3, 0xC000), 5);
    CHECK_STR(buf, "$C");

    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "pc", 0xC000);
    mh_args_write_address(w, "a_rather_long_key_name_that_does_not_fit_the_small_buffer_at_all", 0x0801);
    mh_json_write_object_end(w);
    char *text = mh_json_writer_finish(w, NULL);
    CHECK_STR(text, "{\"pc\":49152,\"pc_hex\":\"$C000\","
                    "\"a_rather_long_key_name_that_does_not_fit_the_small_buffer_at_all\":2049,"
                    "\"a_rather_long_key_name_that_does_not_fit_the_small_buffer_at_all_hex\":\"$0801\"}");
    free(text);

    /* Outside an object it is misuse, recorded in the writer. */
    mh_json_write_array_begin(w);
    mh_args_write_address(w, "pc", 1);
    CU_ASSERT_EQUAL(mh_json_writer_status(w), MH_ERR_STATE);
    mh_json_writer_free(w);
}

MH_SUITE("args.misc", NULL, cleanup, MH_TEST(test_parse), MH_TEST(test_bool_string_choice),
         MH_TEST(test_format_and_write))
