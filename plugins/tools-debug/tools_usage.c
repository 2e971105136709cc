/* tools_usage.c - memory_usage_get: the code/data log the profiler keeps
 * while on (mh.debug/1 profile_view usage): how many bytes of a range were
 * executed (as opcode or operand), read and written, the ranges of code
 * and of data, and a heat map of the 64 KiB as a PNG (256 x 256, one pixel
 * per byte, address = y * 256 + x, colour by kind). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/png.h>

#include "td_profile.h"
#include "td_store.h"
#include "td_resolve.h"

#define MAX_RANGES 32

/* Heat map colours by what happened to a byte. */
enum { PX_NONE, PX_OPCODE, PX_OPERAND, PX_READ, PX_WRITE, PX_READ_WRITE, PX_CODE_WRITTEN,
       PX_COUNT };
static const uint8_t palette[PX_COUNT * 3] = {
    0x18, 0x18, 0x18, /* untouched: near black */
    0x40, 0xFF, 0x40, /* opcode: bright green */
    0x20, 0x90, 0x20, /* operand: dark green */
    0x40, 0x80, 0xFF, /* read: blue */
    0xFF, 0x40, 0x40, /* written: red */
    0xFF, 0x40, 0xFF, /* read and written: magenta */
    0xFF, 0xFF, 0x40, /* code that was also written (self-modifying): yellow */
};

static uint8_t pixel_of(uint8_t usage)
{
    int code = usage & (MH_USAGE_OPCODE | MH_USAGE_OPERAND);
    if (code && (usage & MH_USAGE_WRITE)) return PX_CODE_WRITTEN;
    if (usage & MH_USAGE_OPCODE) return PX_OPCODE;
    if (usage & MH_USAGE_OPERAND) return PX_OPERAND;
    if ((usage & MH_USAGE_READ) && (usage & MH_USAGE_WRITE)) return PX_READ_WRITE;
    if (usage & MH_USAGE_READ) return PX_READ;
    if (usage & MH_USAGE_WRITE) return PX_WRITE;
    return PX_NONE;
}

static int is_code(uint8_t usage) { return (usage & (MH_USAGE_OPCODE | MH_USAGE_OPERAND)) != 0; }
static int is_data(uint8_t usage)
{
    return !is_code(usage) && (usage & (MH_USAGE_READ | MH_USAGE_WRITE));
}

/* The runs of bytes in [start, end] for which test() holds, as a "key"
 * array (at most MAX_RANGES) and text lines; returns how many runs. */
static size_t write_runs(mh_json_writer *w, td_buf *text, const char *key, const uint8_t *usage,
                         uint32_t start, uint32_t end, int (*test)(uint8_t))
{
    size_t runs = 0;
    mh_json_write_key(w, key);
    mh_json_write_array_begin(w);
    td_buf_printf(text, "%s ranges:", key);
    for (uint32_t a = start; a <= end; a++) {
        if (!test(usage[a])) continue;
        uint32_t b = a;
        while (b < end && test(usage[b + 1])) b++;
        if (runs < MAX_RANGES) {
            mh_json_write_object_begin(w);
            mh_args_write_address(w, "start", a);
            mh_args_write_address(w, "end", b);
            mh_json_write_object_end(w);
            td_buf_printf(text, " $%04X-$%04X", a, b);
        }
        runs++;
        a = b;
    }
    mh_json_write_array_end(w);
    if (runs > MAX_RANGES) td_buf_printf(text, " (%zu more)", runs - MAX_RANGES);
    td_buf_printf(text, "%s\n", runs ? "" : " none");
    return runs;
}

static void memory_usage_get(void *user, mh_call *call)
{
    td_call c;
    uint8_t *pixels = NULL, *png = NULL;
    mh_json_writer *w = NULL;
    td_buf text = {0};
    if (td_begin(&c, user, call, "memory_usage_get", TD_NEED_CPU) != 0) goto done;
    const mh_profile_view *v = td_profile_view(&c);
    if (!v) goto done;
    uint32_t start = 0, length = 65536;
    bool image = true;
    mh_status s = MH_OK;
    if (mh_json_object_get(c.args, "address"))
        s = td_resolve_range(c.plugin->store, td_session_name(&c), c.args, 0xFFFF, 1, 65536,
                             &start, &length, c.err, sizeof c.err);
    if (s == MH_OK) s = mh_args_bool(c.args, "image", &image, c.err, sizeof c.err);
    if (s != MH_OK && s != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    uint32_t end = start + length - 1;
    uint64_t counts[4] = {0}, untouched = 0, reads = 0, writes = 0;
    for (uint32_t a = start; a <= end; a++) {
        for (unsigned k = 0; k < 4; k++) counts[k] += (v->usage[a] >> k) & 1u;
        untouched += v->usage[a] == 0;
        reads += v->reads[a];
        writes += v->writes[a];
    }
    w = mh_json_writer_new();
    if (!w) {
        td_fail(&c, "memory_usage_get: out of memory");
        goto done;
    }
    mh_json_write_object_begin(w);
    mh_args_write_bool(w, "on", v->on);
    mh_args_write_address(w, "address", start);
    mh_args_write_address(w, "end", end);
    mh_args_write_uint(w, "opcode", counts[0]);
    mh_args_write_uint(w, "operand", counts[1]);
    mh_args_write_uint(w, "read", counts[2]);
    mh_args_write_uint(w, "written", counts[3]);
    mh_args_write_uint(w, "untouched", untouched);
    mh_args_write_uint(w, "reads", reads);
    mh_args_write_uint(w, "writes", writes);
    td_buf_printf(&text, "code/data log (profiler %s) of $%04X-$%04X: bytes executed as opcode "
                  "%llu, as operand %llu, read %llu, written %llu, untouched %llu; %llu data "
                  "reads and %llu writes in all\n", v->on ? "on" : "off", start, end,
                  (unsigned long long)counts[0], (unsigned long long)counts[1],
                  (unsigned long long)counts[2], (unsigned long long)counts[3],
                  (unsigned long long)untouched, (unsigned long long)reads,
                  (unsigned long long)writes);
    write_runs(w, &text, "code", v->usage, start, end, is_code);
    write_runs(w, &text, "data", v->usage, start, end, is_data);
    mh_args_write_bool(w, "image", image);
    mh_json_write_object_end(w);
    if (image) {
        /* the whole 64 KiB, whatever the range: one pixel per byte */
        pixels = malloc(65536);
        size_t size = 0;
        if (!pixels) {
            td_fail(&c, "memory_usage_get: out of memory");
            goto done;
        }
        for (uint32_t a = 0; a < 65536; a++) pixels[a] = pixel_of(v->usage[a]);
        mh_png_desc desc = {0};
        desc.format = MH_PNG_INDEXED8;
        desc.width = desc.height = 256;
        desc.pixels = pixels;
        desc.palette = palette;
        desc.palette_size = PX_COUNT;
        if (mh_png_encode(&desc, &png, &size) != MH_OK) {
            td_fail(&c, "memory_usage_get: the heat map could not be encoded");
            goto done;
        }
        c.plugin->call->image(c.call, "image/png", png, size);
        td_buf_printf(&text, "image: 256x256 PNG of $0000-$FFFF, address = y*256 + x; green "
                      "opcode, dark green operand, blue read, red written, magenta read and "
                      "written, yellow code written, dark untouched\n");
    }
    if (text.failed) {
        td_fail(&c, "memory_usage_get: out of memory for the text");
        goto done;
    }
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(pixels);
    free(png);
    td_buf_free(&text);
    td_end(&c);
}

static const mh_tool_desc usage_tools[] = {
    {sizeof(mh_tool_desc), "memory_usage_get", NULL,
     "Code/data log: bytes executed, read, written; heat map PNG.",
     "{\"type\":\"object\",\"properties\":{\"address\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"or label\"},\"length\":{\"type\":\"integer\","
     "\"description\":\"bytes\"},\"image\":{\"type\":\"boolean\",\"description\":"
     "\"PNG\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"code\",\"data\"]}", MH_TOOL_READ_ONLY,
     MH_TOOL_NEEDS_SESSION, NULL, NULL, memory_usage_get, NULL},
};

mh_status td_register_usage(td_plugin *plugin)
{
    mh_status status = td_store_ensure(plugin);
    if (status != MH_OK) return status;
    return td_register_table(plugin, usage_tools, 1);
}
