/* test_kit_holds.c - input holds of the machine kit (mcphost/kit_holds.h):
 * counted down one frame at a time, ended in the frame that runs them
 * out, saved and loaded as a blob for time travel, and hostile blobs
 * refused with the holds untouched. */
#include <string.h>

#include "mcphost/kit_holds.h"
#include "mh_test.h"

typedef struct released {
    int keys[8];
    int key_count;
    int ports[4];
    int port_count;
} released;

static void on_key(void *machine, uint8_t key)
{
    released *r = machine;
    if (r->key_count < 8) r->keys[r->key_count++] = key;
}

static void on_joystick(void *machine, int port)
{
    released *r = machine;
    if (r->port_count < 4) r->ports[r->port_count++] = port;
}

static const mh_kit_holds_ops ops = {on_key, on_joystick};

static void test_countdown(void)
{
    mh_kit_holds h;
    memset(&h, 0, sizeof h);
    released r;
    memset(&r, 0, sizeof r);
    CU_ASSERT_FALSE(mh_kit_holds_pending(&h));
    CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, 7, 0), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, 7, 2), MH_OK);
    CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, 9, 1), MH_OK);
    mh_kit_holds_set_joystick(&h, 2, 3);
    mh_kit_holds_set_joystick(&h, 5, 3); /* no such port: ignored */
    CU_ASSERT_TRUE(mh_kit_holds_pending(&h));
    mh_kit_holds_frame(&h, &ops, &r);
    CU_ASSERT_EQUAL(r.key_count, 1);
    CU_ASSERT_EQUAL(r.keys[0], 9);
    mh_kit_holds_frame(&h, &ops, &r);
    CU_ASSERT_EQUAL(r.key_count, 2);
    CU_ASSERT_EQUAL(r.keys[1], 7);
    CU_ASSERT_EQUAL(r.port_count, 0);
    mh_kit_holds_frame(&h, &ops, &r);
    CU_ASSERT_EQUAL(r.port_count, 1);
    CU_ASSERT_EQUAL(r.ports[0], 2);
    CU_ASSERT_FALSE(mh_kit_holds_pending(&h));
    for (unsigned i = 0; i < MH_KIT_MAX_HOLDS; i++)
        CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, 1, 5), MH_OK);
    CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, 1, 5), MH_ERR_LIMIT);
}

static void test_blob_round_trip(void)
{
    mh_kit_holds h, back;
    memset(&h, 0, sizeof h);
    uint8_t blob[MH_KIT_HOLDS_BLOB_MAX];
    size_t size = 99;
    CU_ASSERT_EQUAL(mh_kit_holds_save(&h, blob, sizeof blob, &size), MH_OK);
    CU_ASSERT_EQUAL(size, 0); /* nothing pending: empty */
    for (unsigned i = 0; i < MH_KIT_MAX_HOLDS; i++)
        CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, (uint8_t)(i + 3), 100000u + i), MH_OK);
    mh_kit_holds_set_joystick(&h, 1, 7);
    mh_kit_holds_set_joystick(&h, 2, 70000);
    CU_ASSERT_EQUAL(mh_kit_holds_save(&h, blob, 10, &size), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(mh_kit_holds_save(&h, blob, sizeof blob, &size), MH_OK);
    CU_ASSERT_EQUAL(size, MH_KIT_HOLDS_BLOB_MAX);
    memset(&back, 0xAB, sizeof back);
    CU_ASSERT_EQUAL(mh_kit_holds_load(&back, blob, size, 64), MH_OK);
    CU_ASSERT_EQUAL(memcmp(&back, &h, sizeof h), 0);
    /* an empty blob: nothing pending */
    CU_ASSERT_EQUAL(mh_kit_holds_load(&back, NULL, 0, 64), MH_OK);
    CU_ASSERT_FALSE(mh_kit_holds_pending(&back));
}

/* Every damaged blob is refused and leaves the holds as they were. */
static void test_hostile_blobs(void)
{
    mh_kit_holds h, kept;
    memset(&h, 0, sizeof h);
    CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, 4, 10), MH_OK);
    CU_ASSERT_EQUAL(mh_kit_holds_add_key(&h, 5, 20), MH_OK);
    uint8_t good[MH_KIT_HOLDS_BLOB_MAX];
    size_t size = 0;
    CU_ASSERT_EQUAL(mh_kit_holds_save(&h, good, sizeof good, &size), MH_OK);
    CU_ASSERT_EQUAL(size, 6u + 2u * 5u + 8u);
    kept = h;
    uint8_t bad[MH_KIT_HOLDS_BLOB_MAX];
    /* every truncation */
    for (size_t n = 1; n < size; n++)
        CU_ASSERT_EQUAL(mh_kit_holds_load(&h, good, n, 64), MH_ERR_INVALID_ARGUMENT);
    /* one byte too many */
    memcpy(bad, good, size);
    bad[size] = 0;
    CU_ASSERT_EQUAL(mh_kit_holds_load(&h, bad, size + 1, 64), MH_ERR_INVALID_ARGUMENT);
    /* magic, version, a count larger than the blob or than the limit */
    static const struct { size_t at; uint8_t value; } flips[] = {
        {0, 'X'}, {3, 0}, {4, 2}, {5, 3}, {5, 1}, {5, 200},
        {6, 64},                  /* a key beyond the machine's table */
        {7, 0}, /* with 8..10 zero below: a hold with 0 frames */
    };
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        memcpy(bad, good, size);
        bad[flips[i].at] = flips[i].value;
        if (flips[i].at == 7) bad[8] = bad[9] = bad[10] = 0;
        CU_ASSERT_EQUAL(mh_kit_holds_load(&h, bad, size, 64), MH_ERR_INVALID_ARGUMENT);
    }
    CU_ASSERT_EQUAL(memcmp(&h, &kept, sizeof h), 0);
    /* the untouched blob still loads */
    CU_ASSERT_EQUAL(mh_kit_holds_load(&h, good, size, 64), MH_OK);
}

MH_SUITE("sdk.kit_holds", NULL, NULL, MH_TEST(test_countdown), MH_TEST(test_blob_round_trip),
         MH_TEST(test_hostile_blobs))
