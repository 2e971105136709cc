/* tools_vic2_sprites.c - vic2_sprites_get, vic2_sprites_set,
 * vic2_sprite_image. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/png.h>

#include "tools_vic2.h"

#define END_CALL { tv_end(&c); return; }

/* ---- vic2_sprites_get ---- */

static void sprites_get(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) END_CALL
    unsigned only = 0;
    int one = tv_sprite_arg(&c, 0, &only);
    if (one < 0) END_CALL
    const mh_chip_vic2_view *v = &c.view;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "sprites");
    mh_json_write_array_begin(w);
    char text[2048];
    size_t n = 0;
    for (unsigned i = 0; i < 8; i++) {
        if (one == 0 && i != only) continue;
        const mh_chip_vic2_sprite *s = &v->sprites[i];
        tv_write_sprite(w, i, s);
        if (n < sizeof text)
            n += (size_t)snprintf(
                text + n, sizeof text - n,
                "sprite %u: %s x %u y %u, colour %u (%s)%s%s%s%s, pointer $%02X -> data $%04X\n",
                i, s->enabled ? "on " : "off", s->x, s->y, s->color, tv_color_name(s->color),
                s->multicolor ? ", multicolour" : "", s->expand_x ? ", x2 wide" : "",
                s->expand_y ? ", x2 tall" : "", s->behind_background ? ", behind" : "",
                s->pointer, s->data_address);
    }
    mh_json_write_array_end(w);
    tv_write_color(w, "multicolor0", v->sprite_multicolor[0]);
    tv_write_color(w, "multicolor1", v->sprite_multicolor[1]);
    mh_args_write_byte(w, "sprite_sprite_collisions", v->sprite_sprite_collisions);
    mh_args_write_byte(w, "sprite_background_collisions", v->sprite_background_collisions);
    mh_json_write_object_end(w);
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- vic2_sprites_set ---- */

/* An optional boolean member into a register bit. */
static int set_flag(tv_ctx *c, const char *name, unsigned sprite, uint8_t *reg, int *changed)
{
    bool on = false;
    mh_status st = mh_args_bool(c->args, name, &on, c->err, sizeof c->err);
    if (st == MH_ERR_NOT_FOUND) return 0;
    if (st != MH_OK) {
        tv_fail(c, "%s", c->err);
        return -1;
    }
    *reg = (uint8_t)(on ? (*reg | (1u << sprite)) : (*reg & ~(1u << sprite)));
    *changed = 1;
    return 0;
}

static int opt_int(tv_ctx *c, const char *name, int64_t max, int64_t *out, int *given)
{
    mh_status st = mh_args_int(c->args, name, 0, max, out, c->err, sizeof c->err);
    if (st == MH_ERR_NOT_FOUND) return 0;
    if (st != MH_OK) {
        tv_fail(c, "%s", c->err);
        return -1;
    }
    *given = 1;
    return 0;
}

/* The "ram" space of mh.memory/1, for pointer and data writes. */
static int ram_poke(tv_ctx *c, uint16_t address, const uint8_t *data, size_t length)
{
    void *mctx = NULL;
    const mh_memory_iface *mem = tv_find(c, MH_IFACE_MEMORY, &mctx);
    if (!mem) {
        tv_fail(c, "this machine has no %s interface, so sprite pointers and data cannot be "
                   "written here; write the registers only", MH_IFACE_MEMORY);
        return -1;
    }
    size_t count = mem->space_count(mctx);
    for (size_t i = 0; i < count; i++) {
        const mh_memory_space *space = mem->space(mctx, i);
        if (space && strcmp(space->name, "ram") == 0) {
            if (mem->poke(mctx, i, address, data, length) == MH_OK) return 0;
            break;
        }
    }
    tv_fail(c, "could not write %zu bytes of RAM at $%04X", length, address);
    return -1;
}

static void sprites_set(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) END_CALL
    unsigned s = 0;
    if (tv_sprite_arg(&c, 1, &s) != 0) END_CALL
    uint8_t r[0x2F];
    memcpy(r, c.view.regs, sizeof r);
    int64_t x = 0, y = 0, color = 0, pointer = 0;
    int has_x = 0, has_y = 0, has_color = 0, has_pointer = 0, flags = 0;
    uint8_t data[64];
    size_t data_len = 0;
    if (opt_int(&c, "x", 511, &x, &has_x) || opt_int(&c, "y", 255, &y, &has_y) ||
        opt_int(&c, "color", 15, &color, &has_color) ||
        opt_int(&c, "pointer", 255, &pointer, &has_pointer) ||
        set_flag(&c, "enabled", s, &r[0x15], &flags) ||
        set_flag(&c, "expand_y", s, &r[0x17], &flags) ||
        set_flag(&c, "behind_background", s, &r[0x1B], &flags) ||
        set_flag(&c, "multicolor", s, &r[0x1C], &flags) ||
        set_flag(&c, "expand_x", s, &r[0x1D], &flags))
        END_CALL
    mh_status st = mh_args_bytes(c.args, "data", data, 63, &data_len, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s (the sprite's data is 63 bytes: 21 rows of 3)", c.err);
        END_CALL
    }
    if (!has_x && !has_y && !has_color && !has_pointer && !flags && st == MH_ERR_NOT_FOUND) {
        tv_fail(&c, "nothing to change for sprite %u: give any of x, y, enabled, color, "
                    "multicolor, expand_x, expand_y, behind_background, pointer, data", s);
        END_CALL
    }
    /* Memory first: a failure leaves the registers alone. */
    if (has_pointer) {
        uint8_t p = (uint8_t)pointer;
        if (ram_poke(&c, (uint16_t)(c.view.sprite_pointers + s), &p, 1) != 0) END_CALL
    }
    if (st == MH_OK) {
        uint16_t base = (uint16_t)(c.view.bank_base +
                                   (has_pointer ? (unsigned)pointer : c.view.sprites[s].pointer) * 64u);
        if (ram_poke(&c, base, data, data_len) != 0) END_CALL
    }
    if (has_x) {
        r[2 * s] = (uint8_t)(x & 0xFF);
        r[0x10] = (uint8_t)((x & 0x100) ? (r[0x10] | (1u << s)) : (r[0x10] & ~(1u << s)));
        c.vic->write(c.chip, (uint16_t)(2 * s), r[2 * s]);
        c.vic->write(c.chip, 0x10, r[0x10]);
    }
    if (has_y) c.vic->write(c.chip, (uint16_t)(2 * s + 1), (uint8_t)y);
    if (has_color) c.vic->write(c.chip, (uint16_t)(0x27 + s), (uint8_t)color);
    static const uint8_t flag_regs[5] = {0x15, 0x17, 0x1B, 0x1C, 0x1D};
    for (unsigned i = 0; flags && i < 5; i++) c.vic->write(c.chip, flag_regs[i], r[flag_regs[i]]);

    c.view.struct_size = sizeof c.view;
    c.vic->view(c.chip, &c.view);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "sprite");
    tv_write_sprite(w, s, &c.view.sprites[s]);
    mh_json_write_key(w, "data_bytes_written");
    mh_json_write_uint(w, st == MH_OK ? data_len : 0);
    mh_json_write_object_end(w);
    const mh_chip_vic2_sprite *sp = &c.view.sprites[s];
    char text[256];
    snprintf(text, sizeof text, "sprite %u now: %s x %u y %u colour %u, pointer $%02X (data $%04X)%s",
             s, sp->enabled ? "on" : "off", sp->x, sp->y, sp->color, sp->pointer,
             sp->data_address, st == MH_OK ? ", data written" : "");
    tv_send(&c, w, text);
    tv_end(&c);
}

/* ---- vic2_sprite_image ---- */

static void sprite_image(void *user, mh_call *call)
{
    tv_ctx c;
    if (tv_begin(user, call, &c) != 0) END_CALL
    unsigned s = 0;
    if (tv_sprite_arg(&c, 1, &s) != 0) END_CALL
    int64_t scale = 4;
    mh_status st = mh_args_int(c.args, "scale", 1, 8, &scale, c.err, sizeof c.err);
    if (st != MH_OK && st != MH_ERR_NOT_FOUND) {
        tv_fail(&c, "%s", c.err);
        END_CALL
    }
    const mh_chip_vic2_sprite *sp = &c.view.sprites[s];
    uint8_t data[63];
    c.vic->vic_read(c.chip, sp->data_vic_address, data, sizeof data);
    uint8_t pixels[TV_SPRITE_H][TV_SPRITE_W];
    tv_sprite_pixels(data, sp->multicolor, sp->color, c.view.sprite_multicolor[0],
                     c.view.sprite_multicolor[1], pixels);
    const uint8_t bg = c.view.background[0];
    for (unsigned y = 0; y < TV_SPRITE_H; y++)
        for (unsigned x = 0; x < TV_SPRITE_W; x++)
            if (pixels[y][x] == TV_TRANSPARENT) pixels[y][x] = bg;

    /* The machine's palette when it shows pictures, else Pepto's. */
    const uint32_t *pal = tv_default_palette;
    void *vctx = NULL;
    const mh_video_iface *video = tv_find(&c, MH_IFACE_VIDEO, &vctx);
    mh_video_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    if (video && video->frame(vctx, &frame) == MH_OK && frame.palette && frame.palette_size >= 16)
        pal = frame.palette;
    uint8_t rgb[16 * 3];
    mh_png_palette_rgb(pal, 16, rgb);
    mh_png_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.format = MH_PNG_INDEXED8;
    desc.width = TV_SPRITE_W;
    desc.height = TV_SPRITE_H;
    desc.pixels = pixels;
    desc.palette = rgb;
    desc.palette_size = 16;
    desc.scale_x = desc.scale_y = (unsigned)scale;
    uint8_t *png = NULL;
    size_t png_size = 0;
    if (mh_png_encode(&desc, &png, &png_size) != MH_OK) {
        tv_fail(&c, "internal error: the sprite image could not be encoded");
        END_CALL
    }
    char art[21 * 25 + 1];
    tv_sprite_ascii(data, sp->multicolor, art);
    char text[1024];
    snprintf(text, sizeof text,
             "sprite %u, data at $%04X (%s, colour %u%s), '.' transparent, '#' sprite colour%s:\n%s",
             s, sp->data_address, sp->multicolor ? "multicolour" : "hires", sp->color,
             sp->enabled ? "" : ", disabled",
             sp->multicolor ? ", 'a' multicolour 0 ($D025), 'b' multicolour 1 ($D026)" : "", art);

    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "sprite");
    mh_json_write_uint(w, s);
    mh_args_write_address(w, "data_address", sp->data_address);
    mh_json_write_key(w, "multicolor");
    mh_json_write_bool(w, sp->multicolor != 0);
    mh_json_write_key(w, "width");
    mh_json_write_uint(w, TV_SPRITE_W * (unsigned)scale);
    mh_json_write_key(w, "height");
    mh_json_write_uint(w, TV_SPRITE_H * (unsigned)scale);
    mh_json_write_key(w, "scale");
    mh_json_write_uint(w, (uint64_t)scale);
    mh_json_write_key(w, "data");
    mh_json_write_array_begin(w);
    for (unsigned i = 0; i < 63; i++) mh_json_write_uint(w, data[i]);
    mh_json_write_array_end(w);
    mh_json_write_key(w, "ascii");
    mh_json_write_string(w, art);
    mh_json_write_object_end(w);
    tv_send(&c, w, text); /* the summary and art, then the facts not in them */
    c.plugin->call->image(call, "image/png", png, png_size);
    free(png);
    tv_end(&c);
}

/* ---- registration ---- */

static const mh_tool_desc tools[] = {
    {0, "vic2_sprites_get", "VIC-II sprites",
     "The sprites decoded: enable, position, colour, multicolour, expansion, priority, "
     "pointer and data address, collisions.",
     "{\"type\":\"object\",\"properties\":{\"sprite\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Only this sprite (0-7)\"}},\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"sprites\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.vic2.sprites.get", sprites_get, NULL},
    {0, "vic2_sprites_set", "Change a VIC-II sprite",
     "Changes one sprite's registers, pointer and data; returns it after.",
     "{\"type\":\"object\",\"properties\":{\"sprite\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Sprite 0-7\"},\"x\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"X 0-511\"},\"y\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Y 0-255\"},\"color\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Colour 0-15\"},\"pointer\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Sprite pointer (data at bank + pointer * 64)\"},"
     "\"enabled\":{\"type\":\"boolean\",\"description\":\"Shown\"},"
     "\"multicolor\":{\"type\":\"boolean\",\"description\":\"Multicolour\"},"
     "\"expand_x\":{\"type\":\"boolean\",\"description\":\"Double width\"},"
     "\"expand_y\":{\"type\":\"boolean\",\"description\":\"Double height\"},"
     "\"behind_background\":{\"type\":\"boolean\",\"description\":\"Behind foreground "
     "graphics\"},\"data\":{\"type\":[\"array\",\"string\"],\"description\":\"Up to 63 data "
     "bytes: array or hex \\\"FF 00 FF\\\"\"}},\"required\":[\"sprite\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"sprite\"]}",
     0, 0, NULL,
     "vice.vic2.sprites.set", sprites_set, NULL},
    {0, "vic2_sprite_image", "Sprite image",
     "A sprite's 24x21 pixels as a PNG (transparent in the background colour) and as ASCII "
     "art.",
     "{\"type\":\"object\",\"properties\":{\"sprite\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Sprite 0-7\"},\"scale\":{\"type\":[\"integer\",\"string\"],"
     "\"description\":\"Pixel scale 1-8 (default 4)\"}},\"required\":[\"sprite\"],"
     "\"additionalProperties\":false}",
     "{\"type\":\"object\",\"required\":[\"sprite\",\"ascii\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.vic2.sprite.image", sprite_image, NULL},
};

mh_status tv_register_sprites(tv_plugin *plugin)
{
    return tv_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
