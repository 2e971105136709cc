/* kit_snapshot.c - the snapshot blob framing (mcphost/snapshot_blob.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "mcphost/snapshot_blob.h"

#define CRC_AT 40u
#define MODEL_AT 44u
#define NAME_SIZE 16u

static void put32(uint8_t *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* zlib's CRC-32 over the blob, the checksum field taken as zero. */
static uint32_t blob_crc(const uint8_t *blob, size_t size)
{
    static const uint8_t zero[4] = {0, 0, 0, 0};
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, blob, CRC_AT);
    crc = crc32(crc, zero, 4);
    const uint8_t *rest = blob + CRC_AT + 4;
    size_t left = size - CRC_AT - 4;
    while (left) { /* zlib takes at most UINT_MAX bytes at a time */
        uInt n = left > 0x40000000u ? 0x40000000u : (uInt)left;
        crc = crc32(crc, rest, n);
        rest += n;
        left -= n;
    }
    return (uint32_t)crc;
}

void mh_kit_snapshot_seal(uint8_t *blob, size_t size)
{
    if (blob && size >= MH_KIT_SNAPSHOT_HEADER) put32(blob + CRC_AT, blob_crc(blob, size));
}

mh_status mh_kit_snapshot_make(const mh_kit_snapshot_format *format, uint32_t model0,
                               uint32_t model1, const void *state, void **data, size_t *size)
{
    if (!format || !format->machine || strlen(format->machine) >= NAME_SIZE || !state || !data ||
        !size)
        return MH_ERR_INVALID_ARGUMENT;
    *data = NULL;
    *size = 0;
    size_t total = MH_KIT_SNAPSHOT_HEADER + format->state_size;
    uint8_t *blob = calloc(1, total);
    if (!blob) return MH_ERR_NO_MEMORY;
    memcpy(blob, "MHSNAP\0\0", 8);
    memcpy(blob + 8, format->machine, strlen(format->machine));
    put32(blob + 24, format->version);
    put32(blob + 28, MH_KIT_SNAPSHOT_HEADER);
    put32(blob + 32, (uint32_t)format->state_size);
    put32(blob + 36, (uint32_t)((uint64_t)format->state_size >> 32));
    put32(blob + MODEL_AT, model0);
    put32(blob + MODEL_AT + 4, model1);
    memcpy(blob + MH_KIT_SNAPSHOT_HEADER, state, format->state_size);
    mh_kit_snapshot_seal(blob, total);
    *data = blob;
    *size = total;
    return MH_OK;
}

#define REFUSE(status, ...)                                                                     \
    do {                                                                                        \
        snprintf(error, error_size, __VA_ARGS__);                                               \
        return status;                                                                          \
    } while (0)

mh_status mh_kit_snapshot_open(const mh_kit_snapshot_format *format, const void *data,
                               size_t size, uint32_t *model0, uint32_t *model1,
                               const uint8_t **state, char *error, size_t error_size)
{
    const uint8_t *blob = data;
    if (error_size) error[0] = '\0';
    if (!format || !state) REFUSE(MH_ERR_INVALID_ARGUMENT, "snapshot: no format or state");
    if (!blob || size < MH_KIT_SNAPSHOT_HEADER)
        REFUSE(MH_ERR_INVALID_ARGUMENT,
               "snapshot: truncated (%zu bytes; the header alone is %u bytes)", size,
               MH_KIT_SNAPSHOT_HEADER);
    if (memcmp(blob, "MHSNAP\0\0", 8) != 0)
        REFUSE(MH_ERR_INVALID_ARGUMENT, "snapshot: not an mcphost snapshot (no \"MHSNAP\" magic)");
    char name[NAME_SIZE + 1];
    memcpy(name, blob + 8, NAME_SIZE);
    name[NAME_SIZE] = '\0';
    for (char *c = name; *c; c++)
        if (*c < 32 || *c > 126) *c = '?';
    if (strcmp(name, format->machine) != 0 || memchr(blob + 8, 0, NAME_SIZE) == NULL)
        REFUSE(MH_ERR_INVALID_ARGUMENT, "snapshot: made by machine \"%s\", this machine is \"%s\"",
               name, format->machine);
    uint32_t version = get32(blob + 24), header = get32(blob + 28);
    if (version != format->version || header != MH_KIT_SNAPSHOT_HEADER)
        REFUSE(MH_ERR_UNSUPPORTED,
               "snapshot: format version %u (header %u bytes); this build reads version %u",
               (unsigned)version, (unsigned)header, (unsigned)format->version);
    uint64_t payload = (uint64_t)get32(blob + 32) | (uint64_t)get32(blob + 36) << 32;
    size_t have = size - MH_KIT_SNAPSHOT_HEADER;
    if (payload != have)
        REFUSE(MH_ERR_INVALID_ARGUMENT,
               "snapshot: %s: the header says %llu bytes of state, the blob has %zu",
               payload > have ? "truncated" : "trailing bytes", (unsigned long long)payload, have);
    if (payload != format->state_size)
        REFUSE(MH_ERR_UNSUPPORTED,
               "snapshot: %llu bytes of state, this build's %s state is %zu bytes (made by "
               "another build)",
               (unsigned long long)payload, format->machine, format->state_size);
    uint32_t stored = get32(blob + CRC_AT), actual = blob_crc(blob, size);
    if (stored != actual)
        REFUSE(MH_ERR_INVALID_ARGUMENT,
               "snapshot: checksum mismatch (stored %08X, computed %08X): the blob is corrupt",
               (unsigned)stored, (unsigned)actual);
    if (model0) *model0 = get32(blob + MODEL_AT);
    if (model1) *model1 = get32(blob + MODEL_AT + 4);
    *state = blob + MH_KIT_SNAPSHOT_HEADER;
    return MH_OK;
}
