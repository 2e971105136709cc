/* mcphost/kernal.h - KERNAL glue for Commodore machines, driven by a
 * per-machine layout table (static helper library mh_machine_kit, link
 * target mcphost::machine_kit; docs/machine-kit.md).
 *
 * Commodore KERNALs (C64, VIC-20, Plus/4, and replacements such as the
 * Open ROMs that keep the documented variables) share their LOAD and
 * keyboard-buffer logic but keep the variables at different addresses. A
 * machine fills one mh_kernal_layout with its addresses and gets:
 *   - mh_kernal_load_trap(): a virtual drive - at the LOAD entry, loads or
 *     verifies from a D64 image the file the KERNAL's variables name, sets
 *     the results (RAM, X/Y, ST, end and start pointers, carry, A on an
 *     error) and returns from the JSR as the KERNAL's RTS would, and
 *     mh_kernal_drive_open() opens the D64 for it (any thread: it reads
 *     a file, touches no machine);
 *   - mh_kernal_save_trap(): the same drive at the SAVE entry: writes the
 *     file into the D64 (mh_d64_save) and the image back to its file;
 *   - the typed-text queue (mh_kernal_queue_text() and _codes()) and
 *     mh_kernal_feed(): text goes into the
 *     KERNAL's keyboard buffer when it is empty and interrupts are on;
 *   - autostart: mh_kernal_waits_for_key() recognises the KERNAL's wait
 *     for a key at the READY prompt, mh_kernal_inject() copies a program in,
 *     sets the end pointers (BASIC's too for a BASIC program) and types RUN
 *     or SYS.
 * What is machine-specific stays the machine's: whether the KERNAL ROM is
 * banked in at the LOAD entry, which device numbers it serves, when to
 * give up waiting for READY.
 *
 * Ownership: mh_kernal and mh_kernal_queue are embedded in the machine;
 * the layout is usually static const; ram and cpu are the machine's.
 * mh_kernal_queue holds no pointers (a snapshot may copy it).
 * Threads: [emu-thread], at instruction boundaries (in a sync hook or
 * between run chunks).
 */
#ifndef MCPHOST_KERNAL_H
#define MCPHOST_KERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/cpu6502.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mh_d64;

/* Where a KERNAL keeps what the glue reads and writes. Two-byte variables
 * are little-endian at the address given. C64 values in the comments. */
typedef struct mh_kernal_layout {
    uint32_t struct_size;
    uint16_t status;            /* ST ($90) */
    uint16_t verify_flag;       /* VERCK ($93): 0 load, else verify */
    uint16_t load_end;          /* EAL ($AE/$AF): end address + 1 of a load */
    uint16_t file_name_length;  /* FNLEN ($B7) */
    uint16_t secondary_address; /* SA ($B9) */
    uint16_t device;            /* FA ($BA) */
    uint16_t file_name;         /* FNADR ($BB/$BC): pointer to the name */
    uint16_t load_start;        /* STAL ($C3/$C4) */
    uint16_t keyboard_count;    /* NDX ($C6): characters in the buffer */
    uint16_t keyboard_buffer;   /* KEYD ($0277) */
    uint16_t keyboard_size;     /* XMAX's default (10) */
    uint16_t basic_start;       /* TXTTAB ($2B/$2C) */
    uint16_t basic_end;         /* VARTAB ($2D/$2E); ARYTAB and STREND follow
                                 * two and four bytes later ($2F, $31) */
    uint16_t basic_program;     /* where BASIC programs start by default
                                 * ($0801): a program there is one even
                                 * when TXTTAB says otherwise */
    uint16_t load_entry;        /* LOAD's jump-table entry ($FFD5) */
    uint16_t directory_address; /* where "$" loads with SA != 0 ($0401, as
                                 * a 1541 sends it) */
    /* SAVE (0 in save_entry: the machine has no SAVE trap). */
    uint16_t save_entry;        /* SAVE's jump-table entry ($FFD8) */
    uint16_t save_start;        /* STAL ($C1/$C2): the start address SAVE
                                 * copies from the pointer A names; the end
                                 * goes to load_end (EAL), as the KERNAL's
                                 * SAVE does */
} mh_kernal_layout;

/* One machine's glue: its layout, CPU and memory. */
typedef struct mh_kernal {
    const mh_kernal_layout *layout;
    mh_cpu6502 *cpu;
    uint8_t *ram; /* 64 KiB: the variables, the stack, where loads land */
    /* What the CPU reads at address now, without side effects (the file
     * name is read through the machine's banking); NULL: ram. */
    uint8_t (*peek)(const void *machine, uint16_t address);
    const void *machine;
} mh_kernal;

/* ---- the virtual drive ---- */

/* At the LOAD entry (the machine checked its KERNAL is banked in): when
 * the device variable is `device` and disk is not NULL, does the LOAD or
 * VERIFY from disk (CBM DOS name matching, "$" gives the directory; SA 0
 * loads at X/Y, else at the file's address), sets RAM, X/Y, ST, the end
 * and start pointers and carry (or carry + A = KERNAL error 4 FILE NOT
 * FOUND, 5 DEVICE NOT PRESENT, 8 MISSING FILE NAME), returns the CPU from
 * the JSR and writes what happened to message ("LOAD \"NAME\": file not
 * found", "loaded \"NAME\" $0801-$1234"). Returns 1 then; 0 (nothing done)
 * for another device or no disk. */
int mh_kernal_load_trap(const mh_kernal *kernal, uint8_t device, const struct mh_d64 *disk,
                        char *message, size_t message_size);

/* At the SAVE entry (the machine checked its KERNAL is banked in): when
 * the device variable is `device` and *disk is not NULL, saves the memory
 * from the address in the zero-page pointer A names to X/Y - 1 (read
 * through peek, as the KERNAL's SAVE reads it) under the file name
 * (mh_d64_save: "NAME", "@0:NAME" replaces), sets STAL/EAL as the
 * KERNAL's entry code does and returns the CPU from the JSR. On success
 * the new image is written back to disk_path (mh_file_write: a temporary
 * file, fsync, rename over the old image), *disk is replaced by the new
 * image (the old one freed), ST = 0 and carry is clear. Errors: carry set
 * and A = 8 (MISSING FILE NAME) for an empty name; A = 5 (DEVICE NOT
 * PRESENT, what a KERNAL answers when the drive does not take the file)
 * for a drive error (63 FILE EXISTS, 72 DISK FULL, 33/34 SYNTAX ERROR, a
 * disk that cannot be written safely, a disk_path the process may not
 * write: 26 WRITE PROTECT ON), *disk unchanged; and A = 5 when
 * the image could not be written back to disk_path (*disk then holds the
 * new image, so the file is not lost while the session runs). message
 * gets what happened ("saved "NAME" $0801-$0812 (1 block, track 17
 * sector 0) to PATH", "SAVE "NAME": D64: ... 63, FILE EXISTS ...").
 * Returns 0 (nothing done: another device, no disk, no save_entry in the
 * layout), 1 saved, -1 an error (carry set). */
int mh_kernal_save_trap(const mh_kernal *kernal, uint8_t device, struct mh_d64 **disk,
                        const char *disk_path, char *message, size_t message_size);

/* Opens the disk image at path for drive 8: MH_OK with *disk (free it
 * with mh_d64_free()) and *disk_path a malloc'ed copy of path (NULL when
 * out of memory); the caller detaches its old disk and keeps both. Errors
 * start "drive8 \"PATH\": " (the file's load error, "not a D64 disk image
 * (N bytes)" plus, when name_sizes, "; expected 174848, 175531, 196608 or
 * 197376", or the image's own error); nothing is returned then. */
mh_status mh_kernal_drive_open(const char *path, int name_sizes, struct mh_d64 **disk,
                               char **disk_path, char *error, size_t error_size);

/* ---- typed text ---- */

#define MH_KERNAL_QUEUE_SIZE 4096u

/* Codes (PETSCII) waiting for the keyboard buffer. */
typedef struct mh_kernal_queue {
    uint8_t codes[MH_KERNAL_QUEUE_SIZE];
    uint32_t head, count;
} mh_kernal_queue;

/* Queues count codes, all or none; MH_ERR_LIMIT with a message when they
 * do not fit. */
mh_status mh_kernal_queue_push(mh_kernal_queue *queue, const uint8_t *codes, size_t count,
                               char *error, size_t error_size);
void mh_kernal_queue_clear(mh_kernal_queue *queue);

/* Queues text (ASCII; \n and \r are RETURN) as PETSCII codes. A character
 * with no code: MH_ERR_INVALID_ARGUMENT, *bad_at its index (the machine
 * words the message: what its keyboard can type) and nothing queued;
 * else *bad_at is the text's length and the queue's answer is returned. */
mh_status mh_kernal_queue_text(mh_kernal_queue *queue, const char *text, size_t *bad_at,
                               char *error, size_t error_size);

/* Queues count PETSCII codes as given; a $00 (which the KERNAL ignores) is
 * refused with "cannot type code $00 (character N): ...". */
mh_status mh_kernal_queue_codes(mh_kernal_queue *queue, const uint8_t *codes, size_t count,
                                char *error, size_t error_size);

/* Moves up to keyboard_size queued codes into the keyboard buffer when it
 * is empty and the CPU's I flag is clear (not in an interrupt handler or
 * SEI section). Call at an instruction boundary. */
void mh_kernal_feed(const mh_kernal *kernal, mh_kernal_queue *queue);

/* ---- autostart ---- */

/* 1 when the instruction at pc reads the keyboard count (LDA zp or LDA
 * abs) with interrupts on and the buffer empty: the KERNAL's wait for a
 * key at the READY prompt (interrupt code reads it with I set). The
 * machine first checks pc is in its KERNAL ROM. */
int mh_kernal_waits_for_key(const mh_kernal *kernal, uint16_t pc);

/* Copies a program (cut at $FFFF) into RAM at load_address and sets the
 * load end pointer; for a BASIC program (at TXTTAB or basic_program) also
 * BASIC's end pointers. With type_run, types "RUN" + RETURN (a BASIC
 * program) or "SYS<address>" + RETURN into the keyboard buffer and writes
 * what was typed, without the RETURN, to typed. Returns the end address +
 * 1. */
uint32_t mh_kernal_inject(const mh_kernal *kernal, const uint8_t *data, size_t size,
                          uint16_t load_address, int type_run, char *typed, size_t typed_size);

#ifdef __cplusplus
}
#endif
#endif
