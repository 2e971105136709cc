/* c64_ifaces.c - what the C64 registers in its session, and the machine
 * type (mh_machine_desc).
 *
 *   "mh.cpu6502/1"   "cpu"       the 6510 (hooks chained behind the
 *                                machine's own autostart hook)
 *   "mh.memory/1"    "memory"    spaces cpu, ram, basic, kernal, char, io,
 *                                color (see below)
 *   "mh.video/1"     "vic2"      the last complete frame, Pepto palette
 *   "mh.input/1"     "keyboard"  keys, typed text, joysticks 1 and 2
 *   "mh.machine/1"   "machine"   soft and hard reset
 *   "mh.chip.vic2/1" "vic2"      the VIC-II (mcphost/chip_vic2.h, decoded by
 *                                c64_chip_views.c)
 *   "mh.chip.cia/1"  "cia1", "cia2" (mcphost/chip_cia.h; cia1 has the keyboard)
 *   "mh.snapshot/1", "mh.config/1", "mh.media/1", "mh.caps/1": c64_ext.c
 *
 * Memory spaces: 0 "cpu" = what the CPU sees with the current banking
 * ($00/$01 are the 6510's port; I/O read with the chips' peek functions, so
 * no side effects; poke acts like a CPU write); 1 "ram" = the 64 KiB;
 * 2 "basic", 3 "kernal", 4 "char" = the ROMs (writable: a debugger may
 * patch this instance's copy); 5 "io" = $D000-$DFFF registers (peek
 * without, poke with side effects); 6 "color" = the 1024 colour nybbles.
 * bank_at(address) follows the PLA: ram, basic, kernal, char, io (color
 * for $D800-$DBFF), or cpu for the port and cartridge/open space.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c64.h"

/* ---- mh.cpu6502/1 ---- */

static mh_cpu6502 *cpu_state(void *context) { return &((c64 *)context)->cpu; }

static void cpu_set_debug_hooks(void *context, mh_cpu6502_sync_fn sync,
                                mh_cpu6502_access_fn access, void *user)
{
    c64_set_debug_hooks(context, sync, access, user);
}

static const char *cpu_model_name(void *context)
{
    (void)context;
    return "6510";
}

static void cpu_set_event_sink(void *context, mh_chip_event_fn fn, void *user)
{
    c64 *m = context;
    m->events.fn = fn;
    m->events.user = user;
}

static const mh_cpu6502_iface cpu_iface = {sizeof(mh_cpu6502_iface), cpu_state,
                                           cpu_set_debug_hooks, cpu_model_name,
                                           cpu_set_event_sink};

/* ---- mh.memory/1 (the machine kit's skeleton) ---- */

enum {
    SPACE_CPU = 0,
    SPACE_RAM,
    SPACE_BASIC,
    SPACE_KERNAL,
    SPACE_CHAR,
    SPACE_IO,
    SPACE_COLOR,
    SPACE_COUNT
};

static uint8_t cpu_peek(const void *m, uint32_t address) { return c64_bus_peek(m, (uint16_t)address); }

static void cpu_poke(void *m, uint32_t address, uint8_t value)
{
    c64_bus_poke(m, (uint16_t)address, value);
}

static uint8_t io_peek(const void *m, uint32_t offset)
{
    return c64_io_peek(m, (uint16_t)(0xD000u + offset));
}

static void io_poke(void *m, uint32_t offset, uint8_t value)
{
    c64_io_write(m, (uint16_t)(0xD000u + offset), value);
}

#define ROM_AT(address) (offsetof(c64, rom) + (address))

static const mh_kit_space spaces[SPACE_COUNT] = {
    {{"cpu", "What the 6510 sees now: RAM, ROMs and I/O as $01 banks them", 65536, 0, 1}, 0, 0,
     cpu_peek, cpu_poke},
    {{"ram", "The 64 KiB of RAM, also below the ROMs and I/O", 65536, 0, 1},
     offsetof(c64, p.ram), 0, NULL, NULL},
    {{"basic", "BASIC ROM (8 KiB at $A000)", 8192, 0xA000, 1}, ROM_AT(0xA000), 0, NULL, NULL},
    {{"kernal", "KERNAL ROM (8 KiB at $E000)", 8192, 0xE000, 1}, ROM_AT(0xE000), 0, NULL, NULL},
    {{"char", "Character ROM (4 KiB at $D000; the VIC sees it at $1000 in banks 0 and 2)", 4096,
      0xD000, 1},
     ROM_AT(0xD000), 0, NULL, NULL},
    {{"io", "I/O registers $D000-$DFFF: VIC-II, SID, colour RAM, CIA1, CIA2, I/O1/2", 4096, 0xD000,
      1},
     0, 0, io_peek, io_poke},
    {{"color", "Colour RAM: 1024 nybbles at $D800", 1024, 0xD800, 1}, offsetof(c64, p.color),
     0x0F, NULL, NULL},
};

static size_t mem_bank_at(const void *context, uint16_t address)
{
    const c64 *m = context;
    if (address < 2) return SPACE_CPU;
    switch ((c64_bank)m->rd_bank[address >> 12]) {
    case C64_BANK_RAM: return SPACE_RAM;
    case C64_BANK_BASIC: return SPACE_BASIC;
    case C64_BANK_KERNAL: return SPACE_KERNAL;
    case C64_BANK_CHAR: return SPACE_CHAR;
    case C64_BANK_IO: return address >= 0xD800 && address < 0xDC00 ? SPACE_COLOR : SPACE_IO;
    default: return SPACE_CPU;
    }
}

/* RAM and ROM runs of "cpu" in place, so a large read is a few copies
 * instead of a peek per byte (the other per-byte space, "io", has none). */
static const uint8_t *mem_span(const void *context, size_t space, uint32_t address,
                               uint32_t *length)
{
    if (space != SPACE_CPU) {
        *length = UINT32_MAX;
        return NULL;
    }
    return c64_bus_span(context, (uint16_t)address, length);
}

static const mh_kit_memory_map memory_map = {spaces, SPACE_COUNT, mem_bank_at, NULL, mem_span};

/* ---- mh.video/1 ---- */

static mh_status video_frame(void *context, mh_video_frame *out)
{
    const c64 *m = context;
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->width = m->geometry->width;
    out->height = m->geometry->height;
    out->pitch = M6569_FB_WIDTH;
    out->pixels = m->p.fb[m->p.fb_back ^ 1u];
    out->palette = m6569_palette(M6569_PALETTE_PEPTO);
    out->palette_size = 16;
    out->frame_number = m->p.frames_done;
    return MH_OK;
}

static void video_beam(void *context, uint32_t *line, uint32_t *cycle)
{
    const c64 *m = context;
    if (line) *line = m6569_line(&m->vic);
    if (cycle) *cycle = m->vic.cycle;
}

static const char *video_standard(void *context)
{
    const c64 *m = context;
    return m->geometry->cycles_per_line == 63 ? "PAL" : "NTSC";
}

static const mh_video_iface video_iface = {sizeof(mh_video_iface), video_frame, video_beam,
                                           video_standard};

/* ---- mh.input/1 ---- */

static mh_status input_key(void *context, const char *name, int down)
{
    return c64_key(context, name, down);
}

static const char *const *input_key_names(void *context)
{
    (void)context;
    return c64_key_names();
}

static mh_status input_type_text(void *context, const char *text, char *error, size_t error_size)
{
    return c64_type_text(context, text, error, error_size);
}

static mh_status input_joystick(void *context, int port, uint32_t mask)
{
    return c64_joystick(context, port, mask);
}

static void input_release_all(void *context) { c64_release_all(context); }

static mh_status input_key_hold(void *context, const char *name, uint32_t frames)
{
    return c64_key_hold(context, name, frames);
}

static mh_status input_joystick_hold(void *context, int port, uint32_t mask, uint32_t frames)
{
    return c64_joystick_hold(context, port, mask, frames);
}

static mh_status input_type_codes(void *context, const uint8_t *codes, size_t count,
                                  char *error, size_t error_size)
{
    return c64_type_codes(context, codes, count, error, error_size);
}

static mh_status input_hold_state_save(void *context, uint8_t *out, size_t max, size_t *size)
{
    return c64_hold_state_save(context, out, max, size);
}

static mh_status input_hold_state_load(void *context, const uint8_t *data, size_t size)
{
    return c64_hold_state_load(context, data, size);
}

static const mh_input_iface input_iface = {
    sizeof(mh_input_iface), input_key,      input_key_names,     input_type_text,
    input_joystick,         input_release_all, input_key_hold,   input_joystick_hold,
    input_type_codes,       input_hold_state_save, input_hold_state_load};

/* ---- mh.machine/1 ---- */

static mh_status machine_reset(void *context, int hard)
{
    c64_reset(context, hard);
    return MH_OK;
}

static const mh_machine_iface machine_iface = {sizeof(mh_machine_iface), machine_reset};

/* ---- mh.chip.vic2/1, mh.chip.cia/1 (mcphost/chip_vic2.h, chip_cia.h) ---- */

static void *chip_state(void *context)
{
    c64_chip_ctx *ctx = context;
    if (ctx->which) c64_cias_touch(ctx->m); /* the caller may change what it gets */
    switch (ctx->which) {
    case 0: return &ctx->m->vic;
    case 1: return &ctx->m->cia1;
    default: return &ctx->m->cia2;
    }
}

static uint8_t chip_peek(void *context, uint16_t reg)
{
    const c64_chip_ctx *ctx = context;
    if (ctx->which) c64_cias_sync(ctx->m);
    switch (ctx->which) {
    case 0: return m6569_peek(&ctx->m->vic, reg);
    case 1: return m6526_peek(&ctx->m->cia1, reg);
    default: return m6526_peek(&ctx->m->cia2, reg);
    }
}

/* Where the C64's I/O decoding puts the VIC-II, CIA1 and CIA2. */
static const mh_chip_io_range chip_io[3] = {{0xD000, 0x400}, {0xDC00, 0x100}, {0xDD00, 0x100}};

static void chip_write(void *context, uint16_t reg, uint8_t value)
{
    const c64_chip_ctx *ctx = context;
    c64_io_write(ctx->m, (uint16_t)(chip_io[ctx->which].base + (reg & (ctx->which ? 0x0F : 0x3F))),
                 value);
}

static void chip_io_range(void *context, mh_chip_io_range *out)
{
    const c64_chip_ctx *ctx = context;
    *out = chip_io[ctx->which];
}

static void vic_read(void *context, uint16_t vic_address, uint8_t *out, size_t length)
{
    const c64_chip_ctx *ctx = context;
    for (size_t i = 0; i < length; i++)
        out[i] = c64_vic_fetch(ctx->m, (uint16_t)((vic_address + i) & 0x3FFFu));
}

static void vic_color_read(void *context, uint16_t offset, uint8_t *out, size_t length)
{
    const c64_chip_ctx *ctx = context;
    for (size_t i = 0; i < length; i++) out[i] = ctx->m->p.color[(offset + i) & 0x3FFu] & 0x0Fu;
}

static mh_status vic_view(void *context, mh_chip_vic2_view *out)
{
    const c64_chip_ctx *ctx = context;
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    c64_vic2_view(ctx->m, out);
    return MH_OK;
}

static size_t vic_line_colors(void *context, uint8_t *border, uint8_t *background, size_t max)
{
    const c64_chip_ctx *ctx = context;
    return m6569_line_colors(&ctx->m->vic, border, background, max);
}

static void vic_beam(void *context, uint16_t *line, uint16_t *cycle)
{
    const c64_chip_ctx *ctx = context;
    if (line) *line = m6569_line(&ctx->m->vic);
    if (cycle) *cycle = ctx->m->vic.cycle;
}

static mh_status cia_view(void *context, mh_chip_cia_view *out)
{
    const c64_chip_ctx *ctx = context;
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    c64_cias_sync(ctx->m);
    c64_cia_decode(ctx->which == 1 ? &ctx->m->cia1 : &ctx->m->cia2, out);
    return MH_OK;
}

/* CIA1 scans the keyboard: PA drives the columns, PB reads the rows. */
static mh_status cia_keyboard(void *context, uint8_t held[8])
{
    const c64_chip_ctx *ctx = context;
    if (ctx->which != 1) return MH_ERR_UNSUPPORTED;
    memcpy(held, ctx->m->p.kb_col, 8);
    return MH_OK;
}

static const char *cia_key_name(void *context, unsigned column, unsigned row)
{
    const c64_chip_ctx *ctx = context;
    if (ctx->which != 1 || column > 7 || row > 7) return NULL;
    return c64_key_names()[column * 8 + row];
}

static const mh_chip_vic2_iface vic2_chip_iface = {
    sizeof(mh_chip_vic2_iface), chip_state, chip_peek, chip_write, vic_view, vic_read,
    vic_color_read, vic_line_colors, vic_beam, chip_io_range};
static const mh_chip_cia_iface cia_chip_iface = {sizeof(mh_chip_cia_iface), chip_state, chip_peek,
                                                 chip_write, cia_view, cia_keyboard,
                                                 cia_key_name, chip_io_range};

/* ---- registration ---- */

size_t c64_ifaces_chips(c64 *m, mh_chip *chips, size_t max)
{
    static const char *const vic_desc[M6569_MODEL_COUNT] = {
        "MOS 6569 VIC-II (PAL)", "MOS 8565 VIC-II (PAL)", "MOS 6567R8 VIC-II (NTSC)",
        "MOS 8562 VIC-II (NTSC)", "MOS 6567R56A VIC-II (old NTSC)"};
    const char *cia = m->config.cia_model == M6526_MODEL_6526A ? "MOS 6526A CIA" : "MOS 6526 CIA";
    snprintf(m->cia_desc[0], sizeof m->cia_desc[0], "%s 1 ($DC00: keyboard, joysticks, IRQ)", cia);
    snprintf(m->cia_desc[1], sizeof m->cia_desc[1], "%s 2 ($DD00: VIC bank, serial bus, NMI)", cia);
    const mh_chip own[] = {
        {sizeof(mh_chip), MH_IFACE_CPU6502, "cpu", "MOS 6510 CPU", &cpu_iface, m},
        mh_kit_memory_chip(&m->memory, &memory_map, m,
                           "C64 memory: 64 KiB RAM, BASIC/KERNAL/character ROMs, I/O, colour RAM"),
        {sizeof(mh_chip), MH_IFACE_VIDEO, "vic2", vic_desc[m->config.vic_model], &video_iface, m},
        {sizeof(mh_chip), MH_IFACE_INPUT, "keyboard", "C64 keyboard, RESTORE, joysticks 1 and 2",
         &input_iface, m},
        {sizeof(mh_chip), MH_IFACE_MACHINE, "machine", "Commodore 64: soft and hard reset",
         &machine_iface, m},
        {sizeof(mh_chip), MH_CHIP_VIC2_IFACE, "vic2", vic_desc[m->config.vic_model],
         &vic2_chip_iface, &m->chip_ctx[0]},
        {sizeof(mh_chip), MH_CHIP_CIA_IFACE, "cia1", m->cia_desc[0], &cia_chip_iface,
         &m->chip_ctx[1]},
        {sizeof(mh_chip), MH_CHIP_CIA_IFACE, "cia2", m->cia_desc[1], &cia_chip_iface,
         &m->chip_ctx[2]},
    };
    size_t count = sizeof own / sizeof own[0];
    if (max < count + C64_EXT_CHIPS + C64_SID_CHIPS + C64_TEXT_SCREEN_CHIPS) return 0;
    memcpy(chips, own, sizeof own);
    count += c64_ext_chips(m, chips + count);
    count += c64_sid_chips(m, chips + count);
    count += c64_text_screen_chips(m, chips + count);
    return count;
}

/* ---- the machine type (on the machine kit) ---- */

static mh_status machine_make(const mh_host *host, const char *options_json, void **instance,
                              char *error, size_t error_size)
{
    c64 *m = c64_new(options_json, host, error, error_size);
    if (!m) return MH_ERR_INVALID_ARGUMENT;
    *instance = m;
    return MH_OK;
}

static size_t machine_chips(void *instance, mh_chip *chips, size_t max)
{
    return c64_ifaces_chips(instance, chips, max);
}

static void machine_destroy(void *instance) { c64_free(instance); }

static void machine_created(void *instance)
{
    const c64 *m = instance;
    c64_log(m, MH_LOG_INFO, "c64: %s VIC-II, %s CIAs, %s SID (%s), %s ROMs%s%s%s%s",
            m6569_model_name(m->config.vic_model), c64_cia_model_name(m->config.cia_model),
            c64_sid_model_name(m->config.sid_model),
            m->config.sound ? "synthesis" : "registers only, sound=off",
            m->config.rom_dir ? m->config.rom_dir : C64_DEFAULT_ROM_DIR,
            m->config.debugcart ? ", debug cart at $D7FF" : "",
            m->autostart.name ? ", autostart at READY" : "",
            m->drive8_path ? ", drive 8: " : "", m->drive8_path ? m->drive8_path : "");
}

static const mh_kit_machine_ops machine_ops = {sizeof(mh_kit_machine_ops), machine_make,
                                               machine_chips, machine_destroy, machine_created};

static mh_status machine_create(void *user_data, mh_session *session, const char *options_json,
                                void **instance, char *error, size_t error_size)
{
    return mh_kit_machine_create(&machine_ops, user_data, session, options_json, instance, error,
                                 error_size);
}

static mh_status machine_run(void *instance, uint64_t max_cycles, mh_run_result *result)
{
    return c64_run(instance, max_cycles, result);
}

static uint64_t machine_clock_hz(void *instance) { return ((c64 *)instance)->clock_hz; }

void c64_machine_desc(mh_machine_desc *desc, const mh_host *host)
{
    memset(desc, 0, sizeof *desc);
    desc->struct_size = sizeof *desc;
    desc->name = "c64";
    desc->description = "Commodore 64 (PAL/NTSC): 6510, VIC-II, 2x CIA, SID";
    desc->create = machine_create;
    desc->destroy = machine_destroy;
    desc->run = machine_run;
    desc->clock_hz = machine_clock_hz;
    desc->user_data = (void *)host;
}
