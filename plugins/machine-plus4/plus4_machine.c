/* plus4_machine.c - making, running and resetting a Plus/4 or C16;
 * autostart; the virtual drive 8; cartridges; debugger hook chaining.
 *
 * run(max_ticks) is the SDK machine kit's loop (mcphost/machine_kit.h),
 * whose budget counts CPU cycles; the Plus/4 counts its cycles in TED ticks
 * (1.77 MHz, as VICE's xplus4 does: a CPU cycle at single clock is two), so
 * plus4_run() gives the kit at most half the ticks still to run (each CPU
 * cycle is one or two ticks) until the budget is used; result->cycles and
 * run.cycles are ticks. Every chunk ends at an instruction boundary
 * (MH_KIT_RUN_BOUNDARY); between chunks service() feeds typed text and
 * checks the autostart fallback (input holds end at frame ends).
 *
 * Autostart: a sync hook of the machine's own (chained in front of a
 * debugger's) waits for the KERNAL's wait for a key at READY ($D90A: LDA
 * $EF with the I flag clear and an empty buffer, mh_kernal_waits_for_key)
 * and then injects the program with mh_kernal_inject() (RUN for a BASIC
 * program at $1001, else SYS). The same hook traps LOAD ($FFD5 with the
 * KERNAL banked in) while a disk is in the virtual drive 8.
 *
 * Cartridges: a raw image of 16 KiB (slot 1 low, $8000) or 32 KiB (slot 1
 * low and high); anything else is refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/media.h"
#include "mcphost/media_d64.h"
#include "plus4.h"

/* The Plus/4 KERNAL's variables (from its LOAD at $F04A, SETNAM at $F40C
 * and the READY loop at $D90A). */
const mh_kernal_layout plus4_kernal_layout = {
    sizeof(mh_kernal_layout),
    .status = 0x90,
    .verify_flag = 0x93,
    .load_end = 0x9D,
    .file_name_length = 0xAB,
    .secondary_address = 0xAD,
    .device = 0xAE,
    .file_name = 0xAF,
    .load_start = 0xB4,
    .keyboard_count = 0xEF,
    .keyboard_buffer = 0x0527,
    .keyboard_size = 10,
    .basic_start = 0x2B,
    .basic_end = 0x2D,
    .basic_program = 0x1001,
    .load_entry = 0xFFD5,
    .directory_address = 0x0401,
    .save_entry = 0xFFD8,
    .save_start = 0xB2, /* SAVE at $F194: STX $9D, STY $9E, (A) to $B2/$B3 */
};

/* What the glue reads: the CPU's view (the READY loop's code in ROM), but
 * during the LOAD trap RAM, as the KERNAL's LOAD reads the file name
 * whatever is banked in (BASIC 3.5 keeps strings at the top of RAM, under
 * the KERNAL ROM), through the C16's mirrors. */
static uint8_t kernal_peek(const void *machine, uint16_t address)
{
    const plus4 *m = machine;
    if (m->kernal_reads_ram) return m->p.ram[address & m->ram_mask];
    return plus4_bus_peek(m, address);
}

/* ---- hooks ---- */

static void install_hooks(plus4 *m)
{
    mh_kit_hooks_install(&m->hooks, m->p.autostart_pending || m->drive8 != NULL);
}

static int drive_trap(plus4 *m)
{
    if (!m->drive8 || !plus4_kernal_at(m, plus4_kernal_layout.load_entry)) return 0;
    char message[320];
    m->kernal_reads_ram = 1;
    int done = mh_kernal_load_trap(&m->kernal, 8, m->drive8, message, sizeof message);
    m->kernal_reads_ram = 0;
    if (!done) return 0;
    plus4_log(m, MH_LOG_INFO, "plus4: drive 8: %s", message);
    return 1;
}

/* SAVE at $FFD8: the KERNAL's SAVE reads the file name and the memory
 * from RAM whatever is banked in, as its LOAD writes RAM. */
static int drive_save_trap(plus4 *m)
{
    if (!m->drive8 || !plus4_kernal_at(m, plus4_kernal_layout.save_entry)) return 0;
    char message[1024];
    m->kernal_reads_ram = 1;
    int done = mh_kernal_save_trap(&m->kernal, 8, &m->drive8, m->drive8_path, message,
                                   sizeof message);
    m->kernal_reads_ram = 0;
    if (done) plus4_log(m, done > 0 ? MH_LOG_INFO : MH_LOG_ERROR, "plus4: drive 8: %s", message);
    return done != 0;
}

/* The machine's step of the hook chain (mcphost/kit_hooks.h). */
static uint16_t own_sync(void *machine, uint16_t pc)
{
    plus4 *m = machine;
    if (m->p.autostart_pending && plus4_kernal_at(m, pc) && mh_kernal_waits_for_key(&m->kernal, pc))
        plus4_autostart_inject(m);
    if (pc == plus4_kernal_layout.load_entry && m->drive8 && drive_trap(m)) pc = m->cpu.pc;
    else if (pc == plus4_kernal_layout.save_entry && m->drive8 && drive_save_trap(m))
        pc = m->cpu.pc;
    return pc;
}

void plus4_hooks_update(plus4 *m) { install_hooks(m); }

void plus4_set_debug_hooks(plus4 *m, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                           void *user)
{
    mh_kit_hooks_set(&m->hooks, sync, access, user);
    install_hooks(m);
}

/* ---- autostart ---- */

void plus4_autostart_inject(plus4 *m)
{
    if (!m->p.autostart_pending) return;
    m->p.autostart_pending = 0;
    install_hooks(m);
    if (!m->autostart.data) return;
    const plus4_autostart *a = &m->autostart;
    char typed[16];
    uint32_t end = mh_kernal_inject(&m->kernal, a->data, a->size, a->load_address, !a->no_keys,
                                    typed, sizeof typed);
    if (a->no_keys)
        plus4_log(m, MH_LOG_INFO, "plus4: program %s: loaded $%04X-$%04X", a->name,
                  a->load_address, (unsigned)(end - 1));
    else
        plus4_log(m, MH_LOG_INFO, "plus4: autostart %s: loaded $%04X-$%04X, typed %s at tick %llu",
                  a->name, a->load_address, (unsigned)(end - 1), typed,
                  (unsigned long long)m->ted.ticks);
}

/* Takes a program (a PRG, or a D64's first PRG, which also goes into drive
 * 8 when it is empty) into m->autostart. */
static mh_status program_load(plus4 *m, const char *what, const char *path, int allow_d64,
                              char *error, size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL, *prg = NULL;
    size_t size = 0, prg_size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "%s \"%s\": %s", what, path, err.message);
        return status;
    }
    mh_media_kind kind = mh_media_detect(path, bytes, size);
    if (kind == MH_MEDIA_PRG) {
        prg = bytes;
        prg_size = size;
        bytes = NULL;
    } else if (kind == MH_MEDIA_D64 && allow_d64) {
        mh_d64 *d64 = mh_d64_open(bytes, size, 0, &err);
        const mh_d64_entry *entry = NULL;
        for (size_t i = 0; d64 && i < d64->entry_count && !entry; i++)
            if (d64->entries[i].type == MH_CBM_PRG) entry = &d64->entries[i];
        if (!d64) {
            status = err.status != MH_OK ? err.status : MH_ERR_INVALID_ARGUMENT;
        } else if (!entry) {
            snprintf(err.message, sizeof err.message, "D64: the disk has no PRG file");
            status = MH_ERR_NOT_FOUND;
        } else {
            status = mh_d64_read_file(d64, entry, &prg, &prg_size, &err);
        }
        if (status == MH_OK && !m->drive8) {
            m->drive8 = d64;
            m->drive8_path = malloc(strlen(path) + 1);
            if (m->drive8_path) strcpy(m->drive8_path, path);
            d64 = NULL;
        }
        mh_d64_free(d64);
    } else {
        snprintf(err.message, sizeof err.message, "not a program: %s takes a .prg%s file", what,
                 allow_d64 ? " or .d64" : "");
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
    if (!data || !name) {
        free(prg);
        free(data);
        free(name);
        snprintf(error, error_size, "out of memory loading %s", path);
        return MH_ERR_NO_MEMORY;
    }
    memcpy(data, parsed.data, parsed.size);
    strcpy(name, path);
    free(prg);
    free(m->autostart.data);
    free(m->autostart.name);
    m->autostart.data = data;
    m->autostart.name = name;
    m->autostart.size = parsed.size;
    m->autostart.load_address = parsed.load_address;
    m->autostart.no_keys = 0;
    return MH_OK;
}

mh_status plus4_program_attach(plus4 *m, const char *path, int autostart, char *error,
                               size_t error_size)
{
    mh_status status = program_load(m, "program", path, 0, error, error_size);
    if (status != MH_OK) return status;
    char *kept = malloc(strlen(path) + 1);
    if (!kept) return MH_ERR_NO_MEMORY;
    strcpy(kept, path);
    free(m->program_path);
    m->program_path = kept;
    m->autostart.no_keys = !autostart;
    m->p.autostart_pending = 1;
    if (!autostart) plus4_autostart_inject(m);
    install_hooks(m);
    return MH_OK;
}

void plus4_program_detach(plus4 *m)
{
    if (m->program_path && m->autostart.name && strcmp(m->program_path, m->autostart.name) == 0) {
        m->p.autostart_pending = 0;
        install_hooks(m);
    }
    free(m->program_path);
    m->program_path = NULL;
}

/* ---- drive 8 ---- */

mh_status plus4_drive_attach(plus4 *m, const char *path, char *error, size_t error_size)
{
    mh_d64 *d64 = NULL;
    char *d64_path = NULL;
    mh_status status = mh_kernal_drive_open(path, 1, &d64, &d64_path, error, error_size);
    if (status != MH_OK) return status;
    plus4_drive_detach(m);
    m->drive8 = d64;
    m->drive8_path = d64_path;
    install_hooks(m);
    return MH_OK;
}

void plus4_drive_detach(plus4 *m)
{
    mh_d64_free(m->drive8);
    free(m->drive8_path);
    m->drive8 = NULL;
    m->drive8_path = NULL;
    install_hooks(m);
}

/* ---- cartridges ---- */

mh_status plus4_cart_attach(plus4 *m, const char *path, char *error, size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_status status = mh_media_load_file(path, 2 * PLUS4_ROM_SIZE, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "cartridge \"%s\": %s", path, err.message);
        return status;
    }
    if (size >= 16 && memcmp(bytes, "C64 CARTRIDGE   ", 16) == 0) {
        free(bytes);
        snprintf(error, error_size,
                 "cartridge \"%s\": a C64 CRT cartridge, not a Plus/4 cartridge ROM image (a raw "
                 "16384-byte image for $8000, or 32768 bytes for $8000 and $C000)", path);
        return MH_ERR_INVALID_ARGUMENT;
    }
    if (size != PLUS4_ROM_SIZE && size != 2 * PLUS4_ROM_SIZE) {
        free(bytes);
        snprintf(error, error_size,
                 "cartridge \"%s\": %zu bytes is not a Plus/4 cartridge ROM image (a raw 16384-byte "
                 "image for $8000, or 32768 bytes for $8000 and $C000)", path, size);
        return MH_ERR_INVALID_ARGUMENT;
    }
    char *kept = malloc(strlen(path) + 1);
    if (!kept) {
        free(bytes);
        return MH_ERR_NO_MEMORY;
    }
    strcpy(kept, path);
    plus4_cart_detach(m);
    memcpy(m->rom[PLUS4_ROM_CART1_LO], bytes, PLUS4_ROM_SIZE);
    m->rom_present[PLUS4_ROM_CART1_LO] = 1;
    if (size == 2 * PLUS4_ROM_SIZE) {
        memcpy(m->rom[PLUS4_ROM_CART1_HI], bytes + PLUS4_ROM_SIZE, PLUS4_ROM_SIZE);
        m->rom_present[PLUS4_ROM_CART1_HI] = 1;
    }
    free(bytes);
    m->cart_path = kept;
    plus4_bus_update_banking(m);
    return MH_OK;
}

void plus4_cart_detach(plus4 *m)
{
    m->rom_present[PLUS4_ROM_CART1_LO] = m->rom_present[PLUS4_ROM_CART1_HI] = 0;
    free(m->cart_path);
    m->cart_path = NULL;
    plus4_bus_update_banking(m);
}

/* ---- frames ---- */

void plus4_frame_done(plus4 *m)
{
    m->p.fb_back ^= 1u;
    m->ted.fb = m->p.fb[m->p.fb_back];
    m->p.frames_done++;
    if (mh_kit_holds_pending(&m->holds)) plus4_holds_frame(m);
}

/* ---- power-on and reset ---- */

static const mh_kit_run_ops run_ops;

static void reset_machine_state(plus4 *m)
{
    m->p.run.exit_pending = 0;
    m->p.run.exit_from_cpu = 0;
    m->p.rom_banks = 0;
    m->p.user_port = 0xFF;
    m->p.keyboard_port = 0xFF;
    memset(&m->p.acia, 0, sizeof m->p.acia);
    m->p.acia.status = 0x10; /* transmitter empty */
    mh_kernal_queue_clear(&m->p.typed);
}

void plus4_power_on(plus4 *m)
{
    /* RAM power-on pattern: 64 bytes of $00, 64 of $FF (as VICE's default). */
    for (uint32_t a = 0; a < 65536; a++) m->p.ram[a] = (a & 64) ? 0xFF : 0x00;
    memset(m->p.fb, 0, sizeof m->p.fb);
    m->p.fb_back = 0;
    m->p.frames_done = 0;
    mh_kit_state_reset(&m->p.run);
    reset_machine_state(m);
    m->p.autostart_pending = m->autostart.data != NULL;
    ted_init(&m->ted, m->config.ntsc, plus4_ted_fetch, plus4_ted_page, m, m->p.fb[0],
             m->config.sound);
    m->ted.events = &m->events;

    mh_cpu6502_desc desc = {0};
    desc.model = MH_CPU6502_MODEL_7501;
    desc.read = plus4_bus_read;
    desc.write = plus4_bus_write;
    desc.user = m;
    desc.port_input = plus4_port_input;
    mh_cpu6502_init(&m->cpu, &desc);
    mh_kit_init(&m->kit, &m->cpu, &m->p.run, &run_ops, m, plus4_bus_read, plus4_bus_write, m, 0);
    plus4_bus_update_banking(m);
    install_hooks(m);
}

void plus4_reset(plus4 *m, int hard)
{
    mh_kit_undo_exit_stall(&m->kit);
    if (hard) {
        plus4_power_on(m);
        m->p.autostart_pending = 0;
        install_hooks(m);
        plus4_log(m, MH_LOG_INFO, "plus4: hard reset (power cycle)");
        return;
    }
    reset_machine_state(m);
    m->p.autostart_pending = 0;
    uint64_t ticks = m->ted.ticks;
    ted_reset(&m->ted); /* the tick count goes on */
    m->ted.fb = m->p.fb[m->p.fb_back];
    mh_cpu6502_reset(&m->cpu);
    m->cpu.irq = 0;
    m->cpu.nmi = 0;
    m->cpu.rdy = 1;
    plus4_bus_update_banking(m);
    install_hooks(m);
    plus4_log(m, MH_LOG_INFO, "plus4: soft reset at tick %llu", (unsigned long long)ticks);
}

/* ---- create / free ---- */

void plus4_free(plus4 *m)
{
    if (!m) return;
    plus4_options_free(&m->config);
    mh_d64_free(m->drive8);
    free(m->drive8_path);
    free(m->cart_path);
    free(m->autostart.data);
    free(m->autostart.name);
    free(m->program_path);
    free(m);
}

plus4 *plus4_new(const char *options_json, const mh_host *host, char *error, size_t error_size)
{
    if (error_size) error[0] = '\0';
    plus4_config config;
    if (plus4_options_parse(options_json, &config, error, error_size) != MH_OK) return NULL;
    if (plus4_options_confine(&config, host, error, error_size) != MH_OK) {
        plus4_options_free(&config);
        return NULL;
    }
    plus4 *m = calloc(1, sizeof *m);
    if (!m) {
        plus4_options_free(&config);
        snprintf(error, error_size, "out of memory creating a plus4");
        return NULL;
    }
    mh_kit_hooks_init(&m->hooks, &m->cpu, own_sync, m);
    m->config = config;
    m->host = host;
    m->ram_mask = config.model == PLUS4_MODEL_C16 ? 0x3FFFu : 0xFFFFu;
    m->kernal.layout = &plus4_kernal_layout;
    m->kernal.cpu = &m->cpu;
    m->kernal.ram = m->p.ram;
    m->kernal.peek = kernal_peek;
    m->kernal.machine = m;
    mh_status status = plus4_rom_load(m, error, error_size);
    if (status == MH_OK && config.cartridge)
        status = plus4_cart_attach(m, config.cartridge, error, error_size);
    if (status == MH_OK && config.drive8)
        status = plus4_drive_attach(m, config.drive8, error, error_size);
    if (status == MH_OK && config.autostart)
        status = program_load(m, "autostart", config.autostart, 1, error, error_size);
    if (status != MH_OK) {
        if (!error[0]) snprintf(error, error_size, "plus4: %s", mh_status_name(status));
        plus4_free(m);
        return NULL;
    }
    plus4_power_on(m);
    return m;
}

/* ---- run ---- */

/* The TED's sound samples up to now (a chunk is at most ~800 samples). */
static void sound_flush(void *machine) { ted_sound_flush(&((plus4 *)machine)->ted); }

static void service(void *machine, uint32_t ran)
{
    plus4 *m = machine;
    (void)ran;
    ted_sound_flush(&m->ted);
    if (m->p.typed.count) mh_kernal_feed(&m->kernal, &m->p.typed);
    if (m->p.autostart_pending && m->ted.ticks >= PLUS4_AUTOSTART_FALLBACK &&
        mh_cpu6502_at_boundary(&m->cpu)) {
        plus4_log(m, MH_LOG_WARNING,
                  "plus4: autostart: the KERNAL did not wait for a key (LDA $EF with interrupts "
                  "on) within %u ticks; injecting %s now",
                  (unsigned)PLUS4_AUTOSTART_FALLBACK, m->autostart.name);
        plus4_autostart_inject(m);
    }
}

static uint8_t rdy_level(void *machine) { return ted_dma(&((const plus4 *)machine)->ted) ? 0 : 1; }

static const mh_kit_run_ops run_ops = {sizeof(mh_kit_run_ops), MH_KIT_RUN_BOUNDARY, NULL, service,
                                       sound_flush, rdy_level};

mh_status plus4_run(plus4 *m, uint64_t max_ticks, mh_run_result *result)
{
    const uint64_t start = m->ted.ticks, target = start + max_ticks;
    mh_run_result r = {0};
    r.stop = MH_RUN_BUDGET;
    while (m->ted.ticks < target) {
        uint64_t left = target - m->ted.ticks;
        /* A CPU cycle is one or two ticks: half of what is left never
         * overshoots by more than the last instruction. */
        uint64_t budget = left / 2 ? left / 2 : 1;
        mh_status status = mh_kit_run(&m->kit, budget, &r);
        if (status != MH_OK) return status;
        if (r.stop != MH_RUN_BUDGET) break;
    }
    m->p.run.cycles = m->ted.ticks;
    result->stop = r.stop;
    result->exit_code = r.exit_code;
    result->cycles = m->ted.ticks - start;
    return MH_OK;
}

/* ---- snapshots (the blob is plus4_ext.c's) ---- */
