/* td_util.c - the shared helpers of the registers, memory and code tools
 * (td_util.h). */
#include "td_util.h"

#include "td_resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the call ---- */

int td_begin(td_call *c, td_plugin *plugin, mh_call *call, const char *tool, unsigned needs)
{
    memset(c, 0, sizeof *c);
    c->plugin = plugin;
    c->call = call;
    c->tool = tool;
    c->session = plugin->call->session(call);
    c->args = mh_toolkit_session_args(plugin->call, call, tool, &c->doc, c->err, sizeof c->err);
    if (!c->args) return -1;
    if (needs & TD_NEED_CPU) {
        const mh_chip *chip = mh_toolkit_session_chip(plugin->sessions, c->session,
                                                      MH_IFACE_CPU6502, sizeof(mh_cpu6502_iface));
        if (!chip)
            return td_fail(c,
                           "%s is not available on session \"%s\": its %s machine has no "
                           "6502-family CPU interface (%s)",
                           tool, td_session_name(c), plugin->sessions->machine(c->session),
                           MH_IFACE_CPU6502);
        c->cpu = chip->vtable;
        c->cpu_ctx = chip->context;
    }
    if (needs & TD_NEED_MEMORY) {
        const mh_chip *chip = mh_toolkit_session_chip(plugin->sessions, c->session,
                                                      MH_IFACE_MEMORY, MH_MEMORY_IFACE_SIZE_1_0);
        if (!chip)
            return td_fail(c,
                           "%s is not available on session \"%s\": its %s machine has no "
                           "memory interface (%s)",
                           tool, td_session_name(c), plugin->sessions->machine(c->session),
                           MH_IFACE_MEMORY);
        c->mem = chip->vtable;
        c->mem_ctx = chip->context;
    }
    return 0;
}

void td_end(td_call *c)
{
    mh_json_free(c->doc);
    c->doc = NULL;
}

int td_fail_arg(td_call *c) { return td_fail(c, "%s", c->err); }

const char *td_session_name(td_call *c)
{
    const char *name = c->session ? c->plugin->sessions->name(c->session) : NULL;
    return name ? name : "";
}

/* ---- memory spaces and ranges ---- */

const char *td_space_name(td_call *c, size_t space)
{
    const mh_memory_space *info = c->mem ? c->mem->space(c->mem_ctx, space) : NULL;
    return info && info->name ? info->name : "?";
}

int td_space(td_call *c, const char *key, size_t *space)
{
    const char *name = NULL;
    mh_status status = mh_args_string(c->args, key, &name, NULL, c->err, sizeof c->err);
    if (status == MH_ERR_NOT_FOUND) {
        *space = 0;
        return 0;
    }
    if (status != MH_OK) return td_fail_arg(c);
    size_t count = c->mem->space_count(c->mem_ctx);
    char names[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < count; i++) {
        const mh_memory_space *info = c->mem->space(c->mem_ctx, i);
        if (!info || !info->name) continue;
        if (strcmp(info->name, name) == 0) {
            *space = i;
            return 0;
        }
        if (used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s\"%s\"", used ? ", " : "",
                                     info->name);
    }
    return td_fail(c, "%s: unknown memory space \"%.*s\"; this machine has %s (default \"cpu\")", key,
                   mh_utf8_prefix(name, 64), name, names);
}

/* Whether a space may also be addressed through its place in the CPU map:
 * only when those addresses cannot be mistaken for offsets. */
static int has_cpu_form(const mh_memory_space *info)
{
    return info->base != 0 && info->base >= info->size && (uint64_t)info->base + info->size <= 0x10000;
}

int td_place(td_call *c, const char *key, uint32_t start, uint32_t length, td_range *r)
{
    const mh_memory_space *info = r->info;
    if ((uint64_t)start + length <= info->size) {
        r->offset = start;
        r->shown = 0;
        r->length = length;
        return 0;
    }
    if (has_cpu_form(info) && start >= info->base &&
        (uint64_t)start + length <= (uint64_t)info->base + info->size) {
        r->offset = start - info->base;
        r->shown = info->base;
        r->length = length;
        return 0;
    }
    char first[16], last[16];
    mh_args_format_address(first, sizeof first, start);
    mh_args_format_address(last, sizeof last, info->size - 1);
    if (has_cpu_form(info)) {
        char b0[16], b1[16];
        mh_args_format_address(b0, sizeof b0, info->base);
        mh_args_format_address(b1, sizeof b1, info->base + info->size - 1);
        return td_fail(c,
                       "%s: %s (%u byte%s) is outside memory space \"%s\": use offsets $0000-%s or "
                       "its CPU addresses %s-%s",
                       key, first, (unsigned)length, length == 1 ? "" : "s", info->name, last, b0, b1);
    }
    return td_fail(c, "%s: %s + %u byte%s runs past the end of memory space \"%s\" (%s)", key, first,
                   (unsigned)length, length == 1 ? "" : "s", info->name, last);
}

static int load_space(td_call *c, td_range *r)
{
    r->info = c->mem->space(c->mem_ctx, r->space);
    if (!r->info || r->info->size == 0)
        return td_fail(c, "memory space %zu of this machine is empty", r->space);
    return 0;
}

static uint32_t highest_address(const mh_memory_space *info)
{
    return has_cpu_form(info) ? info->base + info->size - 1 : info->size - 1;
}

int td_range_arg(td_call *c, uint32_t default_length, uint32_t max_length, int required_address,
                 td_range *out)
{
    memset(out, 0, sizeof *out);
    if (td_space(c, "space", &out->space) != 0 || load_space(c, out) != 0) return -1;
    uint32_t limit = max_length && max_length < out->info->size ? max_length : out->info->size;
    uint32_t start = 0, length = 0;
    mh_status status = td_resolve_range(c->plugin->store, td_session_name(c), c->args,
                                        highest_address(out->info), default_length, limit, &start,
                                        &length, c->err, sizeof c->err);
    if (status == MH_ERR_NOT_FOUND && !required_address) {
        if (mh_json_object_get(c->args, "length") || mh_json_object_get(c->args, "end"))
            return td_fail(c, "length/end need an address: give address too (\"$C000\")");
        out->offset = 0;
        out->length = limit;
        return 0;
    }
    if (status != MH_OK) return td_fail_arg(c);
    return td_place(c, "address", start, length, out);
}

int td_space_arg(td_call *c, td_range *r)
{
    memset(r, 0, sizeof *r);
    if (td_space(c, "space", &r->space) != 0) return -1;
    return load_space(c, r);
}

int td_address_in_space(td_call *c, const char *key, uint32_t length, td_range *r)
{
    uint32_t address = 0;
    mh_status status = td_resolve_arg(c->plugin->store, td_session_name(c), c->args, key,
                                      highest_address(r->info), &address, c->err, sizeof c->err);
    if (status == MH_ERR_NOT_FOUND) return 1;
    if (status != MH_OK) return td_fail_arg(c);
    return td_place(c, key, address, length, r);
}

void td_write_range(mh_json_writer *w, const td_range *r)
{
    mh_json_write_key(w, "space");
    mh_json_write_string(w, r->info->name);
    mh_args_write_address(w, "address", r->offset + r->shown);
    mh_args_write_address(w, "end", r->offset + r->shown + (r->length ? r->length - 1 : 0));
    mh_json_write_key(w, "length");
    mh_json_write_uint(w, r->length);
}

/* ---- text ---- */

char *td_buf_reserve(td_buf *b, size_t n)
{
    if (b->failed) return NULL;
    if (b->length + n + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < b->length + n + 1) capacity *= 2;
        char *text = realloc(b->text, capacity);
        if (!text) {
            b->failed = 1;
            return NULL;
        }
        b->text = text;
        b->capacity = capacity;
    }
    return b->text + b->length;
}

void td_buf_append(td_buf *b, const char *text, size_t length)
{
    char *at = td_buf_reserve(b, length);
    if (!at) return;
    memcpy(at, text, length);
    b->length += length;
    b->text[b->length] = '\0';
}

void td_buf_printf(td_buf *b, const char *format, ...)
{
    /* Formatted once into the room there is (a line mostly fits in the
     * 256 bytes reserved up front); again only when it did not fit. */
    char *at = td_buf_reserve(b, 128);
    if (!at) return;
    size_t room = b->capacity - b->length;
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(at, room, format, ap);
    va_end(ap);
    if (n < 0) {
        b->text[b->length] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        at = td_buf_reserve(b, (size_t)n);
        if (!at) return;
        va_start(ap, format);
        vsnprintf(at, (size_t)n + 1, format, ap);
        va_end(ap);
    }
    b->length += (size_t)n;
}

void td_buf_free(td_buf *b)
{
    free(b->text);
    memset(b, 0, sizeof *b);
}

#define TD_HEX_ROW(h)                                                                            \
    {h, '0'}, {h, '1'}, {h, '2'}, {h, '3'}, {h, '4'}, {h, '5'}, {h, '6'}, {h, '7'}, {h, '8'},    \
        {h, '9'}, {h, 'A'}, {h, 'B'}, {h, 'C'}, {h, 'D'}, {h, 'E'}, {h, 'F'}

const char td_hex_table[256][2] = {
    TD_HEX_ROW('0'), TD_HEX_ROW('1'), TD_HEX_ROW('2'), TD_HEX_ROW('3'),
    TD_HEX_ROW('4'), TD_HEX_ROW('5'), TD_HEX_ROW('6'), TD_HEX_ROW('7'),
    TD_HEX_ROW('8'), TD_HEX_ROW('9'), TD_HEX_ROW('A'), TD_HEX_ROW('B'),
    TD_HEX_ROW('C'), TD_HEX_ROW('D'), TD_HEX_ROW('E'), TD_HEX_ROW('F'),
};

size_t td_hex_compact(char *out, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++) memcpy(out + 2 * i, td_hex_table[bytes[i]], 2);
    return 2 * n;
}

size_t td_hex_spaced(char *out, const uint8_t *bytes, size_t n)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(out + 3 * i, td_hex_table[bytes[i]], 2);
        out[3 * i + 2] = ' ';
    }
    return 3 * n - 1;
}

void td_format_byte(char out[4], uint8_t value)
{
    out[0] = '$';
    out[1] = td_hex_table[value][0];
    out[2] = td_hex_table[value][1];
    out[3] = '\0';
}

void td_write_byte(mh_json_writer *w, const char *key, uint8_t value)
{
    char hex_key[64], text[4];
    size_t n = strlen(key);
    if (n > sizeof hex_key - 5) n = sizeof hex_key - 5; /* keys are short names */
    memcpy(hex_key, key, n);
    memcpy(hex_key + n, "_hex", 5);
    td_format_byte(text, value);
    mh_json_write_key(w, key);
    mh_json_write_uint(w, value);
    mh_json_write_key(w, hex_key);
    mh_json_write_string(w, text);
}

void td_result(td_call *c, mh_json_writer *w, const char *text)
{
    if (mh_toolkit_send_facts(c->plugin->call, c->call, w, text) != MH_OK)
        td_fail(c, "%s could not build its result: %s", c->tool, mh_json_writer_error(w));
}

mh_status td_register_tools(td_plugin *plugin, const td_tool *tools, size_t count,
                            const char *output_schema)
{
    for (size_t i = 0; i < count; i++) {
        mh_tool_desc desc = {0};
        desc.name = tools[i].name;
        desc.title = tools[i].title;
        desc.description = tools[i].description;
        desc.input_schema = tools[i].schema;
        desc.output_schema = output_schema;
        desc.annotations = tools[i].annotations;
        desc.flags = tools[i].flags;
        desc.seed_name = tools[i].seed;
        desc.call = tools[i].fn;
        mh_status status = td_register_table(plugin, &desc, 1);
        if (status != MH_OK) return status;
    }
    return MH_OK;
}

const char *td_exec_state(td_call *c)
{
    const mh_debug_service *debug = c->plugin->debug;
    if (!debug || debug->struct_size < offsetof(mh_debug_service, state) + sizeof debug->state ||
        !debug->state)
        return NULL;
    return mh_exec_state_name(debug->state(c->session));
}

char *td_fetch_json(size_t (*fn)(mh_session *, char *, size_t), mh_session *session)
{
    size_t size = 16384;
    char *out = malloc(size);
    size_t need = out ? fn(session, out, size) : 0;
    if (out && need >= size) {
        free(out);
        out = malloc(need + 1);
        if (out) fn(session, out, need + 1);
    }
    return out;
}

void td_send_with_facts(td_plugin *plugin, mh_call *call, const char *summary, const char *json)
{
    char *text = mh_toolkit_text_with_facts(summary, json);
    plugin->call->text(call, text ? text : summary);
    plugin->call->structured(call, json);
    free(text);
}
