/* fuzz_media.c - libFuzzer target for the SDK media parsers (mh_media) and
 * the PNG writer (mh_image).
 *
 * The first input byte chooses how the rest is used; each use checks
 * invariants and aborts on a violation (ASan/UBSan catch memory and
 * undefined-behaviour bugs):
 *   0. raw bytes to mh_prg_parse, mh_t64_open, mh_crt_open and
 *      mh_media_detect;
 *   1. a T64: the bytes with a T64 signature forced over the first 32;
 *   2. a CRT: the bytes with the CRT signature forced over the first 16;
 *   3. a D64: a valid disk (a few files, 35 or 40 tracks, with or without
 *      error info) with the bytes laid over tracks 17-19 - the BAM, the
 *      directory and the blocks around them - so links, loops and entries
 *      are the fuzzer's to choose without 170 KB inputs;
 *   4. the PNG writer: size, format, scale and palette from the first
 *      bytes, pixels from the rest; encoded, decoded again with the test
 *      decoder (tests/unit/png_decode.c), compared.
 * On every parsed image, every accessor runs: entries, file reads, the "$"
 * listing (its BASIC links are walked), LOAD by pattern, validation, SAVE
 * (a new file, an "@0:" replace, a SEQ) read back from the new image, the
 * T64 PRG extraction, the CRT ROM images.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_media
 *   run:   build-fuzz/bin/fuzz_media -max_total_time=60 -max_len=16384 CORPUS_DIR
 */
#include <mcphost/media_crt.h>
#include <mcphost/media_d64.h>
#include <mcphost/media_t64.h>
#include <mcphost/png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_decode.h"
#include "fuzz_check.h"

static void check_error(mh_status st, const mh_media_error *e, const char *prefix)
{
    CHECK(st != MH_OK);
    CHECK(e->status == st);
    CHECK(strncmp(e->message, prefix, strlen(prefix)) == 0 || st == MH_ERR_NO_MEMORY);
    CHECK(memchr(e->message, '\0', sizeof e->message) != NULL);
}

/* ---- PRG ---------------------------------------------------------------- */

static void fuzz_prg(const uint8_t *data, size_t size)
{
    mh_prg prg;
    mh_media_error e;
    mh_status st = mh_prg_parse(data, size, &prg, &e);
    if (st != MH_OK) {
        check_error(st, &e, "PRG: ");
        return;
    }
    CHECK(size >= 3 && prg.size == size - 2 && prg.data == data + 2);
    CHECK(prg.end_address == prg.load_address + prg.size && prg.end_address <= 0x10000);
}

/* ---- T64 ---------------------------------------------------------------- */

static void fuzz_t64(const uint8_t *data, size_t size)
{
    mh_media_error e;
    mh_t64 *t = mh_t64_open(data, size, &e);
    if (!t) {
        check_error(e.status, &e, "T64: ");
        return;
    }
    CHECK(t->entry_count >= 1);
    for (size_t i = 0; i < t->entry_count; i++) {
        const mh_t64_entry *en = &t->entries[i];
        CHECK(en->entry_type != 0);
        CHECK(en->size >= 1 && en->end_address == en->start_address + en->size);
        CHECK(en->end_address <= 0x10000);
        CHECK(en->offset >= 64 && (uint64_t)en->offset + en->size <= t->image_size);
        CHECK(en->data == t->image + en->offset);
        CHECK(strlen(en->name) == en->name_length);
        CHECK((mh_t64_find(t, en->name_raw, en->name_length) != NULL) == (en->name_length > 0));
        uint8_t *prg;
        size_t n;
        if (mh_t64_read_prg(t, en, &prg, &n, &e) == MH_OK) {
            CHECK(n == en->size + 2u && prg[0] == (en->start_address & 0xff));
            CHECK(memcmp(prg + 2, en->data, en->size) == 0);
            free(prg);
        }
    }
    CHECK(mh_t64_find(t, (const uint8_t *)"*", 1) == &t->entries[0]);
    mh_t64_free(t);
}

/* ---- CRT ---------------------------------------------------------------- */

static void fuzz_crt(const uint8_t *data, size_t size)
{
    mh_media_error e;
    mh_crt *crt = mh_crt_open(data, size, &e);
    if (!crt) {
        check_error(e.status, &e, "CRT: ");
        return;
    }
    CHECK(crt->chip_count >= 1 && crt->chip_count <= MH_CRT_MAX_CHIPS);
    CHECK(crt->trailing_bytes < 16);
    CHECK(crt->hardware_name && strlen(crt->name) <= 32);
    for (size_t i = 0; i < crt->chip_count; i++) {
        const mh_crt_chip *c = &crt->chips[i];
        CHECK(c->size >= 1 && (uint32_t)c->load_address + c->size <= 0x10000);
        CHECK(c->type <= MH_CRT_CHIP_EEPROM);
        if (c->data) CHECK(c->data >= crt->image && c->data + c->size <= crt->image + crt->image_size);
        else CHECK(c->type == MH_CRT_CHIP_RAM);
        /* No overlaps within a bank (checked pairwise on small files). */
        for (size_t k = 0; k < i && crt->chip_count <= 64; k++) {
            const mh_crt_chip *o = &crt->chips[k];
            if (o->bank != c->bank) continue;
            CHECK((uint32_t)o->load_address + o->size <= c->load_address ||
                  (uint32_t)c->load_address + c->size <= o->load_address);
        }
    }
    static uint8_t roml[8192], romh[8192];
    bool has_l, has_h;
    mh_status st = mh_crt_generic_roms(crt, roml, romh, &has_l, &has_h, &e);
    CHECK((st == MH_OK) == (crt->kind != MH_CRT_OTHER));
    if (st == MH_OK) CHECK(crt->hardware_type == 0 && (has_l || has_h));
    mh_crt_free(crt);
}

/* ---- D64 ---------------------------------------------------------------- */

static unsigned sectors_in(unsigned t) { return t <= 17 ? 21 : t <= 24 ? 19 : t <= 30 ? 18 : 17; }

static size_t offset_of(unsigned track, unsigned sector)
{
    size_t off = 0;
    for (unsigned t = 1; t < track; t++) off += sectors_in(t) * 256u;
    return off + sector * 256u;
}

static uint8_t *base_disk;

/* A 40-track disk with error info: BAM, "FUZZ" and four files chained
 * across tracks 17, 19 and 20, so a 35-track prefix is a valid disk too. */
static void build_base(void)
{
    base_disk = calloc(1, MH_D64_SIZE_40_ERRORS);
    memset(base_disk + 768 * 256, 1, 768);
    uint8_t *bam = base_disk + offset_of(18, 0);
    bam[0] = 18;
    bam[1] = 1;
    bam[2] = 0x41;
    for (unsigned t = 1; t <= 35; t++) bam[4 * t] = (uint8_t)sectors_in(t);
    memset(bam + 0x90, 0xa0, 0x1b);
    memcpy(bam + 0x90, "FUZZ", 4);
    memcpy(bam + 0xa2, "FZ", 2);
    memcpy(bam + 0xa5, "2A", 2);
    uint8_t *dir = base_disk + offset_of(18, 1);
    dir[1] = 0xff;
    static const char *const names[4] = {"GAME", "LOADER", "DATA", "README"};
    static const uint8_t types[4] = {0x82, 0x82, 0x81, 0xc2};
    static const uint8_t first[4][2] = {{17, 0}, {17, 10}, {19, 0}, {20, 5}};
    for (int f = 0; f < 4; f++) {
        uint8_t *en = dir + 32 * f;
        en[2] = types[f];
        en[3] = first[f][0];
        en[4] = first[f][1];
        memset(en + 5, 0xa0, 16);
        memcpy(en + 5, names[f], strlen(names[f]));
        en[0x1e] = 3;
        /* three blocks: s, s+1, s+2 on the same track */
        for (unsigned b = 0; b < 3; b++) {
            uint8_t *sec = base_disk + offset_of(first[f][0], first[f][1] + b);
            sec[0] = b < 2 ? first[f][0] : 0;
            sec[1] = b < 2 ? (uint8_t)(first[f][1] + b + 1) : 100;
            sec[2] = 0x01;
            sec[3] = 0x08;
        }
    }
}

/* Walks the "$" program: every link must point at the next line. */
static void check_listing(const uint8_t *prg, size_t size, uint16_t load)
{
    CHECK(size >= 2 + 30 + 30 + 2 && (prg[0] | prg[1] << 8) == load);
    CHECK(size - 2 <= 0x10000u - load);
    size_t pos = 2;
    for (;;) {
        CHECK(pos + 2 <= size);
        unsigned link = prg[pos] | prg[pos + 1] << 8;
        if (link == 0) break;
        size_t end = pos + 4;
        while (end < size && prg[end] != 0) end++;
        CHECK(end < size && link == load + end + 1 - 2);
        pos = end + 1;
    }
    CHECK(pos + 2 == size);
}

/* SAVE onto the damaged disk: refused with a "D64: " message, or a new
 * image that opens, validates and gives the file back byte for byte. */
static void fuzz_d64_save(const mh_d64 *d, const uint8_t *data, size_t size)
{
    static const char *const names[] = {"NEW", "@0:GAME", "0:DATA,S"};
    size_t file_size = size > 1200 ? 1200 : size;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const uint8_t *name = (const uint8_t *)names[k];
        uint8_t *img = NULL;
        size_t img_size = 0;
        mh_d64_save_result r;
        mh_media_error e;
        mh_status st = mh_d64_save(d, name, strlen(names[k]), data, file_size, &img, &img_size, &r, &e);
        if (st != MH_OK) {
            check_error(st, &e, "D64: ");
            CHECK(img == NULL && img_size == 0);
            continue;
        }
        CHECK(img_size == d->image_size && r.dos_error == 0);
        mh_d64 *after = mh_d64_open(img, img_size, 0, &e);
        free(img);
        CHECK(after != NULL);
        CHECK(mh_d64_validate(after, &e) == MH_OK);
        const char *plain = names[k][0] == '@' ? names[k] + 3 : names[k][1] == ':' ? names[k] + 2 : names[k];
        size_t plain_len = strcspn(plain, ",");
        const mh_d64_entry *en = NULL;
        for (size_t i = 0; i < after->entry_count && !en; i++)
            if (after->entries[i].name_length == plain_len &&
                memcmp(after->entries[i].name_raw, plain, plain_len) == 0)
                en = &after->entries[i];
        CHECK(en != NULL && en->closed && en->track == r.track && en->sector == r.sector);
        uint8_t *bytes = NULL;
        size_t len = 0;
        CHECK(mh_d64_read_file(after, en, &bytes, &len, &e) == MH_OK);
        CHECK(len == file_size && (file_size == 0 || memcmp(bytes, data, file_size) == 0));
        free(bytes);
        mh_d64_free(after);
    }
}

static void fuzz_d64(const uint8_t *data, size_t size)
{
    static const size_t sizes[4] = {MH_D64_SIZE_35, MH_D64_SIZE_35_ERRORS, MH_D64_SIZE_40,
                                    MH_D64_SIZE_40_ERRORS};
    if (size < 1) return;
    if (!base_disk) build_base();
    size_t img_size = sizes[data[0] & 3];
    unsigned flags = data[0] & 4 ? MH_D64_OPEN_PARTIAL : 0;
    size_t at = data[0] & 8 ? offset_of(18, 0) : offset_of(17, 0);
    data++;
    size--;
    uint8_t *img = malloc(img_size);
    memcpy(img, base_disk, img_size);
    if (img_size == MH_D64_SIZE_35_ERRORS) memset(img + 683 * 256, 1, 683);
    size_t n = size < img_size - at ? size : img_size - at;
    if (n > 3 * 21 * 256) n = 3 * 21 * 256;
    memcpy(img + at, data, n);

    mh_media_error e;
    mh_d64 *d = mh_d64_open(img, img_size, flags, &e);
    free(img);
    if (!d) {
        check_error(e.status, &e, "D64: ");
        CHECK(!(flags & MH_D64_OPEN_PARTIAL) || e.status == MH_ERR_NO_MEMORY);
        return;
    }
    CHECK(d->entry_count <= (size_t)d->sectors * 8);
    CHECK(strlen(d->name) <= 16 && strlen(d->id) == 5);
    for (size_t i = 0; i < d->entry_count; i++) {
        const mh_d64_entry *en = &d->entries[i];
        CHECK(en->index == i && en->type_byte != 0 && en->name_length <= 16);
        CHECK(strlen(en->name) == en->name_length);
        const mh_d64_entry *found = mh_d64_find(d, en->name_raw, en->name_length);
        CHECK(en->name_length == 0 ? found == NULL : (found && found <= en));
        uint8_t *bytes;
        size_t len;
        mh_status st = mh_d64_read_file(d, en, &bytes, &len, &e);
        if (st == MH_OK) {
            CHECK(len <= (size_t)d->sectors * 254);
            free(bytes);
        } else {
            check_error(st, &e, "D64: ");
        }
    }
    uint8_t *prg;
    size_t len;
    static const uint16_t loads[3] = {0x0801, 0x0401, 0xf000};
    for (int k = 0; k < 3; k++) {
        mh_status st = mh_d64_directory(d, loads[k], NULL, 0, &prg, &len, &e);
        if (st == MH_OK) {
            check_listing(prg, len, loads[k]);
            free(prg);
        } else {
            CHECK(st == MH_ERR_LIMIT || st == MH_ERR_NO_MEMORY);
        }
    }
    /* LOAD with the input's first bytes as a name, and with fixed ones. */
    size_t name_len = size < 20 ? size : 20;
    const mh_d64_entry *en;
    if (mh_d64_load(d, data, name_len, 0x0801, &prg, &len, &en, &e) == MH_OK) free(prg);
    static const char *const names[] = {"*", "$", "$:G*=P", "0:GAME", "DATA,S", "?E*"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        mh_status st = mh_d64_load(d, (const uint8_t *)names[k], strlen(names[k]), 0x0801, &prg, &len, &en, &e);
        if (st == MH_OK) {
            CHECK(names[k][0] == '$' ? en == NULL : en != NULL);
            free(prg);
        } else {
            check_error(st, &e, "D64: ");
        }
    }
    mh_status st = mh_d64_validate(d, &e);
    if (st != MH_OK) check_error(st, &e, "D64: ");
    for (unsigned t = 0; t <= 41; t++) {
        const uint8_t *sec = mh_d64_sector(d, t, 0);
        CHECK((sec != NULL) == (t >= 1 && t <= d->tracks));
        CHECK(mh_d64_sector_error(d, t, 0) == (sec ? (d->error_info ? d->error_info[offset_of(t, 0) / 256] : 1) : 0));
    }
    fuzz_d64_save(d, data, size);
    mh_d64_free(d);
}

/* ---- PNG ---------------------------------------------------------------- */

static void fuzz_png(const uint8_t *data, size_t size)
{
    if (size < 6) return;
    static const unsigned bytes[5] = {1, 3, 4, 4, 4};
    mh_png_desc d = {0};
    d.format = (mh_png_format)(data[0] % 6); /* 5 is invalid on purpose */
    d.width = 1 + data[1] % 48;
    d.height = 1 + data[2] % 48;
    d.scale_x = data[3] & 3;
    d.scale_y = (data[3] >> 2) & 3;
    d.level = (data[3] >> 4) % 10;
    d.palette_size = 1 + data[4];
    bool strict = data[5] & 1; /* otherwise indices are folded into the palette */
    data += 6;
    size -= 6;
    unsigned bpp = d.format < 5 ? bytes[d.format] : 1;
    size_t stride = (size_t)d.width * bpp + (size ? data[0] & 3 : 0);
    size_t total = stride * d.height;
    uint8_t *px = malloc(total);
    for (size_t i = 0; i < total; i++) px[i] = size ? data[i % size] : (uint8_t)i;
    if (d.format == MH_PNG_INDEXED8 && !strict)
        for (size_t i = 0; i < total; i++) px[i] = (uint8_t)(px[i] % d.palette_size);
    uint8_t palette[768];
    for (int i = 0; i < 768; i++) palette[i] = (uint8_t)(i * 13);
    d.pixels = px;
    d.stride = stride;
    d.palette = palette;
    uint8_t *png;
    size_t png_size;
    mh_status st = mh_png_encode(&d, &png, &png_size);
    if (d.format > MH_PNG_ARGB32) CHECK(st == MH_ERR_INVALID_ARGUMENT);
    if (st != MH_OK) {
        CHECK(st == MH_ERR_INVALID_ARGUMENT);
        free(px);
        return;
    }
    mh_test_png img;
    char err[200];
    CHECK(mh_test_png_decode(png, png_size, &img, err, sizeof err) == 0);
    unsigned sx = d.scale_x ? d.scale_x : 1, sy = d.scale_y ? d.scale_y : 1;
    CHECK(img.width == d.width * sx && img.height == d.height * sy);
    for (unsigned y = 0; y < img.height; y++)
        for (unsigned x = 0; x < img.width; x++) {
            const uint8_t *in = px + (y / sy) * stride + (x / sx) * bpp;
            const uint8_t *out = img.pixels + ((size_t)y * img.width + x) * img.channels;
            uint8_t want[4];
            if (d.format == MH_PNG_XRGB32 || d.format == MH_PNG_ARGB32) {
                uint32_t v;
                memcpy(&v, in, 4);
                want[0] = (uint8_t)(v >> 16);
                want[1] = (uint8_t)(v >> 8);
                want[2] = (uint8_t)v;
                want[3] = (uint8_t)(v >> 24);
                in = want;
            }
            CHECK(memcmp(out, in, img.channels) == 0);
        }
    if (d.format == MH_PNG_INDEXED8)
        CHECK(img.palette_size == d.palette_size && memcmp(img.palette, palette, 3 * d.palette_size) == 0);
    mh_test_png_free(&img);
    free(png);
    free(px);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t mode = data[0];
    data++;
    size--;
    uint8_t *copy = malloc(size ? size : 1); /* exact size: reads past it are caught */
    switch (mode % 5) {
    case 0:
        memcpy(copy, data, size);
        fuzz_prg(copy, size);
        fuzz_t64(copy, size);
        fuzz_crt(copy, size);
        (void)mh_media_detect("x.d64", copy, size);
        break;
    case 1: {
        static const char sig[32] = "C64 tape image file";
        size_t n = size < 32 ? 32 : size;
        uint8_t *t = malloc(n);
        memset(t, 0, n);
        memcpy(t, data, size);
        memcpy(t, sig, 32);
        fuzz_t64(t, n);
        free(t);
        break;
    }
    case 2: {
        size_t n = size < 16 ? 16 : size;
        uint8_t *c = malloc(n);
        memset(c, 0, n);
        memcpy(c, data, size);
        memcpy(c, "C64 CARTRIDGE   ", 16);
        fuzz_crt(c, n);
        free(c);
        break;
    }
    case 3:
        fuzz_d64(data, size);
        break;
    default:
        fuzz_png(data, size);
        break;
    }
    free(copy);
    return 0;
}
