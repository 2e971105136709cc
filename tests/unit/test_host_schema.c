/* Argument validation against tool input schemas, and its messages. */
#include <string.h>

#include "mcphost/json.h"
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
    "\"either\":{\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"string\",\"minLength\":3}]},"
    "\"fixed\":{\"const\":{\"a\":[1,2]}},"
    "\"pick\":{\"enum\":[true,null,3,\"x\"]}"
    "},\"required\":[\"address\"],\"additionalProperties\":false}";

/* Checks args as a cJSON tree (arguments) and as an SDK parse (a tool's
 * structured result, mh_schema_validate_json): the same verdict and the
 * same message either way. */
static void check(const char *args, int valid, const char *fragment)
{
    cJSON *schema = cJSON_Parse(schema_text);
    cJSON *value = cJSON_Parse(args);
    mh_json_doc *doc = mh_json_parse(args, strlen(args), NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(schema);
    CU_ASSERT_PTR_NOT_NULL_FATAL(value);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    char error[512], parsed_error[512];
    int ok = mh_schema_validate(schema, value, error, sizeof error);
    int parsed_ok = mh_schema_validate_json(schema, mh_json_root(doc), parsed_error,
                                            sizeof parsed_error);
    CU_ASSERT_EQUAL(ok, valid);
    CU_ASSERT_EQUAL(parsed_ok, valid);
    CU_ASSERT_STRING_EQUAL(parsed_error, error);
    if (!valid && fragment) {
        if (!strstr(error, fragment)) fprintf(stderr, "\n  got: %s\n  want: %s\n", error, fragment);
        CU_ASSERT_PTR_NOT_NULL(strstr(error, fragment));
    }
    cJSON_Delete(schema);
    cJSON_Delete(value);
    mh_json_free(doc);
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

/* const with a container and enum with scalars of every kind: compared
 * the same way on a tree and on a parse. */
static void test_const_and_scalar_enum(void)
{
    check("{\"address\":1,\"fixed\":{\"a\":[1,2]}}", 1, NULL);
    check("{\"address\":1,\"fixed\":{\"a\":[1,3]}}", 0, "argument 'fixed': must be {\"a\":[1,2]}");
    check("{\"address\":1,\"pick\":true}", 1, NULL);
    check("{\"address\":1,\"pick\":null}", 1, NULL);
    check("{\"address\":1,\"pick\":3}", 1, NULL);
    check("{\"address\":1,\"pick\":\"x\"}", 1, NULL);
    check("{\"address\":1,\"pick\":false}", 0, "must be one of true, null, 3, \"x\"; got false");
    check("{\"address\":1,\"pick\":\"xy\"}", 0, "got \"xy\"");
    check("{\"address\":1,\"pick\":[3]}", 0, "got [3]");
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
         MH_TEST(test_const_and_scalar_enum),
         MH_TEST(test_required_and_unknown), MH_TEST(test_ranges), MH_TEST(test_enum),
         MH_TEST(test_arrays), MH_TEST(test_alternatives))
