/* plus4_ext.c - the Plus/4's snapshot, configuration, media, capability
 * and text screen interfaces (docs/machine-plus4.md):
 *
 *   "mh.snapshot/1"   "snapshot"  the state as a checked blob (below)
 *   "mh.config/1"     "config"    the options by name; drive8 and cartridge
 *                                 can be set at runtime
 *   "mh.media/1"      "media"     disk (drive 8), cartridge (raw ROM image,
 *                                 attach/detach hard-reset), program (PRG)
 *   "mh.caps/1"       "caps"
 *   "mh.textscreen/1" "screen"    the TED's 40x25 video matrix
 *
 * Snapshot blob: the machine kit's framing (mcphost/snapshot_blob.h),
 * machine "plus4", model words model (0 Plus/4, 1 C16) and video (0 PAL,
 * 1 NTSC), then plus4_snapshot (CPU, TED, RAM, framebuffers, ports,
 * keyboard, kit state).
 * Every value is checked before anything is loaded; a blob of another
 * machine, version, size or model, a bad checksum or a state out of range
 * is refused with a message and the machine stays as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/json.h"
#include "mcphost/machine.h"
#include "mcphost/kit_media.h"
#include "mcphost/kit_options.h"
#include "mcphost/snapshot_blob.h"
#include "mcphost/text_screen.h"
#include "plus4.h"

#define SNAP_VERSION 3u /* 2: the TED's counters ($FF1A-$FF1D), freeze and mode; 3: the
                       * CPU's access-read setting (mh_cpu6502 links) */

static const mh_kit_snapshot_format plus4_snapshot_format = {"plus4", SNAP_VERSION,
                                                               sizeof(plus4_snapshot)};

void plus4_snapshot_blob_seal(uint8_t *blob, size_t size)
{
    mh_kit_snapshot_seal(blob, size);
}

static void snap_fill(const void *machine, void *state)
{
    const plus4 *m = machine;
    plus4_snapshot *snap = state;
    memcpy(&snap->cpu, &m->cpu, sizeof m->cpu);
    memcpy(&snap->ted, &m->ted, sizeof m->ted);
    memcpy(&snap->p, &m->p, sizeof m->p);
    memset(&snap->cpu.links, 0, sizeof snap->cpu.links);
    snap->ted.fetch = NULL;
    snap->ted.page = NULL;
    snap->ted.user = NULL;
    snap->ted.fb = NULL;
}

/* 1 when the state is one this machine can be in. */
/* The sound stream's clock: at most a second of samples still due (a flush
 * takes them one by one, so a stream far behind would take forever), and
 * no further from its start than 2^48 ticks (years), which keeps the next
 * sample's tick inside 64 bits. */
static int sound_clock_ok(const ted *t)
{
    if (!t->sound_on) return 1;
    if (t->ticks - t->sample_base > (UINT64_C(1) << 48)) return 0;
    uint64_t next = t->sample_base + (t->sample_count + 1u) * t->clock_hz / TED_AUDIO_RATE;
    return next + t->clock_hz >= t->ticks;
}

static int state_ok(const void *machine, const void *state, char *problem, size_t size)
{
    const plus4 *m = machine;
    const plus4_snapshot *s = state;
    const ted *t = &s->ted;
    const char *bad = NULL;
    if (s->cpu.model != m->cpu.model) bad = "the CPU model";
    else if (!mh_cpu6502_state_valid(&s->cpu)) bad = "the CPU's micro-state";
    else if (t->ntsc != m->ted.ntsc || t->tv_lines != m->ted.tv_lines ||
             t->fb_height != m->ted.fb_height || t->fb_first_line != m->ted.fb_first_line)
        bad = "the TED model";
    else if (t->lines != ((t->regs[0x07] & 0x40u) ? TED_LINES_NTSC : TED_LINES_PAL) ||
             t->clock_hz != (t->ntsc ? TED_CRYSTAL_NTSC : TED_CRYSTAL_PAL) /
                                ((t->regs[0x07] & 0x40u) ? 8u : 10u) ||
             t->frozen != ((t->regs[0x07] >> 5) & 1u))
        bad = "the TED mode ($FF07)";
    else if (t->line >= TED_COUNTER_LINES || t->x >= TED_TICKS_PER_LINE ||
             t->held_x >= TED_TICKS_PER_LINE || t->drawn_px > TED_FB_WIDTH ||
             t->char_pos > 0x3FFu || t->vc_base > 0x3FFu || t->frame_seen > 1)
        bad = "the beam position";
    else if (t->rc > 7 || t->flash_counter > 31 || t->snd_count[0] > 1023 ||
             t->snd_count[1] > 1023 || t->snd_tick > t->ticks || t->sample_base > t->ticks ||
             t->cycle_ticks < 1 || t->cycle_ticks > 2 || t->x_event > TED_TICKS_PER_LINE ||
             t->x_event <= t->x ||
             t->sample_count > (t->ticks - t->sample_base) / (t->clock_hz / TED_AUDIO_RATE - 1u) + 2u)
        bad = "a TED counter";
    else if (!sound_clock_ok(t))
        bad = "the sound clock";
    else if ((t->timer_run[0] | t->timer_run[1] | t->timer_run[2]) > 1 ||
             t->timer_base_tick[0] > t->ticks || t->timer_base_tick[1] > t->ticks ||
             t->timer_base_tick[2] > t->ticks)
        bad = "a timer";
    else if (t->ring_head >= TED_AUDIO_RING || t->ring_count > TED_AUDIO_RING) bad = "the audio ring";
    else if (t->sound_on != m->ted.sound_on) bad = "the sound setting";
    else if (s->p.fb_back > 1 || s->p.rom_banks > 15) bad = "the framebuffer or ROM bank number";
    else if (s->p.typed.head >= MH_KERNAL_QUEUE_SIZE || s->p.typed.count > MH_KERNAL_QUEUE_SIZE)
        bad = "the keyboard queue position";
    if (!bad) return 1;
    snprintf(problem, size, "%s is out of range", bad);
    return 0;
}

static int snap_models_fit(const void *machine, uint32_t model, uint32_t ntsc, char *error,
                           size_t error_size)
{
    const plus4 *m = machine;
    if (model == (uint32_t)m->config.model && ntsc == (uint32_t)m->config.ntsc) return 1;
    snprintf(error, error_size, "snapshot: made on a %s %s; this machine is a %s %s",
             model ? "C16" : "Plus/4", ntsc ? "NTSC" : "PAL",
             m->config.model ? "C16" : "Plus/4", m->config.ntsc ? "NTSC" : "PAL");
    return 0;
}

static void snap_restore(void *machine, const void *state)
{
    plus4 *m = machine;
    const plus4_snapshot *snap = state;
    mh_cpu6502_restore(&m->cpu, &snap->cpu);
    ted_restore(&m->ted, &snap->ted);
    memcpy(&m->p, &snap->p, sizeof m->p);
    m->ted.fb = m->p.fb[m->p.fb_back];
}

/* An injection waiting for a program this machine lacks is dropped. */
static void snap_loaded(void *machine)
{
    plus4 *m = machine;
    if (m->p.autostart_pending && !m->autostart.data) m->p.autostart_pending = 0;
    plus4_bus_update_banking(m);
    plus4_hooks_update(m);
}

static const mh_kit_snapshot_ops plus4_snapshot_ops = {
    &plus4_snapshot_format, "Plus/4", snap_fill, snap_models_fit, state_ok, snap_restore,
    snap_loaded};

mh_status plus4_snapshot_blob_save(const plus4 *m, void **data, size_t *size)
{
    return mh_kit_snapshot_save(&plus4_snapshot_ops, m, (uint32_t)m->config.model,
                                (uint32_t)m->config.ntsc, data, size);
}

mh_status plus4_snapshot_blob_load(plus4 *m, const void *data, size_t size, char *error,
                                   size_t error_size)
{
    return mh_kit_snapshot_load(&plus4_snapshot_ops, m, &m->p.run, data, size, error,
                                error_size);
}

static mh_status snap_save(void *context, void **data, size_t *size)
{
    return plus4_snapshot_blob_save(context, data, size);
}

static mh_status snap_load(void *context, const void *data, size_t size, char *error,
                           size_t error_size)
{
    return plus4_snapshot_blob_load(context, data, size, error, error_size);
}

static const mh_snapshot_iface snapshot_iface = {sizeof(mh_snapshot_iface), snap_save, snap_load};

/* ---- mh.media/1 ---- */

static const char *const kind_names[] = {"disk", "cartridge", "program"};
static const mh_kit_media_kinds kinds = {"plus4", kind_names, 3};

static mh_status media_attach(void *context, const char *kind, const char *path, int autostart,
                              char *error, size_t error_size)
{
    plus4 *m = context;
    int k = 0;
    mh_status status = mh_kit_media_attach_check(&kinds, kind, path, &k, error, error_size);
    if (status != MH_OK) return status;
    switch (k) {
    case 0:
        status = plus4_drive_attach(m, path, error, error_size);
        if (status == MH_OK && autostart)
            status = plus4_type_text(m, "LOAD\"*\",8,1\nRUN\n", error, error_size);
        return status;
    case 1:
        status = plus4_cart_attach(m, path, error, error_size);
        if (status == MH_OK) plus4_reset(m, 1);
        return status;
    default: return plus4_program_attach(m, path, autostart, error, error_size);
    }
}

static mh_status media_detach(void *context, const char *kind, char *error, size_t error_size)
{
    plus4 *m = context;
    if (error_size) error[0] = '\0';
    switch (mh_kit_media_kind(&kinds, kind)) {
    case 0: plus4_drive_detach(m); return MH_OK;
    case 1:
        if (m->cart_path) {
            plus4_cart_detach(m);
            plus4_reset(m, 1);
        }
        return MH_OK;
    case 2: plus4_program_detach(m); return MH_OK;
    default: return mh_kit_media_bad_kind(&kinds, kind, error, error_size);
    }
}

static const char *media_attached(void *context, const char *kind)
{
    const plus4 *m = context;
    switch (mh_kit_media_kind(&kinds, kind)) {
    case 0: return m->drive8 ? m->drive8_path : NULL;
    case 1: return m->cart_path;
    case 2: return m->program_path;
    default: return NULL;
    }
}

static const mh_media_iface media_iface = {sizeof(mh_media_iface), media_attach, media_detach,
                                           media_attached};

/* ---- mh.config/1 ---- */

static size_t config_count(void *context)
{
    (void)context;
    size_t count = 0;
    plus4_option_items(&count);
    return count;
}

static const mh_config_item *config_item(void *context, size_t index)
{
    (void)context;
    size_t count = 0;
    const mh_config_item *items = plus4_option_items(&count);
    return mh_kit_config_at(items, count, index);
}

static mh_status config_get(void *context, const char *name, char *out, size_t out_size)
{
    const plus4 *m = context;
    size_t count = 0;
    const mh_config_item *items = plus4_option_items(&count);
    mh_status status = mh_kit_config_get_check(items, count, name, out, out_size);
    if (status != MH_OK) return status;
    const char *value = "";
    if (strcmp(name, "rom_dir") == 0) value = m->config.rom_dir ? m->config.rom_dir : "";
    else if (strcmp(name, "video") == 0) value = m->config.ntsc ? "ntsc" : "pal";
    else if (strcmp(name, "model") == 0) value = m->config.model == PLUS4_MODEL_C16 ? "c16" : "plus4";
    else if (strcmp(name, "sound") == 0) value = m->config.sound ? "on" : "off";
    else if (strcmp(name, "autostart") == 0) value = m->config.autostart ? m->config.autostart : "";
    else if (strcmp(name, "debugcart") == 0) value = m->config.debugcart ? "true" : "false";
    else if (strcmp(name, "drive8") == 0) value = m->drive8_path ? m->drive8_path : "";
    else if (strcmp(name, "cartridge") == 0) value = m->cart_path ? m->cart_path : "";
    return mh_kit_config_copy(value, out, out_size);
}

static mh_status config_set(void *context, const char *name, const char *value, char *error,
                            size_t error_size)
{
    size_t count = 0;
    const mh_config_item *items = plus4_option_items(&count);
    return mh_kit_config_set_media(items, count, &media_iface, context, name, value, error,
                                   error_size);
}

static const mh_config_iface config_iface = {sizeof(mh_config_iface), config_count, config_item,
                                             config_get, config_set};

/* ---- mh.caps/1 ---- */

/* Designated: mh_machine_caps grows at the end. */
static const mh_machine_caps plus4_caps = {
    .struct_size = sizeof(mh_machine_caps),
    .cpu = "8501",
    .video_standards = "pal,ntsc",
    .media = "disk,cartridge,program",
    .description =
        "Commodore Plus/4 and C16: 7501/8501, TED 7360/8360 (video, 121 colours, timers, two "
        "sound voices, single/double clock), 64/16 KiB RAM, BASIC/KERNAL/3-plus-1 ROM banking, "
        "ACIA, user port; virtual drive 8 (D64), PRG injection, raw cartridge ROM images",
    .basic = "3.5",
};

static const mh_machine_caps *caps_caps(void *context)
{
    (void)context;
    return &plus4_caps;
}

static const mh_caps_iface caps_iface = {sizeof(mh_caps_iface), caps_caps};

/* ---- mh.textscreen/1 ---- */

static const char *const color_names[16] = {
    "black", "white", "red", "cyan", "purple", "green", "blue", "yellow",
    "orange", "brown", "yellow-green", "pink", "blue-green", "light blue", "dark blue",
    "light green"};

static const char *const mode_names[8] = {
    "standard text", "multicolour text", "standard bitmap", "multicolour bitmap",
    "extended colour text", "invalid text (ECM+MCM, black)", "invalid bitmap (ECM+BMM, black)",
    "invalid multicolour bitmap (ECM+BMM+MCM, black)"};

static mh_status text_read(void *context, mh_text_screen *out, char *error, size_t error_size)
{
    const plus4 *m = context;
    const ted *t = &m->ted;
    if (!out || out->struct_size < sizeof *out) return MH_ERR_INVALID_ARGUMENT;
    const unsigned mode = ted_mode(t);
    if (mode & 2u) {
        snprintf(error, error_size,
                 "the TED shows %s: there is no text screen. Use screen_capture for the picture",
                 mode_names[mode]);
        return MH_ERR_STATE;
    }
    const int ecm = (mode & 4u) != 0, rom = (t->regs[0x12] & 0x04u) != 0;
    const uint16_t charset = ted_charset_address(t), screen = ted_screen_address(t),
                   attrs = ted_attribute_address(t);
    out->columns = 40;
    out->rows = 25;
    out->charset = rom && (charset & 0x0400u) ? MH_CHARSET_CBM_LOWER : MH_CHARSET_CBM_UPPER;
    out->custom_charset = !rom;
    out->glyph_mask = ecm ? 0x3Fu : 0x7Fu;
    out->reverse_bit = ecm || (t->regs[0x07] & 0x80u) ? 0u : 0x80u;
    out->has_colors = 1;
    out->has_backgrounds = (uint8_t)ecm;
    out->address = screen;
    out->mode = mode_names[mode];
    out->border = t->regs[0x19] & 15u;
    out->background = t->regs[0x15] & 15u;
    out->color_count = 16;
    out->color_names = color_names;
    for (uint16_t i = 0; i < 1000; i++) {
        const uint8_t code = plus4_ted_fetch((void *)m, (uint16_t)(screen + i), 0);
        out->codes[i] = code;
        out->colors[i] = plus4_ted_fetch((void *)m, (uint16_t)(attrs + i), 0) & 15u;
        out->backgrounds[i] = ecm ? (uint8_t)(t->regs[0x15 + (code >> 6)] & 15u)
                                  : (uint8_t)out->background;
    }
    return MH_OK;
}

static const mh_text_screen_iface text_screen_iface = {sizeof(mh_text_screen_iface), text_read};

size_t plus4_ext_chips(plus4 *m, mh_chip *chips)
{
    const mh_chip ext[] = {
        {sizeof(mh_chip), MH_IFACE_SNAPSHOT, "snapshot",
         "Plus/4 state snapshots (CPU, TED, RAM; not ROMs or media)", &snapshot_iface, m},
        {sizeof(mh_chip), MH_IFACE_CONFIG, "config",
         "Plus/4 settings (the session options; drive8 and cartridge at runtime)", &config_iface,
         m},
        {sizeof(mh_chip), MH_IFACE_MEDIA, "media",
         "Plus/4 media: disk (drive 8), cartridge (ROM image), program (PRG)", &media_iface, m},
        {sizeof(mh_chip), MH_IFACE_CAPS, "caps", "What this Plus/4 is", &caps_iface, m},
        {sizeof(mh_chip), MH_IFACE_TEXT_SCREEN, "screen",
         "TED text screen: 40x25 screen codes, attribute colours", &text_screen_iface, m},
    };
    memcpy(chips, ext, sizeof ext);
    return sizeof ext / sizeof ext[0];
}
