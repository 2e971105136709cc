/* mcphost/snapshot_blob.h - the framing every machine's "mh.snapshot/1"
 * blob shares (static helper library mh_machine_kit, link target
 * mcphost::machine_kit; docs/machine-kit.md).
 *
 * A blob is a 56-byte header and the machine's state struct, little-endian:
 *   0  "MHSNAP\0\0"        8 bytes
 *   8  machine name        16 bytes, NUL-padded ("c64", "vic20", "plus4")
 *   24 format version      u32: the machine's state layout
 *   28 header size         u32 (56)
 *   32 payload size        u64: bytes of state after the header
 *   40 checksum            u32: CRC-32 of the whole blob with these 4 bytes
 *                          taken as zero
 *   44 two model words     u32 each: what must match the loading machine
 *                          (chip models, memory size), the machine's choice
 *   52 reserved            u32, 0
 *   56 the state
 * The helpers check the framing (size, magic, machine, version, payload
 * size, checksum) and say exactly what is wrong in a message starting with
 * "snapshot: "; whether the state itself is one the machine can be in, and
 * whether the model words fit, is the machine's check.
 *
 * mh_kit_snapshot_save() and mh_kit_snapshot_load() are a machine's whole
 * save and load around that framing, driven by its mh_kit_snapshot_ops:
 * save fills a zeroed state struct; load opens the blob, checks the model
 * words and the state (both the machine's callbacks, messages word for
 * word the machine's), restores it, clears the debug-cart exit flags of
 * the kit's run state and calls loaded(); a refused blob leaves the
 * machine as it was.
 *
 * Ownership: mh_kit_snapshot_make() and mh_kit_snapshot_save() allocate
 * the blob (free() it); mh_kit_snapshot_open() points into the caller's
 * blob; save and load allocate one state struct for the call only.
 * Threads: [thread-safe]: pure functions, no global state; save and load
 * touch only the machine they are given ([emu-thread] for a live one).
 */
#ifndef MCPHOST_SNAPSHOT_BLOB_H
#define MCPHOST_SNAPSHOT_BLOB_H

#include <stddef.h>
#include <stdint.h>
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MH_KIT_SNAPSHOT_HEADER 56u

/* What a machine's blobs are. */
typedef struct mh_kit_snapshot_format {
    const char *machine; /* at most 15 characters */
    uint32_t version;    /* of the state layout: bump it when the struct changes */
    size_t state_size;   /* sizeof the machine's state struct */
} mh_kit_snapshot_format;

/* A new blob: the header with the two model words, then state_size bytes
 * of state, sealed. MH_ERR_NO_MEMORY, or MH_OK with *data (free()) and
 * *size. */
mh_status mh_kit_snapshot_make(const mh_kit_snapshot_format *format, uint32_t model0,
                               uint32_t model1, const void *state, void **data, size_t *size);

/* Recomputes the checksum of a blob of size bytes (tools and fuzzers that
 * patch a blob); a blob shorter than the header is left alone. */
void mh_kit_snapshot_seal(uint8_t *blob, size_t size);

/* Checks a blob's framing against format. MH_OK: *state points at the
 * state inside data (state_size bytes) and model0/model1 (either may be
 * NULL) hold the model words. Otherwise error says what is wrong:
 * MH_ERR_INVALID_ARGUMENT for a damaged or foreign blob, MH_ERR_UNSUPPORTED
 * for another version or state size (another build). */
mh_status mh_kit_snapshot_open(const mh_kit_snapshot_format *format, const void *data,
                               size_t size, uint32_t *model0, uint32_t *model1,
                               const uint8_t **state, char *error, size_t error_size);

/* A machine's part of mh_kit_snapshot_save() and _load() (usually
 * static const). machine is the instance the calls are given. */
typedef struct mh_kit_snapshot_ops {
    const mh_kit_snapshot_format *format;
    const char *title; /* in messages: "the state is not one this C64 can be in" */
    /* Fills state (format->state_size bytes, zeroed) from the machine. */
    void (*save)(const void *machine, void *state);
    /* 1 when model0/model1 fit the machine; else 0 with the whole message
     * (starting "snapshot: ") in error. */
    int (*models_fit)(const void *machine, uint32_t model0, uint32_t model1, char *error,
                      size_t error_size);
    /* 1 when state is one the machine can be in; else 0 with what is
     * wrong in problem (it goes inside the kit's message). */
    int (*state_ok)(const void *machine, const void *state, char *problem, size_t problem_size);
    /* Puts a checked state into the machine. */
    void (*restore)(void *machine, const void *state);
    /* Optional: after restore and the exit flags (hooks, banking). */
    void (*loaded)(void *machine);
} mh_kit_snapshot_ops;

struct mh_kit_state; /* mcphost/machine_kit.h */

/* A blob of the machine's state with the two model words:
 * MH_ERR_INVALID_ARGUMENT (no data or size), MH_ERR_NO_MEMORY, or MH_OK
 * with *data (free()) and *size. */
mh_status mh_kit_snapshot_save(const mh_kit_snapshot_ops *ops, const void *machine,
                               uint32_t model0, uint32_t model1, void **data, size_t *size);

/* Loads a blob into the machine: mh_kit_snapshot_open()'s refusals, then
 * models_fit's (MH_ERR_INVALID_ARGUMENT), "snapshot: out of memory", then
 * state_ok's as "snapshot: the state is not one this TITLE can be in
 * (PROBLEM): the file is damaged or was not written by mcphost; nothing
 * was loaded" (MH_ERR_INVALID_ARGUMENT). On MH_OK the state is restored,
 * run's exit_pending and exit_from_cpu are 0 (a debug-cart halt is not in
 * a blob saved between runs) and loaded() has run. */
mh_status mh_kit_snapshot_load(const mh_kit_snapshot_ops *ops, void *machine,
                               struct mh_kit_state *run, const void *data, size_t size,
                               char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
