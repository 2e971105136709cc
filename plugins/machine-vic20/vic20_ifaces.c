/* vic20_ifaces.c - what the VIC-20 registers in its session, and the
 * machine type (mh_machine_desc).
 *
 *   "mh.cpu6502/1"   "cpu"       the 6502 (hooks chained behind the
 *                                machine's autostart/LOAD hook)
 *   "mh.memory/1"    "memory"    spaces cpu, ram, basic, kernal, char, io,
 *                                color (below)
 *   "mh.video/1"     "vic"       the last complete frame, VIC-20 palette
 *   "mh.audio/1"     "vic"       the VIC's four voices at 44.1 kHz
 *   "mh.textscreen/1" "screen"   the video matrix as screen codes
 *   "mh.input/1"     "keyboard"  keys, typed text, the joystick
 *   "mh.machine/1"   "machine"   soft and hard reset
 *   "mh.chip.vic/1"  "vic"       the 6561/6560 (mcphost/chip_vic.h)
 *   "mh.chip.via/1"  "via1", "via2" (mcphost/chip_via.h; via2 has the keyboard)
 *   "mh.snapshot/1", "mh.config/1", "mh.media/1", "mh.caps/1": vic20_ext.c
 *
 * Memory spaces: 0 "cpu" = what the CPU sees (I/O read without side
 * effects, open bus where nothing answers; poke acts like a CPU write);
 * 1 "ram" = the 64 KiB array (only the configured blocks are RAM to the
 * CPU); 2 "basic", 3 "kernal", 4 "char" = the ROM images; 5 "io" =
 * $9000-$93FF registers; 6 "color" = the 1024 colour nybbles at $9400.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mcphost/chip_via.h"
#include "mcphost/chip_vic.h"
#include "mcphost/text_screen.h"
#include "vic20.h"

extern const mh_text_screen_iface vic20_text_screen_iface;

/* ---- mh.cpu6502/1 ---- */

static mh_cpu6502 *cpu_state(void *context) { return &((vic20 *)context)->cpu; }

static void cpu_set_debug_hooks(void *context, mh_cpu6502_sync_fn sync,
                                mh_cpu6502_access_fn access, void *user)
{
    vic20_set_debug_hooks(context, sync, access, user);
}

static const char *cpu_model_name(void *context)
{
    (void)context;
    return "6502";
}

static void cpu_set_event_sink(void *context, mh_chip_event_fn fn, void *user)
{
    vic20 *m = context;
    m->events.fn = fn;
    m->events.user = user;
}

static const mh_cpu6502_iface cpu_iface = {sizeof(mh_cpu6502_iface), cpu_state,
                                           cpu_set_debug_hooks, cpu_model_name,
                                           cpu_set_event_sink};

/* ---- mh.memory/1 ---- */

enum { SPACE_CPU = 0, SPACE_RAM, SPACE_BASIC, SPACE_KERNAL, SPACE_CHAR, SPACE_IO, SPACE_COLOR,
       SPACE_COUNT };

static uint8_t cpu_peek(const void *m, uint32_t address) { return vic20_bus_peek(m, (uint16_t)address); }
static void cpu_poke(void *m, uint32_t address, uint8_t value) { vic20_bus_poke(m, (uint16_t)address, value); }
static uint8_t io_peek(const void *m, uint32_t offset) { return vic20_io_peek(m, (uint16_t)(0x9000u + offset)); }
static void io_poke(void *m, uint32_t offset, uint8_t value) { vic20_io_write(m, (uint16_t)(0x9000u + offset), value); }

#define ROM_AT(address) (offsetof(vic20, rom) + (address))

static const mh_kit_space spaces[SPACE_COUNT] = {
    {{"cpu", "What the 6502 sees now: RAM, ROMs, I/O, open bus", 65536, 0, 1}, 0, 0, cpu_peek,
     cpu_poke},
    {{"ram", "RAM (the configured blocks are what the CPU reaches)", 65536, 0, 1},
     offsetof(vic20, p.ram), 0, NULL, NULL},
    {{"basic", "BASIC ROM (8 KiB at $C000)", 8192, 0xC000, 1}, ROM_AT(0xC000), 0, NULL, NULL},
    {{"kernal", "KERNAL ROM (8 KiB at $E000)", 8192, 0xE000, 1}, ROM_AT(0xE000), 0, NULL, NULL},
    {{"char", "Character ROM (4 KiB at $8000)", 4096, 0x8000, 1}, ROM_AT(0x8000), 0, NULL, NULL},
    {{"io", "I/O $9000-$93FF: VIC ($9000), VIA1 ($9110), VIA2 ($9120)", 0x400, 0x9000, 1}, 0, 0,
     io_peek, io_poke},
    {{"color", "Colour RAM: 1024 nybbles at $9400", 1024, 0x9400, 1}, offsetof(vic20, p.color),
     0x0F, NULL, NULL},
};

static size_t mem_bank_at(const void *context, uint16_t address)
{
    const vic20 *m = context;
    switch (m->rd_kind[address >> 10]) {
    case VIC20_R_RAM: return SPACE_RAM;
    case VIC20_R_ROM:
        if (address >= 0xE000) return SPACE_KERNAL;
        if (address >= 0xC000) return SPACE_BASIC;
        if (address >= 0x8000 && address < 0x9000) return SPACE_CHAR;
        return SPACE_CPU; /* cartridge */
    case VIC20_R_IO: return address >= 0x9400 ? SPACE_COLOR : SPACE_IO;
    default: return SPACE_CPU;
    }
}

/* RAM and ROM runs of "cpu" in place (the kit then copies whole runs). */
static const uint8_t *mem_span(const void *context, size_t space, uint32_t address,
                               uint32_t *length)
{
    if (space != SPACE_CPU) {
        *length = UINT32_MAX;
        return NULL;
    }
    return vic20_bus_span(context, (uint16_t)address, length);
}

static const mh_kit_memory_map memory_map = {spaces, SPACE_COUNT, mem_bank_at, NULL, mem_span};

/* ---- mh.video/1 ---- */

static mh_status video_frame(void *context, mh_video_frame *out)
{
    const vic20 *m = context;
    vic20_vic_catch_up(m);
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->width = m->geometry->width;
    out->height = m->geometry->height;
    out->pitch = M6561_FB_WIDTH;
    out->pixels = m->p.fb[m->p.fb_back ^ 1u];
    out->palette = m6561_palette();
    out->palette_size = 16;
    out->frame_number = m->p.frames_done;
    out->pixel_aspect = m->geometry->pixel_aspect;
    return MH_OK;
}

static void video_beam(void *context, uint32_t *line, uint32_t *cycle)
{
    const vic20 *m = context;
    vic20_vic_catch_up(m);
    if (line) *line = m->vic.line;
    if (cycle) *cycle = m->vic.cycle;
}

static const char *video_standard(void *context)
{
    const vic20 *m = context;
    return m->vic.model == M6561_MODEL_6560 ? "NTSC" : "PAL";
}

static const mh_video_iface video_iface = {sizeof(mh_video_iface), video_frame, video_beam,
                                           video_standard};

/* ---- mh.audio/1 ---- */

static uint32_t audio_rate(void *context)
{
    (void)context;
    return M6561_AUDIO_RATE;
}

static int audio_enabled(void *context) { return !((const vic20 *)context)->vic.sound_off; }

static size_t audio_read(void *context, int16_t *out, size_t max)
{
    vic20_vic_catch_up(context);
    return m6561_audio_read(&((vic20 *)context)->vic, out, max);
}

static const char *audio_source(void *context)
{
    const vic20 *m = context;
    return m->vic.model == M6561_MODEL_6560 ? "VIC 6560" : "VIC 6561";
}

static uint32_t audio_clock(void *context) { return ((vic20 *)context)->geometry->clock_hz; }

static uint32_t audio_frame_cycles(void *context)
{
    const m6561_geometry *g = ((vic20 *)context)->geometry;
    return (uint32_t)g->cycles_per_line * g->lines_per_frame;
}

static const mh_audio_iface audio_iface = {sizeof(mh_audio_iface), audio_rate, audio_enabled,
                                           audio_read, audio_source, audio_clock,
                                           audio_frame_cycles};

/* ---- mh.input/1 ---- */

static mh_status input_key(void *context, const char *name, int down) { return vic20_key(context, name, down); }

static const char *const *input_key_names(void *context)
{
    (void)context;
    return vic20_key_names();
}

static mh_status input_type_text(void *context, const char *text, char *error, size_t error_size)
{
    return vic20_type_text(context, text, error, error_size);
}

static mh_status input_joystick(void *context, int port, uint32_t mask)
{
    return vic20_joystick(context, port, mask);
}

static void input_release_all(void *context) { vic20_release_all(context); }

static mh_status input_key_hold(void *context, const char *name, uint32_t frames)
{
    return vic20_key_hold(context, name, frames);
}

static mh_status input_joystick_hold(void *context, int port, uint32_t mask, uint32_t frames)
{
    return vic20_joystick_hold(context, port, mask, frames);
}

static mh_status input_type_codes(void *context, const uint8_t *codes, size_t count, char *error,
                                  size_t error_size)
{
    return vic20_type_codes(context, codes, count, error, error_size);
}

static mh_status input_hold_state_save(void *context, uint8_t *out, size_t max, size_t *size)
{
    return vic20_hold_state_save(context, out, max, size);
}

static mh_status input_hold_state_load(void *context, const uint8_t *data, size_t size)
{
    return vic20_hold_state_load(context, data, size);
}

static const mh_input_iface input_iface = {
    sizeof(mh_input_iface), input_key,         input_key_names, input_type_text,
    input_joystick,         input_release_all, input_key_hold,  input_joystick_hold,
    input_type_codes,
    input_hold_state_save, input_hold_state_load};

/* ---- mh.machine/1 ---- */

static mh_status machine_reset(void *context, int hard)
{
    vic20_reset(context, hard);
    return MH_OK;
}

static const mh_machine_iface machine_iface = {sizeof(mh_machine_iface), machine_reset};

/* ---- mh.chip.vic/1, mh.chip.via/1 ---- */

static const mh_chip_io_range chip_io[3] = {{0x9000, 0x100}, {0x9110, 0x2F0}, {0x9120, 0x2E0}};

static m6522 *via_of(const vic20_chip_ctx *ctx) { return ctx->which == 1 ? &ctx->m->via1 : &ctx->m->via2; }

static void *chip_state(void *context)
{
    vic20_chip_ctx *ctx = context;
    vic20_vic_catch_up(ctx->m);
    vic20_via_catch_up(ctx->m);
    if (ctx->which == 0) return &ctx->m->vic;
    return via_of(ctx);
}

static uint8_t chip_peek(void *context, uint16_t reg)
{
    const vic20_chip_ctx *ctx = context;
    vic20_vic_catch_up(ctx->m);
    vic20_via_catch_up(ctx->m);
    if (ctx->which == 0) return m6561_read(&ctx->m->vic, (uint8_t)reg);
    return m6522_peek(via_of(ctx), (uint8_t)reg);
}

static void chip_write(void *context, uint16_t reg, uint8_t value)
{
    const vic20_chip_ctx *ctx = context;
    if (ctx->which == 0) {
        vic20_io_write(ctx->m, (uint16_t)(0x9000u + (reg & 0x0Fu)), value);
        return;
    }
    vic20_via_catch_up(ctx->m);
    m6522_write(via_of(ctx), (uint8_t)reg, value);
    vic20_via_changed(ctx->m);
}

static void chip_io_range(void *context, mh_chip_io_range *out)
{
    const vic20_chip_ctx *ctx = context;
    *out = chip_io[ctx->which];
}

static mh_status via_view(void *context, mh_chip_via_view *out)
{
    const vic20_chip_ctx *ctx = context;
    vic20_via_catch_up(ctx->m);
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    vic20_via_view(ctx->m, via_of(ctx), out);
    return MH_OK;
}

static mh_status via_keyboard(void *context, uint8_t held[8])
{
    const vic20_chip_ctx *ctx = context;
    if (ctx->which != 2) return MH_ERR_UNSUPPORTED;
    memcpy(held, ctx->m->p.kb_col, 8);
    return MH_OK;
}

static const char *via_key_name(void *context, unsigned column, unsigned row)
{
    const vic20_chip_ctx *ctx = context;
    if (ctx->which != 2 || column > 7 || row > 7) return NULL;
    return vic20_key_names()[column * 8 + row];
}

static mh_status vic_view(void *context, mh_chip_vic_view *out)
{
    const vic20_chip_ctx *ctx = context;
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    vic20_vic_view(ctx->m, out);
    return MH_OK;
}

static void vic_read(void *context, uint16_t vic_address, uint8_t *out, size_t length)
{
    const vic20_chip_ctx *ctx = context;
    for (size_t i = 0; i < length; i++)
        out[i] = (uint8_t)vic20_vic_fetch(ctx->m, (uint16_t)((vic_address + i) & 0x3FFFu));
}

static void vic_color_read(void *context, uint16_t offset, uint8_t *out, size_t length)
{
    const vic20_chip_ctx *ctx = context;
    for (size_t i = 0; i < length; i++) out[i] = ctx->m->p.color[(offset + i) & 0x3FFu] & 0x0Fu;
}

static void vic_beam(void *context, uint16_t *line, uint16_t *cycle)
{
    const vic20_chip_ctx *ctx = context;
    vic20_vic_catch_up(ctx->m);
    if (line) *line = ctx->m->vic.line;
    if (cycle) *cycle = ctx->m->vic.cycle;
}

static const mh_chip_vic_iface vic_chip_iface = {sizeof(mh_chip_vic_iface), chip_state, chip_peek,
                                                 chip_write, vic_view, vic_read, vic_color_read,
                                                 vic_beam, chip_io_range};
static const mh_chip_via_iface via_chip_iface = {sizeof(mh_chip_via_iface), chip_state, chip_peek,
                                                 chip_write, via_view, via_keyboard, via_key_name,
                                                 chip_io_range};

/* ---- registration ---- */

size_t vic20_ifaces_chips(vic20 *m, mh_chip *chips, size_t max)
{
    const char *vic_desc = m->vic.model == M6561_MODEL_6560 ? "MOS 6560 VIC (NTSC)"
                                                            : "MOS 6561 VIC (PAL)";
    const mh_chip own[] = {
        {sizeof(mh_chip), MH_IFACE_CPU6502, "cpu", "MOS 6502 CPU", &cpu_iface, m},
        mh_kit_memory_chip(&m->memory, &memory_map, m,
                           "VIC-20 memory: RAM with expansions, BASIC/KERNAL/character ROMs, I/O, "
                           "colour RAM"),
        {sizeof(mh_chip), MH_IFACE_VIDEO, "vic", vic_desc, &video_iface, m},
        {sizeof(mh_chip), MH_IFACE_AUDIO, "audio", "VIC sound: three square voices and noise",
         &audio_iface, m},
        {sizeof(mh_chip), MH_IFACE_TEXT_SCREEN, "screen",
         "VIC text screen: screen codes and colours (22x23 by default)", &vic20_text_screen_iface,
         m},
        {sizeof(mh_chip), MH_IFACE_INPUT, "keyboard", "VIC-20 keyboard, RESTORE, joystick",
         &input_iface, m},
        {sizeof(mh_chip), MH_IFACE_MACHINE, "machine", "Commodore VIC-20: soft and hard reset",
         &machine_iface, m},
        {sizeof(mh_chip), MH_CHIP_VIC_IFACE, "vic", vic_desc, &vic_chip_iface, &m->chip_ctx[0]},
        {sizeof(mh_chip), MH_CHIP_VIA_IFACE, "via1",
         "MOS 6522 VIA 1 ($9110: joystick, RESTORE, NMI)", &via_chip_iface, &m->chip_ctx[1]},
        {sizeof(mh_chip), MH_CHIP_VIA_IFACE, "via2",
         "MOS 6522 VIA 2 ($9120: keyboard, joystick right, IRQ)", &via_chip_iface,
         &m->chip_ctx[2]},
    };
    size_t count = sizeof own / sizeof own[0];
    if (max < count + VIC20_EXT_CHIPS) return 0;
    memcpy(chips, own, sizeof own);
    count += vic20_ext_chips(m, chips + count);
    return count;
}

/* ---- the machine type ---- */

static mh_status machine_make(const mh_host *host, const char *options_json, void **instance,
                              char *error, size_t error_size)
{
    vic20 *m = vic20_new(options_json, host, error, error_size);
    if (!m) return MH_ERR_INVALID_ARGUMENT;
    *instance = m;
    return MH_OK;
}

static size_t machine_chips(void *instance, mh_chip *chips, size_t max)
{
    return vic20_ifaces_chips(instance, chips, max);
}

static void machine_destroy(void *instance) { vic20_free(instance); }

static void machine_created(void *instance)
{
    const vic20 *m = instance;
    vic20_log(m, MH_LOG_INFO, "vic20: %s VIC (%s), memory %s, ROMs from %s%s%s%s%s",
              m6561_model_name(m->config.vic_model),
              m->config.sound ? "sound synthesis" : "registers only, sound=off",
              vic20_memory_name(m->config.memory),
              m->config.rom_dir ? m->config.rom_dir : "the built-in boot ROM",
              m->config.debugcart ? ", debug cart at $910F" : "",
              m->autostart.name ? ", autostart at READY" : "",
              m->cart_path ? ", cartridge: " : "", m->cart_path ? m->cart_path : "");
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
    return vic20_run(instance, max_cycles, result);
}

static uint64_t machine_clock_hz(void *instance) { return ((vic20 *)instance)->geometry->clock_hz; }

void vic20_machine_desc(mh_machine_desc *desc, const mh_host *host)
{
    memset(desc, 0, sizeof *desc);
    desc->struct_size = sizeof *desc;
    desc->name = "vic20";
    desc->description = "Commodore VIC-20 (PAL/NTSC): 6502, VIC 6561/6560, 2x VIA 6522";
    desc->create = machine_create;
    desc->destroy = machine_destroy;
    desc->run = machine_run;
    desc->clock_hz = machine_clock_hz;
    desc->user_data = (void *)host;
}
