/* JSON-RPC error paths and the MCP lifecycle through the in-process server. */
#include <string.h>

#include "host_harness.h"
#include "mh_test.h"
#include "server.h"

static mh_harness h;

static int setup(void) { return mh_harness_init(&h, 0); }
static int teardown(void)
{
    mh_harness_free(&h);
    return 0;
}

static void expect_error(const char *message, int code, const char *fragment)
{
    const cJSON *r = mh_harness_send(&h, message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(mh_harness_error_code(r), code);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_error_message(r), fragment));
}

static void test_parse_error(void)
{
    expect_error("{\"jsonrpc\":\"2.0\",", -32700, "Parse error");
    const cJSON *r = mh_harness_send(&h, "not json at all");
    CU_ASSERT_TRUE(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r, "id")));
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing", -32700, "Parse error");
}

static void test_invalid_request(void)
{
    expect_error("[]", -32600, "batches are not supported");
    expect_error("42", -32600, "must be a JSON object");
    expect_error("{\"id\":1,\"method\":\"ping\"}", -32600, "\"jsonrpc\" must be the string \"2.0\"");
    expect_error("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", -32600, "\"2.0\"");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1}", -32600, "needs a \"method\"");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", -32600, "must be a string");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", -32600, "\"id\" must be");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":3}", -32600,
                 "\"params\" must be an object");
}

static void test_not_initialized(void)
{
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", -32600,
                 "send \"initialize\"");
    /* ping is allowed before initialize */
    const cJSON *r = mh_harness_send(&h, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    CU_ASSERT_TRUE(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r, "result")));
}

static void test_method_not_found(void)
{
    mh_harness_initialize(&h, "2025-11-25");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/frobnicate\"}", -32601,
                 "tools/frobnicate");
}

static void test_invalid_params(void)
{
    mh_harness_initialize(&h, "2025-11-25");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}", -32602,
                 "params.name");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"nope\"}}",
                 -32602, "Unknown tool: \"nope\"");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"ping\",\"arguments\":[1]}}",
                 -32602, "arguments must be a JSON object");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"logging/setLevel\",\"params\":{"
                 "\"level\":\"loud\"}}",
                 -32602, "level must be one of");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":"
                 "\"bogus\"}}",
                 -32602, "unknown cursor");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{}}",
                 -32602, "params.uri");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":"
                 "\"nowhere://x\"}}",
                 -32002, "Resource not found");
}

static void test_notifications_get_no_answer(void)
{
    int before = cJSON_GetArraySize(h.sent);
    mh_harness_send(&h, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    mh_harness_send(&h, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                        "{\"requestId\":99}}");
    mh_harness_send(&h, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(h.sent), before);
}

static void test_version_negotiation(void)
{
    for (size_t i = 0; mh_protocol_versions[i]; i++) {
        mh_harness fresh;
        CU_ASSERT_EQUAL_FATAL(mh_harness_init(&fresh, 0), 0);
        const cJSON *result = mh_harness_initialize(&fresh, mh_protocol_versions[i]);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(result, "protocolVersion");
        CU_ASSERT_TRUE_FATAL(cJSON_IsString(v));
        CU_ASSERT_STRING_EQUAL(v->valuestring, mh_protocol_versions[i]);
        mh_harness_free(&fresh);
    }
    mh_harness fresh;
    CU_ASSERT_EQUAL_FATAL(mh_harness_init(&fresh, 0), 0);
    const cJSON *result = mh_harness_initialize(&fresh, "1999-01-01");
    CU_ASSERT_STRING_EQUAL(
        cJSON_GetObjectItemCaseSensitive(result, "protocolVersion")->valuestring, "2025-11-25");
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(result, "capabilities");
    CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(caps, "tools"));
    CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(caps, "logging"));
    mh_harness_free(&fresh);

    CU_ASSERT_EQUAL_FATAL(mh_harness_init(&fresh, 0), 0);
    const cJSON *r = mh_harness_send(
        &fresh, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
    CU_ASSERT_EQUAL(mh_harness_error_code(r), -32602);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_error_message(r), "protocolVersion"));
    mh_harness_free(&fresh);
}

MH_SUITE("host.jsonrpc", setup, teardown, MH_TEST(test_parse_error),
         MH_TEST(test_invalid_request), MH_TEST(test_not_initialized),
         MH_TEST(test_method_not_found), MH_TEST(test_invalid_params),
         MH_TEST(test_notifications_get_no_answer))
MH_SUITE("host.lifecycle", NULL, NULL, MH_TEST(test_version_negotiation))
