/* td_symfmt.c - the table of symbol file formats and the text helpers
 * their parsers share (td_symfmt.h). */
#include "td_symfmt.h"

#include <string.h>

extern const td_symfmt td_symfmt_labels, td_symfmt_ca65_dbg, td_symfmt_kickass_sym,
    td_symfmt_kickass_dbg, td_symfmt_dasm, td_symfmt_xa65;

static const td_symfmt *const formats[] = {
    &td_symfmt_labels,      &td_symfmt_ca65_dbg, &td_symfmt_kickass_sym,
    &td_symfmt_kickass_dbg, &td_symfmt_dasm,     &td_symfmt_xa65,
};

size_t td_symfmt_count(void) { return sizeof formats / sizeof formats[0]; }

const td_symfmt *td_symfmt_at(size_t index)
{
    return index < td_symfmt_count() ? formats[index] : NULL;
}

const td_symfmt *td_symfmt_named(const char *name)
{
    for (size_t i = 0; i < td_symfmt_count(); i++)
        if (strcmp(formats[i]->name, name) == 0) return formats[i];
    return NULL;
}

const td_symfmt *td_symfmt_detect(const char *text, size_t size)
{
    const td_symfmt *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < td_symfmt_count(); i++) {
        int score = formats[i]->detect(text, size);
        if (score > best_score) {
            best = formats[i];
            best_score = score;
        }
    }
    return best;
}

int td_sf_next_line(const char **pos, const char *end, td_sf_text *line)
{
    const char *s = *pos;
    if (s >= end) return 0;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
    *pos = nl ? nl + 1 : end;
    if (n && s[n - 1] == '\r') n--;
    *line = (td_sf_text){s, n};
    return 1;
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

td_sf_text td_sf_trim(td_sf_text t)
{
    while (t.n && blank(t.s[0])) t.s++, t.n--;
    while (t.n && blank(t.s[t.n - 1])) t.n--;
    return t;
}

int td_sf_split(td_sf_text *t, char sep, td_sf_text *head)
{
    if (t->n == 0) {
        *head = *t;
        return 0;
    }
    const char *at = memchr(t->s, sep, t->n);
    if (!at) {
        *head = *t;
        t->s += t->n;
        t->n = 0;
        return 1;
    }
    *head = (td_sf_text){t->s, (size_t)(at - t->s)};
    t->n -= (size_t)(at - t->s) + 1;
    t->s = at + 1;
    return 1;
}

int td_sf_number(td_sf_text t, int base16, uint64_t max, uint64_t *out)
{
    t = td_sf_trim(t);
    unsigned base = base16 ? 16 : 10;
    if (t.n && t.s[0] == '$') t.s++, t.n--, base = 16;
    else if (t.n > 2 && t.s[0] == '0' && (t.s[1] == 'x' || t.s[1] == 'X')) t.s += 2, t.n -= 2, base = 16;
    else if (t.n && t.s[0] == '%') t.s++, t.n--, base = 2;
    if (t.n == 0 || t.n > 64) return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < t.n; i++) {
        char c = t.s[i];
        unsigned d = 99;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        if (d >= base) return -1;
        v = v * base + d;
        if (v > max) return -1;
    }
    *out = v;
    return 0;
}

int td_sf_equals(td_sf_text t, const char *word)
{
    size_t n = strlen(word);
    return t.n == n && memcmp(t.s, word, n) == 0;
}

int td_sf_starts(td_sf_text t, const char *prefix)
{
    size_t n = strlen(prefix);
    return t.n >= n && memcmp(t.s, prefix, n) == 0;
}
