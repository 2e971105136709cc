/* td_symfmt_lists.c - the symbol lists of dasm (-s) and xa65 (-l): one
 * symbol a line in columns.
 *   dasm:  "--- Symbol List (sorted by symbol)" then "name  c002  (R )",
 *          the value in bare hex (a string symbol is quoted: skipped)
 *   xa65:  "name, 0xc002, 1, 0x0000" (name, value, segment, block)
 */
#include <string.h>

#include "td_store.h"
#include "td_symfmt.h"

static int name_ok(td_sf_text t)
{
    if (t.n == 0 || t.n > TD_MAX_SYMBOL_NAME) return 0;
    for (size_t i = 0; i < t.n; i++) {
        unsigned char c = (unsigned char)t.s[i];
        if (c <= ' ' || c == ',' || c == '"' || c >= 0x7F) return 0;
    }
    return !(t.s[0] >= '0' && t.s[0] <= '9');
}

/* The next blank-separated word of *t. */
static td_sf_text word(td_sf_text *t)
{
    *t = td_sf_trim(*t);
    size_t i = 0;
    while (i < t->n && t->s[i] != ' ' && t->s[i] != '\t') i++;
    td_sf_text w = {t->s, i};
    t->s += i;
    t->n -= i;
    return w;
}

/* ---- dasm ---- */

static int dasm_detect(const char *text, size_t size)
{
    td_sf_text line;
    const char *pos = text;
    return td_sf_next_line(&pos, text + size, &line) && td_sf_starts(line, "--- Symbol List") ? 50 : 0;
}

static void dasm_parse(const char *text, size_t size, const td_symfmt_sink *sink)
{
    td_sf_text line;
    uint32_t no = 0;
    for (const char *pos = text; td_sf_next_line(&pos, text + size, &line);) {
        no++;
        td_sf_text rest = td_sf_trim(line);
        if (rest.n == 0 || td_sf_starts(rest, "---")) continue;
        td_sf_text name = word(&rest), value = word(&rest);
        uint64_t v = 0;
        if (value.n && value.s[0] == '"') continue; /* a string symbol */
        if (!name_ok(name)) sink->bad(sink->user, no, "the symbol is not a name");
        else if (td_sf_number(value, 1, 0xFFFF, &v) != 0)
            sink->bad(sink->user, no, "the value is not hex from 0 to FFFF");
        else if (sink->symbol(sink->user, name.s, name.n, (uint32_t)v))
            return;
    }
}

const td_symfmt td_symfmt_dasm = {"dasm", dasm_detect, dasm_parse};

/* ---- xa65 ---- */

/* One line: 1 symbol, 0 blank, -1 bad. */
static int xa_line(td_sf_text line, td_sf_text *name, uint64_t *value)
{
    line = td_sf_trim(line);
    if (line.n == 0) return 0;
    td_sf_text v;
    td_sf_split(&line, ',', name);
    td_sf_split(&line, ',', &v);
    *name = td_sf_trim(*name);
    if (!name_ok(*name) || line.n == 0) return -1;
    v = td_sf_trim(v);
    if (!td_sf_starts(v, "0x")) return -1;
    return td_sf_number(v, 0, 0xFFFF, value) == 0 ? 1 : -1;
}

static int xa_detect(const char *text, size_t size)
{
    td_sf_text line, name;
    uint64_t v;
    size_t good = 0, bad = 0;
    const char *pos = text;
    for (int i = 0; i < 32 && td_sf_next_line(&pos, text + size, &line); i++) {
        int kind = xa_line(line, &name, &v);
        good += kind == 1;
        bad += kind == -1;
    }
    return good && bad == 0 ? 40 : 0;
}

static void xa_parse(const char *text, size_t size, const td_symfmt_sink *sink)
{
    td_sf_text line, name;
    uint64_t v = 0;
    uint32_t no = 0;
    for (const char *pos = text; td_sf_next_line(&pos, text + size, &line);) {
        no++;
        int kind = xa_line(line, &name, &v);
        if (kind < 0) sink->bad(sink->user, no, "expected \"name, 0x1000, 1, 0x0000\"");
        else if (kind > 0 && sink->symbol(sink->user, name.s, name.n, (uint32_t)v))
            return;
    }
}

const td_symfmt td_symfmt_xa65 = {"xa65", xa_detect, xa_parse};
