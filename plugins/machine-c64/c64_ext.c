/* c64_ext.c - the C64's snapshot, configuration, media and capability
 * interfaces (docs/machine-c64.md):
 *
 *   "mh.snapshot/1" "snapshot"  the state as a checked blob (below)
 *   "mh.config/1"   "config"    the options of c64_options.c by name; drive8
 *                               and cartridge can be set at runtime
 *   "mh.media/1"    "media"     disk (drive 8), tape (a T64's first program),
 *                               cartridge (CRT; attach and detach hard-reset),
 *                               program (PRG)
 *   "mh.caps/1"     "caps"      6510, pal/ntsc, the media kinds
 *
 * Snapshot blob: the machine kit's framing (mcphost/snapshot_blob.h),
 * machine "c64", model words VIC-II model and CIA model (both must match
 * the loading machine), then c64_snapshot (CPU, VIC-II, CIAs, SID with its
 * synthesis state, clock and audio ring, RAM, colour RAM, frames,
 * keyboard, cycles). Not in it: ROMs, media, options. Version 2 added the
 * SID synthesis state (version 1 had 32 register bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mcphost/json.h>

#include "c64.h"
#include "mcphost/machine.h"
#include "mcphost/kit_media.h"
#include "mcphost/kit_options.h"
#include "mcphost/snapshot_blob.h"

#define C64_SNAP_VERSION 5u /* 2: the SID's synthesis state and audio ring; 3: the machine
                             * kit's run state and typed-text queue in c64_plain; 4: the
                             * VIC-II's event links and pending pixel run (M6569 state 3),
                             * the CPU's access-read setting; 5: the VIC-II's links grew by
                             * the deferred cycles' bookkeeping (M6569 state 4) */

static const mh_kit_snapshot_format c64_snapshot_format = {"c64", C64_SNAP_VERSION,
                                                             sizeof(c64_snapshot)};

void c64_snapshot_blob_seal(uint8_t *blob, size_t size)
{
    mh_kit_snapshot_seal(blob, size);
}

static void snap_fill(const void *m, void *state) { c64_snapshot_save(m, state); }

static int snap_models_fit(const void *machine, uint32_t vic, uint32_t cia, char *error,
                           size_t error_size)
{
    const c64 *m = machine;
    if (vic == (uint32_t)m->config.vic_model && cia == (uint32_t)m->config.cia_model) return 1;
    snprintf(error, error_size,
             "snapshot: made on a %s VIC-II with %s CIAs; this machine has %s and %s",
             vic < M6569_MODEL_COUNT ? m6569_model_name((m6569_model)vic) : "unknown",
             c64_cia_model_name((m6526_model)cia),
             m6569_model_name(m->config.vic_model), c64_cia_model_name(m->config.cia_model));
    return 0;
}

static int snap_state_ok(const void *m, const void *state, char *problem, size_t problem_size)
{
    return c64_snapshot_state_ok(m, state, problem, problem_size);
}

static void snap_restore(void *m, const void *state) { c64_snapshot_restore(m, state); }

/* An injection waiting for a program this machine lacks is dropped. */
static void snap_loaded(void *machine)
{
    c64 *m = machine;
    if (m->p.autostart_pending && !m->autostart.data) m->p.autostart_pending = 0;
    c64_hooks_update(m);
}

static const mh_kit_snapshot_ops c64_snapshot_ops = {
    &c64_snapshot_format, "C64", snap_fill, snap_models_fit, snap_state_ok, snap_restore,
    snap_loaded};

mh_status c64_snapshot_blob_save(const c64 *m, void **data, size_t *size)
{
    return mh_kit_snapshot_save(&c64_snapshot_ops, m, (uint32_t)m->config.vic_model,
                                (uint32_t)m->config.cia_model, data, size);
}

mh_status c64_snapshot_blob_load(c64 *m, const void *data, size_t size, char *error,
                                 size_t error_size)
{
    return mh_kit_snapshot_load(&c64_snapshot_ops, m, &m->p.run, data, size, error, error_size);
}

static mh_status snap_save(void *context, void **data, size_t *size)
{
    return c64_snapshot_blob_save(context, data, size);
}

static mh_status snap_load(void *context, const void *data, size_t size, char *error,
                           size_t error_size)
{
    return c64_snapshot_blob_load(context, data, size, error, error_size);
}

static const mh_snapshot_iface snapshot_iface = {sizeof(mh_snapshot_iface), snap_save, snap_load};

/* ---- mh.media/1 ---- */

static const char *const kind_names[] = {"disk", "tape", "cartridge", "program"};
static const mh_kit_media_kinds kinds = {"c64", kind_names, 4};

static mh_status media_attach(void *context, const char *kind, const char *path, int autostart,
                              char *error, size_t error_size)
{
    c64 *m = context;
    int k = 0;
    mh_status status = mh_kit_media_attach_check(&kinds, kind, path, &k, error, error_size);
    if (status != MH_OK) return status;
    switch (k) {
    case 0:
        status = c64_drive_attach(m, path, error, error_size);
        if (status == MH_OK) {
            c64_hooks_update(m);
            if (autostart) {
                /* LOAD"*",8,1 then RUN, typed at READY. */
                status = c64_type_text(m, "LOAD\"*\",8,1\nRUN\n", error, error_size);
            }
        }
        return status;
    case 2:
        status = c64_cart_attach(m, path, error, error_size);
        if (status == MH_OK) c64_reset(m, 1); /* the cartridge's lines need a power cycle */
        return status;
    default: return c64_program_attach(m, path, k == 1, autostart, error, error_size);
    }
}

static mh_status media_detach(void *context, const char *kind, char *error, size_t error_size)
{
    c64 *m = context;
    if (error_size) error[0] = '\0';
    switch (mh_kit_media_kind(&kinds, kind)) {
    case 0:
        c64_drive_detach(m);
        c64_hooks_update(m);
        return MH_OK;
    case 1: c64_program_detach(m, 1); return MH_OK;
    case 2:
        if (m->cart) {
            c64_cart_detach(m);
            c64_reset(m, 1);
        }
        return MH_OK;
    case 3: c64_program_detach(m, 0); return MH_OK;
    default: return mh_kit_media_bad_kind(&kinds, kind, error, error_size);
    }
}

static const char *media_attached(void *context, const char *kind)
{
    const c64 *m = context;
    switch (mh_kit_media_kind(&kinds, kind)) {
    case 0: return m->drive8 ? m->drive8_path : NULL;
    case 1: return m->tape_path;
    case 2: return m->cart ? m->cart_path : NULL;
    case 3: return m->program_path;
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
    c64_option_items(&count);
    return count;
}

static const mh_config_item *config_item(void *context, size_t index)
{
    (void)context;
    size_t count = 0;
    const mh_config_item *items = c64_option_items(&count);
    return mh_kit_config_at(items, count, index);
}

static mh_status config_get(void *context, const char *name, char *out, size_t out_size)
{
    static const char *const vic_names[M6569_MODEL_COUNT] = {"6569", "8565", "6567r8", "8562",
                                                               "6567r56a"};
    const c64 *m = context;
    size_t count = 0;
    const mh_config_item *items = c64_option_items(&count);
    mh_status status = mh_kit_config_get_check(items, count, name, out, out_size);
    if (status != MH_OK) return status;
    const char *value = "";
    if (strcmp(name, "rom_dir") == 0)
        value = m->config.rom_dir ? m->config.rom_dir : C64_DEFAULT_ROM_DIR;
    else if (strcmp(name, "video") == 0)
        value = m->geometry->cycles_per_line == 63 ? "pal" : "ntsc";
    else if (strcmp(name, "vicii_model") == 0)
        value = vic_names[m->config.vic_model];
    else if (strcmp(name, "cia_model") == 0)
        value = m->config.cia_model == M6526_MODEL_6526A ? "6526a" : "6526";
    else if (strcmp(name, "sid_model") == 0)
        value = m->config.sid_model == C64_SID_8580 ? "8580" : "6581";
    else if (strcmp(name, "autostart") == 0)
        value = m->config.autostart ? m->config.autostart : "";
    else if (strcmp(name, "sound") == 0)
        value = m->config.sound ? "on" : "off";
    else if (strcmp(name, "debugcart") == 0)
        value = m->config.debugcart ? "true" : "false";
    else if (strcmp(name, "drive8") == 0)
        value = m->drive8 && m->drive8_path ? m->drive8_path : "";
    else if (strcmp(name, "cartridge") == 0)
        value = m->cart && m->cart_path ? m->cart_path : "";
    return mh_kit_config_copy(value, out, out_size);
}

static mh_status config_set(void *context, const char *name, const char *value, char *error,
                            size_t error_size)
{
    size_t count = 0;
    const mh_config_item *items = c64_option_items(&count);
    return mh_kit_config_set_media(items, count, &media_iface, context, name, value, error,
                                   error_size);
}

static const mh_config_iface config_iface = {sizeof(mh_config_iface), config_count, config_item,
                                             config_get, config_set};

/* ---- mh.caps/1 ---- */

static const mh_machine_caps c64_caps = {
    sizeof(mh_machine_caps), "6510", "pal,ntsc", "disk,tape,cartridge,program",
    "Commodore 64: 6510, VIC-II (PAL 6569/8565, NTSC 6567/8562), 2x CIA 6526/6526A, SID "
    "6581/8580 (synthesis, 44.1 kHz audio); virtual drive 8 (D64), T64 and PRG injection, generic CRT cartridges",
    "2.0"};

static const mh_machine_caps *caps_caps(void *context)
{
    (void)context;
    return &c64_caps;
}

static const mh_caps_iface caps_iface = {sizeof(mh_caps_iface), caps_caps};

size_t c64_ext_chips(c64 *m, mh_chip *chips)
{
    const mh_chip ext[] = {
        {sizeof(mh_chip), MH_IFACE_SNAPSHOT, "snapshot",
         "C64 state snapshots (CPU, chips, RAM; not ROMs or media)", &snapshot_iface, m},
        {sizeof(mh_chip), MH_IFACE_CONFIG, "config",
         "C64 settings (the session options; drive8 and cartridge at runtime)", &config_iface,
         m},
        {sizeof(mh_chip), MH_IFACE_MEDIA, "media",
         "C64 media: disk (drive 8), tape (T64), cartridge (CRT), program (PRG)", &media_iface,
         m},
        {sizeof(mh_chip), MH_IFACE_CAPS, "caps", "What this C64 is", &caps_iface, m},
    };
    memcpy(chips, ext, sizeof ext);
    return sizeof ext / sizeof ext[0];
}
