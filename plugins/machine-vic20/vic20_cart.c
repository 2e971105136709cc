/* vic20_cart.c - cartridges: ROM images that take blocks 1-3 ($2000-$7FFF)
 * or block 5 ($A000-$BFFF) of the map; the machine hard-resets after an
 * attach so the KERNAL finds the cartridge's "A0CBM" signature.
 *
 * Formats:
 *   - a VICE VIC-20 .crt ("VIC20 CARTRIDGE " header, then the C64 CRT
 *     layout: CHIP packets with load addresses): checked by the SDK's CRT
 *     reader (mh_crt_open: header, every packet inside the file, no
 *     overlaps) with the signature read as the C64's; only the generic
 *     hardware type (0) and ROM chips inside blocks 1, 2, 3, 5 are taken;
 *   - a raw image with a 2-byte load address (.prg style) at $2000, $4000,
 *     $6000 or $A000, up to the end of the blocks it starts in (8 KiB or
 *     fewer; a 16 KiB image at $2000/$4000 fills two blocks);
 *   - a raw 4 KiB or 8 KiB image without a load address: at $A000.
 * Anything else is refused with a message saying what was wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/media.h"
#include "mcphost/media_crt.h"
#include "vic20.h"

static const char vic20_crt_magic[16] = {'V', 'I', 'C', '2', '0', ' ', 'C', 'A',
                                         'R', 'T', 'R', 'I', 'D', 'G', 'E', ' '};

/* The block bit of a cartridge address range, 0 when it is not inside
 * blocks 1-3 or 5. */
static unsigned blocks_of(uint32_t from, uint32_t size)
{
    uint32_t to = from + size;
    if (size == 0 || to > 0xC000u) return 0;
    if (from >= 0xA000u) return VIC20_MEM_BLK5;
    if (from < 0x2000u || to > 0x8000u) return 0;
    unsigned bits = 0;
    for (uint32_t a = from & ~0x1FFFu; a < to; a += 0x2000u) bits |= VIC20_MEM_BLK1 << ((a - 0x2000u) >> 13);
    return bits;
}

static mh_status refuse(const char *path, char *error, size_t error_size, const char *why)
{
    snprintf(error, error_size, "cartridge \"%s\": %s", path, why);
    return MH_ERR_INVALID_ARGUMENT;
}

static mh_status load_crt(vic20 *m, const char *path, const uint8_t *bytes, size_t size,
                          uint8_t *image, unsigned *blocks, char *error, size_t error_size)
{
    uint8_t *copy = malloc(size);
    if (!copy) return MH_ERR_NO_MEMORY;
    memcpy(copy, bytes, size);
    memcpy(copy, "C64 CARTRIDGE   ", 16);
    mh_media_error err;
    mh_crt *crt = mh_crt_open(copy, size, &err);
    free(copy);
    if (!crt) {
        char why[300];
        snprintf(why, sizeof why, "not a valid VIC-20 CRT image: %s", err.message);
        return refuse(path, error, error_size, why);
    }
    mh_status status = MH_OK;
    if (crt->hardware_type != 0) {
        char why[160];
        snprintf(why, sizeof why, "hardware type %u is not supported (only generic cartridges, "
                                  "type 0)", (unsigned)crt->hardware_type);
        status = refuse(path, error, error_size, why);
    }
    for (size_t i = 0; status == MH_OK && i < crt->chip_count; i++) {
        const mh_crt_chip *chip = &crt->chips[i];
        unsigned bits = blocks_of(chip->load_address, chip->size);
        if (chip->type != MH_CRT_CHIP_ROM || !chip->data || !bits || chip->bank != 0) {
            char why[200];
            snprintf(why, sizeof why,
                     "chip %zu ($%04X, %u bytes, bank %u) is not a ROM inside blocks 1-3 or 5 "
                     "($2000-$7FFF, $A000-$BFFF)",
                     i + 1, (unsigned)chip->load_address, (unsigned)chip->size,
                     (unsigned)chip->bank);
            status = refuse(path, error, error_size, why);
            break;
        }
        memcpy(image + chip->load_address, chip->data, chip->size);
        *blocks |= bits;
    }
    mh_crt_free(crt);
    (void)m;
    return status;
}

mh_status vic20_cart_attach_bytes(vic20 *m, const char *path, const uint8_t *bytes, size_t size,
                                  char *error, size_t error_size)
{
    uint8_t *image = calloc(1, 65536);
    if (!image) return MH_ERR_NO_MEMORY;
    memset(image, 0xFF, 65536);
    unsigned blocks = 0;
    mh_status status = MH_OK;
    if (size >= 16 && memcmp(bytes, vic20_crt_magic, 16) == 0) {
        status = load_crt(m, path, bytes, size, image, &blocks, error, error_size);
    } else if (size == 4096 || size == 8192) {
        memcpy(image + 0xA000, bytes, size);
        blocks = VIC20_MEM_BLK5;
    } else if (size > 2 && size <= 2 + 16384) {
        uint16_t load = (uint16_t)(bytes[0] | bytes[1] << 8);
        blocks = blocks_of(load, (uint32_t)(size - 2));
        if (!blocks || (load & 0x1FFFu))
            status = refuse(path, error, error_size,
                            "a raw cartridge image must load at $2000, $4000, $6000 or $A000 "
                            "and fit in the blocks there (blocks 1-3: $2000-$7FFF, block 5: "
                            "$A000-$BFFF)");
        else
            memcpy(image + load, bytes + 2, size - 2);
    } else {
        status = refuse(path, error, error_size,
                        "neither a VIC-20 CRT (\"VIC20 CARTRIDGE\" header) nor a raw image (4 or "
                        "8 KiB, or up to 16 KiB after a 2-byte load address)");
    }
    if (status != MH_OK) {
        free(image);
        return status;
    }
    char *kept = malloc(strlen(path) + 1);
    if (!kept) {
        free(image);
        return MH_ERR_NO_MEMORY;
    }
    strcpy(kept, path);
    vic20_cart_detach(m);
    static const struct { unsigned bit; uint16_t from; } spans[] = {
        {VIC20_MEM_BLK1, 0x2000}, {VIC20_MEM_BLK2, 0x4000}, {VIC20_MEM_BLK3, 0x6000},
        {VIC20_MEM_BLK5, 0xA000}};
    for (size_t i = 0; i < 4; i++)
        if (blocks & spans[i].bit) memcpy(m->rom + spans[i].from, image + spans[i].from, 0x2000);
    free(image);
    m->has_cart = 1;
    m->cart_blocks = (uint8_t)blocks;
    m->cart_path = kept;
    vic20_bus_init(m);
    return MH_OK;
}

mh_status vic20_cart_attach(vic20 *m, const char *path, char *error, size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_status status = mh_media_load_file(path, 1u << 20, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "cartridge \"%s\": %s", path, err.message);
        return status;
    }
    status = vic20_cart_attach_bytes(m, path, bytes, size, error, error_size);
    free(bytes);
    return status;
}

void vic20_cart_detach(vic20 *m)
{
    free(m->cart_path);
    m->cart_path = NULL;
    m->has_cart = 0;
    m->cart_blocks = 0;
    vic20_bus_init(m);
}
