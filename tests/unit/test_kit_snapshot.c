/* test_kit_snapshot.c - the machine kit's snapshot blob framing
 * (mcphost/snapshot_blob.h): a round trip, and each damage refused with a
 * message that names it. */
#include <stdlib.h>
#include <string.h>
#include "mcphost/snapshot_blob.h"
#include "mh_test.h"

typedef struct demo_state {
    uint8_t ram[300];
    uint32_t cycles;
} demo_state;

static const mh_kit_snapshot_format demo = {"demo", 7, sizeof(demo_state)};

static uint8_t *make(size_t *size)
{
    demo_state state;
    memset(&state, 0xA5, sizeof state);
    state.cycles = 123456;
    void *blob = NULL;
    CU_ASSERT_EQUAL_FATAL(mh_kit_snapshot_make(&demo, 6561, 8, &state, &blob, size), MH_OK);
    CU_ASSERT_EQUAL(*size, MH_KIT_SNAPSHOT_HEADER + sizeof state);
    return blob;
}

/* Opens blob and expects status with a message containing needle. */
static void refused(const uint8_t *blob, size_t size, mh_status status, const char *needle)
{
    const uint8_t *state = NULL;
    char error[200];
    CU_ASSERT_EQUAL(mh_kit_snapshot_open(&demo, blob, size, NULL, NULL, &state, error, sizeof error),
                    status);
    CU_ASSERT_PTR_NULL(state);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, needle));
    CU_ASSERT_EQUAL(strncmp(error, "snapshot: ", 10), 0);
}

static void test_round_trip(void)
{
    size_t size;
    uint8_t *blob = make(&size);
    uint32_t m0 = 0, m1 = 0;
    const uint8_t *state = NULL;
    char error[200];
    CU_ASSERT_EQUAL(mh_kit_snapshot_open(&demo, blob, size, &m0, &m1, &state, error, sizeof error),
                    MH_OK);
    CU_ASSERT_EQUAL(m0, 6561);
    CU_ASSERT_EQUAL(m1, 8);
    CU_ASSERT_PTR_EQUAL(state, blob + MH_KIT_SNAPSHOT_HEADER);
    demo_state back;
    memcpy(&back, state, sizeof back);
    CU_ASSERT_EQUAL(back.cycles, 123456);
    CU_ASSERT_EQUAL(back.ram[299], 0xA5);
    free(blob);
}

static void test_damage_refused(void)
{
    size_t size;
    uint8_t *blob = make(&size);
    refused(blob, 20, MH_ERR_INVALID_ARGUMENT, "truncated");
    refused(blob, size - 1, MH_ERR_INVALID_ARGUMENT, "truncated");

    blob[MH_KIT_SNAPSHOT_HEADER + 10] ^= 1; /* one bit of state */
    refused(blob, size, MH_ERR_INVALID_ARGUMENT, "checksum mismatch");
    mh_kit_snapshot_seal(blob, size); /* a patched blob, sealed again, opens */
    const uint8_t *state;
    char error[200];
    CU_ASSERT_EQUAL(mh_kit_snapshot_open(&demo, blob, size, NULL, NULL, &state, error, sizeof error),
                    MH_OK);

    memcpy(blob + 8, "c64\0", 4);
    mh_kit_snapshot_seal(blob, size);
    refused(blob, size, MH_ERR_INVALID_ARGUMENT, "made by machine \"c64\", this machine is \"demo\"");
    memcpy(blob + 8, "demo", 4);
    blob[24] = 8; /* version */
    mh_kit_snapshot_seal(blob, size);
    refused(blob, size, MH_ERR_UNSUPPORTED, "version 8");
    blob[24] = 7;
    blob[0] = 'X';
    refused(blob, size, MH_ERR_INVALID_ARGUMENT, "MHSNAP");
    free(blob);

    /* A longer blob whose header says so: another build's state size. */
    demo_state big[2];
    memset(big, 0, sizeof big);
    mh_kit_snapshot_format bigger = {"demo", 7, sizeof big};
    void *other = NULL;
    size_t other_size;
    CU_ASSERT_EQUAL_FATAL(mh_kit_snapshot_make(&bigger, 0, 0, big, &other, &other_size), MH_OK);
    refused(other, other_size, MH_ERR_UNSUPPORTED, "another build");
    free(other);
}

MH_SUITE("sdk.kit_snapshot", NULL, NULL, MH_TEST(test_round_trip), MH_TEST(test_damage_refused))
