/* tools_code.c - disassemble and assemble (through "mh.memory/1", with the
 * SDK's disassembler and assembler and the session's symbols), and the
 * registration of every code tool (symbols: td_symbols.c; backtrace and
 * cycles_stopwatch: td_backtrace.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/asm6502.h>

#include "td_code.h"
#include "td_disasm.h"
#include "td_annotations.h"
#include "td_resolve.h"
#include "td_source.h"
#include "td_store.h"
#include "td_util.h"

#define MAX_COUNT 2000
#define MAX_RANGE_LINES 10000

/* The CPU's PC, or -1 without a CPU interface. */
static int32_t current_pc(td_call *c)
{
    const mh_chip *chip = c->plugin->sessions->find_chip(c->session, MH_IFACE_CPU6502, NULL);
    if (!chip || ((const mh_cpu6502_iface *)chip->vtable)->struct_size < sizeof(mh_cpu6502_iface))
        return -1;
    const mh_cpu6502_iface *cpu = chip->vtable;
    return cpu->state(chip->context)->pc;
}

static void disassemble(void *user, mh_call *call)
{
    td_call c;
    td_range r;
    if (td_begin(&c, user, call, "disassemble", TD_NEED_MEMORY) != 0 || td_space_arg(&c, &r) != 0)
        goto done;
    int32_t pc = current_pc(&c);
    int ranged = mh_json_object_get(c.args, "length") || mh_json_object_get(c.args, "end");
    int64_t count = 16;
    mh_status status = mh_args_int(c.args, "count", 1, MAX_COUNT, &count, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (status == MH_OK && ranged) {
        td_fail(&c, "give either count (instructions) or length/end (a range), not both");
        goto done;
    }
    if (ranged) {
        if (td_range_arg(&c, 0, 0, 1, &r) != 0) goto done;
    } else {
        int found = td_address_in_space(&c, "address", 1, &r);
        if (found < 0) goto done;
        if (found == 1) {
            if (pc < 0 || r.space != 0) {
                td_fail(&c, "address: missing; give where to start, e.g. \"$C000\" (it defaults to "
                            "PC only in space \"cpu\")");
                goto done;
            }
            if (td_place(&c, "address", (uint32_t)pc, 1, &r) != 0) goto done;
        }
        r.length = r.info->size - r.offset; /* instructions may run to the end of the space */
    }
    uint32_t end = r.offset + r.length; /* exclusive */
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "space");
    mh_json_write_string(w, r.info->name);
    mh_json_write_key(w, "lines");
    mh_json_write_array_begin(w);
    td_disasm d;
    td_disasm_begin(&d, &c);
    uint32_t offset = r.offset;
    int64_t lines = 0, max_lines = ranged ? MAX_RANGE_LINES : count;
    int truncated = 0;
    while (offset < end) {
        if (lines == max_lines) {
            truncated = ranged;
            break;
        }
        char line[96], hex[12];
        uint8_t bytes[3];
        int length = td_disasm_one(&d, r.space, offset, r.shown, line, sizeof line, bytes);
        hex[td_hex_spaced(hex, bytes, (size_t)length)] = '\0';
        uint32_t shown = offset + r.shown;
        const char *label = td_disasm_symbol(&d, shown);
        int current = r.space == 0 && pc >= 0 && shown == (uint32_t)pc;
        char near[TD_MAX_SYMBOL_NAME + 16] = ""; /* "fill_screen+2" in the CPU's space */
        if (r.space == 0 && d.symbols) td_resolve_format(d.symbols, shown, near, sizeof near);
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "address", shown);
        mh_json_write_key(w, "bytes");
        mh_json_write_string(w, hex);
        mh_json_write_key(w, "text");
        mh_json_write_string(w, line);
        if (label) {
            mh_json_write_key(w, "label");
            mh_json_write_string(w, label);
        }
        if (current) {
            mh_json_write_key(w, "current");
            mh_json_write_bool(w, true);
        }
        if (near[0]) mh_args_write_string(w, "symbol", near);
        mh_json_write_object_end(w);
        if (label) td_buf_printf(&text, "%s:\n", label);
        td_buf_printf(&text, "%c%04X  %-8s  %s", current ? '>' : ' ', (unsigned)shown, hex, line);
        /* where the listing starts inside a routine: name the place */
        if (lines == 0 && !label && near[0]) td_buf_printf(&text, "    ; %s", near);
        td_buf_printf(&text, "\n");
        offset += (uint32_t)length;
        lines++;
    }
    td_disasm_end(&d);
    mh_json_write_array_end(w);
    mh_args_write_address(w, "next_address", offset + r.shown);
    mh_json_write_key(w, "truncated");
    mh_json_write_bool(w, truncated != 0);
    mh_json_write_object_end(w);
    if (truncated)
        td_buf_printf(&text, "... stopped after %d lines; continue at $%04X\n", MAX_RANGE_LINES,
                      (unsigned)(offset + r.shown));
    td_result(&c, w, text.text ? text.text : "");
    td_buf_free(&text);
    mh_json_writer_free(w);
done:
    td_end(&c);
}

/* ---- assemble ---- */

static int resolve_symbol(void *user, const char *name, size_t length, int32_t *value)
{
    td_session_state *state = user;
    const td_symbol *symbol = state ? td_symbols_find(state, name, length) : NULL;
    if (!symbol) return 0;
    *value = (int32_t)symbol->address;
    return 1;
}

static void assemble(void *user, mh_call *call)
{
    td_call c;
    td_range r;
    mh_asm6502_result result;
    memset(&result, 0, sizeof result);
    int assembled = 0;
    if (td_begin(&c, user, call, "assemble", TD_NEED_MEMORY) != 0 || td_space_arg(&c, &r) != 0)
        goto done;
    const char *source = NULL;
    size_t source_length = 0;
    mh_status status = mh_args_string(c.args, "source", &source, &source_length, c.err, sizeof c.err);
    if (status != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    bool keep_labels = false;
    status = mh_args_bool(c.args, "keep_labels", &keep_labels, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    uint32_t origin = 0;
    status = td_resolve_arg(c.plugin->store, td_session_name(&c), c.args, "address", 0xFFFF, &origin,
                            c.err, sizeof c.err);
    if (status != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    if (!r.info->writable) {
        td_fail(&c, "memory space \"%s\" is read-only on this machine; assemble into \"cpu\" or "
                    "\"ram\"",
                r.info->name);
        goto done;
    }
    mh_asm6502_options options = {origin, resolve_symbol, NULL};
    td_session_state *state = td_store_lock(c.plugin->store, td_session_name(&c), 0);
    options.resolve_user = state;
    status = mh_asm6502_assemble(source, source_length, &options, &result);
    td_store_unlock(c.plugin->store);
    assembled = 1;
    if (status != MH_OK) {
        td_fail(&c, "assembly failed, nothing was written: %s",
                result.error[0] ? result.error : mh_status_name(status));
        goto done;
    }
    if (result.byte_count == 0) {
        td_fail(&c, "the source produced no bytes (only labels, constants or comments); nothing "
                    "was written");
        goto done;
    }
    /* Check every chunk before writing any. */
    for (size_t i = 0; i < result.chunk_count; i++) {
        td_range rr = r;
        if (td_place(&c, "address", result.chunks[i].address, result.chunks[i].size, &rr) != 0)
            goto done;
    }
    size_t kept = 0;
    if (keep_labels && result.symbol_count) {
        td_session_state *kept_state = td_store_lock(c.plugin->store, td_session_name(&c), 1);
        for (size_t i = 0; kept_state && i < result.symbol_count; i++) {
            int32_t v = result.symbols[i].value;
            if (v < 0 || v > 0xFFFF) continue;
            if (td_symbols_add(kept_state, result.symbols[i].name, strlen(result.symbols[i].name),
                               (uint32_t)v) == MH_OK)
                kept++;
        }
        td_store_unlock(c.plugin->store);
    }
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0}, listing = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "space");
    mh_json_write_string(w, r.info->name);
    mh_json_write_key(w, "bytes_written");
    mh_json_write_uint(w, result.byte_count);
    mh_json_write_key(w, "chunks");
    mh_json_write_array_begin(w);
    td_buf_printf(&text, "Assembled %zu byte%s into %s:", result.byte_count,
                  result.byte_count == 1 ? "" : "s", r.info->name);
    for (size_t i = 0; i < result.chunk_count; i++) {
        const mh_asm6502_chunk *chunk = &result.chunks[i];
        td_range rr = r;
        td_place(&c, "address", chunk->address, chunk->size, &rr);
        status = c.mem->poke(c.mem_ctx, rr.space, rr.offset, chunk->bytes, chunk->size);
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "address", chunk->address);
        mh_json_write_key(w, "length");
        mh_json_write_uint(w, chunk->size);
        char *hex = malloc(2u * chunk->size + 1);
        if (hex) {
            hex[td_hex_compact(hex, chunk->bytes, chunk->size)] = '\0';
            mh_json_write_key(w, "hex");
            mh_json_write_string(w, hex);
        }
        free(hex);
        mh_json_write_object_end(w);
        td_buf_printf(&text, " $%04X-$%04X", (unsigned)chunk->address,
                      (unsigned)(chunk->address + chunk->size - 1));
        /* A listing of what is now in memory there. */
        td_disasm d;
        td_disasm_begin(&d, &c);
        for (uint32_t off = 0; off < chunk->size && off < 3 * 256;) {
            char line[96], bytes_hex[12];
            uint8_t bytes[3];
            int length = td_disasm_one(&d, rr.space, rr.offset + off, rr.shown, line, sizeof line, bytes);
            bytes_hex[td_hex_spaced(bytes_hex, bytes, (size_t)length)] = '\0';
            td_buf_printf(&listing, "%04X  %-8s  %s\n", (unsigned)(chunk->address + off), bytes_hex, line);
            off += (uint32_t)length;
        }
        td_disasm_end(&d);
        if (status != MH_OK) {
            td_buf_free(&text);
            td_buf_free(&listing);
            mh_json_writer_free(w);
            td_fail(&c, "assemble: the machine refused to write $%04X-$%04X (%s)",
                    (unsigned)chunk->address, (unsigned)(chunk->address + chunk->size - 1),
                    mh_status_name(status));
            goto done;
        }
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "symbols");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < result.symbol_count && i < 1000; i++) {
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "name");
        mh_json_write_string(w, result.symbols[i].name);
        mh_json_write_key(w, "value");
        mh_json_write_int(w, result.symbols[i].value);
        mh_json_write_key(w, "line");
        mh_json_write_uint(w, result.symbols[i].line);
        mh_json_write_object_end(w);
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "labels_kept");
    mh_json_write_uint(w, kept);
    mh_json_write_object_end(w);
    td_buf_printf(&text, "\n%s", listing.text ? listing.text : "");
    if (kept) td_buf_printf(&text, "kept %zu label%s in the session's symbols\n", kept, kept == 1 ? "" : "s");
    td_result(&c, w, text.text);
    td_buf_free(&text);
    td_buf_free(&listing);
    mh_json_writer_free(w);
done:
    if (assembled) mh_asm6502_result_free(&result);
    td_end(&c);
}

/* ---- registration ---- */

static const mh_tool_desc code_tools[] = {
    {sizeof(mh_tool_desc), "disassemble", "Disassemble",
     "Disassembles count instructions from address, or a range, with the session's labels; "
     "\">\" marks PC.",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"First instruction (default PC)\"},\"count\":{\"type\":[\"integer\","
     "\"string\"],\"description\":\"Instructions (1-2000, default 16)\"},"
     "\"length\":{\"type\":[\"integer\",\"string\"],\"description\":\"Bytes to cover, instead "
     "of count\"},\"end\":{\"type\":[\"integer\",\"string\"],\"description\":\"Last address "
     "(inclusive), instead of count\"},\"space\":{\"type\":\"string\","
     "\"description\":\"Memory space (default \\\"cpu\\\")\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"lines\",\"next_address\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.disassemble", disassemble, NULL},
    {sizeof(mh_tool_desc), "assemble", "Assemble into memory",
     "Assembles 6502 source (labels, *=, .byte/.word/.text, expressions, symbols) into "
     "memory; an error names line and column and writes nothing.",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Where the code goes (*= in the source may move it)\"},"
     "\"source\":{\"type\":\"string\",\"description\":\"One line or several: \\\"loop: "
     "DEX\\\\nBNE loop\\\"\"},\"keep_labels\":{\"type\":\"boolean\",\"description\":\"Add the "
     "source's labels to the session's symbols\"},\"space\":{\"type\":\"string\","
     "\"description\":\"Memory space (default \\\"cpu\\\")\"}},\"required\":[\"address\","
     "\"source\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"bytes_written\",\"chunks\"]}",
     MH_TOOL_DESTRUCTIVE, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.assemble", assemble, NULL},
    {sizeof(mh_tool_desc), "symbols_load", "Load symbols",
     "Loads labels (and source lines) into the session: VICE/ACME/64tass/ld65 labels, ca65 "
     ".dbg, KickAssembler .sym/.dbg, dasm -s, xa65 -l.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The file, in an allowed directory\"},\"format\":{\"description\":\"auto (default)\",\"enum\":[\"auto\","
     "\"labels\",\"ca65-dbg\",\"kickass-sym\",\"kickass-dbg\",\"dasm\",\"xa65\"]},"
     "\"replace\":{\"type\":\"boolean\",\"description\":\"Clear "
     "the loaded first\"}},\"required\":[\"path\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"loaded\",\"total\"],\"properties\":{\"errors\":{}}}",
     0, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.symbols.load", td_symbols_load, NULL},
    {sizeof(mh_tool_desc), "symbols_list", "List symbols",
     "Session symbols by address: all, by name, or in a range.",
     "{\"type\":\"object\",\"properties\":{\"filter\":{\"type\":\"string\","
     "\"description\":\"Names containing this (any case)\"},"
     "\"address\":{\"type\":[\"integer\",\"string\"],\"description\":\"Range start\"},"
     "\"length\":{\"type\":[\"integer\",\"string\"],\"description\":\"Range bytes\"},"
     "\"end\":{\"type\":[\"integer\",\"string\"],\"description\":\"Range end (inclusive)\"},"
     "\"limit\":{\"type\":\"integer\",\"description\":\"Most listed (default 200)\","
     "\"minimum\":1,\"maximum\":100000}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"symbols\",\"count\",\"total\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.symbols.list", td_symbols_list, NULL},
    {sizeof(mh_tool_desc), "source_lines", "Source lines",
     "Address or label to file:line and text, or file+line to addresses (needs a loaded "
     ".dbg).",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\","
     "\"string\"],\"description\":\"Number or label\"},\"file\":{\"type\":\"string\","
     "\"description\":\"File (with line)\"},\"line\":{\"type\":\"integer\","
     "\"description\":\"Line\",\"minimum\":1}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"lines\",\"count\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     NULL, td_source_lines, NULL},
    {sizeof(mh_tool_desc), "annotations_list", "List @mcp annotations",
     "\"@mcp-<type>: text\" comments of the sources (from a .dbg, or sources), by the address "
     "they precede.",
     "{\"type\":\"object\",\"properties\":{\"sources\":{\"type\":\"array\",\"items\":{\"type\":"
     "\"string\"},\"description\":\"Source files to index first\"},\"type\":{\"type\":\"string\","
     "\"description\":\"Only this type\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"annotations\",\"count\"]}",
     MH_TOOL_READ_ONLY, MH_TOOL_NEEDS_SESSION, NULL, NULL, td_annotations_list, NULL},
    {sizeof(mh_tool_desc), "annotations_get", "Get @mcp annotations",
     "An address's label, source line and annotations (else the one governing it).",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Number or label\"}},\"required\":[\"address\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"annotations\",\"count\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL, NULL,
     td_annotations_get, NULL},
    {sizeof(mh_tool_desc), "annotations_search", "Search @mcp annotations",
     "Annotations by type (irq-handler, timing-critical, ...) or text.",
     "{\"type\":\"object\",\"properties\":{\"type\":{\"type\":\"string\",\"description\":"
     "\"Exact type\"},\"text\":{\"type\":\"string\",\"description\":\"Words in the text\"}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"annotations\",\"count\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL, NULL,
     td_annotations_search, NULL},
    {sizeof(mh_tool_desc), "backtrace", "Backtrace",
     "Heuristic call stack: JSR return addresses and interrupt frames on the stack page, "
     "each \"likely\" or a \"guess\".",
     "{\"type\":\"object\",\"properties\":{\"limit\":{\"type\":\"integer\","
     "\"description\":\"Most frames (default 32)\",\"minimum\":1,\"maximum\":128}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"pc\",\"frames\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.backtrace", td_backtrace, NULL},
    {sizeof(mh_tool_desc), "cycles_stopwatch", "Cycle stopwatch",
     "CPU cycles since the last reset. To time a routine: reset, run to its end, read.",
     "{\"type\":\"object\",\"properties\":{\"reset\":{\"type\":\"boolean\","
     "\"description\":\"Restart it (returns the time before)\"}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"cycles\",\"reset\"]}",
     0, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.cycles.stopwatch", td_cycles_stopwatch, NULL},
};

mh_status td_register_code(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, code_tools, sizeof code_tools / sizeof code_tools[0]);
}
