/* mcphost/chip_cia.h - the CIA chip interface, "mh.chip.cia/1", that a
 * machine with MOS 6526/6526A/8521 Complex Interface Adapters registers
 * (a C64: instances "cia1" at $DC00 and "cia2" at $DD00), and that the CIA
 * toolset (plugins/tools-cia) works against.
 *
 * Offers:
 *   - mh_chip_cia_view: the chip decoded into a plain struct filled by the
 *     machine: ports with data direction, output latches and pin levels,
 *     both timers with counter, latch, control bits and input, the TOD
 *     clock and its alarm, the ICR flags and mask, the serial port;
 *   - side-effect-free register reads (peek: the ICR is not cleared, TOD
 *     not latched) and register writes with the chip's effects (write),
 *     register = address & $0F;
 *   - the keyboard matrix the chip scans (C64 CIA1), with key names.
 * A toolset needs nothing but this header.
 *
 * Versioning: the vtable starts with struct_size and only grows at the end.
 * The view carries struct_size (set by the caller).
 *
 * Ownership: vtable and context belong to the machine instance and live
 * until its destroy(). Strings returned are static. Output buffers belong
 * to the caller.
 * Threads: every function is [emu-thread] (a tool handler with `requires`
 * runs there).
 */
#ifndef MCPHOST_CHIP_CIA_H
#define MCPHOST_CHIP_CIA_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/chip_io.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CHIP_CIA_IFACE "mh.chip.cia/1"

/* What a timer counts. */
typedef enum mh_chip_cia_input {
    MH_CHIP_CIA_INPUT_PHI2 = 0,  /* system clock cycles */
    MH_CHIP_CIA_INPUT_CNT = 1,   /* CNT rising edges */
    MH_CHIP_CIA_INPUT_TA = 2,    /* timer B only: timer A underflows */
    MH_CHIP_CIA_INPUT_TA_CNT = 3 /* timer B only: TA underflows while CNT is high */
} mh_chip_cia_input;

typedef struct mh_chip_cia_timer {
    uint16_t counter;     /* current count ($x4/$x5 or $x6/$x7 read) */
    uint16_t latch;       /* reload value */
    uint8_t control;      /* CRA/CRB as read */
    uint8_t running;      /* START */
    uint8_t oneshot;      /* RUNMODE: stop at underflow */
    uint8_t pb_on;        /* the underflow shows on PB6 (A) / PB7 (B) */
    uint8_t pb_toggle;    /* 1: toggle, 0: one-cycle pulse */
    uint8_t pb_level;     /* the timer's output level now */
    uint8_t input;        /* mh_chip_cia_input */
    uint8_t reserved;
    uint32_t underflows;  /* since reset */
} mh_chip_cia_timer;

/* A TOD time, decoded from BCD. */
typedef struct mh_chip_cia_time {
    uint8_t hours;        /* 1-12 */
    uint8_t minutes, seconds, tenths;
    uint8_t pm;
} mh_chip_cia_time;

typedef struct mh_chip_cia_view {
    uint32_t struct_size; /* set by the caller: sizeof(mh_chip_cia_view) */
    const char *model;    /* "6526" or "6526A" */
    uint8_t regs[16];     /* what CPU reads of the 16 registers return (peek) */
    /* Ports: output latches, data direction (1 = output), the levels the
     * chip drives, and the pin levels a read returns. */
    uint8_t pra, prb, ddra, ddrb;
    uint8_t pa_out, pb_out;
    uint8_t pa_pins, pb_pins;
    mh_chip_cia_timer timer_a, timer_b;
    /* Time of day. */
    mh_chip_cia_time tod, alarm;
    uint8_t tod_running;  /* not halted by an hours write */
    uint8_t tod_latched;  /* hours read, tenths not yet: reads are frozen */
    uint8_t tod_50hz;     /* CRA bit 7: the TOD pin runs at 50 Hz */
    uint8_t tod_writes_alarm; /* CRB bit 7: TOD writes set the alarm */
    /* Interrupt control. */
    uint8_t icr_flags;    /* data register as a read would return it (bit 7 IR) */
    uint8_t icr_mask;     /* bits 0-4: TA, TB, ALARM, SP, FLAG */
    uint8_t irq;          /* 1: /IRQ asserted now */
    /* Serial port. */
    uint8_t sdr;
    uint8_t sp_output;    /* CRA bit 6: the port shifts out */
    uint8_t sp_bits_left; /* output mode: bits still to shift */
} mh_chip_cia_view;

typedef struct mh_chip_cia_iface {
    uint32_t struct_size;
    /* The machine's own chip state (for the machine's tests). */
    void *(*state)(void *context);
    /* What a CPU read of register reg (address & $0F) returns, without side
     * effects. */
    uint8_t (*peek)(void *context, uint16_t reg);
    /* A CPU write of register reg with the chip's effects. */
    void (*write)(void *context, uint16_t reg, uint8_t value);
    /* Fills *out (struct_size set by the caller). */
    mh_status (*view)(void *context, mh_chip_cia_view *out);
    /* The keyboard matrix this CIA scans: held[column] has bit row set for
     * each key held down (column = port A line, row = port B line on a
     * C64). MH_ERR_UNSUPPORTED when no keyboard is wired to this CIA. */
    mh_status (*keyboard)(void *context, uint8_t held[8]);
    /* The name of the key at column/row ("A", "RETURN", "SHIFT_LEFT"; the
     * names mh.input/1 takes), or NULL when there is none. */
    const char *(*key_name)(void *context, unsigned column, unsigned row);
    /* Appended in ABI 1.3 (check MH_CHIP_IFACE_HAS first): where the
     * registers sit in the CPU's map. */
    void (*io_range)(void *context, mh_chip_io_range *out);
} mh_chip_cia_iface;

#ifdef __cplusplus
}
#endif
#endif
