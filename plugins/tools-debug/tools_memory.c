/* tools_memory.c - memory_read, memory_write, memory_fill and memory_banks
 * through "mh.memory/1", and the registration of every memory tool
 * (memory_search: td_search.c, memory_compare: td_compare.c).
 *
 * Reads use the interface's peek, which has no side effects (an I/O
 * register is read as it stands, never acknowledged). Writes use poke,
 * which acts like a CPU write in "cpu" and "io". memory_read builds its
 * structured result by hand into one buffer: the machine hands the bytes
 * over as runs in place (peek_runs; RAM and ROM are not copied) and
 * td_encode.c writes hex and base64 straight from them in one pass; over
 * 4096 bytes it answers in base64 unless asked for hex. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_encode.h"
#include "td_memory.h"
#include "td_store.h"
#include "td_util.h"

#define MAX_READ 65536u
#define DUMP_LIMIT 4096u /* longest read that also comes as a text dump */

/* Appends a classic dump: "C000  A9 01 ...  |..ascii..|", 16 bytes a row. */
static void hex_dump(td_buf *text, const uint8_t *bytes, uint32_t length, uint32_t first)
{
    for (uint32_t row = 0; row < length; row += 16) {
        uint32_t n = length - row < 16 ? length - row : 16;
        char *at = td_buf_reserve(text, 96);
        if (!at) return;
        uint32_t address = first + row;
        int used;
        if (address <= 0xFFFF) { /* the usual case, without snprintf */
            memcpy(at, td_hex_table[address >> 8], 2);
            memcpy(at + 2, td_hex_table[address & 0xFF], 2);
            at[4] = ' ';
            used = 5;
        } else {
            used = snprintf(at, 16, "%04X ", (unsigned)address);
        }
        for (uint32_t i = 0; i < 16; i++) {
            at[used++] = ' ';
            if (i < n) {
                memcpy(at + used, td_hex_table[bytes[row + i]], 2);
            } else {
                at[used] = at[used + 1] = ' ';
            }
            used += 2;
        }
        at[used++] = ' ';
        at[used++] = ' ';
        at[used++] = '|';
        for (uint32_t i = 0; i < n; i++) {
            uint8_t b = bytes[row + i];
            at[used++] = b >= 0x20 && b < 0x7F ? (char)b : '.';
        }
        at[used++] = '|';
        at[used++] = '\n';
        text->length += (size_t)used;
        text->text[text->length] = '\0';
    }
}

/* The bytes of r into the encoder: as runs in place when the machine has
 * peek_runs (mh.memory/1, ABI 1.6), else one peek into a buffer. */
static mh_status read_into(td_call *c, const td_range *r, td_encoder *e)
{
    if (MH_MEMORY_IFACE_HAS(c->mem, peek_runs))
        return c->mem->peek_runs(c->mem_ctx, r->space, r->offset, r->length, td_encoder_run, e);
    uint8_t *bytes = malloc(r->length);
    if (!bytes) return MH_ERR_NO_MEMORY;
    mh_status status = c->mem->peek(c->mem_ctx, r->space, r->offset, bytes, r->length);
    if (status == MH_OK) td_encoder_run(e, bytes, r->length);
    free(bytes);
    return status;
}

static void memory_read(void *user, mh_call *call)
{
    td_call c;
    td_range r;
    char *json = NULL;
    size_t json_capacity = 0;
    td_buf text = {0};
    uint8_t dump[DUMP_LIMIT]; /* the first bytes, for the text dump */
    if (td_begin(&c, user, call, "memory_read", TD_NEED_MEMORY) != 0 ||
        td_range_arg(&c, 256, MAX_READ, 1, &r) != 0)
        goto done;
    static const char *const formats[] = {"hex", "base64", "both"};
    /* Past the text dump's reach base64 is the default: a third shorter
     * than hex, so less to write and to read. */
    size_t format = r.length > DUMP_LIMIT ? 1 : 0;
    mh_status status = mh_args_choice(c.args, "format", formats, 3, &format, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    uint32_t first = r.offset + r.shown, last = first + r.length - 1;
    int with_hex = format != 1, with_base64 = format != 0;
    size_t b64 = with_base64 ? mh_base64_encoded_length(r.length) : 0;
    size_t cap = 256 + strlen(r.info->name) + (with_hex ? 2u * r.length : 0) + b64;
    /* The result buffer is reused from the session's last read: a 64 KiB
     * read then touches no fresh pages. */
    json = td_scratch_get(c.plugin->store, td_session_name(&c), cap, &json_capacity);
    if (!json) {
        td_fail(&c, "memory_read: out of memory for the result");
        goto done;
    }
    /* Space names are the machine's plain identifiers: no escaping needed,
     * but check rather than trust. */
    for (const char *s = r.info->name; *s; s++)
        if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20) {
            td_fail(&c, "memory_read: this machine's space name cannot be written as JSON");
            goto done;
        }
    char a_hex[16], e_hex[16];
    mh_args_format_address(a_hex, sizeof a_hex, first);
    mh_args_format_address(e_hex, sizeof e_hex, last);
    size_t used = (size_t)snprintf(json, cap,
                                   "{\"space\":\"%s\",\"address\":%u,\"address_hex\":\"%s\","
                                   "\"end\":%u,\"end_hex\":\"%s\",\"length\":%u",
                                   r.info->name, (unsigned)first, a_hex, (unsigned)last, e_hex,
                                   (unsigned)r.length);
    /* Both strings have known lengths, so the encoder writes each in its
     * place in one pass over the bytes. */
    td_encoder enc = {0};
    enc.keep = dump;
    enc.keep_left = r.length < DUMP_LIMIT ? r.length : DUMP_LIMIT;
    if (with_hex) {
        memcpy(json + used, ",\"hex\":\"", 8);
        used += 8;
        enc.hex = json + used;
        used += 2u * r.length;
        json[used++] = '"';
    }
    if (with_base64) {
        memcpy(json + used, ",\"base64\":\"", 11);
        used += 11;
        enc.base64 = json + used;
        used += b64;
    }
    status = read_into(&c, &r, &enc);
    if (status != MH_OK) {
        td_fail(&c, "memory_read: the machine refused to read %u bytes of \"%s\" at offset $%04X (%s)",
                (unsigned)r.length, r.info->name, (unsigned)r.offset, mh_status_name(status));
        goto done;
    }
    td_encoder_finish(&enc);
    if (with_base64) json[used++] = '"';
    json[used++] = '}';
    json[used] = '\0';

    td_buf_printf(&text, "%u byte%s of %s %s-%s", (unsigned)r.length, r.length == 1 ? "" : "s",
                  r.info->name, a_hex, e_hex);
    if (r.length <= DUMP_LIMIT) {
        td_buf_printf(&text, ":\n");
        hex_dump(&text, dump, r.length, first);
    } else {
        /* A text-only client sees the first DUMP_LIMIT bytes and how to
         * read on; the structured result has them all. */
        char next_hex[16];
        mh_args_format_address(next_hex, sizeof next_hex, first + DUMP_LIMIT);
        td_buf_printf(&text, "; the first %u as a dump:\n", DUMP_LIMIT);
        hex_dump(&text, dump, DUMP_LIMIT, first);
        td_buf_printf(&text,
                      "(%u more bytes not shown as text: page on with memory_read address %s "
                      "length up to %u; the structured result's \"%s\" holds all %u)",
                      (unsigned)(r.length - DUMP_LIMIT), next_hex, DUMP_LIMIT,
                      with_hex ? "hex" : "base64", (unsigned)r.length);
    }
    if (text.failed) {
        td_fail(&c, "memory_read: out of memory for the text");
        goto done;
    }
    c.plugin->call->text(call, text.text);
    c.plugin->call->structured(call, json);
done:
    if (json) td_scratch_put(c.plugin->store, td_session_name(&c), json, json_capacity);
    td_buf_free(&text);
    td_end(&c);
}

/* ---- writing ---- */

static int check_writable(td_call *c, const td_range *r)
{
    if (r->info->writable) return 0;
    return td_fail(c, "memory space \"%s\" is read-only on this machine; write to \"cpu\" or \"ram\" "
                      "instead",
                   r->info->name);
}

/* Pokes bytes at r, reads them back and writes the result. */
static void write_and_report(td_call *c, const td_range *r, const uint8_t *bytes, const char *verb,
                             const char *what)
{
    mh_status status = c->mem->poke(c->mem_ctx, r->space, r->offset, bytes, r->length);
    if (status != MH_OK) {
        td_fail(c, "%s: the machine refused to write %u bytes of \"%s\" at offset $%04X (%s)",
                c->tool, (unsigned)r->length, r->info->name, (unsigned)r->offset,
                mh_status_name(status));
        return;
    }
    uint8_t *back = malloc(r->length);
    uint32_t differing = 0, first_diff = 0;
    if (back && c->mem->peek(c->mem_ctx, r->space, r->offset, back, r->length) == MH_OK) {
        for (uint32_t i = 0; i < r->length; i++)
            if (back[i] != bytes[i] && differing++ == 0) first_diff = i;
    }
    free(back);
    uint32_t first = r->offset + r->shown, last = first + r->length - 1;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    td_write_range(w, r);
    mh_json_write_key(w, "differing");
    mh_json_write_uint(w, differing);
    mh_json_write_key(w, "verified");
    mh_json_write_bool(w, differing == 0);
    mh_json_write_object_end(w);
    td_buf text = {0};
    td_buf_printf(&text, "%s %u byte%s %s %s $%04X-$%04X", verb, (unsigned)r->length,
                  r->length == 1 ? "" : "s", what, r->info->name, (unsigned)first, (unsigned)last);
    if (differing)
        td_buf_printf(&text,
                      "; %u of them read back differently (first at $%04X): ROM or I/O is visible "
                      "there (in \"cpu\" a write under a ROM reaches the RAM below: read space "
                      "\"ram\" to see it; see memory_banks)",
                      (unsigned)differing, (unsigned)(first + first_diff));
    td_result(c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
}

static void memory_write(void *user, mh_call *call)
{
    td_call c;
    td_range r;
    uint8_t *bytes = malloc(MAX_READ);
    size_t count = 0;
    if (td_begin(&c, user, call, "memory_write", TD_NEED_MEMORY) != 0) goto done;
    if (!bytes) {
        td_fail(&c, "memory_write: out of memory");
        goto done;
    }
    mh_status status = mh_args_bytes(c.args, "bytes", bytes, MAX_READ, &count, c.err, sizeof c.err);
    if (status != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    if (td_space_arg(&c, &r) != 0) goto done;
    int found = td_address_in_space(&c, "address", (uint32_t)count, &r);
    if (found < 0) goto done;
    if (found == 1) {
        td_fail(&c, "address: missing; give where to write, e.g. \"$C000\"");
        goto done;
    }
    if (check_writable(&c, &r) == 0) write_and_report(&c, &r, bytes, "Wrote", "to");
done:
    free(bytes);
    td_end(&c);
}

static void memory_fill(void *user, mh_call *call)
{
    td_call c;
    td_range r;
    uint8_t pattern[256];
    uint8_t *bytes = NULL;
    size_t count = 0;
    if (td_begin(&c, user, call, "memory_fill", TD_NEED_MEMORY) != 0) goto done;
    mh_status status = mh_args_bytes(c.args, "bytes", pattern, sizeof pattern, &count, c.err,
                                     sizeof c.err);
    if (status != MH_OK) {
        td_fail_arg(&c);
        goto done;
    }
    if (td_range_arg(&c, 0, 0, 1, &r) != 0 || check_writable(&c, &r) != 0) goto done;
    bytes = malloc(r.length);
    if (!bytes) {
        td_fail(&c, "memory_fill: out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < r.length; i++) bytes[i] = pattern[i % count];
    write_and_report(&c, &r, bytes, "Filled", "of");
done:
    free(bytes);
    td_end(&c);
}

/* ---- memory_banks ---- */

static void memory_banks(void *user, mh_call *call)
{
    td_call c;
    if (td_begin(&c, user, call, "memory_banks", TD_NEED_MEMORY) != 0) {
        td_end(&c);
        return;
    }
    mh_json_writer *w = mh_json_writer_new();
    td_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "banks");
    mh_json_write_array_begin(w);
    td_buf_printf(&text, "What the CPU sees now:\n");
    uint32_t start = 0;
    size_t current = c.mem->bank_at(c.mem_ctx, 0);
    for (uint32_t a = 1; a <= 0x10000; a++) {
        size_t bank = a < 0x10000 ? c.mem->bank_at(c.mem_ctx, (uint16_t)a) : (size_t)-1;
        if (bank == current) continue;
        const mh_memory_space *info = c.mem->space(c.mem_ctx, current);
        const char *name = info && info->name ? info->name : "?";
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "start", start);
        mh_args_write_address(w, "end", a - 1);
        mh_json_write_key(w, "space");
        mh_json_write_string(w, name);
        if (info && info->description) {
            mh_json_write_key(w, "description");
            mh_json_write_string(w, info->description);
        }
        mh_json_write_object_end(w);
        td_buf_printf(&text, "$%04X-$%04X %s\n", (unsigned)start, (unsigned)(a - 1), name);
        start = a;
        current = bank;
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    td_result(&c, w, text.text);
    td_buf_free(&text);
    mh_json_writer_free(w);
    td_end(&c);
}

/* ---- registration ---- */

static const mh_tool_desc memory_tools[] = {
    {sizeof(mh_tool_desc), "memory_read", "Read memory",
     "Reads up to 65536 bytes (default 256) without side effects or pausing: hex (base64 over "
     "4096 bytes, or with format) and a hex/ASCII dump.",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Start ($C000, 0xC000 or 49152)\"},\"length\":{\"type\":[\"integer\","
     "\"string\"],\"description\":\"Bytes\"},\"end\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Last address (inclusive), instead of length\"},"
     "\"space\":{\"type\":\"string\",\"description\":\"Memory space (default cpu; see "
     "memory_banks)\"},\"format\":{\"type\":\"string\",\"description\":\"hex (default up "
     "to 4096 bytes), base64 (default above) or both\",\"enum\":[\"hex\",\"base64\",\"both\"]}},\"required\":[\"address\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"space\",\"address\",\"length\"],"
     "\"properties\":{\"hex\":{},\"base64\":{}}}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.memory.read", memory_read, NULL},
    {sizeof(mh_tool_desc), "memory_write", "Write memory",
     "Writes bytes like the CPU would (I/O registers take effect), reads them back and counts "
     "the ones that differ (ROM or I/O).",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Start\"},\"bytes\":{\"type\":[\"array\",\"string\"],"
     "\"description\":\"The bytes: byte array or hex string (\\\"A9 00 8D\\\", \\\"$A9,"
     "$00\\\")\"},\"space\":{\"type\":\"string\",\"description\":\"Memory space (default cpu; "
     "see memory_banks)\"}},\"required\":[\"address\",\"bytes\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"space\",\"address\",\"address_hex\",\"length\"],"
     "\"properties\":{\"differing\":{}}}",
     MH_TOOL_DESTRUCTIVE | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.memory.write", memory_write, NULL},
    {sizeof(mh_tool_desc), "memory_fill", "Fill memory",
     "Fills a range with a repeated pattern of 1-256 bytes.",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Start\"},\"length\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Bytes\"},\"end\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Last address (inclusive), instead of length\"},"
     "\"bytes\":{\"type\":[\"array\",\"string\"],\"description\":\"The pattern: byte array or "
     "hex string (\\\"A9 00 8D\\\", \\\"$A9,$00\\\")\"},\"space\":{\"type\":\"string\","
     "\"description\":\"Memory space (default cpu; see memory_banks)\"}},"
     "\"required\":[\"address\",\"bytes\"],\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"space\",\"address\",\"address_hex\",\"length\"],"
     "\"properties\":{\"differing\":{}}}",
     MH_TOOL_DESTRUCTIVE | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.memory.fill", memory_fill, NULL},
    {sizeof(mh_tool_desc), "memory_search", "Search memory",
     "Finds a byte pattern or text (ASCII, PETSCII or screen codes) in a range (default: the "
     "whole space).",
     "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\","
     "\"description\":\"Hex bytes; ?? any byte, A? or ?9 half a byte: \\\"A9 ?? 8D\\\"\"},"
     "\"text\":{\"type\":\"string\",\"description\":\"Text, instead of pattern\"},"
     "\"encoding\":{\"enum\":[\"ascii\",\"petscii\",\"screen\"],\"description\":\"How text is "
     "stored: ascii (default), petscii, screen (screen codes, reverse too)\"},"
     "\"address\":{\"type\":[\"integer\",\"string\"],\"description\":\"Start\"},"
     "\"length\":{\"type\":[\"integer\",\"string\"],\"description\":\"Bytes\"},"
     "\"end\":{\"type\":[\"integer\",\"string\"],\"description\":\"Last address (inclusive), "
     "instead of length\"},\"space\":{\"type\":\"string\",\"description\":\"Memory space "
     "(default cpu; see memory_banks)\"},\"limit\":{\"type\":\"integer\","
     "\"description\":\"Most matches (default 100)\",\"minimum\":1,\"maximum\":10000}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"pattern\",\"count\",\"matches\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.memory.search", td_memory_search, NULL},
    {sizeof(mh_tool_desc), "memory_compare", "Compare memory",
     "Compares a range with another (with) or with one saved earlier (against); save_as saves "
     "it after comparing.",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Start\"},\"length\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Bytes\"},\"end\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Last address (inclusive), instead of length\"},"
     "\"space\":{\"type\":\"string\",\"description\":\"Memory space (default cpu; see "
     "memory_banks)\"},\"with\":{\"type\":[\"integer\",\"string\"],\"description\":\"Start of "
     "the other range\"},\"with_space\":{\"type\":\"string\",\"description\":\"Space of the "
     "other range (default: space)\"},\"against\":{\"type\":\"string\",\"description\":\"Name "
     "given to save_as earlier\"},\"save_as\":{\"type\":\"string\",\"description\":\"Save the "
     "range under this name\"},\"limit\":{\"type\":\"integer\",\"description\":\"Most "
     "differences listed (default 256)\",\"minimum\":1,\"maximum\":65536}},"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"mode\"],\"properties\":{\"differences\":{},"
     "\"changes\":{},\"runs\":{}}}",
     MH_TOOL_READ_ONLY, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.memory.compare", td_memory_compare, NULL},
    {sizeof(mh_tool_desc), "memory_banks", "Memory banking",
     "Which memory space the CPU reaches at each address now, as ranges (\"$A000-$BFFF "
     "basic\").",
     "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"banks\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, MH_TOOL_NEEDS_SESSION, NULL,
     "vice.memory.banks", memory_banks, NULL},
};

mh_status td_register_memory(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, memory_tools, sizeof memory_tools / sizeof memory_tools[0]);
}
