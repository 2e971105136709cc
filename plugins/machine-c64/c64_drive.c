/* c64_drive.c - the virtual drive 8: a D64 image behind a trap on the
 * KERNAL's LOAD entry, so it works with any KERNAL (Open ROMs or a user's
 * Commodore KERNAL), with no serial bus emulation.
 *
 * The machine's sync hook (chained in front of a debugger's, like the
 * autostart's) calls c64_drive_trap() when the CPU is about to execute
 * $FFD5 with the KERNAL banked in. With device ($BA) 8 and a disk attached
 * the load is done here, at that instruction boundary, in zero cycles:
 *   - the name: $B7 bytes at ($BB/$BC), matched like CBM DOS (mh_d64_load:
 *     "NAME", "0:NAME", patterns with * and ?, ",P"/",S" types; "$" and
 *     "$:PATTERN" give the directory as a BASIC program);
 *   - the address: secondary address ($B9) 0 loads at X/Y, any other at
 *     the file's own address (the directory is built for the address it
 *     lands at, $0401 as a 1541 sends it when SA is not 0);
 *   - A = 0 loads; A != 0 verifies (RAM compared, ST bit 4 on a mismatch);
 *   - success: the bytes in RAM (below ROM and I/O; a file running past
 *     $FFFF is cut there), X/Y and $AE/$AF = end address + 1, $C3/$C4 the
 *     start, ST ($90) = $40 (EOF), carry clear;
 *   - failure: carry set, A = the KERNAL error code (4 FILE NOT FOUND, 5
 *     DEVICE NOT PRESENT for an unreadable file, 8 MISSING FILE NAME),
 *     RAM untouched;
 *   - then the CPU returns as the KERNAL's RTS would: the return address
 *     popped off the stack, PC = it + 1.
 * Any other device, or no disk, runs the KERNAL's own code (which finds no
 * serial device). The trap prints no SEARCHING/LOADING messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c64.h"
#include "mcphost/media.h"
#include "mcphost/media_d64.h"

mh_status c64_drive_attach(c64 *m, const char *path, char *error, size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "drive8 \"%s\": %s", path, err.message);
        return status;
    }
    if (mh_media_detect(path, bytes, size) != MH_MEDIA_D64) {
        free(bytes);
        snprintf(error, error_size,
                 "drive8 \"%s\": not a D64 disk image (%zu bytes; expected 174848, 175531, "
                 "196608 or 197376)", path, size);
        return MH_ERR_INVALID_ARGUMENT;
    }
    mh_d64 *d64 = mh_d64_open(bytes, size, 0, &err);
    free(bytes);
    if (!d64) {
        snprintf(error, error_size, "drive8 \"%s\": %s", path, err.message);
        return err.status != MH_OK ? err.status : MH_ERR_INVALID_ARGUMENT;
    }
    c64_drive_detach(m);
    m->drive8 = d64;
    m->drive8_path = malloc(strlen(path) + 1);
    if (m->drive8_path) strcpy(m->drive8_path, path);
    return MH_OK;
}

void c64_drive_detach(c64 *m)
{
    mh_d64_free(m->drive8);
    free(m->drive8_path);
    m->drive8 = NULL;
    m->drive8_path = NULL;
}

/* RTS: PC = the popped return address + 1. */
static void kernal_return(c64 *m)
{
    uint8_t s = m->cpu.s;
    uint8_t lo = m->p.ram[0x100 + (uint8_t)(s + 1)];
    uint8_t hi = m->p.ram[0x100 + (uint8_t)(s + 2)];
    m->cpu.s = (uint8_t)(s + 2);
    m->cpu.pc = (uint16_t)((lo | hi << 8) + 1);
}

static void fail(c64 *m, uint8_t code)
{
    m->cpu.a = code;
    m->cpu.p |= MH_CPU6502_FLAG_C;
    kernal_return(m);
}

int c64_drive_trap(c64 *m)
{
    uint8_t *ram = m->p.ram;
    if (!m->drive8 || ram[0xBA] != 8 || m->rd_bank[0xF] != C64_BANK_KERNAL) return 0;
    uint8_t name[256];
    size_t length = ram[0xB7];
    uint16_t name_at = (uint16_t)(ram[0xBB] | ram[0xBC] << 8);
    /* The name is read as the KERNAL would: through the CPU's banking. */
    for (size_t i = 0; i < length; i++) name[i] = c64_bus_peek(m, (uint16_t)(name_at + i));
    uint8_t sa = ram[0xB9];
    int verify = m->cpu.a != 0;
    uint16_t xy = (uint16_t)(m->cpu.x | m->cpu.y << 8);
    ram[0x93] = m->cpu.a;
    char shown[64];
    size_t n = length < sizeof shown - 1 ? length : sizeof shown - 1;
    for (size_t i = 0; i < n; i++) shown[i] = name[i] >= 0x20 && name[i] < 0x7F ? (char)name[i] : '?';
    shown[n] = '\0';
    if (length == 0) {
        c64_log(m, MH_LOG_INFO, "c64: drive 8: LOAD without a file name");
        fail(m, 8);
        return 1;
    }
    uint16_t dir_address = sa == 0 ? xy : 0x0401;
    uint8_t *data = NULL;
    size_t size = 0;
    mh_media_error err;
    mh_status status =
        mh_d64_load(m->drive8, name, length, dir_address, &data, &size, NULL, &err);
    if (status == MH_OK && size < 2) {
        status = MH_ERR_NOT_FOUND;
        snprintf(err.message, sizeof err.message, "the file has no load address");
    }
    if (status != MH_OK) {
        free(data);
        c64_log(m, MH_LOG_INFO, "c64: drive 8: %s \"%s\": %s", verify ? "VERIFY" : "LOAD", shown,
                err.message);
        fail(m, status == MH_ERR_NOT_FOUND ? 4 : 5);
        return 1;
    }
    uint16_t start = sa == 0 ? xy : (uint16_t)(data[0] | data[1] << 8);
    size_t count = size - 2;
    if (start + count > 0x10000u) count = 0x10000u - start;
    uint8_t st = 0x40;
    if (verify) {
        if (memcmp(ram + start, data + 2, count) != 0) st |= 0x10;
    } else {
        memcpy(ram + start, data + 2, count);
    }
    free(data);
    uint32_t end = start + (uint32_t)count; /* end address + 1 */
    ram[0x90] = st;
    ram[0xAE] = (uint8_t)end;
    ram[0xAF] = (uint8_t)(end >> 8);
    ram[0xC3] = (uint8_t)start;
    ram[0xC4] = (uint8_t)(start >> 8);
    m->cpu.x = (uint8_t)end;
    m->cpu.y = (uint8_t)(end >> 8);
    m->cpu.p &= (uint8_t)~MH_CPU6502_FLAG_C;
    kernal_return(m);
    c64_log(m, MH_LOG_INFO, "c64: drive 8: %s \"%s\" $%04X-$%04X%s", verify ? "verified" : "loaded",
            shown, start, (unsigned)(end - 1), (st & 0x10) ? " (differs)" : "");
    return 1;
}
