/* td_symfmt_ca65.c - the debug info file of ld65 (--dbgfile), one record a
 * line: a kind, a tab, then key=value pairs separated by commas:
 *   file   id=0,name="main.s",size=208,mtime=...,mod=0
 *   line   id=3,file=0,line=5,type=0,span=1+4     (span: ids joined by '+')
 *   seg    id=0,name="CODE",start=0x00C000,size=0x0013,...
 *   span   id=1,seg=0,start=2,size=2               (start: offset in the segment)
 *   scope  id=1,name="fill",parent=0,...
 *   sym    id=2,name="loop",scope=1,val=0xC002,type=lab|equ|imp,...
 * Records refer to each other by id in any order, so all are read first
 * and joined after. A symbol in a named scope is "scope::name" (scopes
 * joined outermost first); a cheap local ("@loop", parent=<sym id>) is
 * "parent@loop" ("fill@loop"); imports (no value) are skipped. Macro lines
 * (type=2) are skipped: their spans also belong to the line that expands
 * the macro.
 */
#include <stdlib.h>
#include <string.h>

#include "td_store.h"
#include "td_symfmt.h"

#define MAX_RECORDS 4000000u
#define MAX_SCOPE_DEPTH 32

typedef struct rec {
    uint32_t id, a, b, c; /* seg: start; span: seg, start, size; scope: parent+1;
                             sym: value, scope+1, parent sym+1 */
    td_sf_text name;      /* file, scope, sym name; line: the span list */
    uint32_t file, line;  /* line */
    uint32_t no;          /* the input line, for messages */
} rec;

typedef struct list {
    rec *items;
    size_t count, capacity;
} list;

typedef struct db {
    list segs, spans, lines, scopes, syms;
    int failed;
} db;

static rec *push(db *d, list *l)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 64;
        if (cap > MAX_RECORDS) cap = MAX_RECORDS;
        rec *items = cap > l->count ? realloc(l->items, cap * sizeof *items) : NULL;
        if (!items) {
            d->failed = 1;
            return NULL;
        }
        l->items = items;
        l->capacity = cap;
    }
    rec *r = &l->items[l->count++];
    memset(r, 0, sizeof *r);
    return r;
}

static int by_id(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static const rec *find(const list *l, uint32_t id)
{
    rec key = {0};
    key.id = id;
    return l->count ? bsearch(&key, l->items, l->count, sizeof key, by_id) : NULL;
}

/* The value of key in "k=v,k=v" (a quoted value without its quotes). */
static int field(td_sf_text attrs, const char *key, td_sf_text *value)
{
    size_t k = strlen(key);
    size_t i = 0;
    while (i < attrs.n) {
        size_t start = i;
        int quoted = 0;
        while (i < attrs.n && (quoted || attrs.s[i] != ',')) {
            if (attrs.s[i] == '"') quoted = !quoted;
            i++;
        }
        td_sf_text item = {attrs.s + start, i - start};
        if (item.n > k && memcmp(item.s, key, k) == 0 && item.s[k] == '=') {
            *value = (td_sf_text){item.s + k + 1, item.n - k - 1};
            if (value->n >= 2 && value->s[0] == '"' && value->s[value->n - 1] == '"')
                *value = (td_sf_text){value->s + 1, value->n - 2};
            return 1;
        }
        i++;
    }
    return 0;
}

static int number(td_sf_text attrs, const char *key, uint64_t max, uint32_t *out)
{
    td_sf_text v;
    uint64_t n = 0;
    if (!field(attrs, key, &v) || td_sf_number(v, 0, max, &n) != 0) return 0;
    *out = (uint32_t)n;
    return 1;
}

static int detect(const char *text, size_t size)
{
    td_sf_text line;
    const char *pos = text;
    if (!td_sf_next_line(&pos, text + size, &line)) return 0;
    return td_sf_starts(line, "version\tmajor=") ? 60 : 0;
}

/* Keeps the record just pushed onto l when ok, else drops it; returns ok. */
static int keep(list *l, int ok)
{
    if (!ok) l->count--;
    return ok;
}

/* Reads one record into d; 0 when it is not understood. */
static int read_record(db *d, td_sf_text line, uint32_t no, const td_symfmt_sink *sink, int *stop)
{
    td_sf_text kind, attrs = line, v;
    td_sf_split(&attrs, '\t', &kind);
    uint32_t id = 0;
    if (td_sf_equals(kind, "version") || td_sf_equals(kind, "info") || td_sf_equals(kind, "mod") ||
        td_sf_equals(kind, "type") || td_sf_equals(kind, "csym") || td_sf_equals(kind, "lib"))
        return 1;
    if (!number(attrs, "id", 0xFFFFFFFFu, &id)) return 0;
    rec *r = NULL;
    if (td_sf_equals(kind, "file")) {
        if (!field(attrs, "name", &v) || v.n == 0 || v.n > TD_SYMFMT_MAX_PATH || memchr(v.s, 0, v.n))
            return 0;
        *stop = sink->file(sink->user, id, v.s, v.n);
        return 1;
    }
    if (td_sf_equals(kind, "seg")) {
        if (!(r = push(d, &d->segs))) return 1;
        r->id = id;
        return keep(&d->segs, number(attrs, "start", 0xFFFFFFu, &r->a));
    }
    if (td_sf_equals(kind, "span")) {
        if (!(r = push(d, &d->spans))) return 1;
        r->id = id;
        return keep(&d->spans, number(attrs, "seg", 0xFFFFFFFFu, &r->a) &&
                                   number(attrs, "start", 0xFFFFFFu, &r->b) &&
                                   number(attrs, "size", 0xFFFFFFu, &r->c));
    }
    if (td_sf_equals(kind, "line")) {
        uint32_t type = 0;
        number(attrs, "type", 0xFFFF, &type);
        if (type == 2 || !field(attrs, "span", &v)) return 1; /* macro, or no code */
        if (!(r = push(d, &d->lines))) return 1;
        r->id = id;
        r->name = v;
        r->no = no;
        return keep(&d->lines, number(attrs, "file", 0xFFFFFFFFu, &r->file) &&
                                   number(attrs, "line", TD_SYMFMT_MAX_LINE, &r->line) &&
                                   r->line > 0);
    }
    if (td_sf_equals(kind, "scope")) {
        if (!(r = push(d, &d->scopes))) return 1;
        r->id = id;
        if (number(attrs, "parent", 0xFFFFFFFEu, &r->a)) r->a++;
        return keep(&d->scopes, field(attrs, "name", &r->name) && !memchr(r->name.s, 0, r->name.n));
    }
    if (td_sf_equals(kind, "sym")) {
        if (!field(attrs, "val", &v)) return 1; /* an import */
        if (!(r = push(d, &d->syms))) return 1;
        r->id = id;
        r->no = no;
        if (number(attrs, "scope", 0xFFFFFFFEu, &r->b)) r->b++;
        if (number(attrs, "parent", 0xFFFFFFFEu, &r->c)) r->c++;
        return keep(&d->syms, field(attrs, "name", &r->name) && r->name.n > 0 &&
                                  r->name.n <= TD_MAX_SYMBOL_NAME && !memchr(r->name.s, 0, r->name.n) &&
                                  number(attrs, "val", 0xFFFFFFFFu, &r->a));
    }
    return 0;
}

/* "outer::inner::name" into out; the bare name when it would not fit.
 * A cheap local is its parent's name (scopes and all) and its own. */
static size_t qualified(const db *d, const rec *sym, char *out, size_t size)
{
    const rec *parent = sym->c ? find(&d->syms, sym->c - 1) : NULL;
    if (parent && !parent->c && parent->name.n + sym->name.n <= size) {
        size_t used = qualified(d, parent, out, size - sym->name.n);
        memcpy(out + used, sym->name.s, sym->name.n);
        return used + sym->name.n;
    }
    td_sf_text parts[MAX_SCOPE_DEPTH];
    size_t n = 0;
    uint32_t scope = sym->b;
    /* Bounded by steps, not by named parts: a cycle of unnamed scopes
     * would otherwise never end. */
    for (size_t steps = 0; scope && steps < MAX_SCOPE_DEPTH && n < MAX_SCOPE_DEPTH; steps++) {
        const rec *s = find(&d->scopes, scope - 1);
        if (!s) break;
        if (s->name.n) parts[n++] = s->name;
        scope = s->a;
    }
    size_t used = 0;
    for (size_t i = n; i-- > 0;) {
        if (used + parts[i].n + 2 + sym->name.n > size) {
            used = 0;
            break;
        }
        memcpy(out + used, parts[i].s, parts[i].n);
        used += parts[i].n;
        memcpy(out + used, "::", 2);
        used += 2;
    }
    memcpy(out + used, sym->name.s, sym->name.n);
    return used + sym->name.n;
}

static void join(db *d, const td_symfmt_sink *sink)
{
    if (d->segs.count) qsort(d->segs.items, d->segs.count, sizeof(rec), by_id);
    if (d->spans.count) qsort(d->spans.items, d->spans.count, sizeof(rec), by_id);
    if (d->scopes.count) qsort(d->scopes.items, d->scopes.count, sizeof(rec), by_id);
    if (d->syms.count) qsort(d->syms.items, d->syms.count, sizeof(rec), by_id);
    for (size_t i = 0; i < d->syms.count; i++) {
        const rec *s = &d->syms.items[i];
        if (s->a > 0xFFFF) continue; /* a constant, not an address */
        char name[TD_MAX_SYMBOL_NAME];
        size_t n = qualified(d, s, name, sizeof name);
        if (sink->symbol(sink->user, name, n, s->a)) return;
    }
    for (size_t i = 0; i < d->lines.count; i++) {
        const rec *l = &d->lines.items[i];
        td_sf_text ids = l->name, one;
        while (td_sf_split(&ids, '+', &one)) {
            uint64_t span_id = 0;
            const rec *span = td_sf_number(one, 0, 0xFFFFFFFFu, &span_id) == 0
                                  ? find(&d->spans, (uint32_t)span_id) : NULL;
            const rec *seg = span ? find(&d->segs, span->a) : NULL;
            if (!seg) {
                sink->bad(sink->user, l->no, "a line names a span or segment that is not there");
                break;
            }
            uint64_t start = (uint64_t)seg->a + span->b;
            if (span->c == 0 || start + span->c - 1 > 0xFFFF) continue;
            if (sink->line(sink->user, l->file, l->line, (uint32_t)start,
                           (uint32_t)(start + span->c - 1)))
                return;
        }
    }
}

static void parse(const char *text, size_t size, const td_symfmt_sink *sink)
{
    db d;
    memset(&d, 0, sizeof d);
    uint32_t no = 0;
    int stop = 0;
    td_sf_text line;
    for (const char *pos = text; !stop && !d.failed && td_sf_next_line(&pos, text + size, &line);) {
        no++;
        if (line.n == 0) continue;
        if (!read_record(&d, line, no, sink, &stop))
            sink->bad(sink->user, no, "not a debug info record this reader knows");
    }
    if (d.failed) sink->bad(sink->user, no, "out of memory");
    else if (!stop) join(&d, sink);
    free(d.segs.items);
    free(d.spans.items);
    free(d.lines.items);
    free(d.scopes.items);
    free(d.syms.items);
}

const td_symfmt td_symfmt_ca65_dbg = {"ca65-dbg", detect, parse};
