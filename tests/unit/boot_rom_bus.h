/* boot_rom_bus.h - a small bus for running the boot ROMs (roms/boot_rom.h)
 * and the original KERNALs on the SDK's 6502 core without a machine: RAM,
 * the ROM image, and just enough register behaviour (the keyboard matrix
 * through the VIA2 ports or the $FD30/$FF08 pair; other chip registers
 * are stored and read back). Used by test_boot_rom*.c. */
#ifndef BOOT_ROM_BUS_H
#define BOOT_ROM_BUS_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/cpu6502.h"
#include "mcphost/kernal.h"

typedef struct rom_bus {
    int plus4;
    int expanded; /* VIC-20: RAM at $0400-$0FFF and $2000-$7FFF */
    uint8_t ram[65536];
    uint8_t rom[16384];
    uint16_t rom_base;
    uint8_t io[256];    /* VIC + VIAs ($9000-$90FF, $9100-$91FF folded), TED */
    uint8_t matrix[8];  /* per select line: the key lines pressed (1 bits) */
    uint8_t select;     /* VIA2 port B or $FD30: select lines (0 = active) */
    mh_cpu6502 cpu;
    mh_kernal kernal;
    const struct mh_d64 *disk; /* when set: LOAD from device 8 is trapped at
                                * $FFD5 with mh_kernal_load_trap, as the
                                * machines do */
    struct mh_d64 *save_disk;  /* when set: SAVE to device 8 is trapped at
                                * $FFD8 with mh_kernal_save_trap into this
                                * disk (written back to save_path), which
                                * then also serves LOAD */
    const char *save_path;
    int save_result;           /* the last save trap's answer */
    char save_message[1024];
} rom_bus;

extern const mh_kernal_layout boot_rom_vic20_layout;
extern const mh_kernal_layout boot_rom_plus4_layout;

/* Sets up the bus with a ROM image (8 KiB at $E000 or 16 KiB at $C000) and
 * starts the CPU's reset sequence. */
void rom_bus_init(rom_bus *b, int plus4, const uint8_t *rom, size_t size);

/* Steps instructions until the CPU waits for a key at the READY prompt
 * (mh_kernal_waits_for_key); 1 when it did within max_cycles. */
int rom_bus_run_to_prompt(rom_bus *b, uint64_t max_cycles);

/* Runs JSR address from a stub in RAM with the given registers and carry;
 * afterwards *p holds the flags it returned with. 1 when it returned. */
int rom_bus_call(rom_bus *b, uint16_t address, uint8_t *a, uint8_t *x, uint8_t *y, uint8_t *p);

/* Raises one timer (VIC-20: VIA2 T1) or raster (Plus/4) interrupt and
 * runs until the CPU waits at the prompt again; 1 when it did. */
int rom_bus_interrupt(rom_bus *b);

/* One screen row as ASCII (screen codes $00-$3F; others '?'; reverse
 * stripped) into out (cols + 1 bytes), trailing spaces removed. */
void rom_bus_screen_row(const rom_bus *b, int row, char *out);

/* 1 when some row of the screen contains text. */
int rom_bus_screen_has(const rom_bus *b, const char *text);

/* Reads an original ROM from $MCPHOST_TEST_ROMS or ../shared/roms into
 * out; 0 (with a message on stderr naming the path) when absent. */
int rom_bus_load_original(const char *relative, uint8_t *out, size_t size);

#endif
