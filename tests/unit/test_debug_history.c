/* Suite debug.history: the debug engine's power-of-two record ring
 * (host/debug/debug_history.h): rounding, wrap-around, newest-first
 * paging, resize and off; and the set of (pc, address) pairs behind
 * memory_history's writers. */
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

static void test_pairs_writers_of_a_range(void)
{
    dbg_pairset set = {0};
    CU_ASSERT_EQUAL_FATAL(dbg_pairs_reset(&set), 0);
    dbg_pairs_add(&set, 0xC013, 0x0400);
    dbg_pairs_add(&set, 0xC013, 0x0400); /* again: one pair */
    dbg_pairs_add(&set, 0xC019, 0x0401);
    dbg_pairs_add(&set, 0x1000, 0x0800);
    CU_ASSERT_EQUAL(set.used, 3);
    uint16_t pcs[4] = {0};
    CU_ASSERT_EQUAL(dbg_pairs_writers(&set, 0x0400, 0x0401, pcs, 4), 2);
    CU_ASSERT_EQUAL(pcs[0], 0xC013);
    CU_ASSERT_EQUAL(pcs[1], 0xC019);
    CU_ASSERT_EQUAL(dbg_pairs_writers(&set, 0x0401, 0x0800, pcs, 1), 2); /* all counted */
    CU_ASSERT_EQUAL(pcs[0], 0x1000);
    CU_ASSERT_EQUAL(dbg_pairs_writers(&set, 0x0900, 0xFFFF, pcs, 4), 0);
    CU_ASSERT_FALSE(set.full);
    CU_ASSERT_EQUAL_FATAL(dbg_pairs_reset(&set), 0);
    CU_ASSERT_EQUAL(dbg_pairs_writers(&set, 0, 0xFFFF, pcs, 4), 0);
    dbg_pairs_free(&set);
}

static void test_pairs_fill_up_and_say_so(void)
{
    dbg_pairset set = {0};
    CU_ASSERT_EQUAL_FATAL(dbg_pairs_reset(&set), 0);
    /* a memory-clearing loop per PC: more pairs than the table takes */
    for (uint32_t pc = 0; pc < 8 && !set.full; pc++)
        for (uint32_t a = 0; a < 65536; a++) dbg_pairs_add(&set, (uint16_t)pc, (uint16_t)a);
    CU_ASSERT_TRUE(set.full);
    CU_ASSERT_EQUAL(set.used, DBG_PAIRS_CAPACITY / 4 * 3);
    uint16_t pcs[8];
    CU_ASSERT_TRUE(dbg_pairs_writers(&set, 0, 0xFFFF, pcs, 8) >= 3);
    CU_ASSERT_EQUAL(pcs[0], 0);
    dbg_pairs_free(&set);
}

/* Time travel forgets the newest records; the slots above hold no past,
 * so the ring holds fewer until new records fill them. */
static void test_drop_newest(void)
{
    dbg_ring ring = {0};
    CU_ASSERT_EQUAL_FATAL(dbg_ring_resize(&ring, sizeof(uint32_t), 4), 0);
    push_n(&ring, 0, 6); /* holds 2 3 4 5 */
    dbg_ring_drop_newest(&ring, 3);
    CU_ASSERT_EQUAL(ring.next, 3);
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 1);
    uint32_t out[4] = {0};
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 0, out, 4), 1);
    CU_ASSERT_EQUAL(out[0], 2);
    push_n(&ring, 30, 2); /* 2 30 31 */
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 3);
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 0, out, 4), 3);
    CU_ASSERT_EQUAL(out[0], 31);
    CU_ASSERT_EQUAL(out[2], 2);
    push_n(&ring, 40, 3); /* full again: 31 40 41 42 */
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 4);
    CU_ASSERT_EQUAL(dbg_ring_copy_newest(&ring, 3, out, 1), 1);
    CU_ASSERT_EQUAL(out[0], 31);
    /* more than held: numbers still go back, nothing is held */
    dbg_ring_drop_newest(&ring, 6);
    CU_ASSERT_EQUAL(ring.next, 2);
    CU_ASSERT_EQUAL(dbg_ring_count(&ring), 0);
    dbg_ring_free(&ring);
}

MH_SUITE("debug.history", NULL, NULL, MH_TEST(test_drop_newest), MH_TEST(test_rounds_to_power_of_two),
         MH_TEST(test_wraps_and_keeps_newest), MH_TEST(test_pages_newest_first),
         MH_TEST(test_off_and_resize_empties),
         MH_TEST(test_pairs_writers_of_a_range), MH_TEST(test_pairs_fill_up_and_say_so));
