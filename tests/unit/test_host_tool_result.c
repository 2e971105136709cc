/* A tool's result on its way through the host (call_structured.c, call.c
 * mh_call_write_tool_result, server.c mh_request_respond_tool): structured
 * content goes out as the tool wrote it, checked once; what the strict
 * parser refuses still goes out as before; the output schema check and the
 * facts text still work on it. Through the in-process server. */
#include <math.h>
#include <string.h>

#include "call.h"
#include "host_harness.h"
#include "loader.h"
#include "mh_test.h"

static mh_harness h;
static mh_plugin_record owner;

/* Each tool answers with the structured text in its user data; "+text"
 * tools add a text of their own first. */
static void answer(void *user, mh_call *call)
{
    const char *json = user;
    if (strncmp(json, "+text", 5) == 0) {
        mh_call_service_impl.text(call, "a summary");
        json += 5;
    }
    mh_call_service_impl.structured(call, json);
}

static void add_tool(const char *name, const char *json, const char *output_schema)
{
    mh_tool_desc d = {sizeof d, name, NULL, "a test tool", "{\"type\":\"object\"}",
                      output_schema, MH_TOOL_READ_ONLY, MH_TOOL_QUICK, NULL, NULL, answer,
                      (void *)json};
    CU_ASSERT_EQUAL(mh_registry_add_tool(&h.ctx.registry, &owner, &d), MH_OK);
}

static int setup(void)
{
    if (mh_harness_init(&h, 0) != 0) return 1;
    mh_harness_initialize(&h, "2025-11-25");
    return 0;
}

static int teardown(void)
{
    mh_registry_remove_owner(&h.ctx.registry, &owner);
    mh_harness_free(&h);
    return 0;
}

static const cJSON *member(const cJSON *result, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(result, "structuredContent"), key);
}

static void test_written_as_given(void)
{
    /* cJSON would print this double with 15 digits (0.3), another number */
    add_tool("t_exact", "+text{\"x\":0.30000000000000004,\"s\":\"caf\xc3\xa9\\u0041\",\"a\":[1,{\"b\":null}]}",
             NULL);
    const cJSON *r = mh_harness_call_tool(&h, "t_exact", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(member(r, "x")->valuedouble, 0.30000000000000004);
    CU_ASSERT_STRING_EQUAL(member(r, "s")->valuestring, "caf\xc3\xa9" "A");
    CU_ASSERT_TRUE(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(member(r, "a"), 1), "b")));
    CU_ASSERT_STRING_EQUAL(mh_harness_text(r), "a summary");
    /* the keys in the tool's order, then isError */
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(r, "structuredContent")->child;
    CU_ASSERT_STRING_EQUAL(first->string, "x");
    CU_ASSERT_STRING_EQUAL(r->child->string, "content");
    CU_ASSERT_TRUE(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r, "isError")));
}

static void test_line_breaks_and_loose_text(void)
{
    /* whitespace with line breaks: printed compact (stdio is one line a message) */
    add_tool("t_pretty", "{\n  \"a\": 1,\n  \"b\": \"two\"\n}", NULL);
    const cJSON *r = mh_harness_call_tool(&h, "t_pretty", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(member(r, "a")->valueint, 1);
    /* no text of its own: the facts, from the structured content */
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "b: two"));
    /* invalid UTF-8 (the strict parser refuses it) still goes out, as cJSON read it */
    add_tool("t_loose", "{\"s\":\"\xff\"}", NULL);
    r = mh_harness_call_tool(&h, "t_loose", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_TRUE(cJSON_IsString(member(r, "s")));
    /* not an object: a tool error saying so */
    add_tool("t_array", "[1,2]", NULL);
    r = mh_harness_call_tool(&h, "t_array", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "not a JSON object"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"));
}

/* Text content is written by hand (call.c write_content): every character
 * that JSON must escape, and UTF-8, come back as they were. */
static const char special_text[] = "quote\" backslash\\ nl\n cr\r tab\t bs\b ff\f "
                                   "ctl\x01\x1f del\x7f caf\xc3\xa9 \xe2\x80\xa8 end";

static void answer_special(void *user, mh_call *call)
{
    (void)user;
    mh_call_service_impl.text(call, special_text);
    mh_call_service_impl.text(call, "");
    mh_call_service_impl.structured(call, "{\"ok\":true}");
}

static void test_text_escaped(void)
{
    mh_tool_desc d = {sizeof d, "t_special", NULL, "a test tool", "{\"type\":\"object\"}",
                      NULL, MH_TOOL_READ_ONLY, MH_TOOL_QUICK, NULL, NULL, answer_special, NULL};
    CU_ASSERT_EQUAL_FATAL(mh_registry_add_tool(&h.ctx.registry, &owner, &d), MH_OK);
    const cJSON *r = mh_harness_call_tool(&h, "t_special", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(r, "content");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(content), 2);
    const cJSON *first = cJSON_GetArrayItem(content, 0), *second = cJSON_GetArrayItem(content, 1);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(first, "type")->valuestring, "text");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(first, "text")->valuestring,
                           special_text);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(second, "text")->valuestring, "");
    CU_ASSERT_TRUE(cJSON_IsTrue(member(r, "ok")));
}

static void test_output_schema_still_checked(void)
{
    static const char schema[] =
        "{\"type\":\"object\",\"required\":[\"hex\"],\"properties\":{\"hex\":{\"type\":"
        "\"string\",\"maxLength\":4}}}";
    add_tool("t_short", "{\"hex\":\"A9FF\"}", schema);
    add_tool("t_long", "{\"hex\":\"A9FF00\"}", schema);
    add_tool("t_missing", "{\"base64\":\"qf8=\"}", schema);
    const cJSON *r = mh_harness_call_tool(&h, "t_short", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_STRING_EQUAL(member(r, "hex")->valuestring, "A9FF");
    r = mh_harness_call_tool(&h, "t_long", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "outputSchema"));
    r = mh_harness_call_tool(&h, "t_missing", "{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "hex"));
}

MH_SUITE("host.tool_result", setup, teardown, MH_TEST(test_written_as_given),
         MH_TEST(test_text_escaped),
         MH_TEST(test_line_breaks_and_loose_text), MH_TEST(test_output_schema_still_checked))
