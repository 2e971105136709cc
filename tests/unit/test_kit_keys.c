/* test_kit_keys.c - key lookup by name in a machine's tables
 * (mcphost/kit_keys.h): matrix names give their position, further keys
 * come after them, aliases are followed, case does not matter. */
#include <string.h>

#include "mcphost/kit_keys.h"
#include "mh_test.h"

static const char *const matrix[4] = {"DEL", "RETURN", "SHIFT_LEFT", "A"};
static const mh_kit_key combos[] = {{"INST", 0, 1}, {"RESTORE", 0xFF, 0}};
static const mh_kit_key_alias aliases[] = {{"ENTER", "RETURN"}, {"BACKSPACE", "DEL"},
                                           {"SHIFT", "SHIFT_LEFT"}, {"INSERT", "INST"}};
static const mh_kit_key_table table = {matrix, 4, combos, 2, aliases, 4};

static void test_find(void)
{
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "DEL"), 0);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "a"), 3);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "inst"), 4);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "RESTORE"), 5);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "Enter"), 1);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "INSERT"), 4);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "NOPE"), -1);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, "RETURNX"), -1);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, ""), -1);
    CU_ASSERT_EQUAL(mh_kit_key_find(&table, NULL), -1);
}

static void test_get(void)
{
    mh_kit_key k = mh_kit_key_get(&table, 2);
    CU_ASSERT_STRING_EQUAL(k.name, "SHIFT_LEFT");
    CU_ASSERT_EQUAL(k.key, 2);
    CU_ASSERT_EQUAL(k.shift, 0);
    k = mh_kit_key_get(&table, 4);
    CU_ASSERT_STRING_EQUAL(k.name, "INST");
    CU_ASSERT_EQUAL(k.key, 0);
    CU_ASSERT_EQUAL(k.shift, 1);

    /* Keys only (no matrix names): the id is the index in keys. */
    static const mh_kit_key_table flat = {NULL, 0, combos, 2, NULL, 0};
    CU_ASSERT_EQUAL(mh_kit_key_find(&flat, "restore"), 1);
    CU_ASSERT_STRING_EQUAL(mh_kit_key_get(&flat, 0).name, "INST");
}

static void test_name_equal(void)
{
    CU_ASSERT(mh_kit_key_name_equal("Crsr_Up", "CRSR_UP"));
    CU_ASSERT(!mh_kit_key_name_equal("CRSR", "CRSR_UP"));
    CU_ASSERT(!mh_kit_key_name_equal("CRSR_UP", "CRSR"));
    CU_ASSERT(mh_kit_key_name_equal("", ""));
}

MH_SUITE("sdk.kit_keys", NULL, NULL, MH_TEST(test_find), MH_TEST(test_get),
         MH_TEST(test_name_equal))
