/* vic20.h - the VIC-20 machine's private header: configuration, the
 * instance struct and the functions the plugin's files share
 * (docs/machine-vic20.md).
 *
 * The machine: a 6502 (the SDK core, MH_CPU6502_MODEL_6502) on a
 * per-cycle bus, 5 KiB of RAM plus the chosen expansion, the VIC 6561/6560
 * (vic6561.h: video and sound; it shares the bus on the other half cycle
 * and never stops the CPU), VIA1 at $9110 (joystick, RESTORE on CA1, its
 * /IRQ on the CPU's NMI) and VIA2 at $9120 (keyboard, joystick right, its
 * /IRQ on the CPU's IRQ), 1K x 4 colour RAM at $9400.
 *
 * Timing: every chip is exact per cycle, but runs lazily: each CPU bus
 * cycle only counts (vic20_tick_chips); the VIC catches up before anything
 * that depends on it or changes what it fetches, the VIAs at their next
 * possible /IRQ event and before every access (vic20_bus.c).
 *
 * Files, one job each:
 *   vic20_options.c   the options JSON -> vic20_config
 *   vic20_rom.c       finding and loading BASIC, KERNAL and character ROMs
 *   vic20_bus.c       the memory map, the CPU bus callbacks (the per-cycle
 *                     path), the VIC's fetch, open bus, side-effect-free peek
 *   vic20_keyboard.c  keyboard matrix, key names, joysticks, typed text
 *   vic20_machine.c   new/free/run/reset, autostart, LOAD trap, snapshots
 *   vic20_cart.c      cartridges: raw images and VICE .crt
 *   vic20_views.c     the VIA and VIC views, the text screen
 *   vic20_ifaces.c    the chips and capability interfaces
 *   vic20_ext.c       snapshot, config, media and caps interfaces
 *   vic20_plugin.c    the plugin entry (the only file not in vic20_core)
 *
 * Ownership: vic20_new() returns an instance that owns everything in it.
 * Threads: everything is [emu-thread]. No global mutable state.
 */
#ifndef MH_VIC20_H
#define MH_VIC20_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/cpu6502.h"
#include "mcphost/kernal.h"
#include "mcphost/kit_holds.h"
#include "mcphost/kit_hooks.h"
#include "mcphost/machine_kit.h"
#include "mcphost/mcphost.h"
#include "via6522.h"
#include "vic6561.h"

#define VIC20_DEBUGCART_ADDR 0x910Fu
#define VIC20_IRQ_VIA2 0x1u
#define VIC20_NMI_VIA1 0x1u
#define VIC20_AUTOSTART_FALLBACK 20000000u
/* VIA1 CA2 drives the cassette motor switch; released (PCR input mode) the
 * line drifts low through that circuit and reads low this many cycles
 * later (a board property, inferred from VIA1 IFR dumps taken on a real
 * VIC-20: the VICE testprogs VIC20/via_sr IFR tests). */
#ifndef VIC20_CA2_FLOAT_CYCLES
#define VIC20_CA2_FLOAT_CYCLES 410u
#endif

/* Memory expansion blocks (bits of vic20_config.memory). */
enum {
    VIC20_MEM_3K = 0x01,     /* $0400-$0FFF */
    VIC20_MEM_BLK1 = 0x02,   /* $2000-$3FFF */
    VIC20_MEM_BLK2 = 0x04,   /* $4000-$5FFF */
    VIC20_MEM_BLK3 = 0x08,   /* $6000-$7FFF */
    VIC20_MEM_BLK5 = 0x10    /* $A000-$BFFF */
};

typedef struct vic20_config {
    char *rom_dir;          /* NULL: the built-in boot ROM (vic20_rom.c) */
    char *autostart;
    char *drive8;
    char *cartridge;
    m6561_model vic_model;
    unsigned memory;        /* VIC20_MEM_* */
    int debugcart;
    int sound;              /* 1 (default): VIC sound synthesis; 0: sound=off */
} vic20_config;

typedef struct vic20_autostart {
    uint8_t *data;
    size_t size;
    uint16_t load_address;
    char *name;
    int no_keys;
} vic20_autostart;

/* The plain part of the machine: no pointers, copied whole by snapshots. */
typedef struct vic20_plain {
    uint8_t ram[65536];      /* RAM where the configuration has it */
    uint8_t color[1024];     /* low nybbles used */
    uint8_t fb[2][M6561_FB_WIDTH * M6561_FB_MAX_HEIGHT];
    uint8_t fb_back;
    uint8_t restore_down;    /* RESTORE held: VIA1 CA1 low */
    uint64_t frames_done;
    uint8_t key_count[64];   /* KEY(col,row) press counts */
    uint8_t kb_col[8];       /* per VIA2 PB bit (column): PA bits (rows) held */
    uint8_t kb_row[8];       /* per PA bit: PB bits held */
    uint8_t joy;             /* MH_JOY_* of the control port */
    uint8_t via2_pb_drive;   /* what VIA2 drives on port B (columns) */
    uint8_t via2_pa_drive;
    uint8_t ca2_driven;      /* VIA1 drives CA2 (PCR output mode) */
    uint32_t ca2_float_left; /* cycles until the released CA2 reads low */
    mh_kernal_queue typed;
    uint8_t autostart_pending;
    mh_kit_state run;
} vic20_plain;

typedef struct vic20 vic20;

typedef struct vic20_chip_ctx {
    vic20 *m;
    int which; /* 0 vic, 1 via1, 2 via2 */
} vic20_chip_ctx;


/* What a CPU read of a 1 KiB block reaches. */
enum { VIC20_R_RAM = 0, VIC20_R_ROM, VIC20_R_IO, VIC20_R_OPEN };

struct vic20 {
    mh_cpu6502 cpu;
    m6561 vic;
    m6522 via1, via2;
    vic20_plain p;
    uint8_t rom[65536];      /* char $8000, cartridge $A000, BASIC $C000, KERNAL $E000 */
    /* Read/write kind per 1 KiB block ($0000-$FFFF: 64 blocks). */
    uint8_t rd_kind[64];
    const uint8_t *rd[64];   /* RAM or ROM bytes a read reaches (indexed by the
                              * full address), NULL for I/O and open bus */
    uint8_t wr_ram[64];      /* 1: a write lands in RAM */
    /* The VIAs run lazily: cycles not yet run, and cycles until the next
     * one that may change their /IRQ lines (vic20_via_catch_up). */
    uint32_t via_pending;
    uint32_t via_event_in;
    uint8_t vic_watch[64];   /* 1: the VIC fetches from this block now (a write
                              * there brings it up to date first) */
    mh_kit_hooks hooks;
    mh_event_sink events; /* the debugger's chip event sink (machine_events.h) */
    mh_machine_kit kit;
    mh_kernal kernal;
    mh_kernal_layout kernal_layout; /* per instance: BASIC's start moves with the RAM */
    mh_kit_memory memory;
    vic20_autostart autostart;
    char *program_path;
    struct mh_d64 *drive8;
    char *drive8_path;
    uint8_t has_cart;        /* a cartridge image is in rom (cart_blocks) */
    uint8_t cart_blocks;     /* VIC20_MEM_* blocks the cartridge fills with ROM */
    char *cart_path;
    vic20_config config;
    /* Input the machine releases itself after N frames (vic20_keyboard.c;
     * not in the snapshot: a load keeps the holds' countdowns). */
    mh_kit_holds holds;
    const m6561_geometry *geometry;
    vic20_chip_ctx chip_ctx[3];
    const mh_host *host;
};

/* ---- vic20_options.c ---- */
mh_status vic20_options_parse(const char *options_json, vic20_config *config, char *error,
                              size_t error_size);
void vic20_options_free(vic20_config *config);
mh_status vic20_options_confine(vic20_config *config, const mh_host *host, char *error,
                                size_t error_size);
struct mh_config_item;
const struct mh_config_item *vic20_option_items(size_t *count);
const char *vic20_memory_name(unsigned memory);

/* ---- vic20_rom.c ---- */
/* Fills rom with the character ROM ($8000), BASIC ($C000) and the KERNAL
 * ($E000) of the model from dir, or from the built-in boot ROM when dir is
 * NULL (the one place it plugs in). */
mh_status vic20_rom_load(const char *dir, int ntsc, uint8_t rom[65536], char *error,
                         size_t error_size);

/* ---- vic20_bus.c ---- */
void vic20_bus_init(vic20 *m);
uint8_t vic20_bus_read(void *user, uint16_t addr);
void vic20_bus_write(void *user, uint16_t addr, uint8_t value);
uint16_t vic20_vic_fetch(void *user, uint16_t vic_address);
void vic20_vic_blocks(const vic20 *m, const uint8_t *blocks[16]);
uint8_t vic20_bus_peek(const vic20 *m, uint16_t addr);
/* Where the CPU's bytes from addr on can be read in place: the RAM or ROM
 * bytes at addr with *length set to how many follow of the same kind; or
 * NULL with *length set to how many bytes from addr on vic20_bus_peek has
 * to work out (I/O, open bus). The bytes are exactly what vic20_bus_peek
 * gives. */
const uint8_t *vic20_bus_span(const vic20 *m, uint16_t addr, uint32_t *length);
void vic20_bus_poke(vic20 *m, uint16_t addr, uint8_t value);
uint8_t vic20_io_peek(const vic20 *m, uint16_t addr);
void vic20_io_write(vic20 *m, uint16_t addr, uint8_t value);
uint8_t vic20_via1_read_port(void *user, int port);
uint8_t vic20_via2_read_port(void *user, int port);
void vic20_via2_port_out(void *user, int port, uint8_t levels);
void vic20_frame_done(void *user);
/* Runs the VIAs' pending cycles (and VIA1's CA2 drift), sets the CPU's IRQ
 * and NMI lines and the next event; before any access to a VIA or its
 * lines. */
void vic20_via_catch_up(vic20 *m);
/* After a VIA changed outside a catch-up (an access, a line): the CPU's
 * lines and the next event. */
void vic20_via_changed(vic20 *m);
/* Recomputes vic_watch from the VIC's screen and character addresses. */
void vic20_vic_watch(vic20 *m);

/* ---- vic20_keyboard.c ---- */
const char *const *vic20_key_names(void);
mh_status vic20_key(vic20 *m, const char *name, int down);
mh_status vic20_type_text(vic20 *m, const char *text, char *error, size_t error_size);
mh_status vic20_type_codes(vic20 *m, const uint8_t *codes, size_t count, char *error,
                           size_t error_size);
mh_status vic20_joystick(vic20 *m, int port, uint32_t mask);
mh_status vic20_key_hold(vic20 *m, const char *name, uint32_t frames);
mh_status vic20_joystick_hold(vic20 *m, int port, uint32_t mask, uint32_t frames);
void vic20_release_all(vic20 *m);
/* A frame completed: counts the holds down and ends those that ran out
 * (from vic20_frame_done, inside emulation, so at the same place however
 * the run is cut). */
void vic20_holds_frame(vic20 *m);
mh_status vic20_hold_state_save(const vic20 *m, uint8_t *out, size_t max, size_t *size);
mh_status vic20_hold_state_load(vic20 *m, const uint8_t *data, size_t size);

/* ---- vic20_cart.c ---- */
mh_status vic20_cart_attach(vic20 *m, const char *path, char *error, size_t error_size);
mh_status vic20_cart_attach_bytes(vic20 *m, const char *path, const uint8_t *bytes, size_t size,
                                  char *error, size_t error_size);
void vic20_cart_detach(vic20 *m);

/* ---- vic20_machine.c ---- */
vic20 *vic20_new(const char *options_json, const mh_host *host, char *error, size_t error_size);
void vic20_free(vic20 *m);
void vic20_power_on(vic20 *m);
void vic20_reset(vic20 *m, int hard);
mh_status vic20_run(vic20 *m, uint64_t max_cycles, mh_run_result *result);
void vic20_set_debug_hooks(vic20 *m, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                           void *user);
void vic20_hooks_update(vic20 *m);
mh_status vic20_program_attach(vic20 *m, const char *path, int autostart, char *error,
                               size_t error_size);
void vic20_program_detach(vic20 *m);
mh_status vic20_drive_attach(vic20 *m, const char *path, char *error, size_t error_size);
void vic20_drive_detach(vic20 *m);
void vic20_autostart_inject(vic20 *m);
#define vic20_log(m, level, ...) mh_kit_log((m)->host, (level), __VA_ARGS__)

typedef struct vic20_snapshot {
    mh_cpu6502 cpu;
    m6561 vic;
    m6522 via1, via2;
    vic20_plain p;
} vic20_snapshot;
void vic20_snapshot_save(const vic20 *m, vic20_snapshot *snap);
void vic20_snapshot_restore(vic20 *m, const vic20_snapshot *snap);

/* ---- vic20_ifaces.c / vic20_ext.c ---- */
size_t vic20_ifaces_chips(vic20 *m, mh_chip *chips, size_t max);
void vic20_machine_desc(mh_machine_desc *desc, const mh_host *host);
#define VIC20_EXT_CHIPS 4u
size_t vic20_ext_chips(vic20 *m, mh_chip *chips);
mh_status vic20_snapshot_blob_save(const vic20 *m, void **data, size_t *size);
void vic20_snapshot_blob_seal(uint8_t *blob, size_t size);
mh_status vic20_snapshot_blob_load(vic20 *m, const void *data, size_t size, char *error,
                                   size_t error_size);
/* vic20_views.c: the chip views. */
struct mh_chip_via_view;
struct mh_chip_vic_view;
void vic20_via_view(const vic20 *m, const m6522 *via, struct mh_chip_via_view *out);
void vic20_vic_view(const vic20 *m, struct mh_chip_vic_view *out);

/* ---- the per-cycle step shared by the bus callbacks ---- */
/* Brings the VIC up to the current cycle (it runs lazily: vic6561.h).
 * Catching up changes nothing a program could see, so views that take a
 * const machine call it too. */
static inline void vic20_vic_catch_up(const vic20 *m)
{
    if (m->vic.pending) m6561_sync((m6561 *)&m->vic);
}

#if defined(__GNUC__)
#define VIC20_HOT_INLINE inline __attribute__((always_inline))
#else
#define VIC20_HOT_INLINE inline
#endif
/* Every bus cycle runs this: inlined into the bus callbacks. */
static VIC20_HOT_INLINE void vic20_tick_chips(vic20 *m)
{
    m->vic.pending++;
    m->via_pending++;
    if (--m->via_event_in == 0) vic20_via_catch_up(m);
}

#endif
