/* c64_drive.c - the virtual drive 8: a D64 image behind a trap on the
 * KERNAL's LOAD entry, so it works with any KERNAL (Open ROMs or a user's
 * Commodore KERNAL), with no serial bus emulation. The trap itself is the
 * machine kit's (mh_kernal_load_trap in mcphost/kernal.h, driven by
 * c64_kernal_layout); this file attaches disks and checks the banking.
 *
 * The machine's sync hook (chained in front of a debugger's, like the
 * autostart's) calls c64_drive_trap() when the CPU is about to execute
 * $FFD5 with the KERNAL banked in. With device ($BA) 8 and a disk attached
 * the load is done at that instruction boundary, in zero cycles:
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
 *
 * SAVE ($FFD8, c64_drive_save_trap) is trapped the same way: the memory
 * from the pointer A names to X/Y - 1 becomes a PRG in the D64
 * (mh_kernal_save_trap, mh_d64_save) and the image is written back to the
 * file it was attached from; a drive error (63 FILE EXISTS, 72 DISK FULL)
 * or a failed write-back sets carry with A = 5.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c64.h"
#include "mcphost/media.h"
#include "mcphost/media_d64.h"

mh_status c64_drive_attach(c64 *m, const char *path, char *error, size_t error_size)
{
    mh_d64 *d64 = NULL;
    char *d64_path = NULL;
    mh_status status = mh_kernal_drive_open(path, 1, &d64, &d64_path, error, error_size);
    if (status != MH_OK) return status;
    c64_drive_detach(m);
    m->drive8 = d64;
    m->drive8_path = d64_path;
    return MH_OK;
}

void c64_drive_detach(c64 *m)
{
    mh_d64_free(m->drive8);
    free(m->drive8_path);
    m->drive8 = NULL;
    m->drive8_path = NULL;
}

int c64_drive_trap(c64 *m)
{
    if (!m->drive8 || m->rd_bank[0xF] != C64_BANK_KERNAL) return 0;
    char message[320];
    if (!mh_kernal_load_trap(&m->kernal, 8, m->drive8, message, sizeof message)) return 0;
    c64_log(m, MH_LOG_INFO, "c64: drive 8: %s", message);
    return 1;
}

int c64_drive_save_trap(c64 *m)
{
    if (!m->drive8 || m->rd_bank[0xF] != C64_BANK_KERNAL) return 0;
    char message[1024];
    int done = mh_kernal_save_trap(&m->kernal, 8, &m->drive8, m->drive8_path, message,
                                   sizeof message);
    if (done) c64_log(m, done > 0 ? MH_LOG_INFO : MH_LOG_ERROR, "c64: drive 8: %s", message);
    return done != 0;
}
