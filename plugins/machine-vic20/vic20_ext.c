/* vic20_ext.c - the VIC-20's snapshot, configuration, media and capability
 * interfaces (docs/machine-vic20.md):
 *
 *   "mh.snapshot/1" "snapshot"  the state as a checked blob (below)
 *   "mh.config/1"   "config"    the options of vic20_options.c by name;
 *                               drive8 and cartridge can be set at runtime
 *   "mh.media/1"    "media"     disk (drive 8), cartridge (raw or VICE .crt;
 *                               attach and detach hard-reset), program (PRG)
 *   "mh.caps/1"     "caps"      6502, pal/ntsc, the media kinds
 *
 * Snapshot blob: the machine kit's framing (mcphost/snapshot_blob.h:
 * header, CRC-32, version "vic20" 1), the model words VIC model and memory
 * configuration (must match the loading machine), then vic20_snapshot
 * (CPU, VIC, VIAs, RAM, colour RAM, frames, keyboard, cycles); checked by
 * state_ok() before anything is restored. Not in it: ROMs, media, options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mcphost/json.h>
#include <mcphost/snapshot_blob.h>

#include "mcphost/machine.h"
#include "mcphost/kit_media.h"
#include "mcphost/kit_options.h"
#include "vic20.h"

#define VIC20_SNAP_VERSION 2u /* 2: the CPU's access-read setting (mh_cpu6502 links) */

static const mh_kit_snapshot_format vic20_snapshot_format = {"vic20", VIC20_SNAP_VERSION,
                                                             sizeof(vic20_snapshot)};

void vic20_snapshot_blob_seal(uint8_t *blob, size_t size) { mh_kit_snapshot_seal(blob, size); }

static void snap_fill(const void *m, void *state) { vic20_snapshot_save(m, state); }

/* The values a vic20 can hold: indices inside their arrays, the beam
 * inside its frame. */
static int state_ok(const void *machine, const void *state, char *problem, size_t problem_size)
{
    const vic20 *m = machine;
    const vic20_snapshot *snap = state;
    const m6561_geometry *g = m6561_geometry_of(snap->vic.model);
    if (!mh_cpu6502_state_valid(&snap->cpu)) {
        snprintf(problem, problem_size, "the CPU's micro-state");
        return 0;
    }
    /* Nothing in a VIC-20 pulls RDY low: a CPU saved waiting for it would
     * wait forever (and a run could never end at an instruction). */
    if (!snap->cpu.rdy || snap->cpu.stalled) {
        snprintf(problem, problem_size, "the CPU waiting on RDY, which nothing in a VIC-20 drives");
        return 0;
    }
    if (snap->vic.model != m->config.vic_model) {
        snprintf(problem, problem_size, "VIC model %u", (unsigned)snap->vic.model);
        return 0;
    }
    if (snap->vic.line >= g->lines_per_frame || snap->vic.cycle >= g->cycles_per_line) {
        snprintf(problem, problem_size, "beam at line %u cycle %u", (unsigned)snap->vic.line,
                 (unsigned)snap->vic.cycle);
        return 0;
    }
    if (snap->vic.sample_in == 0 || snap->vic.sample_in > g->clock_hz / M6561_AUDIO_RATE + 1 ||
        snap->vic.sample_frac >= M6561_AUDIO_RATE || snap->vic.pending) {
        snprintf(problem, problem_size, "sound clock %u/%u", (unsigned)snap->vic.sample_in,
                 (unsigned)snap->vic.sample_frac);
        return 0;
    }
    if (snap->vic.ring_head >= M6561_AUDIO_RING || snap->vic.ring_count > M6561_AUDIO_RING) {
        snprintf(problem, problem_size, "audio ring position %u/%u",
                 (unsigned)snap->vic.ring_head, (unsigned)snap->vic.ring_count);
        return 0;
    }
    if (snap->p.fb_back > 1) {
        snprintf(problem, problem_size, "frame buffer %u", (unsigned)snap->p.fb_back);
        return 0;
    }
    if (snap->p.typed.head >= MH_KERNAL_QUEUE_SIZE || snap->p.typed.count > MH_KERNAL_QUEUE_SIZE) {
        snprintf(problem, problem_size, "typed-text queue %u/%u", (unsigned)snap->p.typed.head,
                 (unsigned)snap->p.typed.count);
        return 0;
    }
    for (unsigned v = 0; v < 4; v++)
        if (snap->vic.voice[v].counter >= 128u * 128u) {
            snprintf(problem, problem_size, "voice %u counter %u", v,
                     (unsigned)snap->vic.voice[v].counter);
            return 0;
        }
    if (snap->vic.row_line > 16 || snap->via1.sr_count > 8 || snap->via2.sr_count > 8) {
        snprintf(problem, problem_size, "chip counters out of range");
        return 0;
    }
    return 1;
}

static int snap_models_fit(const void *machine, uint32_t vic, uint32_t memory, char *error,
                           size_t error_size)
{
    const vic20 *m = machine;
    if (vic == (uint32_t)m->config.vic_model && memory == m->config.memory) return 1;
    snprintf(error, error_size,
             "snapshot: made on a VIC-20 with a %s VIC and memory %s; this machine has a %s "
             "VIC and memory %s",
             vic == M6561_MODEL_6560 ? "6560" : vic == M6561_MODEL_6561 ? "6561" : "unknown",
             vic20_memory_name(memory), m6561_model_name(m->config.vic_model),
             vic20_memory_name(m->config.memory));
    return 0;
}

static void snap_restore(void *m, const void *state) { vic20_snapshot_restore(m, state); }

/* An injection waiting for a program this machine lacks is dropped. */
static void snap_loaded(void *machine)
{
    vic20 *m = machine;
    if (m->p.autostart_pending && !m->autostart.data) m->p.autostart_pending = 0;
    vic20_hooks_update(m);
}

static const mh_kit_snapshot_ops vic20_snapshot_ops = {
    &vic20_snapshot_format, "VIC-20", snap_fill, snap_models_fit, state_ok, snap_restore,
    snap_loaded};

mh_status vic20_snapshot_blob_save(const vic20 *m, void **data, size_t *size)
{
    return mh_kit_snapshot_save(&vic20_snapshot_ops, m, (uint32_t)m->config.vic_model,
                                (uint32_t)m->config.memory, data, size);
}

mh_status vic20_snapshot_blob_load(vic20 *m, const void *data, size_t size, char *error,
                                   size_t error_size)
{
    return mh_kit_snapshot_load(&vic20_snapshot_ops, m, &m->p.run, data, size, error,
                                error_size);
}

static mh_status snap_save(void *context, void **data, size_t *size)
{
    return vic20_snapshot_blob_save(context, data, size);
}

static mh_status snap_load(void *context, const void *data, size_t size, char *error,
                           size_t error_size)
{
    return vic20_snapshot_blob_load(context, data, size, error, error_size);
}

static const mh_snapshot_iface snapshot_iface = {sizeof(mh_snapshot_iface), snap_save, snap_load};

/* ---- mh.media/1 ---- */

static const char *const kind_names[] = {"disk", "cartridge", "program"};
static const mh_kit_media_kinds kinds = {"vic20", kind_names, 3};

static mh_status media_attach(void *context, const char *kind, const char *path, int autostart,
                              char *error, size_t error_size)
{
    vic20 *m = context;
    int k = 0;
    mh_status status = mh_kit_media_attach_check(&kinds, kind, path, &k, error, error_size);
    if (status != MH_OK) return status;
    switch (k) {
    case 0:
        status = vic20_drive_attach(m, path, error, error_size);
        if (status == MH_OK && autostart)
            status = vic20_type_text(m, "LOAD\"*\",8,1\nRUN\n", error, error_size);
        return status;
    case 1:
        status = vic20_cart_attach(m, path, error, error_size);
        if (status == MH_OK) vic20_reset(m, 1); /* the KERNAL looks for it at power-on */
        return status;
    default: return vic20_program_attach(m, path, autostart, error, error_size);
    }
}

static mh_status media_detach(void *context, const char *kind, char *error, size_t error_size)
{
    vic20 *m = context;
    if (error_size) error[0] = '\0';
    switch (mh_kit_media_kind(&kinds, kind)) {
    case 0:
        vic20_drive_detach(m);
        vic20_hooks_update(m);
        return MH_OK;
    case 1:
        if (m->has_cart) {
            vic20_cart_detach(m);
            vic20_reset(m, 1);
        }
        return MH_OK;
    case 2: vic20_program_detach(m); return MH_OK;
    default: return mh_kit_media_bad_kind(&kinds, kind, error, error_size);
    }
}

static const char *media_attached(void *context, const char *kind)
{
    const vic20 *m = context;
    switch (mh_kit_media_kind(&kinds, kind)) {
    case 0: return m->drive8 ? m->drive8_path : NULL;
    case 1: return m->has_cart ? m->cart_path : NULL;
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
    vic20_option_items(&count);
    return count;
}

static const mh_config_item *config_item(void *context, size_t index)
{
    (void)context;
    size_t count = 0;
    const mh_config_item *items = vic20_option_items(&count);
    return mh_kit_config_at(items, count, index);
}

static mh_status config_get(void *context, const char *name, char *out, size_t out_size)
{
    const vic20 *m = context;
    size_t count = 0;
    const mh_config_item *items = vic20_option_items(&count);
    mh_status status = mh_kit_config_get_check(items, count, name, out, out_size);
    if (status != MH_OK) return status;
    const char *value = "";
    if (strcmp(name, "rom_dir") == 0) value = m->config.rom_dir ? m->config.rom_dir : "";
    else if (strcmp(name, "video") == 0)
        value = m->config.vic_model == M6561_MODEL_6560 ? "ntsc" : "pal";
    else if (strcmp(name, "vic20_memory") == 0) value = vic20_memory_name(m->config.memory);
    else if (strcmp(name, "autostart") == 0) value = m->config.autostart ? m->config.autostart : "";
    else if (strcmp(name, "debugcart") == 0) value = m->config.debugcart ? "true" : "false";
    else if (strcmp(name, "sound") == 0) value = m->config.sound ? "on" : "off";
    else if (strcmp(name, "drive8") == 0) value = m->drive8 && m->drive8_path ? m->drive8_path : "";
    else if (strcmp(name, "cartridge") == 0) value = m->has_cart && m->cart_path ? m->cart_path : "";
    return mh_kit_config_copy(value, out, out_size);
}

static mh_status config_set(void *context, const char *name, const char *value, char *error,
                            size_t error_size)
{
    size_t count = 0;
    const mh_config_item *items = vic20_option_items(&count);
    return mh_kit_config_set_media(items, count, &media_iface, context, name, value, error,
                                   error_size);
}

static const mh_config_iface config_iface = {sizeof(mh_config_iface), config_count, config_item,
                                             config_get, config_set};

/* ---- mh.caps/1 ---- */

static const mh_machine_caps vic20_caps = {
    sizeof(mh_machine_caps), "6502", "pal,ntsc", "disk,cartridge,program",
    "Commodore VIC-20: 6502, VIC 6561 (PAL) / 6560 (NTSC) with sound, 2x VIA 6522; memory "
    "expansions none/3k/8k/16k/24k/all; virtual drive 8 (D64), PRG injection, cartridges "
    "(raw, VICE .crt)",
    "2.0"};

static const mh_machine_caps *caps_caps(void *context)
{
    (void)context;
    return &vic20_caps;
}

static const mh_caps_iface caps_iface = {sizeof(mh_caps_iface), caps_caps};

size_t vic20_ext_chips(vic20 *m, mh_chip *chips)
{
    const mh_chip ext[] = {
        {sizeof(mh_chip), MH_IFACE_SNAPSHOT, "snapshot",
         "VIC-20 state snapshots (CPU, chips, RAM; not ROMs or media)", &snapshot_iface, m},
        {sizeof(mh_chip), MH_IFACE_CONFIG, "config",
         "VIC-20 settings (the session options; drive8 and cartridge at runtime)",
         &config_iface, m},
        {sizeof(mh_chip), MH_IFACE_MEDIA, "media",
         "VIC-20 media: disk (drive 8), cartridge (raw, CRT), program (PRG)", &media_iface, m},
        {sizeof(mh_chip), MH_IFACE_CAPS, "caps", "What this VIC-20 is", &caps_iface, m},
    };
    memcpy(chips, ext, sizeof ext);
    return sizeof ext / sizeof ext[0];
}
