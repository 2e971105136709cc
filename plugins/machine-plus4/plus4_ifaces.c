/* plus4_ifaces.c - what the Plus/4 registers in its session, and the
 * machine type (mh_machine_desc).
 *
 *   "mh.cpu6502/1"  "cpu"       the 7501/8501 (hooks chained behind the
 *                               machine's own autostart/drive hook)
 *   "mh.memory/1"   "memory"    spaces below
 *   "mh.video/1"    "ted"       the last complete frame, the 121-colour palette
 *   "mh.input/1"    "keyboard"  keys, typed text, joysticks 1 and 2
 *   "mh.machine/1"  "machine"   soft and hard reset
 *   "mh.chip.ted/1", "mh.audio/1": plus4_ted_iface.c
 *   "mh.snapshot/1", "mh.config/1", "mh.media/1", "mh.caps/1",
 *   "mh.textscreen/1": plus4_ext.c
 *
 * Memory spaces: 0 "cpu" = what the CPU sees now (the port at $00/$01, the
 * ROM banks or RAM, I/O read without side effects; poke acts like a CPU
 * write); 1 "ram" = the 64 KiB (a C16 uses the first 16 KiB, mirrored);
 * 2-7 the ROM slots (basic, kernal, function_lo, function_hi, cart1_lo,
 * cart1_hi: this instance's copies, writable for patches); 8 "io" =
 * $FD00-$FF3F. bank_at() follows $FF3E/$FF3F and the bank register.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "plus4.h"

/* ---- mh.cpu6502/1 ---- */

static mh_cpu6502 *cpu_state(void *context) { return &((plus4 *)context)->cpu; }

static void cpu_set_debug_hooks(void *context, mh_cpu6502_sync_fn sync,
                                mh_cpu6502_access_fn access, void *user)
{
    plus4_set_debug_hooks(context, sync, access, user);
}

static const char *cpu_model_name(void *context)
{
    return ((const plus4 *)context)->config.model == PLUS4_MODEL_C16 ? "7501" : "8501";
}

static void cpu_set_event_sink(void *context, mh_chip_event_fn fn, void *user)
{
    plus4 *m = context;
    m->events.fn = fn;
    m->events.user = user;
}

static const mh_cpu6502_iface cpu_iface = {sizeof(mh_cpu6502_iface), cpu_state,
                                           cpu_set_debug_hooks, cpu_model_name,
                                           cpu_set_event_sink};

/* ---- mh.memory/1 ---- */

enum {
    SPACE_CPU = 0,
    SPACE_RAM,
    SPACE_ROM0, /* + slot */
    SPACE_IO = SPACE_ROM0 + 6,
    SPACE_COUNT
};

static uint8_t cpu_peek(const void *m, uint32_t address)
{
    return plus4_bus_peek(m, (uint16_t)address);
}

static void cpu_poke(void *m, uint32_t address, uint8_t value)
{
    plus4_bus_poke(m, (uint16_t)address, value);
}

static uint8_t io_peek(const void *m, uint32_t offset)
{
    return plus4_io_peek(m, (uint16_t)(0xFD00u + offset));
}

static void io_poke(void *m, uint32_t offset, uint8_t value)
{
    plus4_bus_poke(m, (uint16_t)(0xFD00u + offset), value);
}

#define ROM_AT(slot) (offsetof(plus4, rom) + (size_t)(slot) * PLUS4_ROM_SIZE)

static const mh_kit_space spaces[SPACE_COUNT] = {
    {{"cpu", "What the CPU sees now: RAM, the ROM banks and I/O as $FF3E/$FF3F and $FDD0 map them",
      65536, 0, 1}, 0, 0, cpu_peek, cpu_poke},
    {{"ram", "The 64 KiB of RAM (C16: 16 KiB, mirrored), also below the ROMs", 65536, 0, 1},
     offsetof(plus4, p.ram), 0, NULL, NULL},
    {{"basic", "BASIC ROM (low bank 0, $8000)", PLUS4_ROM_SIZE, 0x8000, 1}, ROM_AT(0), 0, NULL, NULL},
    {{"kernal", "KERNAL ROM (high bank 0, $C000; character set at $D000)", PLUS4_ROM_SIZE, 0xC000,
      1}, ROM_AT(1), 0, NULL, NULL},
    {{"function_lo", "3-plus-1 function ROM low (low bank 1, $8000)", PLUS4_ROM_SIZE, 0x8000, 1},
     ROM_AT(2), 0, NULL, NULL},
    {{"function_hi", "3-plus-1 function ROM high (high bank 1, $C000)", PLUS4_ROM_SIZE, 0xC000, 1},
     ROM_AT(3), 0, NULL, NULL},
    {{"cart1_lo", "Cartridge 1 low (low bank 2, $8000)", PLUS4_ROM_SIZE, 0x8000, 1}, ROM_AT(4), 0,
     NULL, NULL},
    {{"cart1_hi", "Cartridge 1 high (high bank 2, $C000)", PLUS4_ROM_SIZE, 0xC000, 1}, ROM_AT(5), 0,
     NULL, NULL},
    {{"io", "I/O $FD00-$FF3F: ACIA, user port, keyboard port, ROM banking, TED", 0x240, 0xFD00, 1},
     0, 0, io_peek, io_poke},
};

static size_t mem_bank_at(const void *context, uint16_t address)
{
    const plus4 *m = context;
    if (address < 2) return SPACE_CPU;
    if (address >= 0xFD00u && address < 0xFF40u) return SPACE_IO;
    if (!m->ted.rom_enabled || address < 0x8000u) return SPACE_RAM;
    unsigned slot;
    if (address < 0xC000u) slot = (m->p.rom_banks & 3u) * 2u;
    else if ((address & 0xFF00u) == 0xFC00u) slot = PLUS4_ROM_KERNAL;
    else slot = ((m->p.rom_banks >> 2) & 3u) * 2u + 1u;
    return slot < 6 ? SPACE_ROM0 + slot : SPACE_CPU; /* cartridge 2: no space of its own */
}

/* RAM and ROM runs of "cpu" in place (the kit then copies whole runs). */
static const uint8_t *mem_span(const void *context, size_t space, uint32_t address,
                               uint32_t *length)
{
    if (space != SPACE_CPU) {
        *length = UINT32_MAX;
        return NULL;
    }
    return plus4_bus_span(context, (uint16_t)address, length);
}

static const mh_kit_memory_map memory_map = {spaces, SPACE_COUNT, mem_bank_at, NULL, mem_span};

/* ---- mh.video/1 ---- */

static mh_status video_frame(void *context, mh_video_frame *out)
{
    const plus4 *m = context;
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    out->width = TED_FB_WIDTH;
    out->height = m->ted.fb_height;
    out->pitch = TED_FB_WIDTH;
    out->pixels = m->p.fb[m->p.fb_back ^ 1u];
    out->palette = ted_palette();
    out->palette_size = 128;
    out->frame_number = m->p.frames_done;
    return MH_OK;
}

static void video_beam(void *context, uint32_t *line, uint32_t *cycle)
{
    const plus4 *m = context;
    if (line) *line = m->ted.line;
    if (cycle) *cycle = m->ted.x + 1u;
}

static const char *video_standard(void *context)
{
    return ((const plus4 *)context)->ted.ntsc ? "NTSC" : "PAL";
}

static const mh_video_iface video_iface = {sizeof(mh_video_iface), video_frame, video_beam,
                                           video_standard};

/* ---- mh.input/1 ---- */

static mh_status input_key(void *context, const char *name, int down)
{
    return plus4_key(context, name, down);
}

static const char *const *input_key_names(void *context)
{
    (void)context;
    return plus4_key_names();
}

static mh_status input_type_text(void *context, const char *text, char *error, size_t error_size)
{
    return plus4_type_text(context, text, error, error_size);
}

static mh_status input_joystick(void *context, int port, uint32_t mask)
{
    return plus4_joystick(context, port, mask);
}

static void input_release_all(void *context) { plus4_release_all(context); }

static mh_status input_key_hold(void *context, const char *name, uint32_t frames)
{
    return plus4_key_hold(context, name, frames);
}

static mh_status input_joystick_hold(void *context, int port, uint32_t mask, uint32_t frames)
{
    return plus4_joystick_hold(context, port, mask, frames);
}

static mh_status input_type_codes(void *context, const uint8_t *codes, size_t count, char *error,
                                  size_t error_size)
{
    return plus4_type_codes(context, codes, count, error, error_size);
}

static mh_status input_hold_state_save(void *context, uint8_t *out, size_t max, size_t *size)
{
    return plus4_hold_state_save(context, out, max, size);
}

static mh_status input_hold_state_load(void *context, const uint8_t *data, size_t size)
{
    return plus4_hold_state_load(context, data, size);
}

static const mh_input_iface input_iface = {
    sizeof(mh_input_iface), input_key,         input_key_names, input_type_text,
    input_joystick,         input_release_all, input_key_hold,  input_joystick_hold,
    input_type_codes,
    input_hold_state_save, input_hold_state_load};

/* ---- mh.machine/1 ---- */

static mh_status machine_reset(void *context, int hard)
{
    plus4_reset(context, hard);
    return MH_OK;
}

static const mh_machine_iface machine_iface = {sizeof(mh_machine_iface), machine_reset};

/* ---- registration ---- */

size_t plus4_ifaces_chips(plus4 *m, mh_chip *chips, size_t max)
{
    const int c16 = m->config.model == PLUS4_MODEL_C16;
    const char *ted_desc = m->config.ntsc ? "MOS 8360 TED (NTSC)" : "MOS 7360 TED (PAL)";
    const mh_chip own[] = {
        {sizeof(mh_chip), MH_IFACE_CPU6502, "cpu", c16 ? "MOS 7501 CPU" : "MOS 8501 CPU",
         &cpu_iface, m},
        mh_kit_memory_chip(&m->memory, &memory_map, m,
                           c16 ? "C16 memory: 16 KiB RAM, BASIC/KERNAL ROMs, I/O"
                               : "Plus/4 memory: 64 KiB RAM, BASIC/KERNAL/3-plus-1 ROMs, I/O"),
        {sizeof(mh_chip), MH_IFACE_VIDEO, "ted", ted_desc, &video_iface, m},
        {sizeof(mh_chip), MH_IFACE_INPUT, "keyboard", "Plus/4 keyboard, joysticks 1 and 2",
         &input_iface, m},
        {sizeof(mh_chip), MH_IFACE_MACHINE, "machine",
         c16 ? "Commodore 16: soft and hard reset" : "Commodore Plus/4: soft and hard reset",
         &machine_iface, m},
    };
    size_t count = sizeof own / sizeof own[0];
    if (max < count + PLUS4_TED_CHIPS + PLUS4_EXT_CHIPS) return 0;
    memcpy(chips, own, sizeof own);
    count += plus4_ted_chips(m, chips + count);
    count += plus4_ext_chips(m, chips + count);
    return count;
}

/* ---- the machine type (on the machine kit) ---- */

static mh_status machine_make(const mh_host *host, const char *options_json, void **instance,
                              char *error, size_t error_size)
{
    plus4 *m = plus4_new(options_json, host, error, error_size);
    if (!m) return MH_ERR_INVALID_ARGUMENT;
    *instance = m;
    return MH_OK;
}

static size_t machine_chips(void *instance, mh_chip *chips, size_t max)
{
    return plus4_ifaces_chips(instance, chips, max);
}

static void machine_destroy(void *instance) { plus4_free(instance); }

static void machine_created(void *instance)
{
    const plus4 *m = instance;
    plus4_log(m, MH_LOG_INFO, "plus4: %s, %s TED, ROMs: %s%s%s%s%s",
              m->config.model == PLUS4_MODEL_C16 ? "C16 (16 KiB)" : "Plus/4 (64 KiB)",
              m->config.ntsc ? "8360 NTSC" : "7360 PAL", m->rom_source,
              m->config.debugcart ? ", debug cart at $FDCF" : "",
              m->autostart.name ? ", autostart at READY" : "", m->drive8_path ? ", drive 8: " : "",
              m->drive8_path ? m->drive8_path : "");
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
    return plus4_run(instance, max_cycles, result);
}

static uint64_t machine_clock_hz(void *instance) { return ((plus4 *)instance)->ted.clock_hz; }

void plus4_machine_desc(mh_machine_desc *desc, const mh_host *host)
{
    memset(desc, 0, sizeof *desc);
    desc->struct_size = sizeof *desc;
    desc->name = "plus4";
    desc->description = "Commodore Plus/4 and C16 (PAL/NTSC): 7501/8501, TED 7360/8360";
    desc->create = machine_create;
    desc->destroy = machine_destroy;
    desc->run = machine_run;
    desc->clock_hz = machine_clock_hz;
    desc->user_data = (void *)host;
}
