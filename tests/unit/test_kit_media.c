/* Tests of mcphost/kit_media.h: media kinds found by name, an unknown kind
 * and an empty path refused with the exact messages (kit.media). */
#include "mh_test.h"

#include <mcphost/kit_media.h>
#include <string.h>

static const char *const names[] = {"disk", "tape", "cartridge", "program"};
static const mh_kit_media_kinds four = {"c64", names, 4};
static const mh_kit_media_kinds two = {"toy", names, 2};

static void test_kinds(void)
{
    char error[200];
    int k = -2;
    CU_ASSERT_EQUAL(mh_kit_media_kind(&four, "cartridge"), 2);
    CU_ASSERT_EQUAL(mh_kit_media_kind(&four, "Disk"), -1);
    CU_ASSERT_EQUAL(mh_kit_media_kind(&four, NULL), -1);
    CU_ASSERT_EQUAL(mh_kit_media_kind(&two, "cartridge"), -1);
    CU_ASSERT_EQUAL(mh_kit_media_attach_check(&four, "tape", "x.t64", &k, error, sizeof error),
                    MH_OK);
    CU_ASSERT_EQUAL(k, 1);
    CU_ASSERT_STRING_EQUAL(error, "");
    CU_ASSERT_EQUAL(mh_kit_media_attach_check(&four, "reel", "x", &k, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(
        error, "media kind \"reel\": the c64 takes \"disk\", \"tape\", \"cartridge\" or \"program\"");
    CU_ASSERT_EQUAL(mh_kit_media_bad_kind(&two, NULL, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(error, "media kind \"(null)\": the toy takes \"disk\" or \"tape\"");
    CU_ASSERT_EQUAL(mh_kit_media_attach_check(&four, "disk", "", &k, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(error, "disk: no path given");
    CU_ASSERT_EQUAL(mh_kit_media_attach_check(&four, "disk", NULL, &k, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
}

MH_SUITE("kit.media", NULL, NULL, MH_TEST(test_kinds))
