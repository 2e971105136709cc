/* Argument validation against tool input schemas, and its messages. */
#include <string.h>

#include "mh_test.h"
#include "schema.h"

static const char *schema_text =
    "{\"type\":\"object\",\"properties\":{"
    "\"address\":{\"type\":[\"integer\",\"string\"]},"
    "\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100},"
    "\"ratio\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"exclusiveMaximum\":1},"
    "\"mode\":{\"type\":\"string\",\"enum\":[\"soft\",\"hard\"]},"
    "\"name\":{\"type\":\"string\",\"minLength\":2,\"maxLength\":4},"
    "\"bytes\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":255},"
    "\"minItems\":1,\"maxItems\":3},"
    "\"nested\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"boolean\"}},"
    "\"required\":[\"x\"]},"
    "\"either\":{\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"string\",\"minLength\":3}]}"
    "},\"required\":[\"address\"],\"additionalProperties\":false}";

static void check(const char *args, int valid, const char *fragment)
{
    cJSON *schema = cJSON_Parse(schema_text);
    cJSON *value = cJSON_Parse(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(value);
    char error[512];
    int ok = mh_schema_validate(schema, value, error, sizeof error);
    CU_ASSERT_EQUAL(ok, valid);
    if (!valid && fragment) {
        if (!strstr(error, fragment)) fprintf(stderr, "\n  got: %s\n  want: %s\n", error, fragment);
        CU_ASSERT_PTR_NOT_NULL(strstr(error, fragment));
    }
    cJSON_Delete(schema);
    cJSON_Delete(value);
}

static void test_valid(void)
{
    check("{\"address\":49152}", 1, NULL);
    check("{\"address\":\"$C000\",\"count\":100,\"mode\":\"hard\",\"bytes\":[0,255]}", 1, NULL);
    check("{\"address\":1,\"nested\":{\"x\":true},\"either\":5,\"ratio\":0.5}", 1, NULL);
    check("{\"address\":1,\"either\":\"abcd\",\"name\":\"ab\"}", 1, NULL);
}

static void test_type(void)
{
    check("{\"address\":true}", 0, "argument 'address': expected integer or string, got boolean");
    check("{\"address\":1,\"count\":2.5}", 0, "argument 'count': expected an integer, got number");
    check("{\"address\":1,\"mode\":3}", 0, "argument 'mode': expected a string, got integer");
    check("[1]", 0, "arguments: expected an object, got array");
}

static void test_required_and_unknown(void)
{
    check("{}", 0, "argument 'address': is required but missing");
    check("{\"adress\":1}", 0, "argument 'adress': is not a known argument; allowed: address, count");
    check("{\"address\":1,\"nested\":{}}", 0, "argument 'nested.x': is required");
}

static void test_ranges(void)
{
    check("{\"address\":1,\"count\":0}", 0, "argument 'count': must be at least 1, got 0");
    check("{\"address\":1,\"count\":500}", 0, "argument 'count': must be at most 100, got 500");
    check("{\"address\":1,\"ratio\":1}", 0, "must be less than 1");
    check("{\"address\":1,\"ratio\":0}", 0, "must be greater than 0");
    check("{\"address\":1,\"name\":\"a\"}", 0, "at least 2 characters");
    check("{\"address\":1,\"name\":\"abcde\"}", 0, "at most 4 characters");
}

static void test_enum(void)
{
    check("{\"address\":1,\"mode\":\"medium\"}", 0,
          "argument 'mode': must be one of \"soft\", \"hard\"; got \"medium\"");
}

static void test_arrays(void)
{
    check("{\"address\":1,\"bytes\":[]}", 0, "needs at least 1 item(s), got 0");
    check("{\"address\":1,\"bytes\":[1,2,3,4]}", 0, "takes at most 3 item(s), got 4");
    check("{\"address\":1,\"bytes\":[1,256]}", 0, "argument 'bytes[1]': must be at most 255, got 256");
    check("{\"address\":1,\"bytes\":[1,\"x\"]}", 0, "argument 'bytes[1]': expected an integer");
}

static void test_alternatives(void)
{
    check("{\"address\":1,\"either\":\"ab\"}", 0, "argument 'either'");
    check("{\"address\":1,\"either\":true}", 0, "argument 'either'");
}

MH_SUITE("host.schema", NULL, NULL, MH_TEST(test_valid), MH_TEST(test_type),
         MH_TEST(test_required_and_unknown), MH_TEST(test_ranges), MH_TEST(test_enum),
         MH_TEST(test_arrays), MH_TEST(test_alternatives))
