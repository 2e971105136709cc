/* tools/list and tools/call through the in-process server with the fixture
 * plugins: pagination, validation messages, sessions and chip resolution. */
#include <string.h>

#include "host_harness.h"
#include "mh_test.h"
#include "server.h"
#include "sessions.h"

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

static void test_pagination(void)
{
    mh_server_set_page_size(h.ctx.server, 3);
    size_t seen = 0;
    char cursor[64] = "";
    for (int page = 0; page < 100; page++) {
        char msg[256];
        if (cursor[0])
            snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\","
                                      "\"params\":{\"cursor\":\"%s\"}}", cursor);
        else
            snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        const cJSON *result = cJSON_GetObjectItemCaseSensitive(mh_harness_send(&h, msg), "result");
        const cJSON *tools = cJSON_GetObjectItemCaseSensitive(result, "tools");
        CU_ASSERT_TRUE_FATAL(cJSON_IsArray(tools));
        CU_ASSERT_TRUE(cJSON_GetArraySize(tools) <= 3);
        seen += (size_t)cJSON_GetArraySize(tools);
        const cJSON *next = cJSON_GetObjectItemCaseSensitive(result, "nextCursor");
        if (!next) break;
        snprintf(cursor, sizeof cursor, "%s", next->valuestring);
    }
    CU_ASSERT_EQUAL(seen, h.ctx.registry.tools.count);
    mh_server_set_page_size(h.ctx.server, 100);
}

static void test_validation_is_tool_error(void)
{
    const cJSON *r = mh_harness_call_tool(&h, "fixture_echo", "{\"message\":\"hi\",\"times\":9}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "argument 'times': must be at most 5, got 9"));
    r = mh_harness_call_tool(&h, "fixture_echo", "{}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "argument 'message': is required"));
}

static void test_structured_result(void)
{
    const cJSON *r = mh_harness_call_tool(&h, "fixture_echo", "{\"message\":\"hi\",\"times\":2}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
    CU_ASSERT_EQUAL(cJSON_GetObjectItemCaseSensitive(s, "times")->valueint, 2);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "content")), 2);
}

static void test_session_tools(void)
{
    const cJSON *r = mh_harness_call_tool(&h, "fixture_counter", "{}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "needs a machine session"));

    r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"fixture\",\"name\":\"one\"}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    r = mh_harness_call_tool(&h, "fixture_counter", "{}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    CU_ASSERT_STRING_EQUAL(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"),
                                         "instance")->valuestring,
        "counter");

    r = mh_harness_call_tool(&h, "session_create",
                  "{\"machine\":\"fixture\",\"name\":\"bare\",\"options\":{\"chipless\":true},"
                  "\"select\":false}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    r = mh_harness_call_tool(&h, "fixture_counter", "{\"session\":\"bare\"}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "not available on session \"bare\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "mh.chip.fixture/1"));

    r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"fixture\",\"name\":\"one\"}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "already exists"));
    r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"fixture\",\"options\":{\"fail\":\"on purpose\"}}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "on purpose"));

    r = mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"one\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    r = mh_harness_call_tool(&h, "fixture_counter", "{\"session\":\"one\"}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "no machine session named \"one\""));
    r = mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"bare\"}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
}

static void test_unknown_machine(void)
{
    const cJSON *r = mh_harness_call_tool(&h, "session_create", "{\"machine\":\"c128\"}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "unknown machine \"c128\"; loaded machines: fixture"));
}

static int count_events(const char *type)
{
    int n = 0;
    const cJSON *msg;
    cJSON_ArrayForEach(msg, h.sent)
    {
        const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(params, "type");
        if (cJSON_IsString(method) && strcmp(method->valuestring, "notifications/mcphost/event") == 0 &&
            cJSON_IsString(t) && strcmp(t->valuestring, type) == 0)
            n++;
    }
    return n;
}

static void test_events(void)
{
    const cJSON *r = mh_harness_call_tool(&h, "session_create",
                               "{\"machine\":\"fixture\",\"name\":\"ev\",\"options\":{\"exit_after\":"
                               "20000,\"exit_code\":3}}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));
    r = mh_harness_call_tool(&h, "events_subscribe", "{\"types\":[\"bogus\"]}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(r), "must be one of"));
    r = mh_harness_call_tool(&h, "events_subscribe", "{\"session\":\"nope\"}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    r = mh_harness_call_tool(&h, "events_subscribe", "{\"types\":[\"exited\"]}");
    CU_ASSERT_FALSE_FATAL(mh_harness_is_error(r));

    mh_session *s = mh_sessions_find(h.ctx.sessions, "ev");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    mh_session_start(s, 1, 0);
    CU_ASSERT_EQUAL(mh_session_wait_finished(s), 3);
    CU_ASSERT_EQUAL(count_events("exited"), 1);

    r = mh_harness_call_tool(&h, "events_unsubscribe", "{}");
    CU_ASSERT_FALSE(mh_harness_is_error(r));
    mh_session_start(s, 1, 0); /* the fixture is past exit_after: it exits at once */
    CU_ASSERT_EQUAL(mh_session_wait_finished(s), 3);
    CU_ASSERT_EQUAL(count_events("exited"), 1); /* no longer subscribed */
    r = mh_harness_call_tool(&h, "events_unsubscribe", "{}");
    CU_ASSERT_TRUE(mh_harness_is_error(r));
    mh_session_unref(s);
    mh_harness_call_tool(&h, "session_destroy", "{\"session\":\"ev\"}");
}

/* The harness hands each call its own answer: a call that takes longer
 * than a moment (fixture_progress: 100 steps of 20 ms, each with a
 * progress notification on the call's exchange) answers with its own
 * result, not its last notification, and the next call does not see it. */
static void test_each_call_gets_its_own_answer(void)
{
    const cJSON *r = mh_harness_send(
        &h, "{\"jsonrpc\":\"2.0\",\"id\":\"slow\",\"method\":\"tools/call\",\"params\":{"
            "\"name\":\"fixture_progress\",\"arguments\":{\"steps\":100},"
            "\"_meta\":{\"progressToken\":\"p\"}}}");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
    CU_ASSERT_STRING_EQUAL(cJSON_IsString(id) ? id->valuestring : "(not a response)", "slow");
    CU_ASSERT_STRING_EQUAL(mh_harness_text(cJSON_GetObjectItemCaseSensitive(r, "result")), "done");
    const cJSON *echo = mh_harness_call_tool(&h, "fixture_echo", "{\"message\":\"fast\"}");
    CU_ASSERT_PTR_NOT_NULL(strstr(mh_harness_text(echo), "fast"));
}

MH_SUITE("host.tools", setup, teardown, MH_TEST(test_pagination),
         MH_TEST(test_each_call_gets_its_own_answer),
         MH_TEST(test_validation_is_tool_error), MH_TEST(test_structured_result),
         MH_TEST(test_session_tools), MH_TEST(test_unknown_machine), MH_TEST(test_events))
