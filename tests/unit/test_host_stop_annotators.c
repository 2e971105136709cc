/* host.stop_annotators: the plugins' members added to stop events
 * (host/debug/stop_annotators.c): appended to the record, several in turn,
 * bad ones (invalid JSON, a repeated key, too long) dropped, removal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "stop_annotators.h"

static size_t write_members(void *user, mh_session *session, uint16_t pc, char *members,
                            size_t size)
{
    (void)session;
    const char *text = user;
    if (!text) return 0;
    int n = snprintf(members, size, text, (unsigned)pc);
    return n < 0 ? 0 : (size_t)n;
}

static void test_members_appended_in_turn(void)
{
    mh_stop_annotators *t = mh_stop_annotators_new();
    CU_ASSERT_PTR_NULL(mh_stop_annotate(t, NULL, 0xC002, "{\"pc\":49154}")); /* none yet */
    uint64_t a = mh_stop_annotators_add(t, write_members, "\"symbol\":\"at_%04X\"");
    uint64_t b = mh_stop_annotators_add(t, write_members, "\"where\":\"x\"");
    CU_ASSERT(a != 0 && b != 0 && a != b);
    char *out = mh_stop_annotate(t, NULL, 0xC002, "{\"pc\":49154}");
    CU_ASSERT_STRING_EQUAL(out, "{\"pc\":49154,\"symbol\":\"at_C002\",\"where\":\"x\"}");
    free(out);
    out = mh_stop_annotate(t, NULL, 1, "{}");
    CU_ASSERT_STRING_EQUAL(out, "{\"symbol\":\"at_0001\",\"where\":\"x\"}");
    free(out);
    mh_stop_annotators_remove(t, a);
    out = mh_stop_annotate(t, NULL, 1, "{\"pc\":1}");
    CU_ASSERT_STRING_EQUAL(out, "{\"pc\":1,\"where\":\"x\"}");
    free(out);
    mh_stop_annotators_remove(t, b);
    CU_ASSERT_PTR_NULL(mh_stop_annotate(t, NULL, 1, "{\"pc\":1}"));
    mh_stop_annotators_free(t);
}

static void test_bad_members_dropped(void)
{
    mh_stop_annotators *t = mh_stop_annotators_new();
    static const char *const bad[] = {
        "\"pc\":2",          /* repeats the record's key */
        "\"symbol\":",       /* not JSON */
        "\"a\":1}{\"b\":2", /* breaks out of the object */
        "\"s\":\"\x01\"",    /* raw control byte */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT(mh_stop_annotators_add(t, write_members, (void *)bad[i]) != 0);
    CU_ASSERT_PTR_NULL(mh_stop_annotate(t, NULL, 1, "{\"pc\":1}"));
    uint64_t good = mh_stop_annotators_add(t, write_members, "\"ok\":true");
    CU_ASSERT(good != 0);
    char *out = mh_stop_annotate(t, NULL, 1, "{\"pc\":1}");
    CU_ASSERT_STRING_EQUAL(out, "{\"pc\":1,\"ok\":true}"); /* the good one still counts */
    free(out);
    CU_ASSERT_PTR_NULL(mh_stop_annotate(t, NULL, 1, "not an object"));
    CU_ASSERT_PTR_NULL(mh_stop_annotate(NULL, NULL, 1, "{\"pc\":1}"));
    mh_stop_annotators_free(t);
}

static void test_table_is_bounded(void)
{
    mh_stop_annotators *t = mh_stop_annotators_new();
    int added = 0;
    for (int i = 0; i < 20; i++) added += mh_stop_annotators_add(t, write_members, NULL) != 0;
    CU_ASSERT_EQUAL(added, 8);
    CU_ASSERT_EQUAL(mh_stop_annotators_add(t, NULL, NULL), 0);
    CU_ASSERT_PTR_NULL(mh_stop_annotate(t, NULL, 1, "{\"pc\":1}")); /* all say nothing */
    mh_stop_annotators_free(t);
}

MH_SUITE("host.stop_annotators", NULL, NULL, MH_TEST(test_members_appended_in_turn),
         MH_TEST(test_bad_members_dropped), MH_TEST(test_table_is_bounded))
