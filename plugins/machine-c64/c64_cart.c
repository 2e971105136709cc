/* c64_cart.c - generic cartridges on the expansion port (docs/machine-c64.md):
 * a CRT file of hardware type 0 in one of the three plain layouts
 * (mh_crt_open, mh_crt_generic_roms):
 *   8K      EXROM low:          ROML at $8000-$9FFF
 *   16K     EXROM and GAME low: ROML at $8000, ROMH at $A000-$BFFF
 *   Ultimax GAME low:           ROMH at $E000-$FFFF (its reset vector),
 *                               ROML at $8000 if present; the VIC-II sees
 *                               the upper 4K of ROMH at $3000-$3FFF of
 *                               every bank.
 * The images live in one 64 KiB array at their CPU addresses (ROML at
 * $8000, ROMH at both $A000 and $E000), so the banking tables index it
 * with the full address like RAM and the ROMs. The lines never change
 * (no banking or I/O registers): other hardware types are refused with a
 * message naming the type.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c64.h"
#include "mcphost/media.h"
#include "mcphost/media_crt.h"

void c64_cart_detach(c64 *m)
{
    free(m->cart);
    free(m->cart_path);
    m->cart = NULL;
    m->cart_path = NULL;
    m->cart_exrom = 1;
    m->cart_game = 1;
    m->cart_has_roml = 0;
    m->cart_has_romh = 0;
}

mh_status c64_cart_attach_bytes(c64 *m, const char *path, const uint8_t *bytes, size_t size,
                                char *error, size_t error_size)
{
    mh_media_error err;
    mh_crt *crt = mh_crt_open(bytes, size, &err);
    if (!crt) {
        snprintf(error, error_size, "cartridge \"%s\": %s", path, err.message);
        return err.status != MH_OK ? err.status : MH_ERR_INVALID_ARGUMENT;
    }
    if (crt->hardware_type != 0) {
        snprintf(error, error_size,
                 "cartridge \"%s\": hardware type %u (%s) is not supported; the c64 machine "
                 "runs generic cartridges (type 0: 8K, 16K, Ultimax)",
                 path, (unsigned)crt->hardware_type, crt->hardware_name);
        mh_crt_free(crt);
        return MH_ERR_UNSUPPORTED;
    }
    if (crt->kind == MH_CRT_OTHER) {
        snprintf(error, error_size,
                 "cartridge \"%s\": a type 0 cartridge whose lines (EXROM=%u GAME=%u) and chips "
                 "fit no generic layout (8K, 16K, Ultimax)",
                 path, (unsigned)crt->exrom, (unsigned)crt->game);
        mh_crt_free(crt);
        return MH_ERR_UNSUPPORTED;
    }
    uint8_t *map = malloc(65536);
    char *name = malloc(strlen(path) + 1);
    if (!map || !name) {
        free(map);
        free(name);
        mh_crt_free(crt);
        snprintf(error, error_size, "out of memory attaching %s", path);
        return MH_ERR_NO_MEMORY;
    }
    memset(map, 0xFF, 65536);
    bool has_roml = false, has_romh = false;
    mh_status status =
        mh_crt_generic_roms(crt, map + 0x8000, map + 0xA000, &has_roml, &has_romh, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "cartridge \"%s\": %s", path, err.message);
        free(map);
        free(name);
        mh_crt_free(crt);
        return status;
    }
    memcpy(map + 0xE000, map + 0xA000, 8192);
    strcpy(name, path);
    c64_cart_detach(m);
    m->cart = map;
    m->cart_path = name;
    m->cart_has_roml = has_roml;
    m->cart_has_romh = has_romh;
    switch (crt->kind) {
    case MH_CRT_NORMAL_8K: m->cart_exrom = 0; m->cart_game = 1; break;
    case MH_CRT_NORMAL_16K: m->cart_exrom = 0; m->cart_game = 0; break;
    default: m->cart_exrom = 1; m->cart_game = 0; break; /* Ultimax */
    }
    c64_log(m, MH_LOG_INFO, "c64: cartridge %s: \"%s\", %s (EXROM=%u GAME=%u)%s%s", path,
            crt->name,
            crt->kind == MH_CRT_NORMAL_8K ? "8K" : crt->kind == MH_CRT_NORMAL_16K ? "16K"
                                                                                 : "Ultimax",
            m->cart_exrom, m->cart_game, has_roml ? ", ROML" : "", has_romh ? ", ROMH" : "");
    mh_crt_free(crt);
    return MH_OK;
}

mh_status c64_cart_attach(c64 *m, const char *path, char *error, size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "cartridge \"%s\": %s", path, err.message);
        return status;
    }
    status = c64_cart_attach_bytes(m, path, bytes, size, error, error_size);
    free(bytes);
    return status;
}
