/* c64.h - the C64 machine's private header: configuration, the instance
 * struct and the functions the plugin's files share (docs/machine-c64.md).
 *
 * The machine: a 6510 (the SDK core, MH_CPU6502_MODEL_6510) on a per-cycle
 * bus, the PLA (c64_pla.h), 64 KiB RAM, 1K x 4 colour RAM, the VIC-II
 * (vic2.h), CIA1 (IRQ, keyboard, joysticks) and CIA2 (NMI, VIC bank, serial
 * bus), the SID (c64_sid.h, sid.h) and RESTORE on NMI.
 *
 * Files, one job each:
 *   c64_options.c   the options JSON -> c64_config (every check)
 *   c64_rom.c       finding and loading the KERNAL, BASIC and character ROMs
 *   c64_bus.c       banking tables, the CPU bus callbacks (the per-cycle
 *                   path), I/O dispatch, VIC fetch, side-effect-free peek,
 *                   CPU-like poke, the CIAs' deadline clock
 *   c64_cpu.c       the 6510 in the machine's own instances of the SDK's
 *                   cycle engine, the bus below inlined
 *   c64_keyboard.c  keyboard matrix, key names, joysticks, typed text
 *   c64_sid.c       the SID: the synthesis module (sid.c) clocked lazily
 *                   by cycle count, and the audio ring
 *   c64_drive.c     the virtual drive 8: a D64 behind a KERNAL LOAD trap
 *   c64_cart.c      generic cartridges (8K, 16K, Ultimax) from CRT files
 *   c64_machine.c   c64_new/free/run/reset, autostart, the exit register,
 *                   hook chaining, snapshots
 *   c64_ifaces.c    the chips and capability interfaces registered in the
 *                   session
 *   c64_ext.c       snapshot, config, media and caps interfaces
 *   c64_plugin.c    the plugin entry (the only file not in c64_core)
 *
 * Ownership: c64_new() returns an instance that owns everything in it.
 * Threads: everything is [emu-thread]. No global mutable state: two
 * instances share nothing (the static tables are const).
 */
#ifndef MH_C64_H
#define MH_C64_H

#include <stddef.h>
#include <stdint.h>

#include "c64_chips.h"
#include "c64_pla.h"
#include "c64_sid.h"
#include "cia6526.h"
#include "mcphost/cpu6502.h"
#include "mcphost/kernal.h"
#include "mcphost/kit_holds.h"
#include "mcphost/kit_hooks.h"
#include "mcphost/machine_kit.h"
#include "mcphost/mcphost.h"
#include "vic2.h"

#define C64_CLOCK_PAL 985248u
#define C64_CLOCK_NTSC 1022727u
#define C64_DEFAULT_ROM_DIR "/usr/share/open-roms/C64"
#define C64_DEBUGCART_ADDR 0xD7FFu
#define C64_SID_BASE 0xD400u

/* Interrupt source bits on the CPU's lines. */
#define C64_IRQ_VIC M6569_PIN_IRQ /* the VIC's pin bit: the tick's pins give it as is */
#define C64_IRQ_CIA1 0x2u
#define C64_NMI_CIA2 0x1u
#define C64_NMI_RESTORE 0x2u

/* RESTORE's 556 monostable: the NMI pulse a press makes, in cycles. */
#define C64_RESTORE_PULSE 2000u

/* Autostart: give up waiting for the KERNAL's keyboard loop after this
 * many cycles and inject anyway. */
#define C64_AUTOSTART_FALLBACK 20000000u

/* Everything the options say, checked. Strings are malloc'ed copies. */
typedef struct c64_config {
    char *rom_dir;          /* NULL: C64_DEFAULT_ROM_DIR */
    char *autostart;        /* NULL: none */
    char *drive8;           /* a .d64 for the virtual drive 8; NULL: none */
    char *cartridge;        /* a .crt for the expansion port; NULL: none */
    m6569_model vic_model;
    m6526_model cia_model;
    c64_sid_model sid_model; /* default: 8580 with an 8565/8562 VIC-II, else 6581 */
    int sound;               /* 1 (default): SID synthesis and audio out */
    int debugcart;
} c64_config;

/* A program waiting to be injected at the READY prompt. */
typedef struct c64_autostart {
    uint8_t *data;          /* malloc'ed program bytes (no load address) */
    size_t size;
    uint16_t load_address;
    char *name;             /* for the log */
    int no_keys;            /* inject without typing RUN/SYS (mh.media/1) */
} c64_autostart;

/* Kinds of a 4 KiB block in the CPU's map (the write side). */
enum { C64_W_RAM = 0, C64_W_IO = 1, C64_W_NONE = 2 };

/* The plain part of the machine: no pointers, copied whole by snapshots. */
typedef struct c64_plain {
    uint8_t ram[65536];
    uint8_t color[1024];     /* low nybbles used */
    uint8_t fb[2][M6569_FB_WIDTH * M6569_FB_MAX_HEIGHT];
    uint8_t fb_back;         /* the buffer the VIC draws into */
    uint8_t exrom, game;     /* cartridge lines (1 = high: no cartridge) */
    uint8_t vic_bank;        /* 0-3 from CIA2 PA */
    uint8_t lightpen_low;
    uint8_t restore_down;    /* RESTORE held */
    uint32_t restore_left;   /* cycles of NMI pulse still to run */
    uint32_t restore_nmi;    /* C64_NMI_RESTORE while the pulse runs */
    uint64_t fb_swap_at;     /* vic.ticks at which the back buffer is complete */
    uint64_t frames_done;    /* complete frames since power-on */
    /* Keyboard: key_count[col * 8 + row] presses held (keys and combos). */
    uint8_t key_count[64];
    uint8_t kb_col[8];       /* per PA bit: PB bits of the keys held there */
    uint8_t kb_row[8];       /* per PB bit: PA bits of the keys held there */
    uint8_t joy[3];          /* [1], [2]: MH_JOY_* masks */
    /* Typed text (PETSCII) waiting for the KERNAL's keyboard buffer. */
    mh_kernal_queue typed;
    uint8_t autostart_pending;
    /* The machine kit's run state: machine cycles since power-on
     * (run.cycles) and the debug-cart exit. */
    mh_kit_state run;
} c64_plain;

typedef struct c64 c64;

/* Context of the per-chip vtables (c64_chips.h). */
typedef struct c64_chip_ctx {
    c64 *m;
    int which; /* 0 vic2, 1 cia1, 2 cia2 */
} c64_chip_ctx;


struct c64 {
    mh_cpu6502 cpu;
    m6569 vic;
    m6526 cia1, cia2;
    c64_sid sid;
    /* The CIAs clocked by deadline (c64_chips_due), in vic.ticks: they are
     * up to date with the cycle cia_synced, and skip their ticks (only
     * counters would move: m6526_quiet_ticks) until the cycle cia_due,
     * which ticks them in full; so they owe vic.ticks - cia_synced ticks
     * (c64_cias_sync). chips_due = min(cia_due, p.fb_swap_at), the next
     * cycle with work beyond the VIC's. Their /IRQ lines as CPU interrupt
     * bits, constant while they skip. Not in snapshots: derived, set
     * again (a full tick next) on reset, restore and every CIA access. */
    uint64_t cia_synced;
    uint64_t cia_due;
    uint64_t chips_due;
    uint32_t cia_irq;
    uint32_t cia_nmi;

    /* Banking, rebuilt by c64_bus_update_banking() when $00/$01 or
     * EXROM/GAME change: rd[block] is a base pointer indexed by the full
     * address (RAM: ram, ROMs: rom) or NULL for I/O/cartridge/open;
     * rd_bank/wr the PLA's answers per block. */
    const uint8_t *rd[16];
    uint8_t rd_bank[16];
    uint8_t wr[16];
    unsigned pla_config;
    /* VIC view: vic_rd[block of the 16K bank] indexed by the 14-bit address. */
    const uint8_t *vic_rd[4];

    c64_plain p;
    uint8_t rom[65536];      /* BASIC at $A000, CHAR at $D000, KERNAL at $E000 */

    /* Debugger hooks (mh.cpu6502/1), chained behind the machine's own;
     * the kit holds trampolines (c64_machine.c) that sync the VIC-II and
     * call the debugger's hooks as it set them (dbg_*). */
    mh_kit_hooks hooks;
    mh_cpu6502_sync_fn dbg_sync;
    mh_cpu6502_access_fn dbg_access;
    void *dbg_user;
    /* The debugger's chip event sink (machine_events.h): the VIC-II and
     * the CIAs point at it. */
    mh_event_sink events;

    /* The machine kit: the run loop, the KERNAL glue (c64_kernal_layout)
     * and the mh.memory/1 chip's context. */
    mh_machine_kit kit;
    mh_kernal kernal;
    mh_kit_memory memory;

    c64_autostart autostart;
    /* What mh.media/1 attached as "program" and "tape" (malloc'ed paths). */
    char *program_path;
    char *tape_path;
    /* The virtual drive 8 (c64_drive.c): the attached disk, or NULL. */
    struct mh_d64 *drive8;
    char *drive8_path;
    /* The cartridge (c64_cart.c): a 64 KiB map with ROML at $8000 and ROMH
     * at $A000 and $E000, or NULL; the lines it holds (1 = high). */
    uint8_t *cart;
    char *cart_path;
    uint8_t cart_exrom, cart_game;
    uint8_t cart_has_roml, cart_has_romh;
    c64_config config;
    /* Input the machine releases itself after N frames (c64_keyboard.c;
     * not in the snapshot: a load keeps the holds' countdowns). */
    mh_kit_holds holds;
    uint32_t clock_hz;
    const m6569_geometry *geometry;
    c64_chip_ctx chip_ctx[3];
    char cia_desc[2][64];  /* the CIAs' chip descriptions */
    const mh_host *host; /* for the log; may be NULL (tests) */
};

/* ---- c64_options.c ---- */
mh_status c64_options_parse(const char *options_json, c64_config *config, char *error,
                            size_t error_size);
void c64_options_free(c64_config *config);
/* Resolves autostart, drive8 and cartridge through the host's mh.files/1
 * (the allowed directories); the error names the option. A NULL host or
 * one without the service leaves them as they are. */
mh_status c64_options_confine(c64_config *config, const mh_host *host, char *error,
                              size_t error_size);
/* The option table (mh_config_item from mcphost/machine.h). */
struct mh_config_item;
const struct mh_config_item *c64_option_items(size_t *count);
const char *c64_cia_model_name(m6526_model model);

/* ---- c64_rom.c ---- */
/* Loads basic, kernal and chargen from dir (NULL: the default) into rom. */
mh_status c64_rom_load(const char *dir, uint8_t rom[65536], char *error, size_t error_size);

/* ---- c64_bus.c ---- */
void c64_bus_init(c64 *m);
void c64_bus_update_banking(c64 *m);
void c64_bus_update_vic_bank(c64 *m);
uint8_t c64_bus_read(void *user, uint16_t addr);
void c64_bus_write(void *user, uint16_t addr, uint8_t value);
/* The CPU's reads outside RAM/ROM blocks (I/O, cartridge, open space), its
 * writes other than to RAM above $0001: the slow parts of the bus (after
 * the cycle's chip tick). from_cpu 0: a debugger's poke. */
uint8_t c64_bus_read_other(c64 *m, uint16_t addr);
void c64_bus_write_other(c64 *m, uint16_t addr, uint8_t value, int from_cpu);
uint8_t c64_vic_fetch(void *user, uint16_t addr);
/* CPU view without side effects / like a CPU write (from_cpu 0). */
uint8_t c64_bus_peek(const c64 *m, uint16_t addr);
/* Where the CPU's bytes from addr on can be read in place: the RAM, ROM or
 * cartridge bytes at addr with *length set to how many follow in the same
 * array under the current banking; or NULL with *length set to how many
 * bytes from addr on c64_bus_peek has to work out (the port, I/O, open
 * bus). The bytes are exactly what c64_bus_peek gives. */
const uint8_t *c64_bus_span(const c64 *m, uint16_t addr, uint32_t *length);
void c64_bus_poke(c64 *m, uint16_t addr, uint8_t value);
/* $D000-$DFFF registers without/with side effects. */
uint8_t c64_io_peek(const c64 *m, uint16_t addr);
void c64_io_write(c64 *m, uint16_t addr, uint8_t value);
void c64_frame_done(c64 *m);
/* CIA port callbacks. */
uint8_t c64_cia1_read_port(void *user, int port);
void c64_cia1_port_out(void *user, int port, uint8_t levels);
uint8_t c64_cia2_read_port(void *user, int port);
void c64_cia2_port_out(void *user, int port, uint8_t levels);

/* ---- c64_keyboard.c ---- */
const char *const *c64_key_names(void);
mh_status c64_key(c64 *m, const char *name, int down);
mh_status c64_type_text(c64 *m, const char *text, char *error, size_t error_size);
mh_status c64_joystick(c64 *m, int port, uint32_t mask);
void c64_release_all(c64 *m);
void c64_update_lightpen(c64 *m);
/* Holds (mh.input/1 key_hold, joystick_hold) and PETSCII codes to type. */
mh_status c64_key_hold(c64 *m, const char *name, uint32_t frames);
mh_status c64_joystick_hold(c64 *m, int port, uint32_t mask, uint32_t frames);
mh_status c64_type_codes(c64 *m, const uint8_t *codes, size_t count, char *error,
                         size_t error_size);
/* A frame completed: counts the holds down and ends those that ran out
 * (from c64_frame_done, inside emulation, so at the same cycle however
 * the run is cut). */
void c64_holds_frame(c64 *m);
mh_status c64_hold_state_save(const c64 *m, uint8_t *out, size_t max, size_t *size);
mh_status c64_hold_state_load(c64 *m, const uint8_t *data, size_t size);

/* ---- c64_drive.c ---- */
/* Attaches a .d64 file to drive 8 (replacing a disk there). */
mh_status c64_drive_attach(c64 *m, const char *path, char *error, size_t error_size);
void c64_drive_detach(c64 *m);
/* At the KERNAL's LOAD entry: with the KERNAL banked in, device 8 and a
 * disk attached, does the load (mh_kernal_load_trap), logs it and returns
 * the CPU from the JSR (PC changed); returns 1 then, else 0. */
int c64_drive_trap(c64 *m);
/* The same at $FFD8 for SAVE (mh_kernal_save_trap): the file goes into the
 * D64 and the image back to its file; logs what happened (an error at
 * error level). */
int c64_drive_save_trap(c64 *m);

/* ---- c64_cart.c ---- */
/* Attaches a CRT (file, or its bytes) of a generic layout; the lines take
 * effect at the next power-on or reset. */
mh_status c64_cart_attach(c64 *m, const char *path, char *error, size_t error_size);
mh_status c64_cart_attach_bytes(c64 *m, const char *path, const uint8_t *bytes, size_t size,
                                char *error, size_t error_size);
void c64_cart_detach(c64 *m);

/* ---- c64_machine.c ---- */
/* Makes a machine from options (no session): ROMs loaded, reset done. */
c64 *c64_new(const char *options_json, const mh_host *host, char *error, size_t error_size);
void c64_free(c64 *m);
/* Power-on reset of every chip and RAM. */
void c64_power_on(c64 *m);
/* Fills RAM with the power-on pattern (c64_machine.c). */
void c64_ram_power_on_pattern(uint8_t ram[65536]);
/* Soft reset (hard 0: the CPU's reset line; CPU, CIAs, VIC-II and SID
 * reset, RAM kept) or hard reset (a power cycle: RAM back to the power-on
 * pattern, everything reset). Call between runs. */
void c64_reset(c64 *m, int hard);
mh_status c64_run(c64 *m, uint64_t max_cycles, mh_run_result *result);
/* Takes up to max audio samples (signed 16-bit mono, C64_AUDIO_RATE =
 * 44100 Hz) the SID made so far (up to the end of the last run slice);
 * returns how many. Nothing with sound=off. */
size_t c64_audio_read(c64 *m, int16_t *out, size_t max);
void c64_set_debug_hooks(c64 *m, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                         void *user);
/* Re-installs the machine's CPU hooks (after a disk comes or goes). */
void c64_hooks_update(c64 *m);
/* mh.media/1 "program" (a .prg) or "tape" (a .t64: its first program):
 * autostart 1 injects it at the READY prompt and types RUN or SYS like the
 * autostart option; 0 copies it into RAM now. Detach forgets the path and
 * cancels an injection still waiting. */
mh_status c64_program_attach(c64 *m, const char *path, int tape, int autostart, char *error,
                             size_t error_size);
void c64_program_detach(c64 *m, int tape);
/* Injects the autostart program now (normally done at the READY prompt). */
void c64_autostart_inject(c64 *m);
/* The C64 KERNAL's variables (Commodore's and the Open ROMs' alike). */
extern const mh_kernal_layout c64_kernal_layout;
#define c64_log(m, level, ...) mh_kit_log((m)->host, (level), __VA_ARGS__)

/* Snapshots: a copy of the chips and the plain state. */
typedef struct c64_snapshot {
    mh_cpu6502 cpu;
    m6569 vic;
    m6526 cia1, cia2;
    c64_sid sid;
    c64_plain p;
} c64_snapshot;
void c64_snapshot_save(const c64 *m, c64_snapshot *snap);
void c64_snapshot_restore(c64 *m, const c64_snapshot *snap);
/* c64_snapcheck.c: 1 when snap holds a state machine m can be in; else 0
 * with what is out of range in problem. */
int c64_snapshot_state_ok(const c64 *m, const c64_snapshot *snap, char *problem,
                          size_t problem_size);

/* ---- c64_ifaces.c ---- */
/* The chips the C64 registers in its session; returns how many. */
size_t c64_ifaces_chips(c64 *m, mh_chip *chips, size_t max);
void c64_machine_desc(mh_machine_desc *desc, const mh_host *host);

/* ---- c64_ext.c: mh.snapshot/1, mh.config/1, mh.media/1, mh.caps/1 ---- */
/* Appends the four chips to chips (room for C64_EXT_CHIPS); returns how
 * many. */
#define C64_EXT_CHIPS 4u
size_t c64_ext_chips(c64 *m, mh_chip *chips);
/* The SID's entries, mh.chip.sid/1 and mh.audio/1 (c64_sid_iface.c, room
 * for C64_SID_CHIPS); returns how many. */
#define C64_SID_CHIPS 2u
size_t c64_sid_chips(c64 *m, mh_chip *chips);
/* The "mh.textscreen/1" entry (c64_text_screen.c, room for
 * C64_TEXT_SCREEN_CHIPS); returns how many. */
#define C64_TEXT_SCREEN_CHIPS 1u
size_t c64_text_screen_chips(c64 *m, mh_chip *chips);
/* The VIC-II view of mh.chip.vic2/1 now (c64_chip_views.c; struct_size set). */
void c64_vic2_view(const c64 *m, mh_chip_vic2_view *out);
/* The snapshot blob (also what the tests call). */
mh_status c64_snapshot_blob_save(const c64 *m, void **data, size_t *size);
/* Writes the checksum of a blob of `size` bytes into its header (tests and
 * the fuzz target change blobs and seal them again). */
void c64_snapshot_blob_seal(uint8_t *blob, size_t size);
mh_status c64_snapshot_blob_load(c64 *m, const void *data, size_t size, char *error,
                                 size_t error_size);

/* ---- the per-cycle step shared by the bus callbacks ---- */

/* c64_bus.c: a cycle with work beyond the VIC's (vic.ticks >= chips_due):
 * the CIAs' full tick when due (brought up to date, ticked, their lines
 * and the next quiet stretch worked out), the framebuffer swap when due;
 * then the next chips_due. */
void c64_chips_due(c64 *m);

/* Both CIAs up to date (the ticks they skipped done): call before anything
 * reads a CIA's state. */
static inline void c64_cias_sync(c64 *m)
{
    uint32_t owed = (uint32_t)(m->vic.ticks - m->cia_synced);
    if (owed) {
        m6526_skip(&m->cia1, owed);
        m6526_skip(&m->cia2, owed);
        m->cia_synced = m->vic.ticks;
    }
}

/* Up to date, and a full tick in the next cycle: for anything that changes
 * (or may change) a CIA. */
static inline void c64_cias_touch(c64 *m)
{
    c64_cias_sync(m);
    m->cia_due = m->vic.ticks + 1u;
    if (m->chips_due > m->cia_due) m->chips_due = m->cia_due;
}

/* After a reset or a restore: the CIAs are up to date (as the state says)
 * and tick in full next cycle. */
static inline void c64_cias_restart(c64 *m)
{
    m->cia_synced = m->vic.ticks;
    m->cia_due = m->vic.ticks + 1u;
    m->chips_due = m->cia_due < m->p.fb_swap_at ? m->cia_due : m->p.fb_swap_at;
}

/* Ticks the VIC and both CIAs once and sets RDY, IRQ and NMI for this
 * cycle (the chips' machine-side contract: before the access). The CIAs
 * skip the cycles in which only their counters would move. NMI changes
 * only where its sources do, so it is set there: CIA2's full ticks
 * (c64_chips_due: cia_nmi | restore_nmi), RESTORE's press and the end of
 * its pulse (c64_keyboard.c, service), reset.
 * deferring 1: the VIC's quiet cycles are deferred (m6569_tick_deferring);
 * the machine then syncs the VIC before every I/O access, before RAM
 * writes the VIC may fetch, before every call into the debugger's hooks
 * and at the end of c64_run_cpu, so nothing is deferred outside the CPU
 * engines (both defer). 0: one tick per cycle (c64_bus_read/write, the
 * links' callbacks: the SDK's loops). */
static inline __attribute__((always_inline)) void c64_tick_chips(c64 *m, int deferring)
{
    const uint32_t pins = deferring ? m6569_tick_deferring(&m->vic) : m6569_tick(&m->vic);
    if (m->vic.ticks >= m->chips_due) c64_chips_due(m);
    m->cpu.rdy = (uint8_t)(pins & M6569_PIN_BA);
    m->cpu.irq = (pins & C64_IRQ_VIC) | m->cia_irq;
}

/* A RAM write the VIC may fetch in a deferred cycle: the cycles before it
 * first (the page mask of m6569_fetches, in the VIC's 16K bank). */
static inline void c64_vic_before_ram_write(c64 *m, uint16_t addr)
{
    if ((unsigned)(addr >> 14) == m->p.vic_bank && m6569_fetches(&m->vic, addr))
        m6569_sync(&m->vic);
}

/* The CPU's bus: every cycle ticks the chips, then makes the access
 * (c64_bus.c has the map). Inline here for the C64's own instances of the
 * CPU's cycle engine (c64_cpu.c); c64_bus_read/write are the per-cycle
 * ones as the links' callbacks. */
static inline __attribute__((always_inline)) uint8_t c64_bus_read_as(c64 *m, uint16_t addr,
                                                                     int deferring)
{
    c64_tick_chips(m, deferring);
    const uint8_t *base = m->rd[addr >> 12];
    if (base) return base[addr];
    return c64_bus_read_other(m, addr);
}

static inline __attribute__((always_inline)) void c64_bus_write_as(c64 *m, uint16_t addr,
                                                                   uint8_t value, int deferring)
{
    c64_tick_chips(m, deferring);
    if (m->wr[addr >> 12] == C64_W_RAM && addr >= 2) {
        if (deferring) c64_vic_before_ram_write(m, addr);
        m->p.ram[addr] = value;
        return;
    }
    c64_bus_write_other(m, addr, value, 1);
}

static inline uint8_t c64_bus_read_inline(void *user, uint16_t addr)
{
    return c64_bus_read_as(user, addr, 0);
}

static inline void c64_bus_write_inline(void *user, uint16_t addr, uint8_t value)
{
    c64_bus_write_as(user, addr, value, 0);
}

static inline uint8_t c64_bus_read_deferring(void *user, uint16_t addr)
{
    return c64_bus_read_as(user, addr, 1);
}

static inline void c64_bus_write_deferring(void *user, uint16_t addr, uint8_t value)
{
    c64_bus_write_as(user, addr, value, 1);
}

/* c64_cpu.c: the run_cpu step of the machine kit's loop (mh_kit_run_ops):
 * the CPU with the bus above inlined, or mh_cpu6502_run when another bus
 * is linked. */
uint32_t c64_run_cpu(void *machine, uint32_t cycles);

#endif
