/* c64_chips.h - the chip interfaces the C64 registers for the chip
 * toolsets: "mh.chip.vic2/1" (instance "vic2") and "mh.chip.cia/1"
 * (instances "cia1", "cia2").
 *
 * A minimal first version, defined here without the SDK until the chip
 * toolsets issue moves it into sdk/include/mcphost (same layout, same ids):
 * the chip's state struct (vic2.h's mh_vic2, cia6526.h's mh_cia6526, plain
 * structs a debugger reads), a register read without side effects and a
 * register write with the chip's effects. Like every vtable it starts with
 * struct_size and only grows at the end.
 *
 * Ownership: vtables are static; contexts belong to the machine instance and
 * live until its destroy(). Threads: every function is [emu-thread].
 */
#ifndef MH_C64_CHIPS_H
#define MH_C64_CHIPS_H

#include <stdint.h>

#define MH_CHIP_VIC2_IFACE "mh.chip.vic2/1"
#define MH_CHIP_CIA_IFACE "mh.chip.cia/1"

/* "mh.chip.vic2/1": state() returns the mh_vic2; reg is the register
 * number (address & $3F). */
typedef struct mh_chip_vic2_iface {
    uint32_t struct_size;
    void *(*state)(void *context);
    uint8_t (*peek)(void *context, uint16_t reg);
    void (*write)(void *context, uint16_t reg, uint8_t value);
} mh_chip_vic2_iface;

/* "mh.chip.cia/1": state() returns the mh_cia6526; reg is the register
 * number (address & $0F). */
typedef struct mh_chip_cia_iface {
    uint32_t struct_size;
    void *(*state)(void *context);
    uint8_t (*peek)(void *context, uint16_t reg);
    void (*write)(void *context, uint16_t reg, uint8_t value);
} mh_chip_cia_iface;

#endif
