/* crt.c - C64 cartridge images: header, CHIP packets, the plain layouts
 * (see mcphost/media_crt.h). */
#include "media_internal.h"
#include "mcphost/media_crt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char signature[16] = {'C', '6', '4', ' ', 'C', 'A', 'R', 'T',
                                   'R', 'I', 'D', 'G', 'E', ' ', ' ', ' '};

/* "CHIP packet 3 at byte offset 16448" */
static void chip_label(char *buf, size_t size, size_t number, size_t offset)
{
    snprintf(buf, size, "CHIP packet %zu at byte offset %zu", number, offset);
}

static void range_label(char *buf, size_t size, const mh_crt_chip *c)
{
    snprintf(buf, size, "bank %u, $%04X-$%04X", c->bank, c->load_address,
             (unsigned)(c->load_address + c->size - 1u));
}

static int compare_chips(const void *a, const void *b)
{
    const mh_crt_chip *x = *(const mh_crt_chip *const *)a, *y = *(const mh_crt_chip *const *)b;
    if (x->bank != y->bank) return x->bank < y->bank ? -1 : 1;
    if (x->load_address != y->load_address) return x->load_address < y->load_address ? -1 : 1;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Sorted by bank and start, any overlap shows between neighbours. */
static mh_status check_overlaps(const mh_crt_chip *chips, size_t n, mh_media_error *err)
{
    const mh_crt_chip **order = malloc(n * sizeof *order);
    if (!order) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "CRT: out of memory");
    for (size_t i = 0; i < n; i++) order[i] = &chips[i];
    qsort(order, n, sizeof *order, compare_chips);
    mh_status st = MH_OK;
    for (size_t i = 1; i < n && st == MH_OK; i++) {
        const mh_crt_chip *a = order[i - 1], *b = order[i];
        if (a->bank != b->bank || (uint32_t)a->load_address + a->size <= b->load_address) continue;
        if (a->offset > b->offset) {
            const mh_crt_chip *t = a;
            a = b;
            b = t;
        }
        char ra[40], rb[40];
        range_label(ra, sizeof ra, a);
        range_label(rb, sizeof rb, b);
        st = mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                             "CRT: CHIP packet %zu (%s) overlaps CHIP packet %zu (%s)",
                             (size_t)(b - chips) + 1, rb, (size_t)(a - chips) + 1, ra);
    }
    free(order);
    return st;
}

static bool inside(const mh_crt_chip *c, uint32_t lo, uint32_t hi)
{
    return c->load_address >= lo && (uint32_t)c->load_address + c->size <= hi;
}

static mh_crt_kind classify(const mh_crt *crt)
{
    if (crt->hardware_type != 0) return MH_CRT_OTHER;
    bool exrom = crt->exrom != 0, game = crt->game != 0;
    mh_crt_kind kind;
    if (!exrom && game) kind = MH_CRT_NORMAL_8K;
    else if (!exrom && !game) kind = MH_CRT_NORMAL_16K;
    else if (exrom && !game) kind = MH_CRT_ULTIMAX;
    else return MH_CRT_OTHER; /* both high: the cartridge is invisible */
    for (size_t i = 0; i < crt->chip_count; i++) {
        const mh_crt_chip *c = &crt->chips[i];
        if (c->bank != 0 || c->type == MH_CRT_CHIP_RAM || !c->data) return MH_CRT_OTHER;
        bool fits = kind == MH_CRT_NORMAL_8K    ? inside(c, 0x8000, 0xa000)
                    : kind == MH_CRT_NORMAL_16K ? inside(c, 0x8000, 0xc000)
                                                : inside(c, 0x8000, 0xa000) || inside(c, 0xe000, 0x10000);
        if (!fits) return MH_CRT_OTHER;
    }
    return kind;
}

static mh_crt *fail(mh_crt *crt, mh_crt_chip *chips)
{
    if (crt) {
        free((void *)crt->image);
        free(crt);
    }
    free(chips);
    return NULL;
}

mh_crt *mh_crt_open(const uint8_t *bytes, size_t size, mh_media_error *err)
{
    if (!bytes && size) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "CRT: no buffer given");
        return NULL;
    }
    if (size < MH_CRT_HEADER_SIZE) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "CRT: %zu bytes is too short for the 64-byte header", size);
        return NULL;
    }
    if (memcmp(bytes, signature, sizeof signature) != 0) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "CRT: no \"C64 CARTRIDGE   \" signature at offset 0");
        return NULL;
    }
    uint32_t header_length = mh_media_i_be32(bytes + 0x10);
    if (header_length > size) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "CRT: header length %lu is past the end of the %zu-byte file",
                        (unsigned long)header_length, size);
        return NULL;
    }
    mh_crt *crt = calloc(1, sizeof *crt);
    uint8_t *copy = malloc(size);
    if (!crt || !copy) {
        free(copy);
        mh_media_i_fail(err, MH_ERR_NO_MEMORY, "CRT: out of memory");
        return fail(crt, NULL);
    }
    memcpy(copy, bytes, size);
    crt->image = copy;
    crt->image_size = size;
    crt->header_length = header_length;
    crt->version = mh_media_i_be16(copy + 0x14);
    crt->hardware_type = mh_media_i_be16(copy + 0x16);
    crt->exrom = copy[0x18];
    crt->game = copy[0x19];
    crt->hardware_subtype = crt->version >= 0x0101 ? copy[0x1a] : 0;
    size_t name_length = 0;
    while (name_length < 32 && copy[0x20 + name_length] != 0) name_length++;
    while (name_length > 0 && copy[0x20 + name_length - 1] == ' ') name_length--;
    for (size_t i = 0; i < name_length; i++) {
        uint8_t c = copy[0x20 + i];
        crt->name[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    crt->name[name_length] = '\0';
    crt->hardware_name = mh_crt_hardware_name(crt->hardware_type);

    mh_crt_chip *chips = NULL;
    size_t count = 0, cap = 0;
    size_t pos = header_length < MH_CRT_HEADER_SIZE ? MH_CRT_HEADER_SIZE : header_length;
    char what[64];
    while (size - pos >= MH_CRT_CHIP_HEADER_SIZE) {
        const uint8_t *p = copy + pos;
        chip_label(what, sizeof what, count + 1, pos);
        if (memcmp(p, "CHIP", 4) != 0) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "CRT: no CHIP packet at byte offset %zu (found %02X %02X %02X %02X)",
                            pos, p[0], p[1], p[2], p[3]);
            return fail(crt, chips);
        }
        if (count == MH_CRT_MAX_CHIPS) {
            mh_media_i_fail(err, MH_ERR_LIMIT, "CRT: more than %u CHIP packets", MH_CRT_MAX_CHIPS);
            return fail(crt, chips);
        }
        uint32_t length = mh_media_i_be32(p + 4);
        mh_crt_chip c = {(uint32_t)pos, mh_media_i_be16(p + 8), mh_media_i_be16(p + 10),
                         mh_media_i_be16(p + 12), mh_media_i_be16(p + 14), NULL};
        if (length < MH_CRT_CHIP_HEADER_SIZE) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "CRT: %s has length %lu, less than its 16-byte header", what,
                            (unsigned long)length);
            return fail(crt, chips);
        }
        if (length > size - pos) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "CRT: %s has length %lu, past the end of the file (%zu bytes left)",
                            what, (unsigned long)length, size - pos);
            return fail(crt, chips);
        }
        if (c.type > MH_CRT_CHIP_EEPROM) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "CRT: %s has chip type %u (known: 0 ROM, 1 RAM, 2 flash, 3 EEPROM)",
                            what, c.type);
            return fail(crt, chips);
        }
        if (c.size == 0) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "CRT: %s has size 0", what);
            return fail(crt, chips);
        }
        if ((uint32_t)c.load_address + c.size > 0x10000u) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "CRT: %s: %u bytes at $%04X would end past $FFFF", what, c.size,
                            c.load_address);
            return fail(crt, chips);
        }
        if (length - MH_CRT_CHIP_HEADER_SIZE >= c.size) {
            c.data = p + MH_CRT_CHIP_HEADER_SIZE;
        } else if (!(c.type == MH_CRT_CHIP_RAM && length == MH_CRT_CHIP_HEADER_SIZE)) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "CRT: %s declares %u data bytes but its length %lu leaves %lu", what,
                            c.size, (unsigned long)length,
                            (unsigned long)(length - MH_CRT_CHIP_HEADER_SIZE));
            return fail(crt, chips);
        }
        if (count == cap) {
            size_t grow = cap ? cap * 2 : 8;
            mh_crt_chip *bigger = realloc(chips, grow * sizeof *chips);
            if (!bigger) {
                mh_media_i_fail(err, MH_ERR_NO_MEMORY, "CRT: out of memory");
                return fail(crt, chips);
            }
            chips = bigger;
            cap = grow;
        }
        chips[count++] = c;
        pos += length;
    }
    if (count == 0) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "CRT: no CHIP packet (the header ends at byte %zu of %zu)", pos, size);
        return fail(crt, chips);
    }
    if (check_overlaps(chips, count, err) != MH_OK) return fail(crt, chips);
    crt->chips = chips;
    crt->chip_count = count;
    crt->trailing_bytes = size - pos;
    crt->kind = classify(crt);
    mh_media_i_ok(err);
    return crt;
}

void mh_crt_free(mh_crt *crt)
{
    if (!crt) return;
    free((void *)crt->chips);
    fail(crt, NULL);
}

static bool power_of_two(unsigned n) { return n && !(n & (n - 1)); }

mh_status mh_crt_generic_roms(const mh_crt *crt, uint8_t roml[8192], uint8_t romh[8192],
                              bool *has_roml, bool *has_romh, mh_media_error *err)
{
    if (!crt || !roml || !romh || !has_roml || !has_romh)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "CRT: no cartridge or output given");
    *has_roml = *has_romh = false;
    if (crt->kind == MH_CRT_OTHER)
        return mh_media_i_fail(err, MH_ERR_UNSUPPORTED,
                               "CRT: hardware type %u (%s) with EXROM=%u GAME=%u is not a plain "
                               "8K, 16K or Ultimax cartridge", crt->hardware_type,
                               crt->hardware_name, crt->exrom != 0, crt->game != 0);
    memset(roml, 0xff, 8192);
    memset(romh, 0xff, 8192);
    uint32_t romh_base = crt->kind == MH_CRT_ULTIMAX ? 0xe000u : 0xa000u;
    /* Chips per 8K window: a lone small chip repeats over its window. */
    size_t in_roml = 0, in_romh = 0;
    for (size_t i = 0; i < crt->chip_count; i++) {
        const mh_crt_chip *c = &crt->chips[i];
        if (inside(c, 0x8000, 0xa000)) in_roml++;
        else if (inside(c, romh_base, romh_base + 0x2000)) in_romh++;
    }
    for (size_t i = 0; i < crt->chip_count; i++) {
        const mh_crt_chip *c = &crt->chips[i];
        bool lone_l = inside(c, 0x8000, 0xa000) && in_roml == 1;
        bool lone_h = inside(c, romh_base, romh_base + 0x2000) && in_romh == 1;
        if ((lone_l || lone_h) && c->size < 8192 && power_of_two(c->size)) {
            uint8_t *w = lone_l ? roml : romh;
            for (unsigned k = 0; k < 8192; k++) w[k] = c->data[k & (c->size - 1u)];
            *(lone_l ? has_roml : has_romh) = true;
            continue;
        }
        for (uint32_t k = 0; k < c->size; k++) {
            uint32_t a = c->load_address + k;
            if (a >= 0x8000 && a < 0xa000) {
                roml[a - 0x8000] = c->data[k];
                *has_roml = true;
            } else if (a >= romh_base && a < romh_base + 0x2000) {
                romh[a - romh_base] = c->data[k];
                *has_romh = true;
            }
        }
    }
    mh_media_i_ok(err);
    return MH_OK;
}
