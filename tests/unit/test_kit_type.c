/* test_kit_type.c - typed text and codes onto the KERNAL queue
 * (mcphost/kernal.h: mh_kernal_queue_text, mh_kernal_queue_codes). */
#include <string.h>

#include "mcphost/kernal.h"
#include "mh_test.h"

static mh_kernal_queue queue;

static void test_text(void)
{
    memset(&queue, 0, sizeof queue);
    char error[200] = "";
    size_t bad = 99;
    CU_ASSERT_EQUAL(mh_kernal_queue_text(&queue, "A1 \n\r", &bad, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(bad, 5);
    CU_ASSERT_EQUAL(queue.count, 5);
    static const uint8_t want[5] = {0x41, 0x31, 0x20, 0x0D, 0x0D};
    CU_ASSERT_EQUAL(memcmp(queue.codes + queue.head, want, 5), 0);

    CU_ASSERT_EQUAL(mh_kernal_queue_text(&queue, "AB\tC", &bad, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(bad, 2);
    CU_ASSERT_EQUAL(queue.count, 5); /* nothing queued */

    static char longer[MH_KERNAL_QUEUE_SIZE + 1];
    memset(longer, 'A', MH_KERNAL_QUEUE_SIZE);
    CU_ASSERT_EQUAL(mh_kernal_queue_text(&queue, longer, &bad, error, sizeof error),
                    MH_ERR_LIMIT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "cannot queue 4096 characters"));
    CU_ASSERT_EQUAL(queue.count, 5);
}

static void test_codes(void)
{
    memset(&queue, 0, sizeof queue);
    char error[200] = "";
    static const uint8_t codes[3] = {0x93, 0x85, 0x0D};
    CU_ASSERT_EQUAL(mh_kernal_queue_codes(&queue, codes, 3, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(queue.count, 3);
    static const uint8_t zero[3] = {0x41, 0x00, 0x42};
    CU_ASSERT_EQUAL(mh_kernal_queue_codes(&queue, zero, 3, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(error, "cannot type code $00 (character 2): the KERNAL ignores it");
    CU_ASSERT_EQUAL(queue.count, 3);
}

MH_SUITE("sdk.kit_type", NULL, NULL, MH_TEST(test_text), MH_TEST(test_codes))
