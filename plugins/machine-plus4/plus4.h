/* plus4.h - the Commodore Plus/4 and C16 machine's private header:
 * configuration, the instance struct and the functions the plugin's files
 * share (docs/machine-plus4.md).
 *
 * The machine: a 7501/8501 (the SDK core, MH_CPU6502_MODEL_7501) on a
 * per-cycle bus, the TED (ted.h: video, timers, sound, keyboard latch,
 * ROM/RAM switch, clock), 64 KiB (Plus/4) or 16 KiB (C16, mirrored) of
 * RAM, BASIC and KERNAL ROMs, the 3-plus-1 function ROMs and two cartridge
 * slots banked at $FDD0-$FDDF, the 6551 ACIA ($FD00), the 6529 user port
 * ($FD10) and the keyboard port ($FD30).
 *
 * Clock: the machine's cycle counter counts TED ticks (1.77 MHz); a CPU
 * cycle at single clock takes two (plus4_run converts the kit's CPU-cycle
 * budget).
 *
 * Files, one job each:
 *   ted.c ted_video.c ted_sound.c ted_palette.c   the TED
 *   plus4_options.c   the options JSON -> plus4_config
 *   plus4_rom.c       finding and loading the ROMs (the one place where a
 *                     built-in boot ROM plugs in)
 *   plus4_bus.c       banking, the CPU bus callbacks, I/O, peek/poke
 *   plus4_io.c        the ACIA and the 6529 ports
 *   plus4_keyboard.c  keyboard matrix, key names, joysticks, typed text
 *   plus4_machine.c   new/free/run/reset, autostart, drive trap, hooks
 *   plus4_ifaces.c    the capabilities registered in the session
 *   plus4_ted_iface.c mh.chip.ted/1 and mh.audio/1
 *   plus4_ext.c       snapshot, config, media, caps, text screen
 *   plus4_plugin.c    the plugin entry
 *
 * Ownership: plus4_new() returns an instance that owns everything in it.
 * Threads: everything is [emu-thread]. No global mutable state.
 */
#ifndef MH_PLUS4_H
#define MH_PLUS4_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/chip_ted.h"
#include "mcphost/cpu6502.h"
#include "mcphost/kernal.h"
#include "mcphost/kit_holds.h"
#include "mcphost/kit_hooks.h"
#include "mcphost/machine_kit.h"
#include "mcphost/mcphost.h"
#include "ted.h"

#define PLUS4_DEBUGCART_ADDR 0xFDCFu
#define PLUS4_IRQ_TED 0x1u
#define PLUS4_IRQ_ACIA 0x2u
#define PLUS4_AUTOSTART_FALLBACK 40000000u /* ticks */

/* ROM slots: low banks at $8000, high banks at $C000. */
enum {
    PLUS4_ROM_BASIC = 0,
    PLUS4_ROM_KERNAL = 1,
    PLUS4_ROM_FUNC_LO = 2,
    PLUS4_ROM_FUNC_HI = 3,
    PLUS4_ROM_CART1_LO = 4,
    PLUS4_ROM_CART1_HI = 5,
    PLUS4_ROM_CART2_LO = 6,
    PLUS4_ROM_CART2_HI = 7,
    PLUS4_ROM_SLOTS = 8
};
#define PLUS4_ROM_SIZE 16384u

typedef enum plus4_model { PLUS4_MODEL_PLUS4 = 0, PLUS4_MODEL_C16 = 1 } plus4_model;

typedef struct plus4_config {
    char *rom_dir;   /* NULL: the built-in boot ROM (when there is one) */
    char *autostart;
    char *drive8;
    char *cartridge;
    plus4_model model;
    int ntsc;
    int sound;
    int debugcart;
} plus4_config;

typedef struct plus4_autostart {
    uint8_t *data;
    size_t size;
    uint16_t load_address;
    char *name;
    int no_keys;
} plus4_autostart;

/* The 6551 ACIA's registers (no line attached: nothing is sent or
 * received; the registers read back as on the chip). */
typedef struct plus4_acia {
    uint8_t status, command, control, rx, tx;
} plus4_acia;

/* The plain part of the machine: no pointers, copied whole by snapshots. */
typedef struct plus4_plain {
    uint8_t ram[65536];
    uint8_t fb[2][TED_FB_WIDTH * TED_FB_MAX_HEIGHT];
    uint8_t fb_back;
    uint8_t rom_banks;       /* $FDD0-$FDDF address bits: 0-1 low, 2-3 high */
    uint8_t user_port;       /* 6529 at $FD10 */
    uint8_t keyboard_port;   /* 6529 at $FD30: column select */
    plus4_acia acia;
    uint64_t frames_done;
    uint8_t key_count[64];   /* presses held per col * 8 + row */
    uint8_t kb_col[8];       /* rows held per column */
    uint8_t joy[3];
    mh_kernal_queue typed;
    uint8_t autostart_pending;
    mh_kit_state run;        /* run.cycles: TED ticks since power-on */
} plus4_plain;


typedef struct plus4 {
    mh_cpu6502 cpu;
    ted ted;
    plus4_plain p;
    /* Read map per 256-byte page: the page's bytes, or NULL (I/O). */
    const uint8_t *rd[256];
    uint16_t ram_mask;       /* $FFFF Plus/4, $3FFF C16 */
    uint8_t rom[PLUS4_ROM_SLOTS][PLUS4_ROM_SIZE];
    uint8_t rom_present[PLUS4_ROM_SLOTS];
    uint8_t open_rom[256];   /* an empty slot reads this ($FF... ) */

    mh_kit_hooks hooks;
    mh_event_sink events; /* the debugger's chip event sink (machine_events.h) */

    mh_machine_kit kit;
    mh_kernal kernal;
    int kernal_reads_ram;    /* during the LOAD trap: the glue reads RAM */
    mh_kit_memory memory;

    plus4_autostart autostart;
    char *program_path;
    struct mh_d64 *drive8;
    char *drive8_path;
    char *cart_path;
    plus4_config config;
    /* Input the machine releases itself after N frames (plus4_keyboard.c;
     * not in the snapshot: a load keeps the holds' countdowns). */
    mh_kit_holds holds;
    const char *rom_source;  /* for the log: the directory or "built-in" */
    const mh_host *host;
} plus4;

/* ---- plus4_options.c ---- */
mh_status plus4_options_parse(const char *options_json, plus4_config *config, char *error,
                              size_t error_size);
void plus4_options_free(plus4_config *config);
mh_status plus4_options_confine(plus4_config *config, const mh_host *host, char *error,
                                size_t error_size);
const mh_config_item *plus4_option_items(size_t *count);

/* ---- plus4_rom.c ---- */
mh_status plus4_rom_load(plus4 *m, char *error, size_t error_size);

/* ---- plus4_bus.c ---- */
void plus4_bus_update_banking(plus4 *m);
uint8_t plus4_bus_read(void *user, uint16_t addr);
void plus4_bus_write(void *user, uint16_t addr, uint8_t value);
uint8_t plus4_ted_fetch(void *user, uint16_t addr, int rom);
const uint8_t *plus4_ted_page(void *user, uint16_t addr, int rom);
uint8_t plus4_bus_peek(const plus4 *m, uint16_t addr);
/* Where the CPU's bytes from addr on can be read in place: the RAM or ROM
 * bytes at addr with *length set to how many follow contiguously under the
 * current banking; or NULL with *length set to how many bytes from addr on
 * plus4_bus_peek has to work out (the port, I/O). The bytes are exactly
 * what plus4_bus_peek gives. */
const uint8_t *plus4_bus_span(const plus4 *m, uint16_t addr, uint32_t *length);
void plus4_bus_poke(plus4 *m, uint16_t addr, uint8_t value);
uint8_t plus4_io_peek(const plus4 *m, uint16_t addr);
void plus4_io_write(plus4 *m, uint16_t addr, uint8_t value);
uint8_t plus4_port_input(void *user);
/* 1 when the KERNAL ROM is what the CPU reads at addr now. */
int plus4_kernal_at(const plus4 *m, uint16_t addr);

/* ---- plus4_keyboard.c ---- */
const char *const *plus4_key_names(void);
const char *plus4_matrix_key_name(unsigned column, unsigned row);
mh_status plus4_key(plus4 *m, const char *name, int down);
mh_status plus4_key_hold(plus4 *m, const char *name, uint32_t frames);
mh_status plus4_joystick(plus4 *m, int port, uint32_t mask);
mh_status plus4_joystick_hold(plus4 *m, int port, uint32_t mask, uint32_t frames);
void plus4_release_all(plus4 *m);
mh_status plus4_type_text(plus4 *m, const char *text, char *error, size_t error_size);
mh_status plus4_type_codes(plus4 *m, const uint8_t *codes, size_t count, char *error,
                           size_t error_size);
/* A frame completed: counts the holds down and ends those that ran out
 * (from plus4_frame_done, inside emulation, so at the same place however
 * the run is cut). */
void plus4_holds_frame(plus4 *m);
mh_status plus4_hold_state_save(const plus4 *m, uint8_t *out, size_t max, size_t *size);
mh_status plus4_hold_state_load(plus4 *m, const uint8_t *data, size_t size);
/* The value a $FF08 write latches: rows of the selected columns, joysticks. */
uint8_t plus4_keyboard_rows(const plus4 *m, uint8_t ff08_value);

/* ---- plus4_machine.c ---- */
plus4 *plus4_new(const char *options_json, const mh_host *host, char *error, size_t error_size);
void plus4_free(plus4 *m);
void plus4_power_on(plus4 *m);
void plus4_reset(plus4 *m, int hard);
mh_status plus4_run(plus4 *m, uint64_t max_ticks, mh_run_result *result);
void plus4_set_debug_hooks(plus4 *m, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                           void *user);
void plus4_hooks_update(plus4 *m);
mh_status plus4_program_attach(plus4 *m, const char *path, int autostart, char *error,
                               size_t error_size);
void plus4_program_detach(plus4 *m);
mh_status plus4_drive_attach(plus4 *m, const char *path, char *error, size_t error_size);
void plus4_drive_detach(plus4 *m);
mh_status plus4_cart_attach(plus4 *m, const char *path, char *error, size_t error_size);
void plus4_cart_detach(plus4 *m);
void plus4_autostart_inject(plus4 *m);
void plus4_frame_done(plus4 *m);
extern const mh_kernal_layout plus4_kernal_layout;
#define plus4_log(m, level, ...) mh_kit_log((m)->host, (level), __VA_ARGS__)

/* Snapshot payload. */
typedef struct plus4_snapshot {
    mh_cpu6502 cpu;
    ted ted;
    plus4_plain p;
} plus4_snapshot;
mh_status plus4_snapshot_blob_save(const plus4 *m, void **data, size_t *size);
void plus4_snapshot_blob_seal(uint8_t *blob, size_t size);
mh_status plus4_snapshot_blob_load(plus4 *m, const void *data, size_t size, char *error,
                                   size_t error_size);

/* ---- plus4_ifaces.c / plus4_ted_iface.c / plus4_ext.c ---- */
size_t plus4_ifaces_chips(plus4 *m, mh_chip *chips, size_t max);
void plus4_machine_desc(mh_machine_desc *desc, const mh_host *host);
#define PLUS4_TED_CHIPS 2u
size_t plus4_ted_chips(plus4 *m, mh_chip *chips);
void plus4_ted_view(const plus4 *m, mh_chip_ted_view *out);
#define PLUS4_EXT_CHIPS 5u
size_t plus4_ext_chips(plus4 *m, mh_chip *chips);

/* ---- the per-cycle step shared by the bus callbacks ---- */

/* The TED's slow path (ted_event: line, region or timer event) and the
 * CPU's RDY and IRQ lines after it (plus4_bus.c); RDY and IRQ change only
 * there and at a TED register write (plus4_io_write), so the per-cycle path
 * leaves them alone. */
void plus4_ted_event(plus4 *m);
/* RDY and IRQ from the TED's state. */
static inline void plus4_cpu_lines(plus4 *m)
{
    m->cpu.rdy = (uint8_t)!m->ted.dma_now;
    m->cpu.irq = m->ted.irq ? PLUS4_IRQ_TED : 0u;
}

/* Runs the TED for one CPU cycle (one tick at double clock, two at single);
 * the same as ted_advance(&m->ted, cycle_ticks) with the slow path out of
 * line. */
static inline void plus4_tick_chips(plus4 *m)
{
    ted *t = &m->ted;
    t->ticks += t->cycle_ticks;
    t->x = (uint16_t)(t->x + t->cycle_ticks);
    if (t->ticks >= t->event_tick) plus4_ted_event(m);
}

#endif
