/* media.d64: 1541 disk images built by tests/unit/test_media_build.c -
 * geometry, BAM, directory, file chains, CBM DOS name matching, LOAD and
 * the "$" listing byte for byte, validation (mcphost/media_d64.h). */
#include "mh_test.h"
#include "test_media_build.h"

#include <mcphost/media_d64.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_CONTAINS(text, part) check_contains((text), (part), __LINE__, __FILE__)
static void check_contains(const char *text, const char *part, unsigned line, const char *file)
{
    char cond[600];
    snprintf(cond, sizeof cond, "\"%s\" should contain \"%s\"", text, part);
    CU_assertImplementation(strstr(text, part) ? CU_TRUE : CU_FALSE, line, cond, file, "", CU_FALSE);
}

static const uint8_t *P(const char *s) { return (const uint8_t *)s; }

static uint8_t *pattern_data(size_t n, unsigned seed)
{
    uint8_t *d = malloc(n ? n : 1);
    uint32_t st = seed;
    for (size_t i = 0; i < n; i++) d[i] = (uint8_t)tb_rand(&st);
    return d;
}

/* A disk with: GAME (PRG, 3000 bytes), README (SEQ, 254), TINY (PRG, 3),
 * SPLAT (unclosed PRG), LOCKED (locked PRG, 255), GAME2 (PRG, 600). */
typedef struct fixture {
    tb_d64 b;
    uint8_t *game, *readme, *locked, *game2;
} fixture;

static void fixture_build(fixture *f, unsigned tracks, bool errors)
{
    tb_d64_init(&f->b, tracks, errors, "TEST DISK", "MH");
    f->game = pattern_data(3000, 1);
    f->game[0] = 0x01;
    f->game[1] = 0x08;
    f->readme = pattern_data(254, 2);
    f->locked = pattern_data(255, 3);
    f->game2 = pattern_data(600, 4);
    const uint8_t tiny[3] = {0x00, 0xc0, 0x60};
    tb_d64_add_file(&f->b, "GAME", 0x82, f->game, 3000);
    tb_d64_add_file(&f->b, "README", 0x81, f->readme, 254);
    tb_d64_add_file(&f->b, "TINY", 0x82, tiny, 3);
    tb_d64_add_file(&f->b, "SPLAT", 0x02, tiny, 3);
    tb_d64_add_file(&f->b, "LOCKED", 0xc2, f->locked, 255);
    tb_d64_add_file(&f->b, "GAME2", 0x82, f->game2, 600);
}

static void fixture_free(fixture *f)
{
    tb_d64_free(&f->b);
    free(f->game);
    free(f->readme);
    free(f->locked);
    free(f->game2);
}

static void test_geometry(void)
{
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(0), 0);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(1), 21);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(17), 21);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(18), 19);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(24), 19);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(25), 18);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(30), 18);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(31), 17);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(40), 17);
    CU_ASSERT_EQUAL(mh_d64_sectors_in_track(41), 0);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(35, 1, 0), 0);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(35, 18, 0), 0x16500); /* the well-known BAM offset */
    CU_ASSERT_EQUAL(mh_d64_sector_offset(35, 35, 16), 174848 - 256);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(35, 36, 0), SIZE_MAX);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(40, 36, 0), 174848);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(40, 40, 16), 196608 - 256);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(35, 0, 0), SIZE_MAX);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(35, 18, 19), SIZE_MAX);
    CU_ASSERT_EQUAL(mh_d64_sector_offset(35, 17, 20), tb_d64_offset(17, 20));
    CU_ASSERT_EQUAL(mh_d64_sector_offset(36, 1, 0), SIZE_MAX);
    size_t total = 0;
    for (unsigned t = 1; t <= 40; t++) {
        for (unsigned s = 0; s < mh_d64_sectors_in_track(t); s++)
            CU_ASSERT_EQUAL(mh_d64_sector_offset(40, t, s), tb_d64_offset(t, s));
        total += mh_d64_sectors_in_track(t);
        if (t == 35) CU_ASSERT_EQUAL(total, 683);
    }
    CU_ASSERT_EQUAL(total, 768);
}

static void test_open_header(void)
{
    fixture f;
    fixture_build(&f, 35, false);
    mh_media_error e;
    mh_d64 *d = mh_d64_open(f.b.img, f.b.size, 0, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(e.status, MH_OK);
    CU_ASSERT_EQUAL(d->tracks, 35);
    CU_ASSERT_EQUAL(d->sectors, 683);
    CU_ASSERT_PTR_NULL(d->error_info);
    CU_ASSERT_STRING_EQUAL(d->name, "TEST DISK");
    CU_ASSERT_STRING_EQUAL(d->id, "MH 2A");
    CU_ASSERT_EQUAL(d->dos_version, 0x41);
    /* 664 free on a blank disk; the files use 12 + 1 + 1 + 1 + 2 + 3 blocks. */
    CU_ASSERT_EQUAL(d->blocks_free, 664 - 20);
    CU_ASSERT_STRING_EQUAL(d->directory_error, "");
    CU_ASSERT_EQUAL_FATAL(d->entry_count, 6);
    const mh_d64_entry *g = &d->entries[0];
    CU_ASSERT_STRING_EQUAL(g->name, "GAME");
    CU_ASSERT_EQUAL(g->name_length, 4);
    CU_ASSERT_EQUAL(g->name_raw[4], 0xa0);
    CU_ASSERT_EQUAL(g->type, MH_CBM_PRG);
    CU_ASSERT(g->closed && !g->locked);
    CU_ASSERT_EQUAL(g->blocks, 12);
    CU_ASSERT_EQUAL(g->track, 1);
    CU_ASSERT_EQUAL(g->sector, 0);
    CU_ASSERT_EQUAL(g->dir_track, 18);
    CU_ASSERT_EQUAL(g->dir_sector, 1);
    CU_ASSERT_EQUAL(g->index, 0);
    CU_ASSERT_EQUAL(d->entries[1].type, MH_CBM_SEQ);
    CU_ASSERT_FALSE(d->entries[3].closed);
    CU_ASSERT(d->entries[4].locked && d->entries[4].closed);
    CU_ASSERT_EQUAL(d->entries[5].index, 5);
    CU_ASSERT_EQUAL(d->entries[5].slot, 5);
    mh_d64_free(d);
    fixture_free(&f);
}

static void test_sizes_and_error_info(void)
{
    const unsigned tracks[2] = {35, 40};
    for (int t = 0; t < 2; t++)
        for (int errors = 0; errors < 2; errors++) {
            fixture f;
            fixture_build(&f, tracks[t], errors);
            size_t sectors = tracks[t] == 35 ? 683 : 768;
            if (errors) f.b.img[sectors * 256 + tb_d64_offset(17, 3) / 256] = 5; /* 23, READ ERROR */
            mh_d64 *d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
            CU_ASSERT_PTR_NOT_NULL_FATAL(d);
            CU_ASSERT_EQUAL(d->tracks, tracks[t]);
            CU_ASSERT_EQUAL(d->sectors, sectors);
            CU_ASSERT_EQUAL(d->image_size, f.b.size);
            CU_ASSERT_EQUAL(d->error_info != NULL, errors);
            CU_ASSERT_EQUAL(mh_d64_sector_error(d, 17, 3), errors ? 5 : 1);
            CU_ASSERT_EQUAL(mh_d64_sector_error(d, 17, 4), 1);
            CU_ASSERT_EQUAL(mh_d64_sector_error(d, 41, 0), 0);
            CU_ASSERT_PTR_EQUAL(mh_d64_sector(d, 18, 0), d->image + 0x16500);
            CU_ASSERT_PTR_NULL(mh_d64_sector(d, tracks[t] + 1, 0));
            CU_ASSERT_EQUAL(d->entry_count, 6);
            mh_d64_free(d);
            fixture_free(&f);
        }
}

static void test_read_files(void)
{
    fixture f;
    fixture_build(&f, 35, false);
    mh_d64 *d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    uint8_t *data;
    size_t size;
    mh_media_error e;
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, 3000);
    CU_ASSERT(memcmp(data, f.game, 3000) == 0);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[1], &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, 254); /* exactly one block */
    CU_ASSERT(memcmp(data, f.readme, 254) == 0);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[2], &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, 3);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[4], &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, 255); /* one block + 1 byte */
    CU_ASSERT(memcmp(data, f.locked, 255) == 0);
    free(data);
    /* By track/sector. */
    CU_ASSERT_EQUAL(mh_d64_read_chain(d, d->entries[5].track, d->entries[5].sector, &data, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, 600);
    CU_ASSERT(memcmp(data, f.game2, 600) == 0);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_read_chain(d, 36, 0, &data, &size, &e), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: the chain from track 36 sector 0 points to track 36, the disk has 35 tracks");
    CU_ASSERT_PTR_NULL(data);
    CU_ASSERT_EQUAL(size, 0);
    mh_d64_free(d);
    fixture_free(&f);
}

static void test_empty_and_full_block_files(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "E", "00");
    tb_d64_add_file(&b, "EMPTY", 0x81, NULL, 0);
    uint8_t *big = pattern_data(254 * 40, 9);
    tb_d64_add_file(&b, "FORTY", 0x81, big, 254 * 40);
    mh_d64 *d = mh_d64_open(b.img, b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    uint8_t *data;
    size_t size;
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[0], &data, &size, NULL), MH_OK);
    CU_ASSERT_EQUAL(size, 0);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_read_file(d, &d->entries[1], &data, &size, NULL), MH_OK);
    CU_ASSERT_EQUAL(size, 254 * 40);
    CU_ASSERT(memcmp(data, big, size) == 0);
    free(data);
    /* Loading an empty PRG: no load address. */
    tb_d64_sector(&b, 18, 1)[2] = 0x82;
    mh_d64_free(d);
    d = mh_d64_open(b.img, b.size, 0, NULL);
    mh_media_error e;
    CU_ASSERT_EQUAL(mh_d64_load(d, P("EMPTY"), 5, 0x0801, &data, &size, NULL, &e), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: directory entry 1 (\"EMPTY\") holds 0 bytes, too short for a load address");
    CU_ASSERT_PTR_NULL(data);
    mh_d64_free(d);
    free(big);
    tb_d64_free(&b);
}

static void test_find(void)
{
    fixture f;
    fixture_build(&f, 35, false);
    mh_d64 *d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("GAME"), 4), &d->entries[0]);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("GAME2"), 5), &d->entries[5]);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("GAME*"), 5), &d->entries[0]); /* first match wins */
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("*"), 1), &d->entries[0]);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("R*"), 2), &d->entries[1]);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("????"), 4), &d->entries[0]);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("T??Y"), 4), &d->entries[2]);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("GAME?"), 5), &d->entries[5]);
    CU_ASSERT_PTR_EQUAL(mh_d64_find(d, P("SPLAT"), 5), &d->entries[3]);
    CU_ASSERT_PTR_NULL(mh_d64_find(d, P("NOPE"), 4));
    CU_ASSERT_PTR_NULL(mh_d64_find(d, P("GAM"), 3));
    CU_ASSERT_PTR_NULL(mh_d64_find(d, P(""), 0));
    mh_d64_free(d);
    fixture_free(&f);
}

static void test_load(void)
{
    fixture f;
    fixture_build(&f, 35, false);
    mh_d64 *d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    uint8_t *data;
    size_t size;
    const mh_d64_entry *entry;
    mh_media_error e;
    static const char *const game_names[] = {"GAME", "0:GAME", ":GAME", "GA*", "G?ME", "*", "GAME,P", "0:G*,P,R"};
    for (size_t i = 0; i < sizeof game_names / sizeof game_names[0]; i++) {
        CU_ASSERT_EQUAL(mh_d64_load(d, P(game_names[i]), strlen(game_names[i]), 0x0801, &data, &size, &entry, &e), MH_OK);
        CU_ASSERT_PTR_EQUAL(entry, &d->entries[0]);
        CU_ASSERT_EQUAL(size, 3000);
        CU_ASSERT(data && memcmp(data, f.game, 3000) == 0);
        free(data);
    }
    /* A SEQ file needs ",S"; PRG skips it. */
    CU_ASSERT_EQUAL(mh_d64_load(d, P("README"), 6, 0x0801, &data, &size, &entry, &e), MH_ERR_NOT_FOUND);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: no PRG file matches \"README\" (the drive answers 62, FILE NOT FOUND)");
    CU_ASSERT_PTR_NULL(entry);
    CU_ASSERT_EQUAL(mh_d64_load(d, P("README,S"), 8, 0x0801, &data, &size, &entry, &e), MH_OK);
    CU_ASSERT_PTR_EQUAL(entry, &d->entries[1]);
    CU_ASSERT_EQUAL(size, 254);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_load(d, P("R*"), 2, 0x0801, &data, &size, &entry, &e), MH_ERR_NOT_FOUND);
    /* A splat file is found but cannot be read. */
    CU_ASSERT_EQUAL(mh_d64_load(d, P("SPL*"), 4, 0x0801, &data, &size, &entry, &e), MH_ERR_STATE);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: directory entry 4 (\"SPLAT\") was never closed (a splat file, listed as *PRG; the drive answers 60, WRITE FILE OPEN)");
    CU_ASSERT_PTR_EQUAL(entry, &d->entries[3]);
    CU_ASSERT_PTR_NULL(data);
    CU_ASSERT_EQUAL(mh_d64_load(d, P("LOCKED"), 6, 0x0801, &data, &size, &entry, &e), MH_OK);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_load(d, P(""), 0, 0x0801, &data, &size, &entry, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(e.message, "34, SYNTAX ERROR");
    CU_ASSERT_EQUAL(mh_d64_load(d, P("0:"), 2, 0x0801, &data, &size, &entry, &e), MH_ERR_INVALID_ARGUMENT);
    /* "$" variants give the directory. */
    static const char *const dirs[] = {"$", "$0", "$:*", "$0:*"};
    uint8_t *ref;
    size_t ref_size;
    CU_ASSERT_EQUAL_FATAL(mh_d64_directory(d, 0x0801, NULL, 0, &ref, &ref_size, &e), MH_OK);
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(mh_d64_load(d, P(dirs[i]), strlen(dirs[i]), 0x0801, &data, &size, &entry, &e), MH_OK);
        CU_ASSERT_PTR_NULL(entry);
        CU_ASSERT_EQUAL(size, ref_size);
        CU_ASSERT(data && memcmp(data, ref, size) == 0);
        free(data);
    }
    free(ref);
    mh_d64_free(d);
    fixture_free(&f);
}

/* Walks a BASIC program loaded at load: checks every link, returns the
 * number of lines and copies line i's bytes (after link) into lines[i]. */
static size_t walk_basic(const uint8_t *prg, size_t size, uint16_t load, uint8_t lines[][40])
{
    CU_ASSERT_EQUAL_FATAL(prg[0] | prg[1] << 8, load);
    size_t pos = 2, n = 0;
    for (;;) {
        CU_ASSERT_FATAL(pos + 2 <= size);
        unsigned link = prg[pos] | prg[pos + 1] << 8;
        if (link == 0) break;
        size_t end = pos + 4;
        while (end < size && prg[end] != 0) end++;
        CU_ASSERT_FATAL(end < size);
        CU_ASSERT_EQUAL(link, load + (end + 1) - 2); /* links to the next line */
        memset(lines[n], 0, 40);
        memcpy(lines[n], prg + pos + 2, end - pos - 1 < 40 ? end - pos - 1 : 39);
        n++;
        pos = end + 1;
    }
    CU_ASSERT_EQUAL(pos + 2, size); /* 00 00 ends the program */
    return n;
}

static void test_directory_listing(void)
{
    fixture f;
    fixture_build(&f, 35, false);
    /* Big block counts to check the column alignment. */
    uint8_t *dir = tb_d64_sector(&f.b, 18, 1);
    dir[32 * 2 + 0x1e] = 123; /* TINY: 123 blocks */
    dir[32 * 5 + 0x1e] = 0xe8; /* GAME2: 1000 blocks */
    dir[32 * 5 + 0x1f] = 0x03;
    mh_d64 *d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    uint8_t *prg;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_d64_directory(d, 0x0801, NULL, 0, &prg, &size, NULL), MH_OK);
    CU_ASSERT_EQUAL(size, 2 + 30 + 6 * 32 + 30 + 2);
    uint8_t lines[16][40];
    CU_ASSERT_EQUAL_FATAL(walk_basic(prg, size, 0x0801, lines), 8);
    /* line number (2 bytes) + text + NUL, as the 1541 sends it */
    static const char header[] = "\x00\x00\x12\"TEST DISK       \" MH 2A";
    CU_ASSERT(memcmp(lines[0], header, sizeof header) == 0);
    static const struct { unsigned blocks; const char *text; } want[6] = {
        {12, "  \"GAME\"             PRG   "},
        {1, "   \"README\"           SEQ  "},
        {123, " \"TINY\"             PRG    "},
        {1, "   \"SPLAT\"           *PRG  "},
        {2, "   \"LOCKED\"           PRG< "},
        {1000, " \"GAME2\"            PRG    "},
    };
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL(lines[1 + i][0] | lines[1 + i][1] << 8, want[i].blocks);
        char text[40] = {0};
        memcpy(text, lines[1 + i] + 2, 27);
        CU_ASSERT_EQUAL(strlen(text), 27);
        if (strcmp(text, want[i].text) != 0) fprintf(stderr, "\nline %d: [%s] want [%s]\n", i, text, want[i].text);
        CU_ASSERT_STRING_EQUAL(text, want[i].text);
    }
    CU_ASSERT_EQUAL(lines[7][0] | lines[7][1] << 8, d->blocks_free);
    CU_ASSERT(memcmp(lines[7] + 2, "BLOCKS FREE.             ", 25) == 0);
    CU_ASSERT_EQUAL(lines[7][27], 0);
    /* At $0401 only the address and links differ. */
    uint8_t *prg4;
    size_t size4;
    CU_ASSERT_EQUAL_FATAL(mh_d64_directory(d, 0x0401, NULL, 0, &prg4, &size4, NULL), MH_OK);
    CU_ASSERT_EQUAL_FATAL(size4, size);
    uint8_t lines4[16][40];
    CU_ASSERT_EQUAL(walk_basic(prg4, size4, 0x0401, lines4), 8);
    CU_ASSERT(memcmp(lines, lines4, sizeof lines4[0] * 8) == 0);
    free(prg4);
    free(prg);

    /* Patterns and type filters. */
    uint8_t *sub;
    size_t sub_size;
    CU_ASSERT_EQUAL(mh_d64_directory(d, 0x0801, P("GAME*"), 5, &sub, &sub_size, NULL), MH_OK);
    CU_ASSERT_EQUAL(walk_basic(sub, sub_size, 0x0801, lines), 4);
    free(sub);
    CU_ASSERT_EQUAL(mh_d64_directory(d, 0x0801, P("*=S"), 3, &sub, &sub_size, NULL), MH_OK);
    CU_ASSERT_EQUAL(walk_basic(sub, sub_size, 0x0801, lines), 3);
    CU_ASSERT(memcmp(lines[1] + 2, "   \"README\"", 11) == 0);
    free(sub);
    CU_ASSERT_EQUAL(mh_d64_load(d, P("$:NONE"), 6, 0x0801, &sub, &sub_size, NULL, NULL), MH_OK);
    CU_ASSERT_EQUAL(walk_basic(sub, sub_size, 0x0801, lines), 2);
    free(sub);
    CU_ASSERT_EQUAL(mh_d64_load(d, P("$0:T*=P"), 7, 0x0801, &sub, &sub_size, NULL, NULL), MH_OK);
    CU_ASSERT_EQUAL(walk_basic(sub, sub_size, 0x0801, lines), 3);
    free(sub);
    /* Too close to $FFFF. */
    mh_media_error e;
    CU_ASSERT_EQUAL(mh_d64_directory(d, 0xff10, NULL, 0, &sub, &sub_size, &e), MH_ERR_LIMIT);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: the directory listing (6 entries, 254 bytes) does not fit in memory from $FF10");
    CU_ASSERT_EQUAL(mh_d64_directory(d, 0xff02, P("NONE"), 4, &sub, &sub_size, &e), MH_OK);
    free(sub);
    mh_d64_free(d);
    fixture_free(&f);
}

static void test_full_directory(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "FULL", "FF");
    char name[17];
    for (int i = 0; i < 144; i++) {
        snprintf(name, sizeof name, "FILE%03d", i);
        uint8_t data[3] = {0x01, 0x08, (uint8_t)i};
        CU_ASSERT_PTR_NOT_NULL(tb_d64_add_file(&b, name, 0x82, data, 3));
    }
    mh_d64 *d = mh_d64_open(b.img, b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->entry_count, 144);
    const mh_d64_entry *e = mh_d64_find(d, P("FILE143"), 7);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->dir_sector, 18);
    CU_ASSERT_EQUAL(e->slot, 143);
    uint8_t *data;
    size_t size;
    CU_ASSERT_EQUAL(mh_d64_load(d, P("FILE1?0"), 7, 0x0801, &data, &size, NULL, NULL), MH_OK);
    CU_ASSERT_EQUAL(size, 3);
    CU_ASSERT_EQUAL(data[2], 100);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_directory(d, 0x0801, NULL, 0, &data, &size, NULL), MH_OK);
    CU_ASSERT_EQUAL(size, 2 + 30 + 144 * 32 + 30 + 2);
    free(data);
    CU_ASSERT_EQUAL(mh_d64_validate(d, NULL), MH_OK);
    mh_d64_free(d);
    tb_d64_free(&b);
}

static void test_scratched_and_odd_types(void)
{
    tb_d64 b;
    tb_d64_init(&b, 35, false, "X", "XX");
    const uint8_t data[3] = {1, 8, 0};
    tb_d64_add_file(&b, "GONE", 0x82, data, 3)[2] = 0x00; /* scratched: not listed */
    tb_d64_add_file(&b, "ODD", 0x87, data, 3);            /* type 7 */
    tb_d64_add_file(&b, "DELETED", 0x80, data, 3);        /* closed DEL */
    mh_d64 *d = mh_d64_open(b.img, b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL_FATAL(d->entry_count, 2);
    CU_ASSERT_STRING_EQUAL(d->entries[0].name, "ODD");
    CU_ASSERT_EQUAL(d->entries[0].slot, 1);
    CU_ASSERT_EQUAL(d->entries[0].index, 0);
    CU_ASSERT_EQUAL(d->entries[1].type, MH_CBM_DEL);
    uint8_t *prg;
    size_t size;
    CU_ASSERT_EQUAL(mh_d64_directory(d, 0x0801, NULL, 0, &prg, &size, NULL), MH_OK);
    uint8_t lines[8][40];
    CU_ASSERT_EQUAL(walk_basic(prg, size, 0x0801, lines), 4);
    CU_ASSERT(memcmp(lines[1] + 2, "   \"ODD\"              ???  ", 27) == 0);
    CU_ASSERT(memcmp(lines[2] + 2, "   \"DELETED\"          DEL  ", 27) == 0);
    free(prg);
    mh_d64_free(d);
    tb_d64_free(&b);
}

static void test_listing_nul_bytes(void)
{
    /* A $00 in a name or the disk id would end a BASIC line early: shown as '?'. */
    tb_d64 b;
    tb_d64_init(&b, 35, false, "NUL", "N");
    const uint8_t data[3] = {1, 8, 0};
    uint8_t *e = tb_d64_add_file(&b, "A", 0x82, data, 3);
    e[5 + 1] = 0x00; /* "A" $00 $A0 "B": the name is A $00 */
    e[5 + 3] = 'B';  /* hidden bytes after the name are listed too */
    mh_d64 *d = mh_d64_open(b.img, b.size, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->entries[0].name_length, 2);
    CU_ASSERT_STRING_EQUAL(d->entries[0].name, "A?");
    uint8_t *prg;
    size_t size;
    CU_ASSERT_EQUAL_FATAL(mh_d64_directory(d, 0x0801, NULL, 0, &prg, &size, NULL), MH_OK);
    uint8_t lines[4][40];
    CU_ASSERT_EQUAL(walk_basic(prg, size, 0x0801, lines), 3);
    CU_ASSERT(memcmp(lines[0] + 2, "\x12\"NUL             \" N? 2A", 25) == 0);
    CU_ASSERT(memcmp(lines[1] + 2, "   \"A?\"B", 8) == 0);
    free(prg);
    mh_d64_free(d);
    tb_d64_free(&b);
}

static void test_validate(void)
{
    fixture f;
    fixture_build(&f, 35, false);
    mh_media_error e;
    mh_d64 *d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_EQUAL(mh_d64_validate(d, &e), MH_OK);
    CU_ASSERT_EQUAL(e.status, MH_OK);
    mh_d64_free(d);
    /* GAME2 starts inside GAME's chain: cross-linked. */
    uint8_t *dir = tb_d64_sector(&f.b, 18, 1);
    dir[32 * 5 + 3] = 1;
    dir[32 * 5 + 4] = 5;
    d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_EQUAL(mh_d64_validate(d, &e), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: directory entry 6 (\"GAME2\"): block 1 is track 1 sector 5, which directory entry 1 (\"GAME\") uses too (cross-linked)");
    mh_d64_free(d);
    /* A file whose chain starts on the directory. */
    dir[32 * 5 + 3] = 18;
    dir[32 * 5 + 4] = 1;
    d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_EQUAL(mh_d64_validate(d, &e), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: directory entry 6 (\"GAME2\"): block 1 is track 18 sector 1, directory sector 1");
    mh_d64_free(d);
    dir[32 * 5 + 4] = 0;
    d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_EQUAL(mh_d64_validate(d, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(e.message, "track 18 sector 0, the BAM");
    mh_d64_free(d);
    /* A bad link is reported by validate too. */
    dir[32 * 5 + 3] = 36;
    d = mh_d64_open(f.b.img, f.b.size, 0, NULL);
    CU_ASSERT_EQUAL(mh_d64_validate(d, &e), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(e.message, "D64: directory entry 6 (\"GAME2\") points to track 36, the disk has 35 tracks");
    mh_d64_free(d);
    fixture_free(&f);
}

MH_SUITE("media.d64", NULL, NULL, MH_TEST(test_geometry), MH_TEST(test_open_header),
         MH_TEST(test_sizes_and_error_info), MH_TEST(test_read_files),
         MH_TEST(test_empty_and_full_block_files), MH_TEST(test_find), MH_TEST(test_load),
         MH_TEST(test_directory_listing), MH_TEST(test_full_directory),
         MH_TEST(test_scratched_and_odd_types), MH_TEST(test_listing_nul_bytes),
         MH_TEST(test_validate))
