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
 * Ownership: mh_kit_snapshot_make() allocates the blob (free() it);
 * mh_kit_snapshot_open() points into the caller's blob.
 * Threads: [thread-safe]: pure functions, no global state.
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

#ifdef __cplusplus
}
#endif
#endif
