/* tools_history.c - trace_instructions and memory_history: what the host's
 * debug engine (mh.debug/1 history_*) recorded of the recent past, the
 * instructions executed and the CPU's writes, filtered by address (labels
 * as everywhere: td_resolve.h) and paged, with each PC's label+offset
 * (td_source.h). Both tools also set the ring sizes (0 turns one off). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/disasm6502.h>

#include "td_page.h"
#include "td_resolve.h"
#include "td_source.h"
#include "td_store.h"
#include "td_util.h"

#define MAX_WRITERS 64

/* The engine has the history members (a host from before them has not). */
static int has_history(const td_plugin *p)
{
    /* history_copy, writes_copy, history_config and writers came together */
    return p->debug && p->debug->struct_size >= offsetof(mh_debug_service, writers) +
                                                    sizeof p->debug->writers;
}

/* Applies a "size" argument to one ring (instructions or writes); then
 * reads both sizes into now. Returns 0, or -1 after answering. */
static int size_arg(td_call *c, int writes, mh_history_config *now)
{
    int64_t size = -1;
    mh_status s = mh_args_int(c->args, "size", 0, 1 << 22, &size, c->err, sizeof c->err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) return td_fail_arg(c);
    mh_history_config want = {sizeof want, writes ? -1 : size, writes ? size : -1};
    *now = (mh_history_config){sizeof *now, 0, 0};
    s = c->plugin->debug->history_config(c->session, size >= 0 ? &want : NULL, now);
    if (s != MH_OK) return td_fail(c, "%s: cannot set size %lld (%s)", c->tool, (long long)size,
                                   mh_status_name(s));
    return 0;
}

static void write_pc(td_call *c, mh_json_writer *w, td_buf *text, uint16_t pc, td_where *where)
{
    mh_args_write_address(w, "pc", pc);
    td_where_of(c->plugin, td_session_name(c), pc, 0, where);
    if (where->symbol[0]) {
        mh_json_write_key(w, "symbol");
        mh_json_write_string(w, where->symbol);
    }
    td_buf_printf(text, "$%04X%s%s%s", pc, where->symbol[0] ? " (" : "", where->symbol,
                  where->symbol[0] ? ")" : "");
}

/* ---- trace_instructions ---- */

static void trace_instructions(void *user, mh_call *call)
{
    td_call c;
    mh_insn_record *all = NULL;
    size_t *match = NULL;
    td_where *where = NULL;
    mh_json_writer *w = NULL;
    td_buf text = {0};
    if (td_begin(&c, user, call, "trace_instructions", TD_NEED_CPU) != 0) goto done;
    if (!has_history(c.plugin)) {
        td_fail(&c, "trace_instructions: this host's debug engine keeps no history");
        goto done;
    }
    uint32_t lo = 0, hi = 0xFFFF;
    mh_status s = td_resolve_arg(c.plugin->store, td_session_name(&c), c.args, "start", 0xFFFF,
                                 &lo, c.err, sizeof c.err);
    if (s == MH_OK || s == MH_ERR_NOT_FOUND)
        s = td_resolve_arg(c.plugin->store, td_session_name(&c), c.args, "end", 0xFFFF, &hi,
                           c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    int64_t count, offset;
    int oldest;
    mh_history_config now;
    if (td_page_args(&c, &count, &offset, &oldest) != 0 || size_arg(&c, 0, &now) != 0) goto done;
    size_t capacity = (size_t)now.instructions;
    all = malloc((capacity ? capacity : 1) * sizeof *all);
    match = malloc((capacity ? capacity : 1) * sizeof *match);
    where = malloc(sizeof *where);
    w = mh_json_writer_new();
    if (!all || !match || !where || !w) {
        td_fail(&c, "trace_instructions: out of memory");
        goto done;
    }
    size_t held = c.plugin->debug->history_copy(c.session, 0, all, capacity);
    size_t n = 0;
    for (size_t i = 0; i < held; i++)
        if (all[i].pc >= lo && all[i].pc <= hi) match[n++] = i;
    size_t shown = td_page_size(n, offset, count);

    mh_json_write_object_begin(w);
    td_page_head(w, capacity, n, offset);
    mh_json_write_key(w, "order");
    mh_json_write_string(w, oldest ? "oldest" : "newest");
    td_buf_printf(&text, "%zu of %zu recorded instructions with PC $%04X-$%04X (ring size %zu%s), "
                  "%s first from offset %lld:\n", shown, n, lo, hi, capacity,
                  capacity ? "" : ": off, turn on with size", oldest ? "oldest" : "newest",
                  (long long)offset);
    mh_json_write_key(w, "instructions");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < shown; i++) {
        const mh_insn_record *r = &all[match[td_page_index(n, offset, i, oldest)]];
        char dis[48];
        mh_disasm6502_buffer(NULL, r->bytes, 3, r->pc, dis, sizeof dis);
        int length = mh_op6502_get(r->bytes[0])->length;
        char hex[12];
        hex[td_hex_spaced(hex, r->bytes, (size_t)(length > 0 && length <= 3 ? length : 1))] = '\0';
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "cycle");
        mh_json_write_uint(w, r->cycle);
        td_buf_printf(&text, "cycle %llu ", (unsigned long long)r->cycle);
        write_pc(&c, w, &text, r->pc, where);
        mh_json_write_key(w, "bytes");
        mh_json_write_string(w, hex);
        mh_json_write_key(w, "instruction");
        mh_json_write_string(w, dis);
        td_write_byte(w, "a", r->a);
        td_write_byte(w, "x", r->x);
        td_write_byte(w, "y", r->y);
        td_write_byte(w, "s", r->s);
        td_write_byte(w, "p", r->p);
        mh_json_write_object_end(w);
        td_buf_printf(&text, ": %s  %s  A=$%02X X=$%02X Y=$%02X S=$%02X P=$%02X\n", hex, dis,
                      r->a, r->x, r->y, r->s, r->p);
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "more");
    mh_json_write_bool(w, (size_t)offset + shown < n);
    mh_json_write_object_end(w);
    if ((size_t)offset + shown < n)
        td_buf_printf(&text, "more: offset %zu\n", (size_t)offset + shown);
    if (text.failed) {
        td_fail(&c, "trace_instructions: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(where);
    free(match);
    free(all);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- memory_history ---- */

static void memory_history(void *user, mh_call *call)
{
    td_call c;
    mh_write_record *all = NULL;
    size_t *match = NULL;
    uint32_t *writers = NULL;
    td_where *where = NULL;
    mh_json_writer *w = NULL;
    td_buf text = {0};
    if (td_begin(&c, user, call, "memory_history", TD_NEED_CPU) != 0) goto done;
    if (!has_history(c.plugin)) {
        td_fail(&c, "memory_history: this host's debug engine keeps no write log");
        goto done;
    }
    uint32_t start = 0, length = 1;
    mh_status s = td_resolve_range(c.plugin->store, td_session_name(&c), c.args, 0xFFFF, 1,
                                   65536, &start, &length, c.err, sizeof c.err);
    if (s != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    uint32_t end = start + length - 1;
    int64_t count, offset;
    int oldest;
    mh_history_config now;
    if (td_page_args(&c, &count, &offset, &oldest) != 0 || size_arg(&c, 1, &now) != 0) goto done;
    size_t capacity = (size_t)now.writes;
    all = malloc((capacity ? capacity : 1) * sizeof *all);
    match = malloc((capacity ? capacity : 1) * sizeof *match);
    writers = calloc(65536, sizeof *writers);
    where = malloc(sizeof *where);
    w = mh_json_writer_new();
    if (!all || !match || !writers || !where || !w) {
        td_fail(&c, "memory_history: out of memory");
        goto done;
    }
    size_t held = c.plugin->debug->writes_copy(c.session, 0, all, capacity);
    size_t n = 0;
    for (size_t i = 0; i < held; i++)
        if (all[i].address >= start && all[i].address <= end) {
            match[n++] = i;
            writers[all[i].pc]++;
        }
    size_t shown = td_page_size(n, offset, count);

    mh_json_write_object_begin(w);
    mh_args_write_address(w, "address", start);
    mh_args_write_address(w, "end", end);
    td_page_head(w, capacity, n, offset);
    td_buf_printf(&text, "%zu of %zu logged writes to $%04X-$%04X (log size %zu%s), %s first "
                  "from offset %lld:\n", shown, n, start, end, capacity,
                  capacity ? "" : ": off, turn on with size", oldest ? "oldest" : "newest",
                  (long long)offset);
    mh_json_write_key(w, "writes");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < shown; i++) {
        const mh_write_record *r = &all[match[td_page_index(n, offset, i, oldest)]];
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "cycle");
        mh_json_write_uint(w, r->cycle);
        td_buf_printf(&text, "cycle %llu pc ", (unsigned long long)r->cycle);
        write_pc(&c, w, &text, r->pc, where);
        mh_args_write_address(w, "address", r->address);
        td_write_byte(w, "old", r->old_value);
        td_write_byte(w, "new", r->value);
        mh_json_write_key(w, "line");
        mh_json_write_uint(w, r->line);
        mh_json_write_key(w, "line_cycle");
        mh_json_write_uint(w, r->line_cycle);
        mh_json_write_object_end(w);
        td_buf_printf(&text, " wrote $%04X: $%02X -> $%02X (raster line %u cycle %u)\n",
                      r->address, r->old_value, r->value, r->line, r->line_cycle);
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "more");
    mh_json_write_bool(w, (size_t)offset + shown < n);
    /* Every PC that wrote the range since the log started (the engine's
     * pair table), with how many of its writes the ring still holds. */
    uint16_t pcs[MAX_WRITERS];
    int complete = 1;
    size_t writer_count = c.plugin->debug->writers(c.session, (uint16_t)start, (uint16_t)end,
                                                   pcs, MAX_WRITERS, &complete);
    size_t listed = writer_count < MAX_WRITERS ? writer_count : MAX_WRITERS;
    mh_json_write_key(w, "writers_complete");
    mh_json_write_bool(w, complete && listed == writer_count);
    td_buf_printf(&text, "%zu PC%s wrote here since the log started%s (writes still in the log):",
                  writer_count, writer_count == 1 ? "" : "s",
                  complete ? "" : " (at least: the engine's table is full)");
    mh_json_write_key(w, "writers");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < listed; i++) {
        mh_json_write_object_begin(w);
        td_buf_printf(&text, " ");
        write_pc(&c, w, &text, pcs[i], where);
        mh_json_write_key(w, "writes");
        mh_json_write_uint(w, writers[pcs[i]]);
        mh_json_write_object_end(w);
        td_buf_printf(&text, " x%u", writers[pcs[i]]);
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    td_buf_printf(&text, "%s\n", listed ? "" : " none");
    if ((size_t)offset + shown < n)
        td_buf_printf(&text, "more: offset %zu\n", (size_t)offset + shown);
    if (text.failed) {
        td_fail(&c, "memory_history: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(where);
    free(writers);
    free(match);
    free(all);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- registration ---- */

#define PAGING_SCHEMA                                                                         \
    "\"count\":{\"type\":\"integer\",\"description\":\"max 1000, default 20\"},"               \
    "\"offset\":{\"type\":\"integer\",\"description\":\"rows to skip\"},"                     \
    "\"order\":{\"enum\":[\"newest\",\"oldest\"],\"description\":\"first\"},"                  \
    "\"size\":{\"type\":\"integer\",\"description\":\"set ring size; 0 off\"}"
#define ADDRESS_SCHEMA(what) "{\"type\":[\"integer\",\"string\"],\"description\":\"" what "\"}"

static const mh_tool_desc history_tools[] = {
    {sizeof(mh_tool_desc), "trace_instructions", "Recent instructions",
     "The last instructions run (always recorded): PC, bytes, A X Y S P before it, cycle. "
     "Filter by PC, page.",
     "{\"type\":\"object\",\"properties\":{\"start\":" ADDRESS_SCHEMA("lowest PC or label")
     ",\"end\":" ADDRESS_SCHEMA("highest PC") "," PAGING_SCHEMA "},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"matched\",\"instructions\"]}",
     MH_TOOL_READ_ONLY, MH_TOOL_NEEDS_SESSION, NULL, NULL, trace_instructions, NULL},
    {sizeof(mh_tool_desc), "memory_history", "Who wrote this byte",
     "The last CPU writes to a byte or range: cycle, PC+label, old and new value, raster; and "
     "every PC that wrote it while logged.",
     "{\"type\":\"object\",\"properties\":{\"address\":" ADDRESS_SCHEMA("or label")
     ",\"length\":{\"type\":\"integer\",\"description\":\"default 1\"}," PAGING_SCHEMA
     "},\"required\":[\"address\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"matched\",\"writes\",\"writers\"]}",
     MH_TOOL_READ_ONLY, MH_TOOL_NEEDS_SESSION, NULL, NULL, memory_history, NULL},
};

mh_status td_register_history(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, history_tools, sizeof history_tools / sizeof history_tools[0]);
}
