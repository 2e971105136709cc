/* chip_alternatives.c - the machine's own chip for a missing chip's job
 * (chip_alternatives.h). */
#include "chip_alternatives.h"

#include <stdio.h>
#include <string.h>

#include "chip_names.h"

size_t mh_tool_name_common_words(const char *a, const char *b)
{
    size_t i = strlen(a), j = strlen(b), words = 0;
    while (i > 0 && j > 0) {
        size_t wi = i, wj = j;
        while (wi > 0 && a[wi - 1] != '_') wi--;
        while (wj > 0 && b[wj - 1] != '_') wj--;
        if (i - wi != j - wj || memcmp(a + wi, b + wj, i - wi) != 0) break;
        words++;
        if (wi == 0 || wj == 0) break;
        i = wi - 1; /* past the '_' */
        j = wj - 1;
    }
    return words;
}

/* The tool requiring iface whose name ends most like tool_name (the first
 * registered on a tie), or NULL when no tool requires it. */
static const char *best_tool(const mh_registry *reg, const char *iface, const char *tool_name)
{
    const char *best = NULL;
    size_t best_words = 0;
    for (size_t i = 0; i < reg->tools.count; i++) {
        const mh_reg_tool *t = reg->tools.items[i];
        if (!t->requires || strcmp(t->requires, iface) != 0) continue;
        const size_t words = mh_tool_name_common_words(tool_name, t->name);
        if (!best || words > best_words) {
            best = t->name;
            best_words = words;
        }
    }
    return best;
}

/* 1 when a chip before index has interface iface (named once). */
static int seen_before(mh_session *s, size_t index, const char *iface)
{
    for (size_t i = 0; i < index; i++)
        if (strcmp(mh_session_service_impl.chip_at(s, i)->interface_id, iface) == 0) return 1;
    return 0;
}

size_t mh_chip_alternatives(const mh_registry *reg, mh_session *s, const char *tool_name,
                            const char *missing_interface, char *out, size_t size)
{
    size_t used = 0;
    if (size) out[0] = '\0';
    const unsigned roles = mh_chip_roles(missing_interface);
    const size_t n = roles ? mh_session_service_impl.chip_count(s) : 0;
    for (size_t i = 0; i < n && used < size; i++) {
        const mh_chip *c = mh_session_service_impl.chip_at(s, i);
        if (!(mh_chip_roles(c->interface_id) & roles) || seen_before(s, i, c->interface_id))
            continue;
        const char *tool = best_tool(reg, c->interface_id, tool_name);
        int w = snprintf(out + used, size - used, "; it has a %s \"%s\" (%s)%s%s",
                         mh_chip_human_name(c->interface_id), c->instance, c->interface_id,
                         tool ? ": use " : "", tool ? tool : "");
        if (w < 0) break;
        used = (size_t)w < size - used ? used + (size_t)w : size - 1;
    }
    return used;
}
