/* media.t64: T64 tape archives built byte by byte - header, entries, the
 * broken end address fix, names, PRG extraction (mcphost/media_t64.h). */
#include "mh_test.h"
#include "test_media_build.h"

#include <mcphost/media_t64.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *P(const char *s) { return (const uint8_t *)s; }

static uint8_t data_a[1000], data_b[300];

static int init(void)
{
    for (size_t i = 0; i < sizeof data_a; i++) data_a[i] = (uint8_t)(i * 3 + 1);
    for (size_t i = 0; i < sizeof data_b; i++) data_b[i] = (uint8_t)(i ^ 0x5a);
    return 0;
}

static void test_two_files(void)
{
    tb_t64_file files[2] = {{"GAME", 0x0801, 0x0801 + 1000, data_a, 1000},
                            {"MUSIC", 0xc000, 0xc000 + 300, data_b, 300}};
    size_t size;
    uint8_t *img = tb_t64_build("C64 tape image file", 4, files, 2, &size);
    mh_media_error e;
    mh_t64 *t = mh_t64_open(img, size, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(e.status, MH_OK);
    CU_ASSERT_EQUAL(t->version, 0x0101);
    CU_ASSERT_EQUAL(t->max_entries, 4);
    CU_ASSERT_EQUAL(t->used_entries, 2);
    CU_ASSERT_STRING_EQUAL(t->name, "TEST TAPE");
    CU_ASSERT_EQUAL_FATAL(t->entry_count, 2);
    const mh_t64_entry *a = &t->entries[0], *b = &t->entries[1];
    CU_ASSERT_STRING_EQUAL(a->name, "GAME");
    CU_ASSERT_EQUAL(a->name_length, 4);
    CU_ASSERT_EQUAL(a->entry_type, 1);
    CU_ASSERT_EQUAL(a->file_type, 0x82);
    CU_ASSERT_EQUAL(a->start_address, 0x0801);
    CU_ASSERT_EQUAL(a->end_address, 0x0801 + 1000);
    CU_ASSERT_EQUAL(a->size, 1000);
    CU_ASSERT_FALSE(a->end_fixed);
    CU_ASSERT_EQUAL(a->offset, 64 + 4 * 32);
    CU_ASSERT(memcmp(a->data, data_a, 1000) == 0);
    CU_ASSERT_EQUAL(b->slot, 1);
    CU_ASSERT_EQUAL(b->size, 300);
    CU_ASSERT_PTR_EQUAL(mh_t64_find(t, P("MUS*"), 4), b);
    CU_ASSERT_PTR_EQUAL(mh_t64_find(t, P("*"), 1), a);
    CU_ASSERT_PTR_EQUAL(mh_t64_find(t, P("GAME"), 4), a);
    CU_ASSERT_PTR_NULL(mh_t64_find(t, P("GAME "), 5)); /* padding is not part of the name */
    uint8_t *prg;
    size_t prg_size;
    CU_ASSERT_EQUAL(mh_t64_read_prg(t, b, &prg, &prg_size, &e), MH_OK);
    CU_ASSERT_EQUAL(prg_size, 302);
    CU_ASSERT_EQUAL(prg[0], 0x00);
    CU_ASSERT_EQUAL(prg[1], 0xc0);
    CU_ASSERT(memcmp(prg + 2, data_b, 300) == 0);
    free(prg);
    mh_t64_free(t);
    free(img);
}

static void test_broken_end_address(void)
{
    /* The classic: every end address $C3C6. */
    tb_t64_file files[2] = {{"ONE", 0x0801, 0xc3c6, data_a, 1000},
                            {"TWO", 0x1000, 0xc3c6, data_b, 300}};
    size_t size;
    uint8_t *img = tb_t64_build("C64S tape file", 2, files, 2, &size);
    mh_t64 *t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->entries[0].size, 1000);
    CU_ASSERT_EQUAL(t->entries[0].end_address, 0x0801 + 1000);
    CU_ASSERT_EQUAL(t->entries[0].stored_end, 0xc3c6);
    CU_ASSERT(t->entries[0].end_fixed);
    CU_ASSERT_EQUAL(t->entries[1].size, 300);
    CU_ASSERT(t->entries[1].end_fixed);
    mh_t64_free(t);
    free(img);

    /* Entries listed out of offset order: lengths still come from the next offset. */
    tb_t64_file swapped[2] = {{"ONE", 0x0801, 0xc3c6, data_a, 1000},
                              {"TWO", 0x1000, 0xc3c6, data_b, 300}};
    img = tb_t64_build("C64S tape file", 2, swapped, 2, &size);
    uint8_t tmp[32];
    memcpy(tmp, img + 64, 32);
    memcpy(img + 64, img + 96, 32);
    memcpy(img + 96, tmp, 32);
    t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->entries[0].name, "TWO");
    CU_ASSERT_EQUAL(t->entries[0].size, 300);
    CU_ASSERT_EQUAL(t->entries[1].size, 1000);
    mh_t64_free(t);
    free(img);

    /* A shorter end address than the data is kept (padding). */
    tb_t64_file padded[1] = {{"PAD", 0x2000, 0x2000 + 900, data_a, 1000}};
    img = tb_t64_build("C64 tape image file", 1, padded, 1, &size);
    t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->entries[0].size, 900);
    CU_ASSERT_FALSE(t->entries[0].end_fixed);
    mh_t64_free(t);
    free(img);

    /* End $0000 means $10000; end below start is fixed from the data. */
    tb_t64_file top[1] = {{"TOP", 0xfc18, 0x0000, data_a, 1000}};
    img = tb_t64_build("C64 tape image file", 1, top, 1, &size);
    t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->entries[0].size, 1000);
    CU_ASSERT_EQUAL(t->entries[0].end_address, 0x10000);
    CU_ASSERT_FALSE(t->entries[0].end_fixed);
    mh_t64_free(t);
    free(img);
    tb_t64_file below[1] = {{"LOW", 0x3000, 0x2000, data_b, 300}};
    img = tb_t64_build("C64 tape image file", 1, below, 1, &size);
    t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->entries[0].size, 300);
    CU_ASSERT(t->entries[0].end_fixed);
    mh_t64_free(t);
    free(img);

    /* More data than fits below $10000: clamped. */
    tb_t64_file high[1] = {{"HIGH", 0xff00, 0xc3c6, data_a, 1000}};
    img = tb_t64_build("C64 tape image file", 1, high, 1, &size);
    t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->entries[0].size, 256);
    CU_ASSERT_EQUAL(t->entries[0].end_address, 0x10000);
    CU_ASSERT(t->entries[0].end_fixed);
    mh_t64_free(t);
    free(img);
}

static void test_header_quirks(void)
{
    /* Directory size 0 means one slot; used count is ignored. */
    tb_t64_file one[1] = {{"ONLY", 0x0801, 0x0801 + 300, data_b, 300}};
    size_t size;
    uint8_t *img = tb_t64_build("C64 tape image file", 0, one, 1, &size);
    img[0x24] = 0;
    mh_t64 *t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->max_entries, 0);
    CU_ASSERT_EQUAL(t->used_entries, 0);
    CU_ASSERT_EQUAL(t->entry_count, 1);
    mh_t64_free(t);
    /* Names padded with $A0 or NUL; a snapshot entry type is kept. */
    memset(img + 64 + 16, 0xa0, 16);
    memcpy(img + 64 + 16, "NAME", 4);
    img[64] = 3;
    t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->entries[0].name, "NAME");
    CU_ASSERT_EQUAL(t->entries[0].entry_type, 3);
    mh_t64_free(t);
    memset(img + 64 + 16, 0x00, 16);
    t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->entries[0].name, "");
    mh_t64_free(t);
    /* Other signatures. */
    static const char *const ok[] = {"C64S tape image file", "C64 TAPE IMAGE FILE", "C64-Tape"};
    for (size_t i = 0; i < 3; i++) {
        memset(img, 0, 32);
        memcpy(img, ok[i], strlen(ok[i]));
        t = mh_t64_open(img, size, NULL);
        CU_ASSERT_PTR_NOT_NULL(t);
        mh_t64_free(t);
    }
    free(img);
}

static void test_free_slots_skipped(void)
{
    tb_t64_file files[2] = {{"A", 0x0801, 0x0801 + 300, data_b, 300},
                            {"B", 0x0801, 0x0801 + 1000, data_a, 1000}};
    size_t size;
    uint8_t *img = tb_t64_build("C64 tape image file", 30, files, 2, &size);
    /* Move entry 2 to slot 10, leave slot 2 free. */
    memcpy(img + 64 + 10 * 32, img + 64 + 32, 32);
    memset(img + 64 + 32, 0, 32);
    mh_t64 *t = mh_t64_open(img, size, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(t->entry_count, 2);
    CU_ASSERT_EQUAL(t->entries[1].slot, 10);
    CU_ASSERT_STRING_EQUAL(t->entries[1].name, "B");
    CU_ASSERT_EQUAL(t->entries[1].size, 1000);
    mh_t64_free(t);
    free(img);
}

MH_SUITE("media.t64", init, NULL, MH_TEST(test_two_files), MH_TEST(test_broken_end_address),
         MH_TEST(test_header_quirks), MH_TEST(test_free_slots_skipped))
