/* mcphost/kit_holds.h - input the machine releases itself after N frames
 * (mh.input/1 key_hold, joystick_hold) for machines on the machine kit
 * (static helper library mh_machine_kit, link target mcphost::machine_kit;
 * docs/machine-kit.md).
 *
 * A hold is a key id (mcphost/kit_keys.h) or a joystick port with the
 * frames still to run. The machine calls mh_kit_holds_frame() where its
 * video chip completes a frame, inside emulation, so a hold ends at the
 * same cycle however the run was cut into calls (time travel re-executes
 * with other run budgets and must end it at the same place).
 *
 * Holds are not in the machine's snapshot on purpose: a user's snapshot
 * load keeps its pending holds. Time travel saves and restores them beside
 * its own snapshots through mh.input/1 hold_state_save/hold_state_load,
 * which the machines answer with mh_kit_holds_save()/mh_kit_holds_load():
 * a small blob ("HOLD", version, then the holds, little-endian), empty when
 * nothing is pending.
 *
 * Ownership: mh_kit_holds is a plain struct inside the machine.
 * Threads: [emu-thread] of the machine that owns it; no global state.
 */
#ifndef MCPHOST_KIT_HOLDS_H
#define MCPHOST_KIT_HOLDS_H

#include <stddef.h>
#include <stdint.h>

#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_KIT_MAX_HOLDS 16u
/* The largest blob mh_kit_holds_save() writes. */
#define MH_KIT_HOLDS_BLOB_MAX (6u + MH_KIT_MAX_HOLDS * 5u + 2u * 4u)

typedef struct mh_kit_holds {
    uint32_t count;                      /* key holds in use */
    uint8_t key[MH_KIT_MAX_HOLDS];       /* the key's id in the machine's key table */
    uint32_t key_left[MH_KIT_MAX_HOLDS]; /* frames still to run */
    uint32_t joy_left[3];                /* [1], [2]: frames until the port goes to 0; 0 none */
} mh_kit_holds;

/* What a hold's end does: releases the key with that id, or sets the
 * joystick port to 0. */
typedef struct mh_kit_holds_ops {
    void (*release_key)(void *machine, uint8_t key);
    void (*release_joystick)(void *machine, int port);
} mh_kit_holds_ops;

/* 1 while any hold is pending (mh_kit_holds_frame() has work); inline:
 * machines test it on I/O paths. */
static inline int mh_kit_holds_pending(const mh_kit_holds *holds)
{
    return holds->count || holds->joy_left[1] || holds->joy_left[2];
}
/* Adds a key hold (the machine has pressed the key). MH_ERR_INVALID_ARGUMENT
 * for 0 frames, MH_ERR_LIMIT when MH_KIT_MAX_HOLDS are pending. */
mh_status mh_kit_holds_add_key(mh_kit_holds *holds, uint8_t key, uint32_t frames);
/* A joystick port (1 or 2) set now goes back to 0 after frames (0: never). */
void mh_kit_holds_set_joystick(mh_kit_holds *holds, int port, uint32_t frames);
/* One frame completed: counts every hold down and ends those that ran out. */
void mh_kit_holds_frame(mh_kit_holds *holds, const mh_kit_holds_ops *ops, void *machine);

/* Writes the holds to out (MH_KIT_HOLDS_BLOB_MAX bytes suffice); *size 0
 * when none is pending. MH_ERR_LIMIT when max is too small. */
mh_status mh_kit_holds_save(const mh_kit_holds *holds, uint8_t *out, size_t max, size_t *size);
/* Replaces the holds with a blob from mh_kit_holds_save() (size 0: none).
 * Keys must be below key_count. Everything is checked first; on failure
 * (MH_ERR_INVALID_ARGUMENT) the holds are untouched. */
mh_status mh_kit_holds_load(mh_kit_holds *holds, const uint8_t *data, size_t size,
                            unsigned key_count);

#ifdef __cplusplus
}
#endif

#endif
