/* tests/unit/test_media_build.c - image builders for the media suites
 * (test_media_build.h). */
#include "test_media_build.h"

#include <stdlib.h>
#include <string.h>

unsigned tb_d64_sectors(unsigned track)
{
    return track <= 17 ? 21 : track <= 24 ? 19 : track <= 30 ? 18 : 17;
}

size_t tb_d64_offset(unsigned track, unsigned sector)
{
    size_t off = 0;
    for (unsigned t = 1; t < track; t++) off += tb_d64_sectors(t) * 256u;
    return off + sector * 256u;
}

uint8_t *tb_d64_sector(tb_d64 *b, unsigned track, unsigned sector)
{
    return b->img + tb_d64_offset(track, sector);
}

static void bam_use(tb_d64 *b, unsigned track, unsigned sector)
{
    uint8_t *bam = tb_d64_sector(b, 18, 0);
    if (track > 35) return;
    uint8_t *t = bam + 4 * track;
    if (t[1 + sector / 8] & (1u << (sector % 8))) {
        t[1 + sector / 8] &= (uint8_t)~(1u << (sector % 8));
        t[0]--;
    }
}

static void put_name(uint8_t *dst, const char *name, size_t n)
{
    memset(dst, 0xa0, n);
    size_t len = strlen(name);
    memcpy(dst, name, len < n ? len : n);
}

void tb_d64_init(tb_d64 *b, unsigned tracks, bool error_info, const char *name, const char *id)
{
    memset(b, 0, sizeof *b);
    b->tracks = tracks;
    size_t sectors = tracks == 35 ? 683 : 768;
    b->size = sectors * 256 + (error_info ? sectors : 0);
    b->img = calloc(1, b->size);
    if (error_info) memset(b->img + sectors * 256, 1, sectors);
    uint8_t *bam = tb_d64_sector(b, 18, 0);
    bam[0] = 18;
    bam[1] = 1;
    bam[2] = 0x41;
    for (unsigned t = 1; t <= 35; t++) {
        unsigned n = tb_d64_sectors(t);
        bam[4 * t] = (uint8_t)n;
        uint32_t bits = (1u << n) - 1;
        bam[4 * t + 1] = (uint8_t)bits;
        bam[4 * t + 2] = (uint8_t)(bits >> 8);
        bam[4 * t + 3] = (uint8_t)(bits >> 16);
    }
    put_name(bam + 0x90, name, 16);
    bam[0xa0] = bam[0xa1] = 0xa0;
    bam[0xa2] = (uint8_t)id[0];
    bam[0xa3] = (uint8_t)id[1];
    bam[0xa4] = 0xa0;
    bam[0xa5] = '2';
    bam[0xa6] = 'A';
    memset(bam + 0xa7, 0xa0, 4);
    bam_use(b, 18, 0);
    bam_use(b, 18, 1);
    uint8_t *dir = tb_d64_sector(b, 18, 1);
    dir[0] = 0;
    dir[1] = 0xff;
    b->dir_sectors = 1;
    b->next_track = 1;
    b->next_sector = 0;
}

/* The 1541's directory sector order on track 18. */
static const uint8_t dir_order[18] = {1, 4, 7, 10, 13, 16, 2, 5, 8, 11, 14, 17, 3, 6, 9, 12, 15, 18};

static void next_data_sector(tb_d64 *b, unsigned *t, unsigned *s)
{
    *t = b->next_track;
    *s = b->next_sector;
    if (++b->next_sector >= tb_d64_sectors(b->next_track)) {
        b->next_sector = 0;
        if (++b->next_track == 18) b->next_track = 19;
    }
}

uint8_t *tb_d64_add_file(tb_d64 *b, const char *name, uint8_t type_byte, const uint8_t *data,
                         size_t size)
{
    unsigned slot = b->entries % 8, dsec = b->entries / 8;
    if (dsec >= 18) return NULL;
    if (dsec >= b->dir_sectors) { /* link a new directory sector */
        uint8_t *prev = tb_d64_sector(b, 18, dir_order[dsec - 1]);
        prev[0] = 18;
        prev[1] = dir_order[dsec];
        uint8_t *cur = tb_d64_sector(b, 18, dir_order[dsec]);
        memset(cur, 0, 256);
        cur[0] = 0;
        cur[1] = 0xff;
        bam_use(b, 18, dir_order[dsec]);
        b->dir_sectors++;
    }
    uint8_t *e = tb_d64_sector(b, 18, dir_order[dsec]) + 32 * slot;
    b->entries++;
    unsigned t, s, blocks = 0;
    next_data_sector(b, &t, &s);
    e[2] = type_byte;
    e[3] = (uint8_t)t;
    e[4] = (uint8_t)s;
    put_name(e + 5, name, 16);
    size_t done = 0;
    for (;;) {
        uint8_t *sec = tb_d64_sector(b, t, s);
        bam_use(b, t, s);
        blocks++;
        size_t n = size - done > 254 ? 254 : size - done;
        if (n) memcpy(sec + 2, data + done, n);
        done += n;
        if (done == size) {
            sec[0] = 0;
            sec[1] = (uint8_t)(n + 1);
            break;
        }
        next_data_sector(b, &t, &s);
        sec[0] = (uint8_t)t;
        sec[1] = (uint8_t)s;
    }
    e[0x1e] = (uint8_t)(blocks & 0xff);
    e[0x1f] = (uint8_t)(blocks >> 8);
    return e;
}

void tb_d64_free(tb_d64 *b)
{
    free(b->img);
    b->img = NULL;
}

static void le16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)(v >> 8);
}

static void be16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)(v & 0xff);
}

static void be32(uint8_t *p, uint32_t v)
{
    be16(p, v >> 16);
    be16(p + 2, v & 0xffff);
}

uint8_t *tb_t64_build(const char *signature, unsigned max_slots, const tb_t64_file *files,
                      size_t count, size_t *size)
{
    size_t dir = 64 + 32 * (size_t)(max_slots ? max_slots : 1);
    size_t total = dir;
    for (size_t i = 0; i < count; i++) total += files[i].size;
    uint8_t *t = calloc(1, total);
    memcpy(t, signature, strlen(signature) < 32 ? strlen(signature) : 32);
    le16(t + 0x20, 0x0101);
    le16(t + 0x22, max_slots);
    le16(t + 0x24, (unsigned)count);
    memset(t + 0x28, ' ', 24);
    memcpy(t + 0x28, "TEST TAPE", 9);
    size_t off = dir;
    for (size_t i = 0; i < count; i++) {
        uint8_t *e = t + 64 + 32 * i;
        e[0] = 1;
        e[1] = 0x82;
        le16(e + 2, files[i].start);
        le16(e + 4, files[i].end);
        e[8] = (uint8_t)(off & 0xff);
        e[9] = (uint8_t)(off >> 8 & 0xff);
        e[10] = (uint8_t)(off >> 16 & 0xff);
        e[11] = (uint8_t)(off >> 24);
        memset(e + 16, ' ', 16);
        memcpy(e + 16, files[i].name, strlen(files[i].name));
        memcpy(t + off, files[i].data, files[i].size);
        off += files[i].size;
    }
    *size = total;
    return t;
}

uint8_t *tb_crt_build(uint16_t hw_type, uint8_t exrom, uint8_t game, const char *name,
                      const tb_crt_chip *chips, size_t count, size_t *size)
{
    size_t total = 64;
    for (size_t i = 0; i < count; i++) total += 16 + (chips[i].no_data ? 0 : chips[i].size);
    uint8_t *c = calloc(1, total);
    memcpy(c, "C64 CARTRIDGE   ", 16);
    be32(c + 0x10, 0x40);
    be16(c + 0x14, 0x0100);
    be16(c + 0x16, hw_type);
    c[0x18] = exrom;
    c[0x19] = game;
    memcpy(c + 0x20, name, strlen(name) < 32 ? strlen(name) : 32);
    size_t pos = 64;
    for (size_t i = 0; i < count; i++) {
        const tb_crt_chip *ch = &chips[i];
        size_t data = ch->no_data ? 0 : ch->size;
        uint8_t *p = c + pos;
        memcpy(p, "CHIP", 4);
        be32(p + 4, ch->packet_length ? ch->packet_length : (uint32_t)(16 + data));
        be16(p + 8, ch->type);
        be16(p + 10, ch->bank);
        be16(p + 12, ch->load);
        be16(p + 14, ch->size);
        for (size_t k = 0; k < data; k++) p[16 + k] = (uint8_t)(ch->fill + k);
        pos += 16 + data;
    }
    *size = total;
    return c;
}

uint32_t tb_rand(uint32_t *state)
{
    uint32_t x = *state ? *state : 0x9e3779b9u; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

uint8_t *tb_dup(const uint8_t *p, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (n) memcpy(d, p, n);
    return d;
}
