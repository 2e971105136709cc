/* Suite debug.history: the debug engine's power-of-two record ring
 * (host/debug/debug_history.h): rounding, wrap-around, newest-first
 * paging, resize and off. */
#include <CUnit/CUnit.h>
#include <stdint.h>

#include "../../host/debug/debug_history.h"
#include "mh_test.h"

static void push_n(dbg_ring *ring, uint32_t from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) *(uint32_t *)dbg_ring_push(ring) = from + i;
}

static void test_rounds_to_power_of_two(void)
{
    dbg_ring ring = {0};
    CU_ASSERT_EQUAL(dbg_ring_resize(&ring, sizeof(uint32_t), 5), 0);
    CU_ASSERT_EQUAL(dbg_ring_capacity(&ring), 8);
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 0);
    CU_ASSERT_EQUAL(dbg_ring_resize(&ring, sizeof(uint32_t), (size_t)1 << 30), 0);
    CU_ASSERT_EQUAL(dbg_ring_capacity(&ring), DBG_RING_MAX);
    dbg_ring_free(&ring);
}

static void test_wraps_and_keeps_newest(void)
{
    dbg_ring ring = {0};
    CU_ASSERT_EQUAL_FATAL(dbg_ring_resize(&ring, sizeof(uint32_t), 8), 0);
    push_n(&ring, 100, 3);
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 3);
    uint32_t out[16] = {0};
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 0, out, 16), 3);
    CU_ASSERT_EQUAL(out[0], 102);
    CU_ASSERT_EQUAL(out[2], 100);
    push_n(&ring, 103, 10); /* 13 pushed: 105..112 remain */
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 8);
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 0, out, 16), 8);
    CU_ASSERT_EQUAL(out[0], 112);
    CU_ASSERT_EQUAL(out[7], 105);
    dbg_ring_free(&ring);
}

static void test_pages_newest_first(void)
{
    dbg_ring ring = {0};
    CU_ASSERT_EQUAL_FATAL(dbg_ring_resize(&ring, sizeof(uint32_t), 4), 0);
    push_n(&ring, 0, 6); /* holds 2 3 4 5 */
    uint32_t out[4] = {0};
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 1, out, 2), 2);
    CU_ASSERT_EQUAL(out[0], 4);
    CU_ASSERT_EQUAL(out[1], 3);
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 3, out, 2), 1);
    CU_ASSERT_EQUAL(out[0], 2);
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 4, out, 2), 0);
    dbg_ring_free(&ring);
}

static void test_off_and_resize_empties(void)
{
    dbg_ring ring = {0};
    CU_ASSERT_EQUAL_FATAL(dbg_ring_resize(&ring, sizeof(uint32_t), 4), 0);
    push_n(&ring, 0, 3);
    CU_ASSERT_EQUAL(dbg_ring_resize(&ring, sizeof(uint32_t), 16), 0);
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 0);
    CU_ASSERT_EQUAL(dbg_ring_resize(&ring, sizeof(uint32_t), 0), 0);
    CU_ASSERT_PTR_NULL(ring.data);
    CU_ASSERT_EQUAL(dbg_ring_capacity(&ring), 0);
    uint32_t out[1];
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 0, out, 1), 0);
    dbg_ring_free(&ring);
}

MH_SUITE("debug.history", NULL, NULL, MH_TEST(test_rounds_to_power_of_two),
         MH_TEST(test_wraps_and_keeps_newest), MH_TEST(test_pages_newest_first),
         MH_TEST(test_off_and_resize_empties));
