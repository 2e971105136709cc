/* td_profile.c - the profiler tools' shared helpers (td_profile.h). */
#include "td_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_resolve.h"

const mh_profile_view *td_profile_view(td_call *c)
{
    const mh_debug_service *d = c->plugin->debug;
    if (!d || d->struct_size < offsetof(mh_debug_service, profile_view) + sizeof d->profile_view) {
        td_fail(c, "%s: this host's debug engine has no profiler", c->tool);
        return NULL;
    }
    const mh_profile_view *v = d->profile_view(c->session);
    if (!v || v->struct_size < sizeof *v) {
        td_fail(c, "%s: the profiler has not run in this session; profile_start turns it on, "
                   "then run the program", c->tool);
        return NULL;
    }
    return v;
}

static int by_key(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t *td_profile_sort_pairs(const uint32_t *keys, size_t slots, size_t *count)
{
    uint32_t *sorted = malloc((slots ? slots : 1) * sizeof *sorted);
    *count = 0;
    if (!sorted) return NULL;
    for (size_t i = 0; keys && i < slots; i++)
        if (keys[i] != MH_PROFILE_PAIR_EMPTY) sorted[(*count)++] = keys[i];
    qsort(sorted, *count, sizeof *sorted, by_key);
    return sorted;
}

size_t td_profile_pairs_of(const uint32_t *sorted, size_t count, uint16_t a, uint16_t *out,
                           size_t max)
{
    size_t lo = 0, hi = count;
    while (lo < hi) { /* the first key of a */
        size_t mid = (lo + hi) / 2;
        if (sorted[mid] >> 16 < a) lo = mid + 1;
        else hi = mid;
    }
    size_t n = 0;
    for (size_t i = lo; i < count && sorted[i] >> 16 == a; i++, n++)
        if (n < max) out[n] = (uint16_t)sorted[i];
    return n;
}

void td_profile_kinds(uint32_t kinds, char *out, size_t size)
{
    static const char *const names[] = {"jsr", "irq", "nmi", "brk"};
    size_t used = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < 4; i++)
        if (kinds & 1u << i) {
            int n = snprintf(out + used, size - used, "%s%s", used ? "," : "", names[i]);
            if (n < 0 || (size_t)n >= size - used) break;
            used += (size_t)n;
        }
}

void td_profile_symbol(td_call *c, mh_json_writer *w, td_buf *text, uint16_t address)
{
    char symbol[160] = "";
    if (!td_resolve_format_locked(c->plugin->store, td_session_name(c), address, symbol,
                                  sizeof symbol))
        return;
    mh_json_write_key(w, "symbol");
    mh_json_write_string(w, symbol);
    td_buf_printf(text, " (%s)", symbol);
}
