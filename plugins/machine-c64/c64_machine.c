/* c64_machine.c - making, running and resetting a C64; autostart; the
 * debug-cart exit; debugger hook chaining; snapshots.
 *
 * run(max_cycles) is the SDK machine kit's loop (mcphost/machine_kit.h):
 * the CPU (and with it, inside the bus callbacks, the chips) in chunks,
 * every chunk ended at an instruction boundary (MH_KIT_RUN_BOUNDARY), so
 * it may run up to one instruction (plus a bad line's stall) past the
 * budget; between chunks (service()) it brings the SID up to date, ends
 * the RESTORE pulse, feeds typed text into the keyboard buffer and checks
 * the autostart fallback (input holds end at frame ends, c64_bus.c). It
 * returns
 *   MH_RUN_EXIT    after a debug-cart write ($D7FF with debugcart=true),
 *                  exactly after the writing cycle (the kit's halt: no
 *                  chip ticks while the CPU is halted);
 *   MH_RUN_JAMMED  in the cycle the CPU jams and on every later run (the
 *                  chips keep running: a jammed 6510 reads $FFFF every
 *                  cycle, so the bus callback still ticks them);
 *   MH_RUN_BREAK   when a debugger hook stopped the CPU;
 *   MH_RUN_BUDGET  otherwise.
 *
 * Autostart: a sync hook of the machine's own (chained in front of a
 * debugger's) watches for the KERNAL's wait for a key: an `LDA $C6`
 * (A5 C6) fetched from KERNAL ROM with the I flag clear and an empty
 * keyboard buffer (mh_kernal_waits_for_key). That is the loop both the
 * Commodore KERNAL ($E5CD) and Open ROMs run at the READY prompt;
 * interrupt code (SCNKEY) reads $C6 with I set. Then, at that instruction
 * boundary, mh_kernal_inject() copies the program into RAM at its load
 * address; $AE/$AF (the KERNAL's load end pointer) get its end address +
 * 1; for a program at the start of BASIC ($2B/$2C, $0801) $2D/$2E, $2F/$30
 * and $31/$32 get it too and "RUN" + RETURN goes into the keyboard buffer,
 * otherwise "SYS <load address>" + RETURN. The hook is then removed. If the
 * loop is never seen within 20 million cycles (a KERNAL that waits
 * differently), the program is injected then anyway, with a warning in the
 * log.
 *
 * The same hook traps the KERNAL's LOAD ($FFD5) while a disk is in the
 * virtual drive 8 (c64_drive.c); it stays installed as long as a disk is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c64.h"
#include "mcphost/media.h"
#include "mcphost/media_d64.h"
#include "mcphost/media_t64.h"

/* The C64 KERNAL's variables, for the machine kit's KERNAL glue. */
const mh_kernal_layout c64_kernal_layout = {
    sizeof(mh_kernal_layout),
    .status = 0x90,
    .verify_flag = 0x93,
    .load_end = 0xAE,
    .file_name_length = 0xB7,
    .secondary_address = 0xB9,
    .device = 0xBA,
    .file_name = 0xBB,
    .load_start = 0xC3,
    .keyboard_count = 0xC6,
    .keyboard_buffer = 0x0277,
    .keyboard_size = 10,
    .basic_start = 0x2B,
    .basic_end = 0x2D,
    .basic_program = 0x0801,
    .load_entry = 0xFFD5,
    .directory_address = 0x0401,
    .save_entry = 0xFFD8,
    .save_start = 0xC1, /* SAVE at $F5DD: STX $AE, STY $AF, (A) to $C1/$C2 */
};

static uint8_t kernal_peek(const void *machine, uint16_t address)
{
    return c64_bus_peek(machine, address);
}

/* ---- hooks ---- */

static void install_hooks(c64 *m)
{
    mh_kit_hooks_install(&m->hooks, m->p.autostart_pending || m->drive8 != NULL);
}

static int autostart_at_ready(const c64 *m, uint16_t pc)
{
    return pc >= 0xE000 && pc < 0xFFFF && m->rd_bank[pc >> 12] == C64_BANK_KERNAL &&
           mh_kernal_waits_for_key(&m->kernal, pc);
}

/* The machine's step of the hook chain (mcphost/kit_hooks.h). */
static uint16_t own_sync(void *machine, uint16_t pc)
{
    c64 *m = machine;
    /* The injection and the traps write RAM the VIC-II may fetch in its
     * deferred cycles: those first. */
    if (m->p.autostart_pending && autostart_at_ready(m, pc)) {
        m6569_sync(&m->vic);
        c64_autostart_inject(m);
    }
    /* The drive trap returns the CPU from LOAD: the debugger sees the
     * instruction it returns to. */
    const int load = pc == c64_kernal_layout.load_entry;
    if (m->drive8 && (load || pc == c64_kernal_layout.save_entry)) {
        m6569_sync(&m->vic);
        if (load ? c64_drive_trap(m) : c64_drive_save_trap(m)) pc = m->cpu.pc;
    }
    return pc;
}

/* The debugger's hooks behind trampolines that bring the VIC-II up to
 * date first: the CPU engine defers its quiet cycles even with hooks
 * (c64_cpu.c), and a hook may look at anything (conditions peeking I/O,
 * the write log's peek-back, chip views, stops). Cheap when nothing is
 * deferred. */
static int dbg_sync_current(void *user, uint16_t pc)
{
    c64 *m = user;
    m6569_sync(&m->vic);
    return m->dbg_sync(m->dbg_user, pc);
}

static int dbg_access_current(void *user, uint16_t addr, uint8_t value, int write)
{
    c64 *m = user;
    m6569_sync(&m->vic);
    return m->dbg_access(m->dbg_user, addr, value, write);
}

void c64_hooks_update(c64 *m) { install_hooks(m); }

void c64_set_debug_hooks(c64 *m, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                         void *user)
{
    m->dbg_sync = sync;
    m->dbg_access = access;
    m->dbg_user = user;
    mh_kit_hooks_set(&m->hooks, sync ? dbg_sync_current : NULL,
                     access ? dbg_access_current : NULL, m);
    install_hooks(m);
}

/* ---- autostart ---- */

void c64_autostart_inject(c64 *m)
{
    if (!m->p.autostart_pending) return;
    m->p.autostart_pending = 0;
    if (!m->autostart.data) {
        install_hooks(m);
        return;
    }
    install_hooks(m);
    const c64_autostart *a = &m->autostart;
    char typed[16];
    uint32_t end = mh_kernal_inject(&m->kernal, a->data, a->size, a->load_address, !a->no_keys,
                                    typed, sizeof typed);
    if (a->no_keys)
        c64_log(m, MH_LOG_INFO, "c64: program %s: loaded $%04X-$%04X", a->name, a->load_address,
                (unsigned)(end - 1));
    else
        c64_log(m, MH_LOG_INFO, "c64: autostart %s: loaded $%04X-$%04X, typed %s at cycle %llu",
                a->name, a->load_address, (unsigned)(end - 1), typed,
                (unsigned long long)m->p.run.cycles);
}

/* Reads the autostart file into m->autostart (the program bytes). */
static mh_status autostart_load(c64 *m, const char *path, char *error, size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL, *prg = NULL;
    size_t size = 0, prg_size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "autostart \"%s\": %s", path, err.message);
        return status;
    }
    mh_media_kind kind = mh_media_detect(path, bytes, size);
    switch (kind) {
    case MH_MEDIA_PRG:
        prg = bytes;
        prg_size = size;
        bytes = NULL;
        break;
    case MH_MEDIA_T64: {
        mh_t64 *t64 = mh_t64_open(bytes, size, &err);
        status = t64 ? mh_t64_read_prg(t64, &t64->entries[0], &prg, &prg_size, &err) : err.status;
        mh_t64_free(t64);
        break;
    }
    case MH_MEDIA_D64: {
        mh_d64 *d64 = mh_d64_open(bytes, size, 0, &err);
        const mh_d64_entry *entry = NULL;
        for (size_t i = 0; d64 && i < d64->entry_count && !entry; i++)
            if (d64->entries[i].type == MH_CBM_PRG) entry = &d64->entries[i];
        if (!d64) {
            status = err.status;
        } else if (!entry) {
            snprintf(err.message, sizeof err.message, "D64: the disk has no PRG file");
            status = MH_ERR_NOT_FOUND;
        } else {
            status = mh_d64_read_file(d64, entry, &prg, &prg_size, &err);
        }
        if (status == MH_OK && !m->drive8) {
            m->drive8 = d64; /* the disk goes into drive 8 too */
            m->drive8_path = malloc(strlen(path) + 1);
            if (m->drive8_path) strcpy(m->drive8_path, path);
            d64 = NULL;
        }
        mh_d64_free(d64);
        break;
    }
    case MH_MEDIA_CRT:
        /* A cartridge starts itself: attach it, nothing to inject. */
        if (m->cart) {
            c64_log(m, MH_LOG_WARNING, "c64: autostart %s: a cartridge is already attached (%s)",
                    path, m->cart_path);
            free(bytes);
            return MH_OK;
        }
        status = c64_cart_attach_bytes(m, path, bytes, size, error, error_size);
        free(bytes);
        return status;
    default:
        snprintf(err.message, sizeof err.message,
                 "unknown format; autostart takes a .prg, .d64, .t64 or .crt file");
        status = MH_ERR_INVALID_ARGUMENT;
        break;
    }
    free(bytes);
    mh_prg parsed;
    if (status == MH_OK) status = mh_prg_parse(prg, prg_size, &parsed, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "autostart \"%s\": %s", path, err.message);
        free(prg);
        return status;
    }
    m->autostart.data = malloc(parsed.size);
    m->autostart.name = malloc(strlen(path) + 1);
    if (!m->autostart.data || !m->autostart.name) {
        free(prg);
        snprintf(error, error_size, "out of memory loading %s", path);
        return MH_ERR_NO_MEMORY;
    }
    memcpy(m->autostart.data, parsed.data, parsed.size);
    strcpy(m->autostart.name, path);
    m->autostart.size = parsed.size;
    m->autostart.load_address = parsed.load_address;
    free(prg);
    return MH_OK;
}

/* ---- programs and tapes at runtime (mh.media/1) ---- */

mh_status c64_program_attach(c64 *m, const char *path, int tape, int autostart, char *error,
                             size_t error_size)
{
    const char *what = tape ? "tape" : "program";
    mh_media_error err;
    uint8_t *bytes = NULL, *prg = NULL;
    size_t size = 0, prg_size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "%s \"%s\": %s", what, path, err.message);
        return status;
    }
    mh_media_kind kind = mh_media_detect(path, bytes, size);
    if (!tape && kind == MH_MEDIA_PRG) {
        prg = bytes;
        prg_size = size;
        bytes = NULL;
    } else if (tape && kind == MH_MEDIA_T64) {
        mh_t64 *t64 = mh_t64_open(bytes, size, &err);
        status = t64 ? mh_t64_read_prg(t64, &t64->entries[0], &prg, &prg_size, &err) : err.status;
        if (status == MH_OK && !t64) status = MH_ERR_INVALID_ARGUMENT;
        mh_t64_free(t64);
    } else {
        snprintf(err.message, sizeof err.message, "not a %s (a %s takes a %s file)",
                 tape ? "T64 tape image" : "PRG program", what, tape ? ".t64" : ".prg");
        status = MH_ERR_INVALID_ARGUMENT;
    }
    free(bytes);
    mh_prg parsed;
    if (status == MH_OK) status = mh_prg_parse(prg, prg_size, &parsed, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "%s \"%s\": %s", what, path, err.message);
        free(prg);
        return status;
    }
    uint8_t *data = malloc(parsed.size ? parsed.size : 1);
    char *name = malloc(strlen(path) + 1);
    char *kept = malloc(strlen(path) + 1);
    if (!data || !name || !kept) {
        free(prg);
        free(data);
        free(name);
        free(kept);
        snprintf(error, error_size, "out of memory loading %s", path);
        return MH_ERR_NO_MEMORY;
    }
    memcpy(data, parsed.data, parsed.size);
    strcpy(name, path);
    strcpy(kept, path);
    free(prg);
    free(m->autostart.data);
    free(m->autostart.name);
    m->autostart.data = data;
    m->autostart.name = name;
    m->autostart.size = parsed.size;
    m->autostart.load_address = parsed.load_address;
    m->autostart.no_keys = !autostart;
    char **slot = tape ? &m->tape_path : &m->program_path;
    free(*slot);
    *slot = kept;
    m->p.autostart_pending = 1;
    if (!autostart) c64_autostart_inject(m); /* into RAM now, nothing typed */
    install_hooks(m);
    return MH_OK;
}

void c64_program_detach(c64 *m, int tape)
{
    char **slot = tape ? &m->tape_path : &m->program_path;
    if (*slot && m->autostart.name && strcmp(*slot, m->autostart.name) == 0) {
        m->p.autostart_pending = 0; /* not started yet: it never will be */
        install_hooks(m);
    }
    free(*slot);
    *slot = NULL;
}

static const mh_kit_run_ops run_ops; /* the run section below */

/* ---- power-on and reset ---- */

/* The VIC-II, both CIAs and the SID back to their reset state; the
 * framebuffer swap point follows the VIC's restarted beam. */
static void reset_chips(c64 *m)
{
    m6569_reset(&m->vic);
    m6569_set_framebuffer(&m->vic, m->p.fb[m->p.fb_back], M6569_FB_WIDTH);
    m6526_reset(&m->cia1);
    m6526_reset(&m->cia2);
    c64_sid_reset(&m->sid, m->vic.ticks);

    /* The back buffer is complete when the beam reaches the line after
     * the last framebuffer row (VIC ticks count from line 0, cycle 1). */
    const m6569_geometry *g = m->geometry;
    uint32_t swap_line = (uint32_t)(g->first_line + g->height) % g->lines_per_frame;
    m->p.fb_swap_at = swap_line ? (uint64_t)swap_line * g->cycles_per_line : g->cycles_per_frame;
    c64_cias_restart(m); /* a full CIA tick next */
}

/* What both resets clear outside the chips. */
static void reset_machine_state(c64 *m)
{
    m->p.restore_left = 0;
    m->p.restore_nmi = 0;
    m->p.run.exit_pending = 0;
    m->p.run.exit_from_cpu = 0;
    m->p.vic_bank = 0;
    mh_kernal_queue_clear(&m->p.typed);
}

/* RAM at power-on: DRAM cells come up as about half ones, half zeros, in
 * a pattern of the chips' organisation. This is the pattern VICE 3.x uses
 * by default (one reported from a real C64): runs of 4 bytes of $00 and
 * $FF, the first run 2 bytes long, the whole pattern inverted every 16 KiB:
 * 00 00 FF FF FF FF 00 00 00 00 FF FF ... Programs depend on it (the
 * Platoon, Cyberload and Darkstar BBS loaders test pages for a constant or
 * a non-constant fill; C64/raminitpattern). VICE also flips a random bit in
 * 4096; the machine stays deterministic and does not. */
void c64_ram_power_on_pattern(uint8_t ram[65536])
{
    for (uint32_t a = 0; a < 65536; a++) {
        uint8_t run = ((a + 2u) / 4u) & 1u ? 0xFFu : 0x00u;
        uint8_t bank = (a / 16384u) & 1u ? 0xFFu : 0x00u;
        ram[a] = (uint8_t)(run ^ bank);
    }
}

void c64_power_on(c64 *m)
{
    c64_ram_power_on_pattern(m->p.ram);
    memset(m->p.color, 0, sizeof m->p.color);
    memset(m->p.fb, 0, sizeof m->p.fb);
    m->p.fb_back = 0;
    m->p.frames_done = 0;
    mh_kit_state_reset(&m->p.run);
    reset_machine_state(m);
    m->p.autostart_pending = m->autostart.data != NULL;

    reset_chips(m);

    mh_cpu6502_desc desc = {0};
    desc.model = MH_CPU6502_MODEL_6510;
    desc.read = c64_bus_read;
    desc.write = c64_bus_write;
    desc.user = m;
    mh_cpu6502_init(&m->cpu, &desc);
    mh_kit_init(&m->kit, &m->cpu, &m->p.run, &run_ops, m, c64_bus_read, c64_bus_write, m, 0);
    mh_kit_set_run_cpu(&m->kit, c64_run_cpu); /* the bus inlined (c64_cpu.c) */
    c64_bus_init(m);
    install_hooks(m);
    c64_update_lightpen(m);
}

void c64_reset(c64 *m, int hard)
{
    mh_kit_undo_exit_stall(&m->kit);
    if (hard) {
        c64_power_on(m);
        m->p.autostart_pending = 0; /* the autostart was for the first power-on */
        install_hooks(m);
        c64_log(m, MH_LOG_INFO, "c64: hard reset (power cycle)");
        return;
    }
    /* The reset line: the CPU, both CIAs, the VIC-II and the SID reset;
     * RAM, colour RAM, the ROMs and the held keys stay. */
    reset_machine_state(m);
    m->p.autostart_pending = 0;
    reset_chips(m);
    mh_cpu6502_reset(&m->cpu);
    m->cpu.irq = 0;
    m->cpu.nmi = 0;
    m->cpu.rdy = 1;
    c64_bus_init(m);
    install_hooks(m);
    c64_update_lightpen(m);
    c64_log(m, MH_LOG_INFO, "c64: soft reset at cycle %llu", (unsigned long long)m->p.run.cycles);
}

/* ---- create / free ---- */

void c64_free(c64 *m)
{
    if (!m) return;
    c64_options_free(&m->config);
    c64_drive_detach(m);
    c64_cart_detach(m);
    free(m->autostart.data);
    free(m->autostart.name);
    free(m->program_path);
    free(m->tape_path);
    free(m);
}

c64 *c64_new(const char *options_json, const mh_host *host, char *error, size_t error_size)
{
    if (error_size) error[0] = '\0';
    c64_config config;
    if (c64_options_parse(options_json, &config, error, error_size) != MH_OK) return NULL;
    if (c64_options_confine(&config, host, error, error_size) != MH_OK) {
        c64_options_free(&config);
        return NULL;
    }
    c64 *m = calloc(1, sizeof *m);
    if (!m) {
        c64_options_free(&config);
        snprintf(error, error_size, "out of memory creating a c64");
        return NULL;
    }
    mh_kit_hooks_init(&m->hooks, &m->cpu, own_sync, m);
    m->config = config;
    m->host = host;
    m->geometry = m6569_geometry_of(config.vic_model);
    int ntsc = m->geometry->cycles_per_line != 63;
    m->clock_hz = ntsc ? C64_CLOCK_NTSC : C64_CLOCK_PAL;

    mh_status status = c64_rom_load(config.rom_dir, m->rom, error, error_size);
    m->cart_exrom = m->cart_game = 1;
    if (status == MH_OK && config.cartridge)
        status = c64_cart_attach(m, config.cartridge, error, error_size);
    if (status == MH_OK && config.drive8)
        status = c64_drive_attach(m, config.drive8, error, error_size);
    if (status == MH_OK && config.autostart)
        status = autostart_load(m, config.autostart, error, error_size);
    if (status == MH_OK) {
        m6569_desc vd = {0};
        vd.model = config.vic_model;
        vd.fetch = c64_vic_fetch;
        vd.user = m;
        vd.color_ram = m->p.color;
        vd.framebuffer = m->p.fb[0];
        vd.fb_pitch = M6569_FB_WIDTH;
        status = m6569_init(&m->vic, &vd);
    }
    if (status == MH_OK) {
        m6526_desc cd = {0};
        cd.model = config.cia_model;
        cd.clock_hz = m->clock_hz;
        cd.tod_hz = ntsc ? 60 : 50;
        cd.read_port = c64_cia1_read_port;
        cd.port_out = c64_cia1_port_out;
        cd.user = m;
        status = m6526_init(&m->cia1, &cd);
        cd.read_port = c64_cia2_read_port;
        cd.port_out = c64_cia2_port_out;
        if (status == MH_OK) status = m6526_init(&m->cia2, &cd);
        m->vic.links.events = &m->events;
        m6569_set_fetch_map(&m->vic, m->vic_rd); /* the bytes c64_vic_fetch reads */
        m->cia1.links.events = &m->events;
        m->cia1.links.name = "cia1";
        m->cia1.links.irq_kind = MH_CHIP_EV_IRQ;
        m->cia2.links.events = &m->events;
        m->cia2.links.name = "cia2";
        m->cia2.links.irq_kind = MH_CHIP_EV_NMI; /* CIA 2 drives /NMI */
    }
    if (status != MH_OK) {
        if (!error[0]) snprintf(error, error_size, "c64: %s", mh_status_name(status));
        c64_free(m);
        return NULL;
    }
    if (c64_sid_init(&m->sid, config.sid_model, config.sound, m->clock_hz) != 0) {
        snprintf(error, error_size, "c64: SID init failed");
        c64_free(m);
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        m->chip_ctx[i].m = m;
        m->chip_ctx[i].which = i;
    }
    m->kernal.layout = &c64_kernal_layout;
    m->kernal.cpu = &m->cpu;
    m->kernal.ram = m->p.ram;
    m->kernal.peek = kernal_peek;
    m->kernal.machine = m;
    c64_power_on(m);
    return m;
}

/* ---- run (the machine kit's loop; these are the C64's parts) ---- */

/* A chunk ends when the RESTORE pulse does. */
static uint32_t chunk_limit(void *machine, uint32_t chunk)
{
    const c64 *m = machine;
    return m->p.restore_left && m->p.restore_left < chunk ? m->p.restore_left : chunk;
}

/* The SID up to date and its samples in the audio ring. */
static void sid_catch_up(void *machine)
{
    c64 *m = machine;
    c64_cias_sync(m); /* and the CIAs, for whoever looks between runs */
    c64_sid_sync(&m->sid, m->vic.ticks);
    c64_sid_drain(&m->sid);
}

/* Between chunks, at an instruction boundary. */
static void service(void *machine, uint32_t ran)
{
    c64 *m = machine;
    sid_catch_up(m);
    if (m->p.restore_left) {
        m->p.restore_left = ran >= m->p.restore_left ? 0 : m->p.restore_left - ran;
        if (!m->p.restore_left) {
            m->p.restore_nmi = 0;
            m->cpu.nmi &= ~C64_NMI_RESTORE;
        }
    }
    if (m->p.typed.count) mh_kernal_feed(&m->kernal, &m->p.typed);
    if (m->p.autostart_pending && m->p.run.cycles >= C64_AUTOSTART_FALLBACK &&
        mh_cpu6502_at_boundary(&m->cpu)) {
        c64_log(m, MH_LOG_WARNING,
                "c64: autostart: the KERNAL did not wait for a key (LDA $C6 with interrupts on) "
                "within %u cycles; injecting %s now",
                (unsigned)C64_AUTOSTART_FALLBACK, m->autostart.name);
        c64_autostart_inject(m);
    }
}

/* After a debug-cart halt the CPU gets the VIC's BA back on RDY. */
static uint8_t rdy_level(void *machine) { return ((const c64 *)machine)->vic.ba; }

static const mh_kit_run_ops run_ops = {sizeof(mh_kit_run_ops), MH_KIT_RUN_BOUNDARY, chunk_limit,
                                       service, sid_catch_up, rdy_level};

mh_status c64_run(c64 *m, uint64_t max_cycles, mh_run_result *result)
{
    return mh_kit_run(&m->kit, max_cycles, result);
}

size_t c64_audio_read(c64 *m, int16_t *out, size_t max)
{
    if (!m || !out) return 0;
    return c64_sid_audio_read(&m->sid, out, max);
}

/* ---- snapshots ---- */

void c64_snapshot_save(const c64 *m, c64_snapshot *snap)
{
    snap->cpu = m->cpu;
    m6569_save(&m->vic, &snap->vic); /* nothing deferred between runs */
    snap->cia1 = m->cia1;
    snap->cia2 = m->cia2;
    uint32_t owed = (uint32_t)(m->vic.ticks - m->cia_synced); /* ticks the CIAs skipped */
    m6526_skip(&snap->cia1, owed);
    m6526_skip(&snap->cia2, owed);
    snap->sid = m->sid;
    memcpy(&snap->p, &m->p, sizeof snap->p);
}

void c64_snapshot_restore(c64 *m, const c64_snapshot *snap)
{
    mh_cpu6502_restore(&m->cpu, &snap->cpu);
    m6569_restore(&m->vic, &snap->vic);
    m6526_restore(&m->cia1, &snap->cia1);
    m6526_restore(&m->cia2, &snap->cia2);
    m->sid = snap->sid;
    m6581_restored(&m->sid.chip);
    memcpy(&m->p, &snap->p, sizeof m->p);
    c64_cias_restart(m); /* after vic.ticks and fb_swap_at are back */
    m6569_set_framebuffer(&m->vic, m->p.fb[m->p.fb_back], M6569_FB_WIDTH);
    c64_bus_update_banking(m);
    c64_bus_update_vic_bank(m);
    install_hooks(m);
}
