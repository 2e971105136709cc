/* media.hostile: every parser against broken and malicious input - wrong
 * sizes, truncation at every length, bad links, self-loops and longer
 * cycles in file chains and the directory, track 0 and tracks past the
 * end, huge block counts, bad CHIP packets, T64 offsets past the end, and
 * seeded random mutations. Inputs are exact-size heap copies, so under
 * ASan any read past the end is caught. The checks here are on the exact
 * messages: they are part of the interface (docs/media.md). */
#include "mh_test.h"
#include "test_media_build.h"

#include <mcphost/media_crt.h>
#include <mcphost/media_d64.h>
#include <mcphost/media_t64.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MSG(err, text) check_msg(&(err), (text), __LINE__, __FILE__)
static void check_msg(const mh_media_error *e, const char *want, unsigned line, const char *file)
{
    char cond[700];
    int ok = strcmp(e->message, want) == 0;
    snprintf(cond, sizeof cond, "message \"%s\", expected \"%s\"", e->message, want);
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, cond, file, "", CU_FALSE);
}

static const uint8_t *P(const char *s) { return (const uint8_t *)s; }

/* Opens, lists, reads every file, validates: exercises everything on one image. */
static void exercise_d64(const uint8_t *img, size_t size, unsigned flags)
{
    uint8_t *copy = tb_dup(img, size);
    mh_media_error e;
    mh_d64 *d = mh_d64_open(copy, size, flags, &e);
    free(copy);
    if (!d) {
        CU_ASSERT_NOT_EQUAL(e.status, MH_OK);
        CU_ASSERT(strncmp(e.message, "D64: ", 5) == 0);
        return;
    }
    for (size_t i = 0; i < d->entry_count; i++) {
        uint8_t *data = NULL;
        size_t n = 0;
        mh_status st = mh_d64_read_file(d, &d->entries[i], &data, &n, &e);
        CU_ASSERT(st == MH_OK || (data == NULL && strncmp(e.message, "D64: ", 5) == 0));
        CU_ASSERT(n <= MH_D64_MAX_FILE_SIZE);
        free(data);
    }
    uint8_t *out;
    size_t n;
    if (mh_d64_directory(d, 0x0801, NULL, 0, &out, &n, NULL) == MH_OK) free(out);
    if (mh_d64_load(d, P("*"), 1, 0x0801, &out, &n, NULL, NULL) == MH_OK) free(out);
    if (mh_d64_load(d, P("$:A*=P"), 6, 0x0401, &out, &n, NULL, NULL) == MH_OK) free(out);
    mh_d64_validate(d, NULL);
    mh_d64_free(d);
}

static void build_game_disk(tb_d64 *b, unsigned tracks)
{
    tb_d64_init(b, tracks, false, "HOSTILE", "HH");
    uint8_t data[3000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    tb_d64_add_file(b, "GAME", 0x82, data, sizeof data); /* track 1, sectors 0-11 */
    tb_d64_add_file(b, "NEXT", 0x82, data, 10);          /* track 1 sector 12 */
}

static mh_d64 *open_b(tb_d64 *b, unsigned flags, mh_media_error *e)
{
    return mh_d64_open(b->img, b->size, flags, e);
}

static void test_d64_sizes(void)
{
    static const size_t sizes[] = {0, 1, 255, 256, 174847, 174849, 175530, 175532, 196607,
                                   196609, 197375, 197377, 174848 * 2};
    uint8_t *img = calloc(1, 174848 * 2);
    mh_media_error e;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        CU_ASSERT_PTR_NULL(mh_d64_open(img, sizes[i], 0, &e));
        CU_ASSERT_EQUAL(e.status, MH_ERR_INVALID_ARGUMENT);
    }
    CU_ASSERT_PTR_NULL(mh_d64_open(img, 174847, 0, &e));
    CHECK_MSG(e, "D64: 174847 bytes is not a D64 size: 174848 (35 tracks), 175531 (35 tracks + error info), 196608 (40 tracks) or 197376 (40 tracks + error info)");
    /* Truncating a real image at every 97th length: always the size error, no crash. */
    tb_d64 b;
    build_game_disk(&b, 35);
    for (size_t n = 0; n < b.size; n += 97) {
        uint8_t *copy = tb_dup(b.img, n);
        CU_ASSERT_PTR_NULL(mh_d64_open(copy, n, 0, NULL));
        free(copy);
    }
    tb_d64_free(&b);
    /* An all-zero image of each size opens: empty directory. */
    static const size_t good[] = {174848, 175531, 196608, 197376};
    uint8_t *zero = calloc(1, 197376);
    for (int i = 0; i < 4; i++) {
        mh_d64 *d = mh_d64_open(zero, good[i], 0, &e);
        CU_ASSERT_PTR_NOT_NULL(d);
        if (d) CU_ASSERT_EQUAL(d->entry_count, 0);
        mh_d64_free(d);
    }
    free(zero);
    free(img);
    CU_ASSERT_PTR_NULL(mh_d64_open(NULL, 174848, 0, &e));
}

static void test_d64_directory_loops(void)
{
    tb_d64 b;
    build_game_disk(&b, 35);
    mh_media_error e;
    uint8_t *d1 = tb_d64_sector(&b, 18, 1);
    /* Self-loop: 18/1 -> 18/1. */
    d1[0] = 18;
    d1[1] = 1;
    CU_ASSERT_PTR_NULL(open_b(&b, 0, &e));
    CHECK_MSG(e, "D64: directory sector 1 (track 18 sector 1) links back to track 18 sector 1, already directory sector 1 (a loop)");
    /* Partial: the entries before the loop are kept. */
    mh_d64 *d = open_b(&b, MH_D64_OPEN_PARTIAL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(e.status, MH_OK);
    CU_ASSERT_EQUAL(d->entry_count, 2);
    CU_ASSERT_STRING_EQUAL(d->directory_error, "D64: directory sector 1 (track 18 sector 1) links back to track 18 sector 1, already directory sector 1 (a loop)");
    mh_d64_free(d);
    /* A longer cycle 18/1 -> 18/4 -> 18/7 -> 18/4. */
    d1[1] = 4;
    uint8_t *d4 = tb_d64_sector(&b, 18, 4), *d7 = tb_d64_sector(&b, 18, 7);
    d4[0] = 18;
    d4[1] = 7;
    d7[0] = 18;
    d7[1] = 4;
    CU_ASSERT_PTR_NULL(open_b(&b, 0, &e));
    CHECK_MSG(e, "D64: directory sector 3 (track 18 sector 7) links back to track 18 sector 4, already directory sector 2 (a loop)");
    /* Through the BAM: 18/1 -> 18/0 -> 18/1. */
    d1[1] = 0;
    CU_ASSERT_PTR_NULL(open_b(&b, 0, &e));
    CHECK_MSG(e, "D64: directory sector 2 (track 18 sector 0) links back to track 18 sector 1, already directory sector 1 (a loop)");
    /* Out of the disk. */
    d1[0] = 36;
    d1[1] = 0;
    CU_ASSERT_PTR_NULL(open_b(&b, 0, &e));
    CHECK_MSG(e, "D64: directory sector 1 (track 18 sector 1) links to track 36, the disk has 35 tracks");
    d1[0] = 18;
    d1[1] = 19;
    CU_ASSERT_PTR_NULL(open_b(&b, 0, &e));
    CHECK_MSG(e, "D64: directory sector 1 (track 18 sector 1) links to track 18 sector 19, track 18 has sectors 0-18");
    d1[0] = 255;
    CU_ASSERT_PTR_NULL(open_b(&b, 0, &e));
    CHECK_MSG(e, "D64: directory sector 1 (track 18 sector 1) links to track 255, the disk has 35 tracks");
    /* Track 0 ends the chain whatever the sector byte says. */
    d1[0] = 0;
    d1[1] = 200;
    d = open_b(&b, 0, &e);
    CU_ASSERT_PTR_NOT_NULL(d);
    mh_d64_free(d);
    /* A directory chain through every sector of a 40-track disk, then back. */
    tb_d64 big;
    tb_d64_init(&big, 40, false, "CHAIN", "CC");
    unsigned pt = 18, ps = 1;
    for (unsigned t = 1; t <= 40; t++)
        for (unsigned s = 0; s < tb_d64_sectors(t); s++) {
            if (t == 18 && s <= 1) continue;
            uint8_t *p = tb_d64_sector(&big, pt, ps);
            p[0] = (uint8_t)t;
            p[1] = (uint8_t)s;
            pt = t;
            ps = s;
        }
    uint8_t *last = tb_d64_sector(&big, pt, ps);
    last[0] = 18;
    last[1] = 1;
    CU_ASSERT_PTR_NULL(open_b(&big, 0, &e));
    CHECK_MSG(e, "D64: directory sector 767 (track 40 sector 16) links back to track 18 sector 1, already directory sector 1 (a loop)");
    tb_d64_free(&big);
    tb_d64_free(&b);
}

static void test_d64_file_chains(void)
{
    tb_d64 b;
    build_game_disk(&b, 35);
    mh_media_error e;
    uint8_t *data;
    size_t size;
    uint8_t *entry = tb_d64_sector(&b, 18, 1); /* GAME is slot 0 */
    uint8_t *s3 = tb_d64_sector(&b, 1, 3);
    /* Self-loop at block 4. */
    s3[0] = 1;
    s3[1] = 3;
    mh_d64 *d = open_b(&b, 0, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_MSG(e, "D64: directory entry 1 (\"GAME\"): block 4 (track 1 sector 3) links to track 1 sector 3, already block 4 of the chain (a loop)");
    CU_ASSERT_PTR_NULL(data);
    CU_ASSERT_EQUAL(mh_d64_load(d, P("GAME"), 4, 0x0801, &data, &size, NULL, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_MSG(e, "D64: directory entry 1 (\"GAME\"): block 4 (track 1 sector 3) links to track 1 sector 3, already block 4 of the chain (a loop)");
    mh_d64_free(d);
    /* A longer cycle back to the first block. */
    s3[1] = 0;
    d = open_b(&b, 0, NULL);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_MSG(e, "D64: directory entry 1 (\"GAME\"): block 4 (track 1 sector 3) links to track 1 sector 0, already block 1 of the chain (a loop)");
    mh_d64_free(d);
    /* Into another file's blocks is not a loop of this chain: read to the end. */
    s3[0] = 1;
    s3[1] = 12; /* NEXT's only block */
    d = open_b(&b, 0, NULL);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, 4 * 254 + 10);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_validate(d, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_MSG(e, "D64: directory entry 2 (\"NEXT\"): block 1 is track 1 sector 12, which directory entry 1 (\"GAME\") uses too (cross-linked)");
    mh_d64_free(d);
    /* Bad links mid-chain. */
    static const struct { uint8_t t, s; const char *msg; } bad[] = {
        {36, 0, "D64: directory entry 1 (\"GAME\"): block 4 (track 1 sector 3) links to track 36, the disk has 35 tracks"},
        {255, 255, "D64: directory entry 1 (\"GAME\"): block 4 (track 1 sector 3) links to track 255, the disk has 35 tracks"},
        {1, 21, "D64: directory entry 1 (\"GAME\"): block 4 (track 1 sector 3) links to track 1 sector 21, track 1 has sectors 0-20"},
        {31, 17, "D64: directory entry 1 (\"GAME\"): block 4 (track 1 sector 3) links to track 31 sector 17, track 31 has sectors 0-16"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s3[0] = bad[i].t;
        s3[1] = bad[i].s;
        d = open_b(&b, 0, NULL);
        CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_ERR_INVALID_ARGUMENT);
        CHECK_MSG(e, bad[i].msg);
        mh_d64_free(d);
    }
    s3[0] = 1;
    s3[1] = 4;
    /* Bad first blocks. */
    static const struct { uint8_t t, s; const char *msg; } first[] = {
        {0, 0, "D64: directory entry 1 (\"GAME\") points to track 0 (tracks count from 1)"},
        {36, 0, "D64: directory entry 1 (\"GAME\") points to track 36, the disk has 35 tracks"},
        {41, 0, "D64: directory entry 1 (\"GAME\") points to track 41, the disk has 35 tracks"},
        {18, 19, "D64: directory entry 1 (\"GAME\") points to track 18 sector 19, track 18 has sectors 0-18"},
    };
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) {
        entry[3] = first[i].t;
        entry[4] = first[i].s;
        d = open_b(&b, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_ERR_INVALID_ARGUMENT);
        CHECK_MSG(e, first[i].msg);
        mh_d64_free(d);
    }
    entry[3] = 1;
    entry[4] = 0;
    /* A huge block count is only a number. */
    entry[0x1e] = 0xff;
    entry[0x1f] = 0xff;
    d = open_b(&b, 0, NULL);
    CU_ASSERT_EQUAL(d->entries[0].blocks, 65535);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, 3000);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_directory(d, 0x0801, NULL, 0, &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(data[2 + 30 + 2], 0xff);
    CU_ASSERT_EQUAL(data[2 + 30 + 3], 0xff);
    CU_ASSERT_EQUAL(data[2 + 30 + 4], ' '); /* one space before the quote */
    CU_ASSERT_EQUAL(data[2 + 30 + 5], '"');
    free(data);
    mh_d64_free(d);
    tb_d64_free(&b);
}

/* A 35-track disk whose one file chains through every data sector: the
 * longest possible file; then the same chain looping back at the end (a
 * "file longer than the disk"). The same on a 40-track disk through
 * tracks 36-40. */
static void test_d64_longest_chain(void)
{
    const unsigned tracks[2] = {35, 40};
    for (int k = 0; k < 2; k++) {
        tb_d64 b;
        tb_d64_init(&b, tracks[k], false, "LONG", "LL");
        uint8_t one[3] = {1, 8, 0};
        uint8_t *entry = tb_d64_add_file(&b, "LONG", 0x82, one, 3);
        unsigned pt = 1, ps = 0, blocks = 1;
        for (unsigned t = 1; t <= tracks[k]; t++)
            for (unsigned s = 0; s < tb_d64_sectors(t); s++) {
                if (t == 18 || (t == 1 && s == 0)) continue;
                uint8_t *p = tb_d64_sector(&b, pt, ps);
                p[0] = (uint8_t)t;
                p[1] = (uint8_t)s;
                pt = t;
                ps = s;
                blocks++;
            }
        uint8_t *last = tb_d64_sector(&b, pt, ps);
        last[0] = 0;
        last[1] = 255;
        entry[0x1e] = (uint8_t)blocks;
        entry[0x1f] = (uint8_t)(blocks >> 8);
        mh_d64 *d = open_b(&b, 0, NULL);
        uint8_t *data;
        size_t size;
        mh_media_error e;
        CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_OK);
        CU_ASSERT_EQUAL(size, (size_t)blocks * 254);
        CU_ASSERT_EQUAL(blocks, tracks[k] == 35 ? 664 : 749);
        free(data);
        mh_d64_free(d);
        last[0] = 1;
        last[1] = 0;
        d = open_b(&b, 0, NULL);
        CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_ERR_INVALID_ARGUMENT);
        char want[200];
        snprintf(want, sizeof want, "D64: directory entry 1 (\"LONG\"): block %u (track %u sector %u) links to track 1 sector 0, already block 1 of the chain (a loop)", blocks, pt, ps);
        CHECK_MSG(e, want);
        mh_d64_free(d);
        tb_d64_free(&b);
    }
}

static void test_d64_random(void)
{
    /* Random bytes on tracks 17-19 of a real disk, and fully random disks. */
    tb_d64 b;
    build_game_disk(&b, 35);
    uint32_t st = 12345;
    size_t lo = tb_d64_offset(17, 0), hi = tb_d64_offset(20, 0);
    unsigned rounds = mh_test_full() ? 2000 : 200;
    for (unsigned r = 0; r < rounds; r++) {
        uint8_t *img = tb_dup(b.img, b.size);
        unsigned flips = 1 + tb_rand(&st) % 64;
        for (unsigned i = 0; i < flips; i++) {
            size_t at = lo + tb_rand(&st) % (hi - lo);
            /* Links are small numbers: bias towards plausible ones. */
            img[at] = (uint8_t)(tb_rand(&st) % 4 ? tb_rand(&st) % 42 : tb_rand(&st));
        }
        exercise_d64(img, b.size, r % 2 ? MH_D64_OPEN_PARTIAL : 0);
        free(img);
    }
    tb_d64_free(&b);
    uint8_t *img = malloc(197376);
    for (unsigned r = 0; r < 8; r++) {
        for (size_t i = 0; i < 197376; i++) img[i] = (uint8_t)(tb_rand(&st) % 43);
        exercise_d64(img, r % 2 ? 174848 : 197376, MH_D64_OPEN_PARTIAL);
    }
    free(img);
}

static void test_t64_hostile(void)
{
    uint8_t data[500];
    memset(data, 0x11, sizeof data);
    tb_t64_file files[2] = {{"A", 0x0801, 0x0801 + 500, data, 500}, {"B", 0x1000, 0x1100, data, 256}};
    size_t size;
    uint8_t *img = tb_t64_build("C64 tape image file", 2, files, 2, &size);
    mh_media_error e;
    /* Every truncation. */
    for (size_t n = 0; n < size; n++) {
        uint8_t *copy = tb_dup(img, n);
        mh_t64 *t = mh_t64_open(copy, n, &e);
        if (t) {
            /* Cut inside B's data: B gets what is left. */
            CU_ASSERT(n > 64 + 64 + 500);
            CU_ASSERT_EQUAL(t->entries[1].size, n - (64 + 64 + 500));
            mh_t64_free(t);
        } else {
            CU_ASSERT(strncmp(e.message, "T64: ", 5) == 0);
        }
        free(copy);
    }
    CU_ASSERT_PTR_NULL(mh_t64_open(img, 63, &e));
    CHECK_MSG(e, "T64: 63 bytes is too short for the 64-byte header");
    CU_ASSERT_PTR_NULL(mh_t64_open(img, 100, &e));
    CHECK_MSG(e, "T64: the header declares 2 directory slots (ending at byte 128), the file has 100 bytes");
    CU_ASSERT_PTR_NULL(mh_t64_open(img, 128, &e));
    CHECK_MSG(e, "T64: entry 1 (\"A\") data offset 128 is past the end of the 128-byte file");
    /* Offsets into the header, past the end, far past the end. */
    uint8_t *bad = tb_dup(img, size);
    bad[64 + 32 + 8] = 10;
    bad[64 + 32 + 9] = 0;
    CU_ASSERT_PTR_NULL(mh_t64_open(bad, size, &e));
    CHECK_MSG(e, "T64: entry 2 (\"B\") data offset 10 points into the header or directory, which end at byte 128");
    memset(bad + 64 + 32 + 8, 0xff, 4);
    CU_ASSERT_PTR_NULL(mh_t64_open(bad, size, &e));
    CHECK_MSG(e, "T64: entry 2 (\"B\") data offset 4294967295 is past the end of the 884-byte file");
    free(bad);
    /* A huge directory in a small file. */
    bad = tb_dup(img, size);
    bad[0x22] = 0xff;
    bad[0x23] = 0xff;
    CU_ASSERT_PTR_NULL(mh_t64_open(bad, size, &e));
    CHECK_MSG(e, "T64: the header declares 65535 directory slots (ending at byte 2097184), the file has 884 bytes");
    /* No used entries. */
    bad[0x22] = 2;
    bad[0x23] = 0;
    bad[64] = bad[96] = 0;
    CU_ASSERT_PTR_NULL(mh_t64_open(bad, size, &e));
    CHECK_MSG(e, "T64: no used directory entry (all 2 slots are free)");
    /* Bad signatures. */
    memcpy(bad, "C65 tape image file", 19);
    CU_ASSERT_PTR_NULL(mh_t64_open(bad, size, &e));
    CHECK_MSG(e, "T64: no T64 signature at offset 0 (\"C64 tape image file\", \"C64S tape file\" ...)");
    memcpy(bad, "C64 disk image file", 19);
    CU_ASSERT_PTR_NULL(mh_t64_open(bad, size, &e));
    free(bad);
    /* Start $FFFF with data: one byte. */
    tb_t64_file top[1] = {{"TOP", 0xffff, 0xc3c6, data, 300}};
    uint8_t *t2 = tb_t64_build("C64 tape image file", 1, top, 1, &size);
    mh_t64 *t = mh_t64_open(t2, size, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->entries[0].size, 1);
    CU_ASSERT_EQUAL(t->entries[0].end_address, 0x10000);
    mh_t64_free(t);
    free(t2);
    /* Mutations. */
    uint32_t st = 99;
    for (unsigned r = 0; r < 3000; r++) {
        uint8_t *m = tb_dup(img, 64 + 64 + 756);
        unsigned flips = 1 + tb_rand(&st) % 8;
        for (unsigned i = 0; i < flips; i++) m[tb_rand(&st) % 128] = (uint8_t)tb_rand(&st);
        t = mh_t64_open(m, 64 + 64 + 756, NULL);
        if (t) {
            for (size_t i = 0; i < t->entry_count; i++) {
                const mh_t64_entry *en = &t->entries[i];
                CU_ASSERT(en->size >= 1 && en->end_address <= 0x10000);
                CU_ASSERT(en->offset + (size_t)en->size <= t->image_size);
                uint8_t *prg;
                size_t n;
                if (mh_t64_read_prg(t, en, &prg, &n, NULL) == MH_OK) free(prg);
            }
            mh_t64_free(t);
        }
        free(m);
    }
    free(img);
}

static void test_crt_hostile(void)
{
    tb_crt_chip chips[2] = {{0, 0, 0x8000, 0x2000, 0, 0, false}, {0, 0, 0xa000, 0x2000, 0, 0, false}};
    size_t size;
    uint8_t *img = tb_crt_build(0, 0, 0, "HOSTILE", chips, 2, &size);
    mh_media_error e;
    /* Every truncation: fine only at packet boundaries (plus < 16 bytes). */
    for (size_t n = 0; n < size; n++) {
        uint8_t *copy = tb_dup(img, n);
        mh_crt *crt = mh_crt_open(copy, n, &e);
        if (crt) {
            CU_ASSERT((n >= 64 + 16 + 0x2000 && n < 64 + 32 + 0x2000) || n >= 64 + 32 + 0x4000);
            mh_crt_free(crt);
        } else {
            CU_ASSERT(strncmp(e.message, "CRT: ", 5) == 0);
        }
        free(copy);
    }
    CU_ASSERT_PTR_NULL(mh_crt_open(img, 40, &e));
    CHECK_MSG(e, "CRT: 40 bytes is too short for the 64-byte header");
    CU_ASSERT_PTR_NULL(mh_crt_open(img, 64, &e));
    CHECK_MSG(e, "CRT: no CHIP packet (the header ends at byte 64 of 64)");
    CU_ASSERT_PTR_NULL(mh_crt_open(img, 64 + 100, &e));
    CHECK_MSG(e, "CRT: CHIP packet 1 at byte offset 64 has length 8208, past the end of the file (100 bytes left)");

    uint8_t *bad = tb_dup(img, size);
    memcpy(bad, "C64 CARTRIDGE!  ", 16);
    CU_ASSERT_PTR_NULL(mh_crt_open(bad, size, &e));
    CHECK_MSG(e, "CRT: no \"C64 CARTRIDGE   \" signature at offset 0");
    free(bad);
    bad = tb_dup(img, size);
    bad[0x10] = 0x7f;
    CU_ASSERT_PTR_NULL(mh_crt_open(bad, size, &e));
    CHECK_MSG(e, "CRT: header length 2130706496 is past the end of the 16480-byte file");
    free(bad);

    /* Packet problems, each in the second packet (offset 8272). */
    struct { tb_crt_chip c; const char *msg; } cases[] = {
        {{0, 0, 0xa000, 0x2000, 8, 0, false}, "CRT: CHIP packet 2 at byte offset 8272 has length 8, less than its 16-byte header"},
        {{0, 0, 0xa000, 0x2000, 0, 0, false}, NULL},
        {{7, 0, 0xa000, 0x2000, 0, 0, false}, "CRT: CHIP packet 2 at byte offset 8272 has chip type 7 (known: 0 ROM, 1 RAM, 2 flash, 3 EEPROM)"},
        {{0, 0, 0xa000, 0, 0, 0, false}, "CRT: CHIP packet 2 at byte offset 8272 has size 0"},
        {{0, 0, 0xf000, 0x2000, 0, 0, false}, "CRT: CHIP packet 2 at byte offset 8272: 8192 bytes at $F000 would end past $FFFF"},
        {{0, 0, 0xa000, 0x2000, 16 + 0x1000, 0, false}, "CRT: CHIP packet 2 at byte offset 8272 declares 8192 data bytes but its length 4112 leaves 4096"},
        {{0, 0, 0x9000, 0x2000, 0, 0, false}, "CRT: CHIP packet 2 (bank 0, $9000-$AFFF) overlaps CHIP packet 1 (bank 0, $8000-$9FFF)"},
        {{0, 0, 0x8000, 0x2000, 0, 0, false}, "CRT: CHIP packet 2 (bank 0, $8000-$9FFF) overlaps CHIP packet 1 (bank 0, $8000-$9FFF)"},
        {{0, 1, 0x8000, 0x2000, 0, 0, false}, NULL}, /* another bank: fine */
        {{0, 0, 0x7000, 0x1001, 0, 0, false}, "CRT: CHIP packet 2 (bank 0, $7000-$8000) overlaps CHIP packet 1 (bank 0, $8000-$9FFF)"},
        {{0, 0, 0x0000, 0xffff, 0, 0, false}, "CRT: CHIP packet 2 (bank 0, $0000-$FFFE) overlaps CHIP packet 1 (bank 0, $8000-$9FFF)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_crt_chip two[2] = {chips[0], cases[i].c};
        size_t n;
        uint8_t *c = tb_crt_build(0, 0, 1, "X", two, 2, &n);
        if (cases[i].c.packet_length == 8) n = 64 + 16 + 0x2000 + 16; /* keep it a whole header */
        mh_crt *crt = mh_crt_open(c, n, &e);
        if (cases[i].msg) {
            CU_ASSERT_PTR_NULL(crt);
            CHECK_MSG(e, cases[i].msg);
        } else {
            CU_ASSERT_PTR_NOT_NULL(crt);
        }
        mh_crt_free(crt);
        free(c);
    }
    /* Garbage of 16+ bytes after the last packet. */
    bad = malloc(size + 16);
    memcpy(bad, img, size);
    memset(bad + size, 'x', 16);
    CU_ASSERT_PTR_NULL(mh_crt_open(bad, size + 16, &e));
    CHECK_MSG(e, "CRT: no CHIP packet at byte offset 16480 (found 78 78 78 78)");
    free(bad);
    /* Too many packets: 16385 RAM chips without data. */
    size_t many = MH_CRT_MAX_CHIPS + 1;
    bad = calloc(1, 64 + 16 * many);
    memcpy(bad, img, 64);
    for (size_t i = 0; i < many; i++) {
        uint8_t *p = bad + 64 + 16 * i;
        memcpy(p, "CHIP", 4);
        p[7] = 16;
        p[9] = 1;                          /* RAM */
        p[10] = (uint8_t)(i >> 8);         /* bank i */
        p[11] = (uint8_t)i;
        p[12] = 0x80;
        p[14] = 0x20;                      /* 8K */
    }
    CU_ASSERT_PTR_NULL(mh_crt_open(bad, 64 + 16 * many, &e));
    CU_ASSERT_EQUAL(e.status, MH_ERR_LIMIT);
    CHECK_MSG(e, "CRT: more than 16384 CHIP packets");
    mh_crt *crt = mh_crt_open(bad, 64 + 16 * (many - 1), &e);
    CU_ASSERT_PTR_NOT_NULL(crt);
    if (crt) CU_ASSERT_EQUAL(crt->chip_count, MH_CRT_MAX_CHIPS);
    mh_crt_free(crt);
    free(bad);
    /* Mutations of the headers. */
    uint32_t st = 7;
    for (unsigned r = 0; r < 3000; r++) {
        uint8_t *m = tb_dup(img, size);
        unsigned flips = 1 + tb_rand(&st) % 6;
        for (unsigned i = 0; i < flips; i++) {
            uint32_t at = tb_rand(&st) % 3;
            size_t pos = at == 0 ? tb_rand(&st) % 64 : at == 1 ? 64 + tb_rand(&st) % 16 : 64 + 16 + 0x2000 + tb_rand(&st) % 16;
            m[pos] = (uint8_t)tb_rand(&st);
        }
        crt = mh_crt_open(m, size, NULL);
        if (crt) {
            for (size_t i = 0; i < crt->chip_count; i++) {
                const mh_crt_chip *c = &crt->chips[i];
                CU_ASSERT((uint32_t)c->load_address + c->size <= 0x10000);
                if (c->data) CU_ASSERT(c->data + c->size <= crt->image + crt->image_size);
            }
            static uint8_t l[8192], h[8192];
            bool hl, hh;
            mh_crt_generic_roms(crt, l, h, &hl, &hh, NULL);
            mh_crt_free(crt);
        }
        free(m);
    }
    free(img);
}

static void test_prg_hostile(void)
{
    mh_prg prg;
    mh_media_error e;
    uint32_t st = 3;
    for (unsigned r = 0; r < 2000; r++) {
        size_t n = tb_rand(&st) % 70000;
        uint8_t *b = malloc(n ? n : 1);
        for (size_t i = 0; i < n && i < 2; i++) b[i] = (uint8_t)tb_rand(&st);
        mh_status s = mh_prg_parse(b, n, &prg, &e);
        unsigned load = n >= 2 ? (unsigned)(b[0] | b[1] << 8) : 0;
        CU_ASSERT_EQUAL(s == MH_OK, n >= 3 && load + (n - 2) <= 0x10000);
        free(b);
    }
}

MH_SUITE("media.hostile", NULL, NULL, MH_TEST(test_d64_sizes), MH_TEST(test_d64_directory_loops),
         MH_TEST(test_d64_file_chains), MH_TEST(test_d64_longest_chain), MH_TEST(test_d64_random),
         MH_TEST(test_t64_hostile), MH_TEST(test_crt_hostile), MH_TEST(test_prg_hostile))
