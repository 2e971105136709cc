/* host.tools_listed - tools/list shows the tools some live session can run
 * (host/protocol/tools_listed.c): with no session every tool; with only a
 * chipless fixture session not fixture_counter (it requires the fixture
 * chip); with a fixture session beside it again; after that session is
 * destroyed no longer. tools/call still answers an unlisted tool. */
#include <string.h>

#include "host_harness.h"
#include "mh_test.h"

static mh_harness h;

static int setup(void)
{
    if (mh_harness_init(&h, 1) != 0) return -1;
    mh_harness_initialize(&h, "2025-11-25");
    return 0;
}

static int teardown(void)
{
    mh_harness_free(&h);
    return 0;
}

/* Whether tools/list (all pages) names tool; -1 when the list failed. */
static int listed(const char *tool)
{
    char cursor[128] = "", msg[256];
    int found = 0;
    for (int page = 0; page < 100; page++) {
        if (cursor[0])
            snprintf(msg, sizeof msg,
                     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":"
                     "{\"cursor\":\"%s\"}}", cursor);
        else
            snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        const cJSON *result = cJSON_GetObjectItemCaseSensitive(mh_harness_send(&h, msg), "result");
        const cJSON *tools = cJSON_GetObjectItemCaseSensitive(result, "tools");
        if (!cJSON_IsArray(tools)) return -1;
        const cJSON *t;
        cJSON_ArrayForEach(t, tools)
        {
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
            if (cJSON_IsString(name) && strcmp(name->valuestring, tool) == 0) found = 1;
        }
        const cJSON *next = cJSON_GetObjectItemCaseSensitive(result, "nextCursor");
        if (!cJSON_IsString(next)) return found;
        snprintf(cursor, sizeof cursor, "%s", next->valuestring);
    }
    return -1;
}

static void test_listed_by_live_sessions(void)
{
    CU_ASSERT_EQUAL(listed("fixture_counter"), 1); /* no session: everything */
    CU_ASSERT_EQUAL(listed("session_create"), 1);

    const cJSON *r = mh_harness_call_tool(
        &h, "session_create", "{\"machine\":\"fixture\",\"name\":\"bare\",\"options\":{\"chipless\":true}}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(listed("fixture_counter"), 0);
    CU_ASSERT_EQUAL(listed("fixture_echo"), 1); /* requires nothing */
    r = mh_harness_call_tool(&h, "fixture_counter", "{}");
    CU_ASSERT_TRUE(mh_harness_is_error(r)); /* still answered, not an unknown tool */
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "not available on session \"bare\""));

    r = mh_harness_call_tool(&h, "session_create",
                             "{\"machine\":\"fixture\",\"name\":\"one\",\"select\":false}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(listed("fixture_counter"), 1);

    r = mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"one\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(listed("fixture_counter"), 0);
    r = mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"bare\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_EQUAL(listed("fixture_counter"), 1);
}

MH_SUITE("host.tools_listed", setup, teardown, MH_TEST(test_listed_by_live_sessions))
