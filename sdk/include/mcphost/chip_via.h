/* mcphost/chip_via.h - the VIA chip interface, "mh.chip.via/1", that a
 * machine with MOS 6522 Versatile Interface Adapters registers (a VIC-20:
 * instances "via1" at $9110 and "via2" at $9120; a 1541 drive has two more),
 * and that the VIA toolset (plugins/tools-via) works against.
 *
 * Offers:
 *   - mh_chip_via_view: the chip decoded into a plain struct filled by the
 *     machine: ports (output registers, data direction, pin levels, input
 *     latches), timer 1 (counter, latch, one-shot/free-run, PB7 output),
 *     timer 2 (counter, latch, one-shot/PB6 pulse counting), the shift
 *     register (value, mode, bits left), the peripheral control lines
 *     CA1/CA2/CB1/CB2 decoded from the PCR with their levels, IFR/IER and
 *     the /IRQ level;
 *   - side-effect-free register reads (peek: IFR bits are not cleared, the
 *     handshake not triggered) and register writes with the chip's effects
 *     (write), register = address & $0F;
 *   - the keyboard matrix the chip scans, with key names (VIC-20: VIA2,
 *     port B drives the columns, port A reads the rows).
 * A toolset needs nothing but this header.
 *
 * Versioning: the vtable starts with struct_size and only grows at the end;
 * check a field appended later with MH_CHIP_IFACE_HAS (chip_io.h). The view
 * carries struct_size (set by the caller; the machine fills what fits).
 *
 * Ownership: vtable and context belong to the machine instance and live
 * until its destroy(). Strings returned are static. Output buffers belong
 * to the caller.
 * Threads: every function is [emu-thread] (a tool handler with `requires`
 * runs there, or a breakpoint check callback).
 */
#ifndef MCPHOST_CHIP_VIA_H
#define MCPHOST_CHIP_VIA_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/chip_io.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_CHIP_VIA_IFACE "mh.chip.via/1"

/* Register numbers (address & $0F). */
enum {
    MH_CHIP_VIA_ORB = 0x0,   /* port B (IRB on read) */
    MH_CHIP_VIA_ORA = 0x1,   /* port A with CA2 handshake */
    MH_CHIP_VIA_DDRB = 0x2,
    MH_CHIP_VIA_DDRA = 0x3,
    MH_CHIP_VIA_T1CL = 0x4,  /* read: T1 counter low (clears T1 flag); write: latch low */
    MH_CHIP_VIA_T1CH = 0x5,  /* T1 counter high (write: load and start) */
    MH_CHIP_VIA_T1LL = 0x6,
    MH_CHIP_VIA_T1LH = 0x7,
    MH_CHIP_VIA_T2CL = 0x8,
    MH_CHIP_VIA_T2CH = 0x9,
    MH_CHIP_VIA_SR = 0xA,
    MH_CHIP_VIA_ACR = 0xB,
    MH_CHIP_VIA_PCR = 0xC,
    MH_CHIP_VIA_IFR = 0xD,
    MH_CHIP_VIA_IER = 0xE,
    MH_CHIP_VIA_ORA_NH = 0xF /* port A without handshake */
};

/* IFR / IER bits. */
enum {
    MH_CHIP_VIA_IRQ_CA2 = 0x01,
    MH_CHIP_VIA_IRQ_CA1 = 0x02,
    MH_CHIP_VIA_IRQ_SR = 0x04,
    MH_CHIP_VIA_IRQ_CB2 = 0x08,
    MH_CHIP_VIA_IRQ_CB1 = 0x10,
    MH_CHIP_VIA_IRQ_T2 = 0x20,
    MH_CHIP_VIA_IRQ_T1 = 0x40,
    MH_CHIP_VIA_IRQ_ANY = 0x80
};

/* Shift register mode: ACR bits 2-4. */
typedef enum mh_chip_via_sr_mode {
    MH_CHIP_VIA_SR_DISABLED = 0,     /* 000 */
    MH_CHIP_VIA_SR_IN_T2 = 1,        /* 001: shift in at T2's rate */
    MH_CHIP_VIA_SR_IN_PHI2 = 2,      /* 010: shift in at the system clock */
    MH_CHIP_VIA_SR_IN_CB1 = 3,       /* 011: shift in on external CB1 edges */
    MH_CHIP_VIA_SR_OUT_FREE_T2 = 4,  /* 100: shift out free-running at T2's rate */
    MH_CHIP_VIA_SR_OUT_T2 = 5,       /* 101: shift out 8 bits at T2's rate */
    MH_CHIP_VIA_SR_OUT_PHI2 = 6,     /* 110: shift out at the system clock */
    MH_CHIP_VIA_SR_OUT_CB1 = 7       /* 111: shift out on external CB1 edges */
} mh_chip_via_sr_mode;

/* CA2/CB2 mode: PCR bits 1-3 (CA2) or 5-7 (CB2). */
typedef enum mh_chip_via_c2_mode {
    MH_CHIP_VIA_C2_IN_NEG = 0,       /* input, interrupt on a negative edge */
    MH_CHIP_VIA_C2_IN_NEG_INDEP = 1, /* the same, a port access does not clear the flag */
    MH_CHIP_VIA_C2_IN_POS = 2,       /* input, interrupt on a positive edge */
    MH_CHIP_VIA_C2_IN_POS_INDEP = 3, /* the same, independent */
    MH_CHIP_VIA_C2_HANDSHAKE = 4,    /* output low after a port access until the C1 edge */
    MH_CHIP_VIA_C2_PULSE = 5,        /* output low for one cycle after a port access */
    MH_CHIP_VIA_C2_LOW = 6,          /* manual output low */
    MH_CHIP_VIA_C2_HIGH = 7          /* manual output high */
} mh_chip_via_c2_mode;

/* One control line pair (CA1+CA2 or CB1+CB2), decoded. */
typedef struct mh_chip_via_control {
    uint8_t c1_positive;  /* PCR bit 0 / 4: C1 is active on the rising edge */
    uint8_t c1_level;     /* the C1 pin now */
    uint8_t c2_mode;      /* mh_chip_via_c2_mode */
    uint8_t c2_output;    /* 1: C2 is an output (modes 4-7) */
    uint8_t c2_level;     /* the C2 pin now (driven or input) */
    uint8_t reserved[3];
} mh_chip_via_control;

typedef struct mh_chip_via_timer {
    uint16_t counter;     /* current count (as reads return it) */
    uint16_t latch;       /* reload value (T2: only the low byte is a latch) */
    uint8_t free_run;     /* T1: ACR bit 6, reload and run on; T2: always 0 */
    uint8_t pb_out;       /* T1: ACR bit 7, PB7 is the timer's output */
    uint8_t pb_level;     /* T1: the PB7 output level now */
    uint8_t pulse_count;  /* T2: ACR bit 5, counts PB6 negative edges */
    uint8_t armed;        /* the next time-out sets the interrupt flag (one-shot) */
    uint8_t reserved[3];
    uint32_t timeouts;    /* since reset */
} mh_chip_via_timer;

typedef struct mh_chip_via_view {
    uint32_t struct_size; /* set by the caller: sizeof(mh_chip_via_view) */
    const char *model;    /* "6522" */
    uint8_t regs[16];     /* what CPU reads of the 16 registers return (peek) */
    /* Ports: output registers, data direction (1 = output), the pin levels,
     * what a read returns (latched when latching is on), the latches. */
    uint8_t ora, orb, ddra, ddrb;
    uint8_t pa_pins, pb_pins;
    uint8_t ira, irb;           /* as a read of $1/$0 returns it */
    uint8_t pa_latching;        /* ACR bit 0: port A latches on the CA1 edge */
    uint8_t pb_latching;        /* ACR bit 1: port B latches on the CB1 edge */
    uint8_t pa_latch, pb_latch; /* the latched input values */
    mh_chip_via_timer t1, t2;
    /* Shift register. */
    uint8_t sr;
    uint8_t sr_mode;            /* mh_chip_via_sr_mode */
    uint8_t sr_bits_left;       /* bits still to shift in the current byte */
    uint8_t acr, pcr;
    mh_chip_via_control ca, cb;
    /* Interrupts. */
    uint8_t ifr;                /* as read (bit 7: an enabled flag is set) */
    uint8_t ier;                /* as read (bit 7 reads 1) */
    uint8_t irq;                /* 1: /IRQ asserted now */
    uint8_t reserved;
} mh_chip_via_view;

typedef struct mh_chip_via_iface {
    uint32_t struct_size;
    /* The machine's own chip state (for the machine's tests). */
    void *(*state)(void *context);
    /* What a CPU read of register reg (address & $0F) returns, without side
     * effects. */
    uint8_t (*peek)(void *context, uint16_t reg);
    /* A CPU write of register reg with the chip's effects. */
    void (*write)(void *context, uint16_t reg, uint8_t value);
    /* Fills *out (struct_size set by the caller). MH_ERR_INVALID_ARGUMENT for
     * NULL or a struct_size below the first version's. */
    mh_status (*view)(void *context, mh_chip_via_view *out);
    /* The keyboard matrix this VIA scans: held[column] has bit row set for
     * each key held down (VIC-20 VIA2: column = port B line, row = port A
     * line). MH_ERR_UNSUPPORTED when no keyboard is wired to this VIA. */
    mh_status (*keyboard)(void *context, uint8_t held[8]);
    /* The name of the key at column/row ("A", "RETURN", "SHIFT_LEFT"; the
     * names mh.input/1 takes), or NULL when there is none. */
    const char *(*key_name)(void *context, unsigned column, unsigned row);
    /* Where the registers sit in the CPU's map (VIC-20 VIA1: $9110, 16
     * bytes, mirrored through $93FF with VIA2 where both are selected). */
    void (*io_range)(void *context, mh_chip_io_range *out);
} mh_chip_via_iface;

#ifdef __cplusplus
}
#endif
#endif
