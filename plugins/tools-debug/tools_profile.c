/* tools_profile.c - profile_start, profile_stop, profile_get and
 * functions_list: the host's profiler (mh.debug/1 profile_*), which counts
 * while on the instructions and cycles per address and per function (JSR
 * targets and interrupt handlers, named by the loaded symbols), with call
 * counts, call sites and returns. Sorted and paged here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_profile.h"
#include "td_store.h"

#define DEFAULT_COUNT 20
#define MAX_COUNT 1000
#define MAX_SITES 16 /* callers and returns listed per function */

/* ---- profile_start / profile_stop ---- */

static int has_control(const td_plugin *p)
{
    return p->debug && p->debug->struct_size >= offsetof(mh_debug_service, profile_view) +
                                                    sizeof p->debug->profile_view;
}

static void profile_switch(void *user, mh_call *call, const char *tool, int on)
{
    td_call c;
    mh_json_writer *w = NULL;
    if (td_begin(&c, user, call, tool, TD_NEED_CPU) != 0) goto done;
    if (!has_control(c.plugin)) {
        td_fail(&c, "%s: this host's debug engine has no profiler", tool);
        goto done;
    }
    bool reset = on; /* a start empties the tables unless told not to */
    mh_status s = mh_args_bool(c.args, "reset", &reset, c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    s = c.plugin->debug->profile_control(c.session, on, reset);
    if (s != MH_OK) {
        td_fail(&c, "%s: %s", tool, mh_status_name(s));
        goto done;
    }
    const mh_profile_view *v = c.plugin->debug->profile_view(c.session);
    w = mh_json_writer_new();
    if (!w || !v) {
        td_fail(&c, "%s: out of memory", tool);
        goto done;
    }
    mh_json_write_object_begin(w);
    mh_args_write_bool(w, "on", on);
    mh_args_write_bool(w, "reset", reset);
    mh_args_write_uint(w, "cycles", v->cycles);
    mh_args_write_uint(w, "instructions", v->instructions);
    mh_json_write_object_end(w);
    char text[200];
    snprintf(text, sizeof text, "profiler %s%s: %llu cycles, %llu instructions profiled",
             on ? "on" : "off", reset ? " (tables emptied)" : "", (unsigned long long)v->cycles,
             (unsigned long long)v->instructions);
    td_result(&c, w, text);
done:
    mh_json_writer_free(w);
    td_end(&c);
}

static void profile_start(void *user, mh_call *call)
{
    profile_switch(user, call, "profile_start", 1);
}

static void profile_stop(void *user, mh_call *call)
{
    profile_switch(user, call, "profile_stop", 0);
}

/* ---- rows and sorting ---- */

typedef struct row {
    uint16_t address;
    uint64_t calls, instructions, exclusive, inclusive;
} row;

typedef enum sort_key { SORT_EXCLUSIVE, SORT_INCLUSIVE, SORT_CALLS, SORT_ADDRESS } sort_key;
static const char *const sort_names[] = {"exclusive", "inclusive", "calls", "address"};

#define DESCENDING(field)                                                                     \
    static int by_##field(const void *a, const void *b)                                      \
    {                                                                                         \
        const row *x = a, *y = b;                                                             \
        if (x->field != y->field) return x->field > y->field ? -1 : 1;                        \
        return x->address < y->address ? -1 : x->address > y->address;                        \
    }
DESCENDING(exclusive)
DESCENDING(inclusive)
DESCENDING(calls)

static int by_address(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return x->address < y->address ? -1 : x->address > y->address;
}

static int (*const sorters[])(const void *, const void *) = {by_exclusive, by_inclusive, by_calls,
                                                             by_address};

/* count and offset. Returns 0, or -1 after answering. */
static int page_args(td_call *c, int64_t *count, int64_t *offset)
{
    *count = DEFAULT_COUNT;
    *offset = 0;
    mh_status s = mh_args_int(c->args, "count", 1, MAX_COUNT, count, c->err, sizeof c->err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_int(c->args, "offset", 0, 65536, offset, c->err, sizeof c->err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) return td_fail_arg(c);
    return 0;
}

static size_t page_end(size_t n, int64_t offset, int64_t count)
{
    size_t from = (size_t)offset < n ? (size_t)offset : n;
    return n - from > (size_t)count ? from + (size_t)count : n;
}

/* The rows of every function entry (by_function) or every address that
 * ran an instruction; returns how many. */
static size_t collect_rows(const mh_profile_view *v, int by_function, row *rows)
{
    size_t n = 0;
    for (uint32_t a = 0; a < 65536; a++) {
        if (by_function) {
            const mh_profile_function *f = &v->functions[a];
            if (!f->calls) continue;
            rows[n++] = (row){(uint16_t)a, f->calls, f->instructions, f->exclusive_cycles,
                              f->inclusive_cycles};
        } else if (v->insn_count[a]) {
            rows[n++] = (row){(uint16_t)a, 0, v->insn_count[a], v->cycle_count[a],
                              v->cycle_count[a]};
        }
    }
    return n;
}

/* Rows per loaded symbol: the instructions and cycles of every address
 * from a label up to the next one (exclusive), with the label's calls and
 * inclusive cycles when it is a function entry; returns how many. */
static size_t collect_symbol_rows(td_call *c, const mh_profile_view *v, row *rows)
{
    int32_t *row_of = malloc(65536 * sizeof *row_of);
    if (!row_of) return 0;
    for (size_t i = 0; i < 65536; i++) row_of[i] = -1;
    size_t n = 0;
    td_session_state *state = td_store_lock(c->plugin->store, td_session_name(c), 0);
    for (uint32_t a = 0; state && a < 65536; a++) {
        if (!v->insn_count[a]) continue;
        const td_symbol *s = td_symbols_below(state, a);
        if (!s || s->address > 0xFFFF) continue;
        uint16_t at = (uint16_t)s->address;
        if (row_of[at] < 0) {
            const mh_profile_function *f = &v->functions[at];
            row_of[at] = (int32_t)n;
            rows[n++] = (row){at, f->calls, 0, 0, f->inclusive_cycles};
        }
        row *r = &rows[row_of[at]];
        r->instructions += v->insn_count[a];
        r->exclusive += v->cycle_count[a];
    }
    td_store_unlock(c->plugin->store);
    free(row_of);
    return n;
}

/* ---- profile_get ---- */

static void profile_get(void *user, mh_call *call)
{
    td_call c;
    row *rows = NULL;
    mh_json_writer *w = NULL;
    td_buf text = {0};
    if (td_begin(&c, user, call, "profile_get", TD_NEED_CPU) != 0) goto done;
    const mh_profile_view *v = td_profile_view(&c);
    if (!v) goto done;
    static const char *const bys[] = {"function", "address", "symbol"};
    size_t by = 0, sort = SORT_EXCLUSIVE;
    int64_t count, offset;
    mh_status s = mh_args_choice(c.args, "by", bys, 3, &by, c.err, sizeof c.err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = mh_args_choice(c.args, "sort", sort_names, 4, &sort, c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (page_args(&c, &count, &offset) != 0) goto done;
    rows = malloc(65536 * sizeof *rows);
    w = mh_json_writer_new();
    if (!rows || !w) {
        td_fail(&c, "profile_get: out of memory");
        goto done;
    }
    int by_function = by != 1; /* functions and symbols have calls */
    size_t n = by == 2 ? collect_symbol_rows(&c, v, rows) : collect_rows(v, by == 0, rows);
    qsort(rows, n, sizeof *rows, sorters[sort]);
    size_t end = page_end(n, offset, count);

    mh_json_write_object_begin(w);
    mh_args_write_bool(w, "on", v->on);
    mh_args_write_uint(w, "cycles", v->cycles);
    mh_args_write_uint(w, "instructions", v->instructions);
    mh_args_write_string(w, "by", bys[by]);
    mh_args_write_string(w, "sort", sort_names[sort]);
    mh_args_write_uint(w, "matched", n);
    mh_args_write_uint(w, "offset", (uint64_t)offset);
    td_buf_printf(&text, "profile (%s): %llu cycles, %llu instructions; %zu rows by %s, sorted by "
                  "%s, from %lld:\n", v->on ? "on" : "off", (unsigned long long)v->cycles,
                  (unsigned long long)v->instructions, n, bys[by], sort_names[sort],
                  (long long)offset);
    mh_json_write_key(w, "rows");
    mh_json_write_array_begin(w);
    for (size_t i = (size_t)offset; i < end; i++) {
        const row *r = &rows[i];
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "address", r->address);
        td_buf_printf(&text, "$%04X", r->address);
        td_profile_symbol(&c, w, &text, r->address);
        mh_args_write_uint(w, "instructions", r->instructions);
        if (by_function) {
            mh_args_write_uint(w, "calls", r->calls);
            mh_args_write_uint(w, "exclusive", r->exclusive);
            mh_args_write_uint(w, "inclusive", r->inclusive);
            td_buf_printf(&text, ": %llu calls, %llu instructions, %llu cycles exclusive, %llu "
                          "inclusive\n", (unsigned long long)r->calls,
                          (unsigned long long)r->instructions, (unsigned long long)r->exclusive,
                          (unsigned long long)r->inclusive);
        } else {
            mh_args_write_uint(w, "cycles", r->exclusive);
            td_buf_printf(&text, ": %llu instructions, %llu cycles\n",
                          (unsigned long long)r->instructions, (unsigned long long)r->exclusive);
        }
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    mh_args_write_bool(w, "more", end < n);
    mh_json_write_object_end(w);
    if (end < n) td_buf_printf(&text, "more: offset %zu\n", end);
    if (text.failed) {
        td_fail(&c, "profile_get: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(rows);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- functions_list ---- */

static void write_sites(td_call *c, mh_json_writer *w, td_buf *text, const char *key,
                        const uint32_t *sorted, size_t count, uint16_t entry)
{
    uint16_t sites[MAX_SITES];
    size_t n = td_profile_pairs_of(sorted, count, entry, sites, MAX_SITES);
    size_t listed = n < MAX_SITES ? n : MAX_SITES;
    td_buf_printf(text, "; %s:", key);
    mh_json_write_key(w, key);
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < listed; i++) {
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "address", sites[i]);
        td_buf_printf(text, " $%04X", sites[i]);
        td_profile_symbol(c, w, text, sites[i]);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    if (listed < n) td_buf_printf(text, " (%zu more)", n - listed);
    if (!n) td_buf_printf(text, " none");
}

static void functions_list(void *user, mh_call *call)
{
    td_call c;
    row *rows = NULL;
    uint32_t *callers = NULL, *returns = NULL;
    size_t caller_count = 0, return_count = 0;
    mh_json_writer *w = NULL;
    td_buf text = {0};
    if (td_begin(&c, user, call, "functions_list", TD_NEED_CPU) != 0) goto done;
    const mh_profile_view *v = td_profile_view(&c);
    int64_t count, offset;
    if (!v || page_args(&c, &count, &offset) != 0) goto done;
    rows = malloc(65536 * sizeof *rows);
    callers = td_profile_sort_pairs(v->callers, v->pair_slots, &caller_count);
    returns = td_profile_sort_pairs(v->returns, v->pair_slots, &return_count);
    w = mh_json_writer_new();
    if (!rows || !callers || !returns || !w) {
        td_fail(&c, "functions_list: out of memory");
        goto done;
    }
    size_t n = collect_rows(v, 1, rows);
    qsort(rows, n, sizeof *rows, by_calls);
    size_t end = page_end(n, offset, count);
    mh_json_write_object_begin(w);
    mh_args_write_uint(w, "matched", n);
    mh_args_write_uint(w, "offset", (uint64_t)offset);
    td_buf_printf(&text, "%zu function entries seen (JSR targets, interrupt handlers), most "
                  "called first, from %lld:\n", n, (long long)offset);
    mh_json_write_key(w, "functions");
    mh_json_write_array_begin(w);
    for (size_t i = (size_t)offset; i < end; i++) {
        const mh_profile_function *f = &v->functions[rows[i].address];
        char kinds[32];
        td_profile_kinds(f->kinds, kinds, sizeof kinds);
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "entry", rows[i].address);
        td_buf_printf(&text, "$%04X", rows[i].address);
        td_profile_symbol(&c, w, &text, rows[i].address);
        mh_args_write_uint(w, "calls", f->calls);
        mh_args_write_string(w, "kinds", kinds);
        td_buf_printf(&text, ": %llu calls (%s)", (unsigned long long)f->calls, kinds);
        write_sites(&c, w, &text, "callers", callers, caller_count, rows[i].address);
        write_sites(&c, w, &text, "returns", returns, return_count, rows[i].address);
        td_buf_printf(&text, "\n");
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    mh_args_write_bool(w, "more", end < n);
    mh_args_write_bool(w, "complete", !v->pairs_full);
    mh_json_write_object_end(w);
    if (end < n) td_buf_printf(&text, "more: offset %zu\n", end);
    if (v->pairs_full)
        td_buf_printf(&text, "(some callers, returns or edges were left out: the profiler's "
                      "tables filled up)\n");
    if (text.failed) {
        td_fail(&c, "functions_list: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(callers);
    free(returns);
    free(rows);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- registration ---- */

static const mh_tool_desc profile_tools[] = {
    {sizeof(mh_tool_desc), "profile_start", NULL,
     "Starts the profiler and code/data log.",
     "{\"type\":\"object\",\"properties\":{\"reset\":{\"type\":\"boolean\","
     "\"description\":\"default true\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"on\"]}", 0, MH_TOOL_NEEDS_SESSION, NULL, NULL,
     profile_start, NULL},
    {sizeof(mh_tool_desc), "profile_stop", NULL, "Stops the profiler; keeps its tables.",
     "{\"type\":\"object\",\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"on\"]}", 0, MH_TOOL_NEEDS_SESSION, NULL, NULL,
     profile_stop, NULL},
    {sizeof(mh_tool_desc), "profile_get", NULL,
     "Profiler results per function or address, sorted, paged.",
     "{\"type\":\"object\",\"properties\":{\"by\":{\"enum\":[\"function\",\"address\",\"symbol\"],"
     "\"description\":\"rows\"},\"sort\":{\"enum\":[\"exclusive\",\"inclusive\",\"calls\","
     "\"instructions\",\"address\"],\"description\":\"order\"}," TD_PAGE_SCHEMA
     "},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"rows\"]}", MH_TOOL_READ_ONLY, MH_TOOL_NEEDS_SESSION,
     NULL, NULL, profile_get, NULL},
    {sizeof(mh_tool_desc), "functions_list", NULL,
     "Functions seen while profiling: callers, returns.",
     "{\"type\":\"object\",\"properties\":{" TD_PAGE_SCHEMA "},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"functions\"]}", MH_TOOL_READ_ONLY,
     MH_TOOL_NEEDS_SESSION, NULL, NULL, functions_list, NULL},
};

mh_status td_register_profile(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, profile_tools, sizeof profile_tools / sizeof profile_tools[0]);
}
