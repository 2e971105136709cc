/* test_memory_runs_common.c - bulk reads of "cpu" against the per-byte
 * reference (test_memory_runs_common.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/machine.h"
#include "mh_test.h"
#include "test_memory_runs_common.h"

void mrt_fill_pattern(uint8_t *bytes, size_t size, uint8_t seed)
{
    uint32_t x = 0x9E3779B9u ^ seed;
    for (size_t i = 0; i < size; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        bytes[i] = (uint8_t)x;
    }
}

typedef struct collected {
    uint8_t *out;
    size_t length, capacity;
    size_t runs, longest;
} collected;

static void collect(void *user, const uint8_t *bytes, size_t n)
{
    collected *c = user;
    if (n > c->longest) c->longest = n;
    c->runs++;
    if (n > c->capacity - c->length) n = c->capacity - c->length; /* counted below */
    memcpy(c->out + c->length, bytes, n);
    c->length += n;
}

static size_t compare(const uint8_t *got, const uint8_t *want, uint32_t first, size_t length,
                      const char *label, const char *how)
{
    size_t bad = 0;
    for (size_t i = 0; i < length; i++)
        if (got[i] != want[first + i]) {
            if (!bad)
                fprintf(stderr, "\n  %s, %s: $%04X reads $%02X, per byte $%02X\n", label, how,
                        (unsigned)(first + i), got[i], want[first + i]);
            bad++;
        }
    return bad;
}

/* Ranges that start or end on, just before and just after 1 KiB and 4 KiB
 * banks, the port at $00/$01, pages, and the top of memory. */
static const struct {
    uint32_t address, length;
} ranges[] = {
    {0x0000, 1},    {0x0000, 3},    {0x0001, 2},    {0x0002, 0x0FFE}, {0x03FF, 2},
    {0x0FFE, 5},    {0x7FFF, 0x2002}, {0x9F00, 0x0300}, {0x9FFF, 0x4003}, {0xBFFF, 0x1002},
    {0xCFFF, 0x1002}, {0xD3FF, 0x0802}, {0xDFFF, 0x0003}, {0xFBFF, 0x0401}, {0xFCFF, 0x0301},
    {0xFEFF, 0x0101}, {0xFFFF, 1},    {0x1234, 0xABCD},
};

size_t mrt_compare_cpu_space(const mh_chip *chips, size_t count, const void *machine,
                             mrt_byte_fn ref, const char *label)
{
    const mh_chip *chip = NULL;
    for (size_t i = 0; i < count; i++)
        if (strcmp(chips[i].interface_id, MH_IFACE_MEMORY) == 0) chip = &chips[i];
    const mh_memory_iface *mem = chip ? chip->vtable : NULL;
    if (!mem || !MH_MEMORY_IFACE_HAS(mem, peek_runs)) {
        fprintf(stderr, "\n  %s: no mh.memory/1 with peek_runs\n", label);
        return 1;
    }
    uint8_t *want = malloc(65536), *got = malloc(65536);
    if (!want || !got) {
        free(want);
        free(got);
        return 1;
    }
    for (uint32_t a = 0; a < 65536; a++) want[a] = ref(machine, (uint16_t)a);

    size_t bad = 0;
    memset(got, 0, 65536);
    bad += mem->peek(chip->context, 0, 0, got, 65536) != MH_OK;
    bad += compare(got, want, 0, 65536, label, "peek of 64 KiB");

    collected c = {got, 0, 65536, 0, 0};
    memset(got, 0, 65536);
    bad += mem->peek_runs(chip->context, 0, 0, 65536, collect, &c) != MH_OK;
    bad += c.length != 65536;
    bad += compare(got, want, 0, c.length, label, "peek_runs of 64 KiB");
    /* RAM comes in place: a run longer than the kit's 256-byte buffer. */
    if (c.longest <= 256 || c.runs >= 1024) {
        fprintf(stderr, "\n  %s: %zu runs, the longest %zu bytes: not read in place\n", label,
                c.runs, c.longest);
        bad++;
    }

    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        uint32_t at = ranges[r].address, n = ranges[r].length;
        char how[64];
        snprintf(how, sizeof how, "peek $%04X+%u", (unsigned)at, (unsigned)n);
        memset(got, 0, n);
        bad += mem->peek(chip->context, 0, at, got, n) != MH_OK;
        bad += compare(got, want, at, n, label, how);
        collected part = {got, 0, n, 0, 0};
        memset(got, 0, n);
        bad += mem->peek_runs(chip->context, 0, at, n, collect, &part) != MH_OK;
        bad += part.length != n;
        snprintf(how, sizeof how, "peek_runs $%04X+%u", (unsigned)at, (unsigned)n);
        bad += compare(got, want, at, part.length, label, how);
    }
    /* Out of the space: refused, and no run handed over. */
    collected none = {got, 0, 65536, 0, 0};
    bad += mem->peek_runs(chip->context, 0, 0xFFFF, 2, collect, &none) != MH_ERR_INVALID_ARGUMENT;
    bad += none.runs != 0;
    free(want);
    free(got);
    return bad;
}

size_t mrt_check_cpu_space(const mh_chip *chips, size_t count, const void *machine,
                           mrt_byte_fn ref, const char *label)
{
    size_t bad = mrt_compare_cpu_space(chips, count, machine, ref, label);
    CU_ASSERT_EQUAL(bad, 0);
    return bad;
}
