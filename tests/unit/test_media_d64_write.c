/* media.d64_write: SAVE onto D64 images (mh_d64_save in
 * mcphost/media_d64.h): the 1541's layout (first block next to track 18,
 * interleave 10, the directory's interleave 3), read back with the
 * reader, "@0:" replace, FILE EXISTS, DISK FULL with nothing written,
 * directory growth to 144 entries, names, 40-track images, and hostile
 * images (bad BAM counts, used sectors marked free, chain loops) refused
 * with a message. Images come from tests/unit/test_media_build.c. */
#include "mh_test.h"
#include "test_media_build.h"

#include <mcphost/media_d64.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *P(const char *s) { return (const uint8_t *)s; }

static uint8_t *pattern(size_t n, unsigned seed)
{
    uint8_t *d = malloc(n ? n : 1);
    uint32_t st = seed;
    for (size_t i = 0; i < n; i++) d[i] = (uint8_t)tb_rand(&st);
    return d;
}

static mh_d64 *open_builder(tb_d64 *b)
{
    mh_media_error err;
    mh_d64 *d = mh_d64_open(b->img, b->size, 0, &err);
    CU_ASSERT_PTR_NOT_NULL(d);
    return d;
}

/* Saves and reopens: the new disk (the old one freed), or NULL on error
 * (the old one kept in *disk). */
static mh_status save(mh_d64 **disk, const char *name, const uint8_t *data, size_t size,
                      mh_d64_save_result *r, mh_media_error *err)
{
    uint8_t *img = (uint8_t *)"x";
    size_t img_size = 1;
    mh_status st = mh_d64_save(*disk, P(name), strlen(name), data, size, &img, &img_size, r, err);
    if (st != MH_OK) {
        CU_ASSERT_PTR_NULL(img); /* nothing half-written comes back */
        CU_ASSERT_EQUAL(img_size, 0);
        return st;
    }
    CU_ASSERT_EQUAL(img_size, (*disk)->image_size);
    mh_media_error oerr;
    mh_d64 *next = mh_d64_open(img, img_size, 0, &oerr);
    free(img);
    CU_ASSERT_PTR_NOT_NULL_FATAL(next);
    CU_ASSERT_EQUAL(mh_d64_validate(next, &oerr), MH_OK);
    mh_d64_free(*disk);
    *disk = next;
    return st;
}

static void check_reads_back(const mh_d64 *d, const char *name, const uint8_t *data, size_t size)
{
    uint8_t *out = NULL;
    size_t out_size = 0;
    mh_media_error err;
    CU_ASSERT_EQUAL_FATAL(mh_d64_load(d, P(name), strlen(name), 0x0801, &out, &out_size, NULL, &err), MH_OK);
    CU_ASSERT_EQUAL(out_size, size);
    CU_ASSERT_TRUE(out_size == size && memcmp(out, data, size) == 0);
    free(out);
}

/* The chain's sectors, in order. */
static unsigned chain_of(const mh_d64 *d, unsigned t, unsigned s, unsigned *tracks,
                         unsigned *sectors, unsigned max)
{
    unsigned n = 0;
    while (t && n < max) {
        tracks[n] = t;
        sectors[n] = s;
        n++;
        const uint8_t *sec = mh_d64_sector(d, t, s);
        t = sec[0];
        s = sec[1];
    }
    return n;
}

static void test_blank_disk_layout(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "WRITE", "W1");
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    CU_ASSERT_EQUAL(d->blocks_free, 664);
    uint8_t *data = pattern(600, 3);
    data[0] = 0x01;
    data[1] = 0x08;
    mh_d64_save_result r;
    mh_media_error err;
    CU_ASSERT_EQUAL_FATAL(save(&d, "PROG", data, 600, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(r.dos_error, 0);
    CU_ASSERT_EQUAL(r.blocks, 3);
    CU_ASSERT_EQUAL(r.track, 17);
    CU_ASSERT_EQUAL(r.sector, 0);
    CU_ASSERT_FALSE(r.replaced);
    CU_ASSERT_EQUAL(d->blocks_free, 661);
    CU_ASSERT_EQUAL_FATAL(d->entry_count, 1);
    const mh_d64_entry *e = &d->entries[0];
    CU_ASSERT_EQUAL(e->type_byte, 0x82);
    CU_ASSERT_EQUAL(e->blocks, 3);
    CU_ASSERT_STRING_EQUAL(e->name, "PROG");
    CU_ASSERT_EQUAL(e->name_raw[4], 0xA0);
    CU_ASSERT_EQUAL(e->name_raw[15], 0xA0);
    unsigned t[8], s[8];
    CU_ASSERT_EQUAL_FATAL(chain_of(d, e->track, e->sector, t, s, 8), 3);
    /* interleave 10 on track 17 */
    CU_ASSERT_EQUAL(t[1], 17);
    CU_ASSERT_EQUAL(s[1], 10);
    CU_ASSERT_EQUAL(t[2], 17);
    CU_ASSERT_EQUAL(s[2], 20);
    const uint8_t *last = mh_d64_sector(d, 17, 20);
    CU_ASSERT_EQUAL(last[0], 0);
    CU_ASSERT_EQUAL(last[1], 600 - 2 * 254 + 1); /* the last byte used */
    /* BAM: track 17 lost three sectors, bits and count agree */
    const uint8_t *bam = mh_d64_sector(d, 18, 0);
    CU_ASSERT_EQUAL(bam[4 * 17], 18);
    CU_ASSERT_EQUAL(bam[4 * 17 + 1] & 1, 0);
    CU_ASSERT_EQUAL(bam[4 * 17 + 2] & 0x04, 0); /* sector 10 */
    CU_ASSERT_EQUAL(bam[4 * 17 + 3] & 0x10, 0); /* sector 20 */
    check_reads_back(d, "PROG", data, 600);
    /* the second file goes on after the first's last block on track 17 */
    CU_ASSERT_EQUAL_FATAL(save(&d, "0:NEXT", data, 10, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(r.track, 17);
    CU_ASSERT_EQUAL(r.sector, 1);
    CU_ASSERT_EQUAL(d->entries[1].slot, 1);
    check_reads_back(d, "NEXT", data, 10);
    free(data);
    mh_d64_free(d);
}

/* A file longer than track 17 moves on to 16; then 19 when 1-17 are full. */
static void test_track_order(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "ORDER", "W2");
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    size_t size = 22 * 254;
    uint8_t *data = pattern(size, 4);
    mh_d64_save_result r;
    mh_media_error err;
    CU_ASSERT_EQUAL_FATAL(save(&d, "LONG", data, size, &r, &err), MH_OK);
    unsigned t[32], s[32];
    CU_ASSERT_EQUAL_FATAL(chain_of(d, r.track, r.sector, t, s, 32), 22);
    for (unsigned i = 0; i < 21; i++) CU_ASSERT_EQUAL(t[i], 17);
    CU_ASSERT_EQUAL(t[21], 16);
    /* the 1541's order on track 17: 10 on, past the end wrapped and one
     * less, else the next free sector */
    static const unsigned order[21] = {0, 10, 20, 8, 18, 6, 16, 4, 14, 2, 12,
                                       1, 11, 3, 13, 5, 15, 7, 17, 9, 19};
    for (unsigned i = 0; i < 21; i++) CU_ASSERT_EQUAL(s[i], order[i]);
    check_reads_back(d, "LONG", data, size);
    free(data);
    /* track 17 is full: the next file starts on 19 (nearest to 18, 17
     * before 19), runs up to 35 (307 blocks), then wraps to the lower half
     * at 16 (20 free) and goes on to 15 */
    size = 335 * 254;
    data = pattern(size, 5);
    CU_ASSERT_EQUAL_FATAL(save(&d, "FILL", data, size, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(r.track, 19);
    CU_ASSERT_EQUAL(r.sector, 0);
    unsigned *ft = malloc(400 * sizeof *ft), *fs = malloc(400 * sizeof *fs);
    CU_ASSERT_EQUAL_FATAL(chain_of(d, r.track, r.sector, ft, fs, 400), 335);
    CU_ASSERT_EQUAL(ft[306], 35);
    CU_ASSERT_EQUAL(ft[307], 16);
    CU_ASSERT_EQUAL(ft[326], 16);
    CU_ASSERT_EQUAL(ft[327], 15);
    CU_ASSERT_EQUAL(ft[334], 15);
    free(ft);
    free(fs);
    CU_ASSERT_EQUAL(d->blocks_free, 664 - 357);
    check_reads_back(d, "FILL", data, size);
    CU_ASSERT_EQUAL_FATAL(save(&d, "AFTER", data, 100, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(r.track, 15); /* 17, 19, 16 and 20 are full */
    free(data);
    mh_d64_free(d);
}

static void test_exists_and_replace(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "REPLACE", "W3");
    uint8_t *old = pattern(3000, 6);
    tb_d64_add_file(&b, "GAME", 0x82, old, 3000); /* 12 blocks */
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    unsigned free_before = d->blocks_free;
    uint8_t *fresh = pattern(500, 7);
    mh_d64_save_result r;
    mh_media_error err;
    CU_ASSERT_EQUAL(save(&d, "GAME", fresh, 500, &r, &err), MH_ERR_EXISTS);
    CU_ASSERT_EQUAL(r.dos_error, 63);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "63, FILE EXISTS"));
    check_reads_back(d, "GAME", old, 3000);
    CU_ASSERT_EQUAL_FATAL(save(&d, "@0:GAME", fresh, 500, &r, &err), MH_OK);
    CU_ASSERT_TRUE(r.replaced);
    CU_ASSERT_EQUAL(r.blocks, 2);
    CU_ASSERT_EQUAL(d->entry_count, 1);
    CU_ASSERT_EQUAL(d->entries[0].blocks, 2);
    CU_ASSERT_EQUAL(d->blocks_free, free_before + 12 - 2); /* the old blocks are free again */
    check_reads_back(d, "GAME", fresh, 500);
    CU_ASSERT_EQUAL_FATAL(save(&d, "@:GAME", old, 300, &r, &err), MH_OK);
    check_reads_back(d, "GAME", old, 300);
    CU_ASSERT_EQUAL(d->blocks_free, free_before + 12 - 2);
    /* "@0:" for a name not on the disk simply saves */
    CU_ASSERT_EQUAL_FATAL(save(&d, "@0:NEW", fresh, 10, &r, &err), MH_OK);
    CU_ASSERT_FALSE(r.replaced);
    CU_ASSERT_EQUAL(d->entry_count, 2);
    free(old);
    free(fresh);
    mh_d64_free(d);
}

/* Replacing a splat file (never validated) keeps its old blocks allocated:
 * here its chain runs into another file's blocks, which must stay used. */
static void test_replace_splat_keeps_blocks(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "SPLAT", "W3");
    uint8_t *a = pattern(600, 11);
    tb_d64_add_file(&b, "A", 0x82, a, 600);  /* 1/0, 1/1, 1/2 */
    tb_d64_add_file(&b, "S", 0x02, a, 300);  /* 1/3, 1/4, not closed */
    uint8_t *last = tb_d64_sector(&b, 1, 4);
    last[0] = 1;
    last[1] = 1; /* S's chain runs on into A's second block */
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    mh_d64_save_result r;
    mh_media_error err;
    CU_ASSERT_EQUAL_FATAL(save(&d, "@0:S", a, 10, &r, &err), MH_OK);
    CU_ASSERT_TRUE(r.replaced);
    const uint8_t *bam = mh_d64_sector(d, 18, 0);
    for (unsigned s = 0; s <= 4; s++) CU_ASSERT_EQUAL(bam[4 + 1] & (1u << s), 0);
    check_reads_back(d, "A", a, 600);
    check_reads_back(d, "S", a, 10);
    free(a);
    mh_d64_free(d);
}

static void test_disk_full(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, true, "FULL", "W4");
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    CU_ASSERT_EQUAL(d->image_size, MH_D64_SIZE_35_ERRORS);
    size_t size = 664 * 254 + 1;
    uint8_t *data = pattern(size, 8);
    mh_d64_save_result r;
    mh_media_error err;
    CU_ASSERT_EQUAL(save(&d, "TOOBIG", data, size, &r, &err), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(r.dos_error, 72);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "72, DISK FULL"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "665 blocks"));
    /* exactly the whole disk fits */
    CU_ASSERT_EQUAL_FATAL(save(&d, "WHOLE", data, size - 1, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(d->blocks_free, 0);
    CU_ASSERT_EQUAL(d->image_size, MH_D64_SIZE_35_ERRORS);
    check_reads_back(d, "WHOLE", data, size - 1);
    CU_ASSERT_EQUAL(save(&d, "ONE", data, 2, &r, &err), MH_ERR_LIMIT);
    /* a replace needs room for the new file before the old one is freed */
    CU_ASSERT_EQUAL(save(&d, "@0:WHOLE", data, 2, &r, &err), MH_ERR_LIMIT);
    check_reads_back(d, "WHOLE", data, size - 1);
    free(data);
    mh_d64_free(d);
}

/* Entry 9 opens directory sector 18/4, entry 144 fills 18/18, the 145th
 * is 72 DISK FULL. */
static void test_directory_growth(void)
{
    static const unsigned order[18] = {1, 4, 7, 10, 13, 16, 2, 5, 8, 11, 14, 17, 3, 6, 9, 12, 15, 18};
    tb_d64 b;
    tb_d64_init(&b, 35, false, "MANY", "W5");
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    const uint8_t data[4] = {1, 8, 0x60, 0};
    mh_d64_save_result r;
    mh_media_error err;
    for (unsigned i = 0; i < 144; i++) {
        char name[17];
        snprintf(name, sizeof name, "FILE%u", i);
        if (save(&d, name, data, sizeof data, &r, &err) != MH_OK) {
            CU_FAIL("a save within 144 entries failed");
            fprintf(stderr, "entry %u: %s\n", i, err.message);
            break;
        }
        if (i == 8) {
            CU_ASSERT_EQUAL(mh_d64_sector(d, 18, 1)[0], 18);
            CU_ASSERT_EQUAL(mh_d64_sector(d, 18, 1)[1], 4);
            CU_ASSERT_EQUAL(d->entries[8].dir_sector, 4);
        }
    }
    CU_ASSERT_EQUAL(d->entry_count, 144);
    unsigned t = 18, s = 1;
    for (unsigned i = 0; i < 18; i++) {
        CU_ASSERT_EQUAL(t, 18);
        CU_ASSERT_EQUAL(s, order[i]);
        const uint8_t *sec = mh_d64_sector(d, t, s);
        t = sec[0];
        s = sec[1];
    }
    CU_ASSERT_EQUAL(t, 0);
    CU_ASSERT_EQUAL(mh_d64_sector(d, 18, 0)[4 * 18], 0); /* track 18 is full */
    CU_ASSERT_EQUAL(save(&d, "ONE MORE", data, sizeof data, &r, &err), MH_ERR_LIMIT);
    CU_ASSERT_EQUAL(r.dos_error, 72);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "directory is full"));
    check_reads_back(d, "FILE143", data, sizeof data);
    mh_d64_free(d);
}

static void test_names(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "NAMES", "W6");
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    const uint8_t data[3] = {0, 0x10, 1};
    mh_d64_save_result r;
    mh_media_error err;
    CU_ASSERT_EQUAL(save(&d, "", data, 3, &r, &err), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(r.dos_error, 34);
    CU_ASSERT_EQUAL(save(&d, "0:", data, 3, &r, &err), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(save(&d, "A*", data, 3, &r, &err), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(r.dos_error, 33);
    CU_ASSERT_EQUAL(save(&d, "A?B", data, 3, &r, &err), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(save(&d, "REL,R", data, 3, &r, &err), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(d->entry_count, 0);
    CU_ASSERT_EQUAL_FATAL(save(&d, "TEXT,S,W", data, 3, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(d->entries[0].type_byte, 0x81);
    CU_ASSERT_EQUAL_FATAL(save(&d, "ABCDEFGHIJKLMNOPQRST", data, 3, &r, &err), MH_OK);
    CU_ASSERT_STRING_EQUAL(d->entries[1].name, "ABCDEFGHIJKLMNOP");
    CU_ASSERT_EQUAL(save(&d, "ABCDEFGHIJKLMNOPXX", data, 3, &r, &err), MH_ERR_EXISTS);
    CU_ASSERT_EQUAL_FATAL(save(&d, "EMPTY", data, 0, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(r.blocks, 1);
    CU_ASSERT_EQUAL(mh_d64_sector(d, r.track, r.sector)[1], 1);
    mh_d64_free(d);
}

/* A 40-track image is written like a 1541 writes one: tracks 1-35. */
static void test_forty_tracks(void)
{
    tb_d64 b;
    tb_d64_init(&b, 40, false, "FORTY", "W7");
    mh_d64 *d = open_builder(&b);
    tb_d64_free(&b);
    CU_ASSERT_EQUAL(d->tracks, 40);
    size_t size = 664 * 254;
    uint8_t *data = pattern(size, 9);
    mh_d64_save_result r;
    mh_media_error err;
    CU_ASSERT_EQUAL_FATAL(save(&d, "BIG", data, size, &r, &err), MH_OK);
    CU_ASSERT_EQUAL(d->image_size, MH_D64_SIZE_40);
    unsigned *t = malloc(700 * sizeof *t), *s = malloc(700 * sizeof *s);
    unsigned n = chain_of(d, r.track, r.sector, t, s, 700);
    CU_ASSERT_EQUAL(n, 664);
    unsigned beyond = 0;
    for (unsigned i = 0; i < n; i++) beyond += t[i] > 35 || t[i] == 18;
    CU_ASSERT_EQUAL(beyond, 0);
    free(t);
    free(s);
    check_reads_back(d, "BIG", data, size);
    CU_ASSERT_EQUAL(save(&d, "MORE", data, 2, &r, &err), MH_ERR_LIMIT);
    free(data);
    mh_d64_free(d);
}

/* Builds a disk with one file, lets `spoil` damage it and expects the
 * save to be refused with a message containing `expect`. */
static void expect_refused(void (*spoil)(tb_d64 *), const char *expect)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "BAD", "W8");
    uint8_t *data = pattern(1000, 10);
    tb_d64_add_file(&b, "FILE", 0x82, data, 1000); /* 1/0 .. 1/3 */
    spoil(&b);
    mh_media_error err;
    mh_d64 *d = mh_d64_open(b.img, b.size, 0, &err);
    tb_d64_free(&b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    mh_d64_save_result r;
    uint8_t *img = NULL;
    size_t size = 0;
    CU_ASSERT_EQUAL(mh_d64_save(d, P("NEW"), 3, data, 1000, &img, &size, &r, &err),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NULL(img);
    CU_ASSERT_EQUAL(r.dos_error, 0);
    if (!strstr(err.message, expect)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", err.message, expect);
        CU_FAIL("the refusal does not say why");
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not written"));
    free(data);
    mh_d64_free(d);
}

static void spoil_count(tb_d64 *b) { tb_d64_sector(b, 18, 0)[4 * 5] = 3; }
static void spoil_used_free(tb_d64 *b)
{
    uint8_t *bam = tb_d64_sector(b, 18, 0);
    bam[4 * 1 + 1] |= 0x02; /* track 1 sector 1, block 2 of FILE, marked free */
    bam[4 * 1]++;
}
static void spoil_dir_free(tb_d64 *b)
{
    uint8_t *bam = tb_d64_sector(b, 18, 0);
    bam[4 * 18 + 1] |= 0x02; /* the directory sector 18/1 marked free */
    bam[4 * 18]++;
}
static void spoil_extra_bits(tb_d64 *b)
{
    uint8_t *bam = tb_d64_sector(b, 18, 0);
    bam[4 * 31 + 3] |= 0x80; /* sector 23 of a 17-sector track */
    bam[4 * 31]++;
}
static void spoil_loop(tb_d64 *b)
{
    uint8_t *sec = tb_d64_sector(b, 1, 2);
    sec[0] = 1;
    sec[1] = 0; /* block 3 links back to block 1 */
}
static void spoil_cross_link(tb_d64 *b)
{
    uint8_t data[300] = {0};
    tb_d64_add_file(b, "OTHER", 0x82, data, sizeof data);
    uint8_t *sec = tb_d64_sector(b, 1, 4); /* OTHER's first block */
    sec[0] = 1;
    sec[1] = 2; /* into FILE's chain */
}

static void test_hostile_images(void)
{
    expect_refused(spoil_count, "counts 3 free sectors");
    expect_refused(spoil_used_free, "track 1 sector 1 free");
    expect_refused(spoil_dir_free, "directory sector 1");
    expect_refused(spoil_extra_bits, "past its 17 sectors");
    expect_refused(spoil_loop, "loop");
    expect_refused(spoil_cross_link, "cross-linked");
    /* a damaged directory chain, accepted by the reader with PARTIAL */
    tb_d64 b;
    tb_d64_init(&b, 35, false, "BAD", "W9");
    tb_d64_sector(&b, 18, 1)[0] = 18;
    tb_d64_sector(&b, 18, 1)[1] = 1; /* loops onto itself */
    mh_media_error err;
    mh_d64 *d = mh_d64_open(b.img, b.size, MH_D64_OPEN_PARTIAL, &err);
    tb_d64_free(&b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    uint8_t *img = NULL;
    size_t size = 0;
    const uint8_t data[3] = {1, 8, 0};
    CU_ASSERT_EQUAL(mh_d64_save(d, P("X"), 1, data, 3, &img, &size, NULL, &err),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "directory"));
    CU_ASSERT_PTR_NULL(img);
    CU_ASSERT_EQUAL(mh_d64_save(NULL, P("X"), 1, data, 3, &img, &size, NULL, &err),
                    MH_ERR_INVALID_ARGUMENT);
    mh_d64_free(d);
    /* a wrong size never becomes an mh_d64, so there is nothing to save to */
    tb_d64_init(&b, 35, false, "SIZE", "W9");
    CU_ASSERT_PTR_NULL(mh_d64_open(b.img, b.size - 1, MH_D64_OPEN_PARTIAL, &err));
    tb_d64_free(&b);
}

/* Random BAM and directory bytes: the writer refuses or writes a disk that
 * validates, never crashes or loops. */
static void test_random_damage(void)
{
    uint32_t seed = 77;
    const uint8_t data[600] = {1, 8};
    unsigned saved = 0, refused = 0;
    for (unsigned round = 0; round < 300; round++) {
        tb_d64 b;
        tb_d64_init(&b, round % 2 ? 40 : 35, round % 3 == 0, "RND", "R1");
        uint8_t payload[700];
        for (size_t i = 0; i < sizeof payload; i++) payload[i] = (uint8_t)tb_rand(&seed);
        tb_d64_add_file(&b, "A", 0x82, payload, 700);
        tb_d64_add_file(&b, "B", 0x81, payload, 300);
        unsigned hits = 1 + tb_rand(&seed) % 4;
        for (unsigned h = 0; h < hits; h++) {
            unsigned which = tb_rand(&seed) % 3;
            uint8_t *sec = which == 0 ? tb_d64_sector(&b, 18, 0)
                         : which == 1 ? tb_d64_sector(&b, 18, 1)
                                      : tb_d64_sector(&b, 1, tb_rand(&seed) % 4);
            sec[tb_rand(&seed) % 256] = (uint8_t)tb_rand(&seed);
        }
        mh_media_error err;
        mh_d64 *d = mh_d64_open(b.img, b.size, MH_D64_OPEN_PARTIAL, &err);
        tb_d64_free(&b);
        if (!d) continue;
        uint8_t *img = NULL;
        size_t size = 0;
        mh_status st = mh_d64_save(d, P("NEW"), 3, data, sizeof data, &img, &size, NULL, &err);
        if (st == MH_OK) {
            saved++;
            mh_d64 *after = mh_d64_open(img, size, 0, &err);
            CU_ASSERT_PTR_NOT_NULL(after);
            if (after) {
                CU_ASSERT_EQUAL(mh_d64_validate(after, &err), MH_OK);
                check_reads_back(after, "NEW", data, sizeof data);
            }
            mh_d64_free(after);
        } else {
            refused++;
            CU_ASSERT_PTR_NULL(img);
            CU_ASSERT_TRUE(err.message[0] != '\0');
        }
        free(img);
        mh_d64_free(d);
    }
    fprintf(stderr, "random damage: %u saved, %u refused\n", saved, refused);
    CU_ASSERT_TRUE(saved > 10 && refused > 10); /* both paths are exercised */
}

MH_SUITE("media.d64_write", NULL, NULL, MH_TEST(test_blank_disk_layout),
         MH_TEST(test_track_order), MH_TEST(test_exists_and_replace),
         MH_TEST(test_replace_splat_keeps_blocks), MH_TEST(test_disk_full),
         MH_TEST(test_directory_growth), MH_TEST(test_names), MH_TEST(test_forty_tracks),
         MH_TEST(test_hostile_images), MH_TEST(test_random_damage))
