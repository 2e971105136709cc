/* vic20_machine.c - making, running and resetting a VIC-20; autostart; the
 * virtual drive 8; debugger hook chaining; snapshots.
 *
 * run(max_cycles) is the SDK machine kit's loop (mcphost/machine_kit.h):
 * the CPU (and inside its bus callbacks the VIC and both VIAs) in chunks
 * ended at instruction boundaries; between chunks typed text goes into the
 * keyboard buffer and the autostart fallback is checked (input holds end
 * at frame ends, vic20_keyboard.c).
 * MH_RUN_EXIT after a debug-cart write ($910F with debugcart=true), exactly
 * after the writing cycle.
 *
 * Autostart: as on the C64 (mcphost/kernal.h): a sync hook waits for the
 * KERNAL's wait for a key (LDA $C6 from KERNAL ROM with I clear and an
 * empty buffer), injects the program at its load address and types RUN
 * (a BASIC program at the start of BASIC) or SYS. BASIC starts at $1001
 * unexpanded, $0401 with the 3K block, $1201 with block 1 or more (the
 * KERNAL's memory test decides; the layout follows the configuration).
 * The same hook traps LOAD ($FFD5) while a disk is in the virtual drive 8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/media.h"
#include "mcphost/media_d64.h"
#include "vic20.h"

/* The VIC-20 KERNAL's variables (the same zero page as the C64's). */
static const mh_kernal_layout vic20_kernal_layout_base = {
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
    .basic_program = 0x1001,
    .load_entry = 0xFFD5,
    .directory_address = 0x1001,
    .save_entry = 0xFFD8,
    .save_start = 0xC1, /* SAVE at $F675: STX $AE, STY $AF, (A) to $C1/$C2 */
};

/* Where BASIC programs start for a memory configuration. */
static uint16_t basic_start_of(unsigned memory)
{
    if (memory & VIC20_MEM_BLK1) return 0x1201;
    if (memory & VIC20_MEM_3K) return 0x0401;
    return 0x1001;
}

static uint8_t kernal_peek(const void *machine, uint16_t address)
{
    return vic20_bus_peek(machine, address);
}

/* ---- hooks ---- */

static void install_hooks(vic20 *m)
{
    mh_kit_hooks_install(&m->hooks, m->p.autostart_pending || m->drive8 != NULL);
}

static int drive_trap(vic20 *m)
{
    if (!m->drive8) return 0;
    char message[320];
    if (!mh_kernal_load_trap(&m->kernal, 8, m->drive8, message, sizeof message)) return 0;
    vic20_log(m, MH_LOG_INFO, "vic20: drive 8: %s", message);
    return 1;
}

/* SAVE at $FFD8 (the KERNAL ROM is always at $E000-$FFFF). */
static int drive_save_trap(vic20 *m)
{
    if (!m->drive8) return 0;
    char message[1024];
    int done = mh_kernal_save_trap(&m->kernal, 8, &m->drive8, m->drive8_path, message,
                                   sizeof message);
    if (done) vic20_log(m, done > 0 ? MH_LOG_INFO : MH_LOG_ERROR, "vic20: drive 8: %s", message);
    return done != 0;
}

/* The machine's step of the hook chain (mcphost/kit_hooks.h). */
static uint16_t own_sync(void *machine, uint16_t pc)
{
    vic20 *m = machine;
    if (m->p.autostart_pending && pc >= 0xE000 && mh_kernal_waits_for_key(&m->kernal, pc))
        vic20_autostart_inject(m);
    if (pc == m->kernal_layout.load_entry && m->drive8 && drive_trap(m)) pc = m->cpu.pc;
    else if (pc == m->kernal_layout.save_entry && m->drive8 && drive_save_trap(m))
        pc = m->cpu.pc;
    return pc;
}

void vic20_hooks_update(vic20 *m) { install_hooks(m); }

void vic20_set_debug_hooks(vic20 *m, mh_cpu6502_sync_fn sync, mh_cpu6502_access_fn access,
                           void *user)
{
    mh_kit_hooks_set(&m->hooks, sync, access, user);
    install_hooks(m);
}

/* ---- autostart ---- */

/* A BASIC program saved on another memory configuration loads at this
 * machine's BASIC start (what LOAD without ",1" and VICE's -basicload do):
 * a program whose load address is one of the three BASIC starts. */
static int is_other_basic_start(const vic20 *m, uint16_t load_address)
{
    return (load_address == 0x0401 || load_address == 0x1001 || load_address == 0x1201) &&
           load_address != m->kernal_layout.basic_program;
}

/* Rewrites the line links of the BASIC program at start (as BASIC's
 * LINKPRG does after a LOAD); stops at the end marker or at end. */
static void relink_basic(vic20 *m, uint16_t start, uint32_t end)
{
    uint32_t line = start;
    while (line + 4 < end && (m->p.ram[line] | m->p.ram[line + 1])) {
        uint32_t e = line + 4;
        while (e < end && m->p.ram[e]) e++;
        uint32_t next = e + 1;
        m->p.ram[line] = (uint8_t)next;
        m->p.ram[line + 1] = (uint8_t)(next >> 8);
        line = next;
    }
}

void vic20_autostart_inject(vic20 *m)
{
    if (!m->p.autostart_pending) return;
    m->p.autostart_pending = 0;
    install_hooks(m);
    if (!m->autostart.data) return;
    const vic20_autostart *a = &m->autostart;
    char typed[16];
    uint16_t load = a->load_address;
    int relocated = is_other_basic_start(m, load);
    if (relocated) load = m->kernal_layout.basic_program;
    uint32_t end = mh_kernal_inject(&m->kernal, a->data, a->size, load, !a->no_keys, typed,
                                    sizeof typed);
    if (relocated) {
        relink_basic(m, load, end);
        vic20_log(m, MH_LOG_INFO, "vic20: %s: a BASIC program for $%04X loaded at this "
                                  "machine's BASIC start $%04X",
                  a->name, a->load_address, load);
    }
    if (a->no_keys)
        vic20_log(m, MH_LOG_INFO, "vic20: program %s: loaded $%04X-$%04X", a->name, load,
                  (unsigned)(end - 1));
    else
        vic20_log(m, MH_LOG_INFO, "vic20: autostart %s: loaded $%04X-$%04X, typed %s at cycle %llu",
                  a->name, load, (unsigned)(end - 1), typed,
                  (unsigned long long)m->p.run.cycles);
}

static mh_status keep_program(vic20 *m, const char *path, const uint8_t *prg, size_t prg_size,
                              int no_keys, char *error, size_t error_size)
{
    mh_media_error err;
    mh_prg parsed;
    if (mh_prg_parse(prg, prg_size, &parsed, &err) != MH_OK) {
        snprintf(error, error_size, "program \"%s\": %s", path, err.message);
        return MH_ERR_INVALID_ARGUMENT;
    }
    uint8_t *data = malloc(parsed.size ? parsed.size : 1);
    char *name = malloc(strlen(path) + 1);
    if (!data || !name) {
        free(data);
        free(name);
        snprintf(error, error_size, "out of memory loading %s", path);
        return MH_ERR_NO_MEMORY;
    }
    memcpy(data, parsed.data, parsed.size);
    strcpy(name, path);
    free(m->autostart.data);
    free(m->autostart.name);
    m->autostart.data = data;
    m->autostart.name = name;
    m->autostart.size = parsed.size;
    m->autostart.load_address = parsed.load_address;
    m->autostart.no_keys = no_keys;
    return MH_OK;
}

/* The autostart option: a PRG, a D64 (its first PRG; the disk goes into
 * drive 8) or a cartridge. */
static mh_status autostart_load(vic20 *m, const char *path, char *error, size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL, *prg = NULL;
    size_t size = 0, prg_size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "autostart \"%s\": %s", path, err.message);
        return status;
    }
    if (size >= 16 && memcmp(bytes, "VIC20 CARTRIDGE ", 16) == 0) {
        status = vic20_cart_attach_bytes(m, path, bytes, size, error, error_size);
        free(bytes);
        return status;
    }
    mh_media_kind kind = mh_media_detect(path, bytes, size);
    if (kind == MH_MEDIA_D64) {
        mh_d64 *d64 = mh_d64_open(bytes, size, 0, &err);
        const mh_d64_entry *entry = NULL;
        for (size_t i = 0; d64 && i < d64->entry_count && !entry; i++)
            if (d64->entries[i].type == MH_CBM_PRG) entry = &d64->entries[i];
        if (!d64) status = err.status != MH_OK ? err.status : MH_ERR_INVALID_ARGUMENT;
        else if (!entry) {
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
        free(bytes);
        if (status != MH_OK) {
            snprintf(error, error_size, "autostart \"%s\": %s", path, err.message);
            free(prg);
            return status;
        }
    } else if (kind == MH_MEDIA_PRG) {
        prg = bytes;
        prg_size = size;
    } else {
        free(bytes);
        snprintf(error, error_size,
                 "autostart \"%s\": unknown format; the vic20 takes a .prg, .d64 or a "
                 "cartridge (.crt)", path);
        return MH_ERR_INVALID_ARGUMENT;
    }
    status = keep_program(m, path, prg, prg_size, 0, error, error_size);
    free(prg);
    return status;
}

mh_status vic20_program_attach(vic20 *m, const char *path, int autostart, char *error,
                               size_t error_size)
{
    mh_media_error err;
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_status status = mh_media_load_file(path, 0, &bytes, &size, &err);
    if (status != MH_OK) {
        snprintf(error, error_size, "program \"%s\": %s", path, err.message);
        return status;
    }
    if (mh_media_detect(path, bytes, size) != MH_MEDIA_PRG) {
        free(bytes);
        snprintf(error, error_size, "program \"%s\": not a PRG program (a program takes a .prg "
                                    "file: a 2-byte load address and the bytes)", path);
        return MH_ERR_INVALID_ARGUMENT;
    }
    status = keep_program(m, path, bytes, size, !autostart, error, error_size);
    free(bytes);
    if (status != MH_OK) return status;
    char *kept = malloc(strlen(path) + 1);
    if (!kept) return MH_ERR_NO_MEMORY;
    strcpy(kept, path);
    free(m->program_path);
    m->program_path = kept;
    m->p.autostart_pending = 1;
    if (!autostart) vic20_autostart_inject(m);
    install_hooks(m);
    return MH_OK;
}

void vic20_program_detach(vic20 *m)
{
    if (m->program_path && m->autostart.name && strcmp(m->program_path, m->autostart.name) == 0) {
        m->p.autostart_pending = 0;
        install_hooks(m);
    }
    free(m->program_path);
    m->program_path = NULL;
}

mh_status vic20_drive_attach(vic20 *m, const char *path, char *error, size_t error_size)
{
    mh_d64 *d64 = NULL;
    char *d64_path = NULL;
    mh_status status = mh_kernal_drive_open(path, 0, &d64, &d64_path, error, error_size);
    if (status != MH_OK) return status;
    vic20_drive_detach(m);
    m->drive8 = d64;
    m->drive8_path = d64_path;
    install_hooks(m);
    return MH_OK;
}

void vic20_drive_detach(vic20 *m)
{
    mh_d64_free(m->drive8);
    free(m->drive8_path);
    m->drive8 = NULL;
    m->drive8_path = NULL;
}

static const mh_kit_run_ops run_ops;

/* ---- power-on and reset ---- */

static void reset_chips(vic20 *m)
{
    m6561_reset(&m->vic);
    m6561_set_framebuffer(&m->vic, m->p.fb[m->p.fb_back]);
    m6522_reset(&m->via1);
    m6522_reset(&m->via2);
    m6522_set_ca1(&m->via1, !m->p.restore_down);
    m->via_pending = 0;
    vic20_vic_watch(m);
    /* The reset releases VIA1's CA2 (PCR = 0): the line drifts low. */
    m->p.ca2_driven = 0;
    m->p.ca2_float_left = VIC20_CA2_FLOAT_CYCLES;
    vic20_via_changed(m);
}

void vic20_power_on(vic20 *m)
{
    /* RAM power-on pattern: alternating blocks of $00 and $FF. */
    for (uint32_t a = 0; a < 65536; a++) m->p.ram[a] = (a & 64) ? 0xFF : 0x00;
    memset(m->p.color, 0, sizeof m->p.color);
    memset(m->p.fb, 0, sizeof m->p.fb);
    m->p.fb_back = 0;
    m->p.frames_done = 0;
    m->p.via2_pa_drive = m->p.via2_pb_drive = 0xFF;
    mh_kit_state_reset(&m->p.run);
    mh_kernal_queue_clear(&m->p.typed);
    m->p.autostart_pending = m->autostart.data != NULL;
    reset_chips(m);
    mh_cpu6502_desc desc = {0};
    desc.model = MH_CPU6502_MODEL_6502;
    desc.read = vic20_bus_read;
    desc.write = vic20_bus_write;
    desc.user = m;
    mh_cpu6502_init(&m->cpu, &desc);
    mh_kit_init(&m->kit, &m->cpu, &m->p.run, &run_ops, m, vic20_bus_read, vic20_bus_write, m, 0);
    vic20_bus_init(m);
    install_hooks(m);
}

void vic20_reset(vic20 *m, int hard)
{
    mh_kit_undo_exit_stall(&m->kit);
    if (hard) {
        vic20_power_on(m);
        m->p.autostart_pending = 0;
        install_hooks(m);
        vic20_log(m, MH_LOG_INFO, "vic20: hard reset (power cycle)");
        return;
    }
    m->p.run.exit_pending = 0;
    m->p.run.exit_from_cpu = 0;
    mh_kernal_queue_clear(&m->p.typed);
    m->p.autostart_pending = 0;
    reset_chips(m);
    mh_cpu6502_reset(&m->cpu);
    m->cpu.irq = 0;
    m->cpu.nmi = 0;
    m->cpu.rdy = 1;
    install_hooks(m);
    vic20_log(m, MH_LOG_INFO, "vic20: soft reset at cycle %llu",
              (unsigned long long)m->p.run.cycles);
}

/* ---- create / free ---- */

void vic20_free(vic20 *m)
{
    if (!m) return;
    vic20_options_free(&m->config);
    vic20_drive_detach(m);
    free(m->cart_path);
    free(m->autostart.data);
    free(m->autostart.name);
    free(m->program_path);
    free(m);
}

vic20 *vic20_new(const char *options_json, const mh_host *host, char *error, size_t error_size)
{
    if (error_size) error[0] = '\0';
    vic20_config config;
    if (vic20_options_parse(options_json, &config, error, error_size) != MH_OK) return NULL;
    if (vic20_options_confine(&config, host, error, error_size) != MH_OK) {
        vic20_options_free(&config);
        return NULL;
    }
    vic20 *m = calloc(1, sizeof *m);
    if (!m) {
        vic20_options_free(&config);
        snprintf(error, error_size, "out of memory creating a vic20");
        return NULL;
    }
    mh_kit_hooks_init(&m->hooks, &m->cpu, own_sync, m);
    m->config = config;
    m->host = host;
    m->geometry = m6561_geometry_of(config.vic_model);
    m->kernal_layout = vic20_kernal_layout_base;
    m->kernal_layout.basic_program = basic_start_of(config.memory);
    m->kernal_layout.directory_address = m->kernal_layout.basic_program;
    vic20_bus_init(m);

    mh_status status = vic20_rom_load(config.rom_dir, config.vic_model == M6561_MODEL_6560,
                                      m->rom, error, error_size);
    if (status == MH_OK && config.cartridge)
        status = vic20_cart_attach(m, config.cartridge, error, error_size);
    if (status == MH_OK && config.drive8)
        status = vic20_drive_attach(m, config.drive8, error, error_size);
    if (status == MH_OK && config.autostart)
        status = autostart_load(m, config.autostart, error, error_size);
    if (status != MH_OK) {
        if (!error[0]) snprintf(error, error_size, "vic20: %s", mh_status_name(status));
        vic20_free(m);
        return NULL;
    }
    m6561_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.model = config.vic_model;
    vic20_vic_blocks(m, vd.blocks);
    vd.color = m->p.color;
    vd.framebuffer = m->p.fb[0];
    vd.frame_done = vic20_frame_done;
    vd.user = m;
    vd.sound_off = !config.sound;
    m6561_init(&m->vic, &vd);
    m6522_desc via1 = {vic20_via1_read_port, NULL, m};
    m6522_desc via2 = {vic20_via2_read_port, vic20_via2_port_out, m};
    m6522_init(&m->via1, &via1);
    m6522_init(&m->via2, &via2);
    /* VIA 1 ($9110) drives /NMI, VIA 2 ($9120) /IRQ. */
    m->via1.events = &m->events;
    m->via1.name = "via1";
    m->via1.irq_kind = MH_CHIP_EV_NMI;
    m->via2.events = &m->events;
    m->via2.name = "via2";
    m->via2.irq_kind = MH_CHIP_EV_IRQ;
    for (int i = 0; i < 3; i++) {
        m->chip_ctx[i].m = m;
        m->chip_ctx[i].which = i;
    }
    m->kernal.layout = &m->kernal_layout;
    m->kernal.cpu = &m->cpu;
    m->kernal.ram = m->p.ram;
    m->kernal.peek = kernal_peek;
    m->kernal.machine = m;
    vic20_power_on(m);
    return m;
}

/* ---- run ---- */

static void service(void *machine, uint32_t ran)
{
    vic20 *m = machine;
    (void)ran;
    vic20_vic_catch_up(m); /* samples for the audio */
    vic20_via_catch_up(m);
    if (m->p.typed.count) mh_kernal_feed(&m->kernal, &m->p.typed);
    if (m->p.autostart_pending && m->p.run.cycles >= VIC20_AUTOSTART_FALLBACK &&
        mh_cpu6502_at_boundary(&m->cpu)) {
        vic20_log(m, MH_LOG_WARNING,
                  "vic20: autostart: the KERNAL did not wait for a key within %u cycles; "
                  "injecting %s now",
                  (unsigned)VIC20_AUTOSTART_FALLBACK, m->autostart.name);
        vic20_autostart_inject(m);
    }
}

static void run_end(void *machine)
{
    vic20_vic_catch_up(machine);
    vic20_via_catch_up(machine); /* views between runs see this cycle */
}

static const mh_kit_run_ops run_ops = {sizeof(mh_kit_run_ops), MH_KIT_RUN_BOUNDARY, NULL, service,
                                       run_end, NULL};

mh_status vic20_run(vic20 *m, uint64_t max_cycles, mh_run_result *result)
{
    return mh_kit_run(&m->kit, max_cycles, result);
}

/* ---- snapshots ---- */

void vic20_snapshot_save(const vic20 *m, vic20_snapshot *snap)
{
    vic20_vic_catch_up(m);
    if (m->via_pending) vic20_via_catch_up((vic20 *)m); /* changes nothing a program sees */
    snap->cpu = m->cpu;
    snap->vic = m->vic;
    snap->via1 = m->via1;
    snap->via2 = m->via2;
    memcpy(&snap->p, &m->p, sizeof snap->p);
}

void vic20_snapshot_restore(vic20 *m, const vic20_snapshot *snap)
{
    mh_cpu6502_restore(&m->cpu, &snap->cpu);
    m6561_restore(&m->vic, &snap->vic);
    m6522_restore(&m->via1, &snap->via1);
    m6522_restore(&m->via2, &snap->via2);
    memcpy(&m->p, &snap->p, sizeof m->p);
    m6561_set_framebuffer(&m->vic, m->p.fb[m->p.fb_back]);
    vic20_vic_watch(m);
    m->via_pending = 0;
    vic20_via_changed(m);
    install_hooks(m);
}
