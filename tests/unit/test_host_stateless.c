/* The stateless revision 2026-07-28 through the in-process server:
 * server/discover, requests that carry their version in _meta without
 * initialize, and the refusals (unknown version with the versions served,
 * missing client capabilities, methods the revision removed). */
#include <string.h>

#include "host_harness.h"
#include "mh_test.h"

static mh_harness h;

static int setup(void) { return mh_harness_init(&h, 0); }
static int teardown(void)
{
    mh_harness_free(&h);
    return 0;
}

#define META_2026                                                                              \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","                    \
    "\"io.modelcontextprotocol/clientCapabilities\":{}}"

static const cJSON *result_of(const cJSON *response)
{
    return cJSON_GetObjectItemCaseSensitive(response, "result");
}

static void test_discover(void)
{
    const cJSON *r = mh_harness_send(
        &h, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" META_2026 "}}");
    const cJSON *result = result_of(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    const cJSON *versions = cJSON_GetObjectItemCaseSensitive(result, "supportedVersions");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(versions), 1);
    CU_ASSERT_STRING_EQUAL(cJSON_GetArrayItem(versions, 0)->valuestring, "2026-07-28");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(result, "resultType")->valuestring,
                           "complete");
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(result, "capabilities");
    CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(caps, "tools"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(caps, "logging"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(result, "protocolVersion"));
    CU_ASSERT_STRING_EQUAL(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(result, "serverInfo"),
                                         "name")->valuestring,
        "mcphost");
}

static void test_request_without_initialize(void)
{
    const cJSON *r = mh_harness_send(
        &h, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" META_2026 "}}");
    const cJSON *result = result_of(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    CU_ASSERT_TRUE(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(result, "tools")) > 0);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(result, "resultType")->valuestring,
                           "complete");
    /* Without the _meta the connection is still of the initialize era. */
    r = mh_harness_send(&h, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
    CU_ASSERT_EQUAL(mh_harness_error_code(r), -32600);
}

static void test_unsupported_version(void)
{
    const cJSON *r = mh_harness_send(
        &h, "{\"jsonrpc\":\"2.0\",\"id\":9007199254740991,\"method\":\"tools/list\",\"params\":{"
            "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-12-31\","
            "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    CU_ASSERT_EQUAL_FATAL(mh_harness_error_code(r), -32022);
    CU_ASSERT_EQUAL(cJSON_GetObjectItemCaseSensitive(r, "id")->valuedouble, 9007199254740991.0);
    const cJSON *data =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "error"), "data");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(data, "requested")->valuestring,
                           "2099-12-31");
    const cJSON *supported = cJSON_GetObjectItemCaseSensitive(data, "supported");
    int has_modern = 0, has_legacy = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, supported)
    {
        has_modern |= strcmp(v->valuestring, "2026-07-28") == 0;
        has_legacy |= strcmp(v->valuestring, "2025-11-25") == 0;
    }
    CU_ASSERT_TRUE(has_modern && has_legacy);
}

static void test_refusals(void)
{
    const cJSON *r = mh_harness_send(
        &h, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
            "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}");
    CU_ASSERT_EQUAL(mh_harness_error_code(r), -32602);
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_error_message(r), "clientCapabilities"));
    r = mh_harness_send(
        &h, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
            "\"io.modelcontextprotocol/protocolVersion\":20260728,"
            "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    CU_ASSERT_EQUAL(mh_harness_error_code(r), -32602);
    static const char *const removed[] = {"ping", "logging/setLevel", "resources/subscribe",
                                          "initialize"};
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        char message[512];
        snprintf(message, sizeof message,
                 "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"%s\",\"params\":{" META_2026 "}}",
                 10 + i, removed[i]);
        r = mh_harness_send(&h, message);
        CU_ASSERT_EQUAL(mh_harness_error_code(r), -32601);
    }
}

MH_SUITE("host.stateless", setup, teardown, MH_TEST(test_discover),
         MH_TEST(test_request_without_initialize), MH_TEST(test_unsupported_version),
         MH_TEST(test_refusals))
