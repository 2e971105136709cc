/* t64.c - T64 tape archives: header, directory slots, the broken end
 * address fix (see mcphost/media_t64.h). */
#include "media_internal.h"
#include "mcphost/media_t64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t trimmed_length(const uint8_t *s, size_t n)
{
    while (n > 0 && (s[n - 1] == 0x20 || s[n - 1] == 0xa0 || s[n - 1] == 0x00)) n--;
    return n;
}

static bool signature_ok(const uint8_t *b)
{
    if (memcmp(b, "C64", 3) != 0) return false;
    for (size_t i = 3; i + 4 <= 32; i++) {
        bool match = true;
        for (size_t k = 0; k < 4 && match; k++) {
            uint8_t c = b[i + k];
            if (c >= 'A' && c <= 'Z') c = (uint8_t)(c - 'A' + 'a');
            match = c == (uint8_t)"tape"[k];
        }
        if (match) return true;
    }
    return false;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The smallest offset in sorted[0..n) greater than offset, or limit. */
static uint64_t next_offset(const uint32_t *sorted, size_t n, uint32_t offset, uint64_t limit)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= offset) lo = mid + 1;
        else hi = mid;
    }
    return lo < n ? sorted[lo] : limit;
}

static void label(const mh_t64_entry *e, char *buf, size_t size)
{
    snprintf(buf, size, "entry %u (\"%s\")", e->slot + 1, e->name);
}

mh_t64 *mh_t64_open(const uint8_t *bytes, size_t size, mh_media_error *err)
{
    if (!bytes && size) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "T64: no buffer given");
        return NULL;
    }
    if (size < MH_T64_HEADER_SIZE) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "T64: %zu bytes is too short for the 64-byte header", size);
        return NULL;
    }
    if (!signature_ok(bytes)) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "T64: no T64 signature at offset 0 (\"C64 tape image file\", \"C64S "
                        "tape file\" ...)");
        return NULL;
    }
    uint16_t max_entries = mh_media_i_le16(bytes + 0x22);
    size_t slots = max_entries ? max_entries : 1; /* 0 is a common writer bug */
    uint64_t dir_end = MH_T64_HEADER_SIZE + (uint64_t)slots * MH_T64_SLOT_SIZE;
    if (dir_end > size) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "T64: the header declares %zu directory slot%s (ending at byte %llu), "
                        "the file has %zu bytes", slots, slots == 1 ? "" : "s",
                        (unsigned long long)dir_end, size);
        return NULL;
    }

    mh_t64 *t = calloc(1, sizeof *t);
    uint8_t *copy = malloc(size);
    mh_t64_entry *entries = calloc(slots, sizeof *entries);
    uint32_t *sorted = calloc(slots, sizeof *sorted);
    if (!t || !copy || !entries || !sorted) {
        free(t);
        free(copy);
        free(entries);
        free(sorted);
        mh_media_i_fail(err, MH_ERR_NO_MEMORY, "T64: out of memory");
        return NULL;
    }
    memcpy(copy, bytes, size);
    t->image = copy;
    t->image_size = size;
    t->version = mh_media_i_le16(copy + 0x20);
    t->max_entries = max_entries;
    t->used_entries = mh_media_i_le16(copy + 0x24);
    memcpy(t->name_raw, copy + 0x28, 24);
    mh_media_i_render(t->name, t->name_raw, trimmed_length(t->name_raw, 24));
    t->entries = entries;

    /* First pass: the used slots and their offsets. */
    size_t count = 0;
    char what[48];
    for (size_t i = 0; i < slots; i++) {
        const uint8_t *raw = copy + MH_T64_HEADER_SIZE + i * MH_T64_SLOT_SIZE;
        if (raw[0] == 0) continue;
        mh_t64_entry *e = &entries[count];
        e->slot = (unsigned)i;
        e->entry_type = raw[0];
        e->file_type = raw[1];
        e->start_address = mh_media_i_le16(raw + 2);
        e->stored_end = mh_media_i_le16(raw + 4);
        e->offset = mh_media_i_le32(raw + 8);
        memcpy(e->name_raw, raw + 16, 16);
        e->name_length = (uint8_t)trimmed_length(e->name_raw, 16);
        mh_media_i_render(e->name, e->name_raw, e->name_length);
        label(e, what, sizeof what);
        if (e->offset < dir_end) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "T64: %s data offset %lu points into the header or directory, "
                            "which end at byte %llu", what, (unsigned long)e->offset,
                            (unsigned long long)dir_end);
            goto fail;
        }
        if (e->offset >= size) {
            mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                            "T64: %s data offset %lu is past the end of the %zu-byte file", what,
                            (unsigned long)e->offset, size);
            goto fail;
        }
        sorted[count++] = e->offset;
    }
    if (count == 0) {
        mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT,
                        "T64: no used directory entry (all %zu slot%s are free)", slots,
                        slots == 1 ? "" : "s");
        goto fail;
    }
    qsort(sorted, count, sizeof *sorted, compare_u32);

    /* Second pass: lengths from the offsets, the end address fix. */
    for (size_t i = 0; i < count; i++) {
        mh_t64_entry *e = &entries[i];
        uint64_t available = next_offset(sorted, count, e->offset, size) - e->offset;
        uint32_t end = e->stored_end ? e->stored_end : 0x10000u;
        uint64_t length;
        if (end <= e->start_address || end - e->start_address > available) {
            length = available;
            e->end_fixed = true;
        } else {
            length = end - e->start_address;
        }
        if (length > 0x10000u - e->start_address) {
            length = 0x10000u - e->start_address;
            e->end_fixed = true;
        }
        e->size = (uint32_t)length;
        e->end_address = e->start_address + e->size;
        e->data = copy + e->offset;
    }
    free(sorted);
    t->entry_count = count;
    mh_media_i_ok(err);
    return t;

fail:
    free(sorted);
    mh_t64_free(t);
    return NULL;
}

void mh_t64_free(mh_t64 *t64)
{
    if (!t64) return;
    free((void *)t64->image);
    free((void *)t64->entries);
    free(t64);
}

const mh_t64_entry *mh_t64_find(const mh_t64 *t64, const uint8_t *pattern, size_t length)
{
    if (!t64) return NULL;
    for (size_t i = 0; i < t64->entry_count; i++) {
        const mh_t64_entry *e = &t64->entries[i];
        if (mh_cbm_name_match(pattern, length, e->name_raw, e->name_length)) return e;
    }
    return NULL;
}

mh_status mh_t64_read_prg(const mh_t64 *t64, const mh_t64_entry *entry, uint8_t **prg,
                          size_t *size, mh_media_error *err)
{
    if (!t64 || !entry || !prg || !size)
        return mh_media_i_fail(err, MH_ERR_INVALID_ARGUMENT, "T64: no image, entry or result pointer given");
    *prg = NULL;
    *size = 0;
    uint8_t *out = malloc((size_t)entry->size + 2);
    if (!out) return mh_media_i_fail(err, MH_ERR_NO_MEMORY, "T64: out of memory");
    out[0] = (uint8_t)(entry->start_address & 0xff);
    out[1] = (uint8_t)(entry->start_address >> 8);
    memcpy(out + 2, entry->data, entry->size);
    *prg = out;
    *size = (size_t)entry->size + 2;
    mh_media_i_ok(err);
    return MH_OK;
}
