/* td_profile.c - the profiler tools' shared helpers (td_profile.h). */
#include "td_profile.h"

#include <stdio.h>
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

size_t td_profile_pairs_of(const uint32_t *keys, size_t slots, uint16_t a, uint16_t *out,
                           size_t max)
{
    /* the table is unordered: collect, then sort the few found */
    size_t n = 0;
    for (size_t i = 0; keys && i < slots; i++) {
        if (keys[i] == MH_PROFILE_PAIR_EMPTY || keys[i] >> 16 != a) continue;
        uint16_t b = (uint16_t)keys[i];
        if (n < max) {
            size_t j = n;
            while (j > 0 && out[j - 1] > b) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = b;
        } else if (max && b < out[max - 1]) {
            size_t j = max - 1;
            while (j > 0 && out[j - 1] > b) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = b;
        }
        n++;
    }
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
