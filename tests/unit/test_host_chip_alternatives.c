/* host.chip_alternatives - naming the machine's own chip for a missing
 * chip's job: chip roles and the tool-name matching by whole words (the
 * message itself is checked end to end in e2e.vic20_tools/e2e.catalogue). */
#include "chip_alternatives.h"
#include "chip_names.h"
#include "mh_test.h"

static void test_roles(void)
{
    CU_ASSERT_TRUE(mh_chip_roles("mh.chip.vic2/1") & MH_CHIP_ROLE_VIDEO);
    CU_ASSERT_TRUE(mh_chip_roles("mh.chip.vic/1") & MH_CHIP_ROLE_VIDEO);
    CU_ASSERT_TRUE(mh_chip_roles("mh.chip.vic/1") & MH_CHIP_ROLE_SOUND);
    CU_ASSERT_TRUE(mh_chip_roles("mh.chip.ted/1") & MH_CHIP_ROLE_TIMERS);
    CU_ASSERT_FALSE(mh_chip_roles("mh.chip.via/1") & MH_CHIP_ROLE_VIDEO);
    CU_ASSERT_EQUAL(mh_chip_roles("mh.video/1"), 0);
    CU_ASSERT_EQUAL(mh_chip_roles("org.example.thing/1"), 0);
}

static void test_name_words(void)
{
    CU_ASSERT_EQUAL(mh_tool_name_common_words("vic2_registers_get", "vic_registers_get"), 2);
    CU_ASSERT_EQUAL(mh_tool_name_common_words("breakpoints_raster", "vic_breakpoints_raster"), 2);
    CU_ASSERT_EQUAL(mh_tool_name_common_words("cia_timers_get", "via_timers_get"), 2);
    CU_ASSERT_EQUAL(mh_tool_name_common_words("vic2_registers_get", "vic_registers_set"), 0);
    CU_ASSERT_EQUAL(mh_tool_name_common_words("sid_voices_get", "vic_registers_get"), 1);
    CU_ASSERT_EQUAL(mh_tool_name_common_words("ab_get", "b_get"), 1); /* whole words only */
    CU_ASSERT_EQUAL(mh_tool_name_common_words("get", "get"), 1);
    CU_ASSERT_EQUAL(mh_tool_name_common_words("", "x"), 0);
}

MH_SUITE("host.chip_alternatives", NULL, NULL, MH_TEST(test_roles), MH_TEST(test_name_words))
