/* tools_cfg.c - cfg_get: the basic blocks and edges of one function as it
 * ran while the profiler was on (td_cfg.h builds them), as JSON and, on
 * request, as Graphviz DOT or Mermaid text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_cfg.h"
#include "td_profile.h"
#include "td_store.h"
#include "td_resolve.h"

static void cfg_get(void *user, mh_call *call)
{
    td_call c;
    uint8_t *memory = NULL;
    char *graph = NULL;
    td_cfg g = {0};
    mh_json_writer *w = NULL;
    td_buf text = {0};
    if (td_begin(&c, user, call, "cfg_get", TD_NEED_CPU | TD_NEED_MEMORY) != 0) goto done;
    const mh_profile_view *v = td_profile_view(&c);
    if (!v) goto done;
    uint32_t entry = 0;
    static const char *const formats[] = {"json", "dot", "mermaid"};
    size_t format = 0;
    mh_status s = td_resolve_arg(c.plugin->store, td_session_name(&c), c.args, "function", 0xFFFF,
                                 &entry, c.err, sizeof c.err);
    if (s == MH_OK) s = mh_args_choice(c.args, "format", formats, 3, &format, c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (!v->insn_count[entry]) {
        td_fail(&c, "cfg_get: no instruction ran at $%04X while profiling; functions_list shows "
                    "the entries seen", entry);
        goto done;
    }
    memory = malloc(65536);
    w = mh_json_writer_new();
    if (!memory || !w || c.mem->peek(c.mem_ctx, 0, 0, memory, 65536) != MH_OK) {
        td_fail(&c, "cfg_get: cannot read memory");
        goto done;
    }
    td_cfg_input in = {(uint16_t)entry, v->insn_count, memory, v->edges, v->pair_slots,
                       v->functions};
    char title[160]; /* its label, else its address */
    if (!td_resolve_format_locked(c.plugin->store, td_session_name(&c), entry, title,
                                  sizeof title))
        snprintf(title, sizeof title, "$%04X", entry);
    if (td_cfg_build(&in, &g) != 0 ||
        (format == 1 && !(graph = td_cfg_dot(&g, title))) ||
        (format == 2 && !(graph = td_cfg_mermaid(&g)))) {
        td_fail(&c, "cfg_get: out of memory");
        goto done;
    }
    mh_json_write_object_begin(w);
    mh_args_write_address(w, "entry", entry);
    mh_args_write_string(w, "name", title);
    mh_args_write_uint(w, "exits", g.exits);
    mh_args_write_bool(w, "complete", !v->pairs_full);
    td_buf_printf(&text, "%s ($%04X): %zu blocks, %zu edges, %zu jumps out to other functions%s\n",
                  title, entry, g.block_count, g.edge_count, g.exits,
                  v->pairs_full ? " (incomplete: the profiler's edge table filled up)" : "");
    mh_json_write_key(w, "blocks");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < g.block_count; i++) {
        const td_cfg_block *b = &g.blocks[i];
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "start", b->start);
        mh_args_write_address(w, "last", b->last);
        mh_args_write_uint(w, "instructions", b->instructions);
        mh_args_write_uint(w, "count", b->count);
        mh_json_write_object_end(w);
        td_buf_printf(&text, "block $%04X-$%04X: %u instructions, ran %u\n", b->start, b->last,
                      b->instructions, b->count);
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "edges");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < g.edge_count; i++) {
        const td_cfg_edge *e = &g.edges[i];
        uint16_t from = g.blocks[e->from].start, to = g.blocks[e->to].start;
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "from", from);
        mh_args_write_address(w, "to", to);
        mh_args_write_string(w, "kind", td_cfg_kind_name(e->kind));
        mh_args_write_bool(w, "back", e->back);
        mh_json_write_object_end(w);
        td_buf_printf(&text, "edge $%04X -> $%04X %s%s\n", from, to, td_cfg_kind_name(e->kind),
                      e->back ? " (back edge: a loop)" : "");
    }
    mh_json_write_array_end(w);
    mh_args_write_string(w, "format", formats[format]);
    if (graph) {
        mh_args_write_string(w, "graph", graph);
        td_buf_printf(&text, "%s:\n%s", formats[format], graph);
    }
    mh_json_write_object_end(w);
    if (text.failed) {
        td_fail(&c, "cfg_get: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    td_cfg_free(&g);
    free(graph);
    free(memory);
    td_buf_free(&text);
    td_end(&c);
}

static const mh_tool_desc cfg_tools[] = {
    {sizeof(mh_tool_desc), "cfg_get", NULL,
     "Control-flow graph of code that ran while profiling.",
     "{\"type\":\"object\",\"properties\":{\"function\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"entry or label\"},\"format\":{\"enum\":[\"json\",\"dot\","
     "\"mermaid\"],\"description\":\"text\"}},\"required\":[\"function\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"blocks\",\"edges\"]}", MH_TOOL_READ_ONLY,
     MH_TOOL_NEEDS_SESSION, NULL, NULL, cfg_get, NULL},
};

mh_status td_register_cfg(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, cfg_tools, 1);
}
