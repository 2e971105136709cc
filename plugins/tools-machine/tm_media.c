/* tm_media.c - files_autostart, files_attach_disk, files_attach_cartridge,
 * files_attach_tape, files_detach and files_list_disk: media through the
 * machine's "mh.media/1", every path confined by mh.files/1 first. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/media.h>
#include <mcphost/media_d64.h>

#include "tm.h"

#define PATH_SIZE 4096

/* The kinds, with what the tools call them. */
static const char *const kinds[] = {"disk", "tape", "cartridge", "program"};
#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

static int ends_with(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n < e) return 0;
    for (size_t i = 0; i < e; i++)
        if (tolower((unsigned char)path[n - e + i]) != ext[i]) return 0;
    return 1;
}

/* The kind of a file to autostart: its content when it says (CRT and T64
 * signatures, D64 sizes), then its extension, else a program. */
static const char *autostart_kind(const char *path)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_media_kind kind = MH_MEDIA_UNKNOWN;
    if (mh_media_load_file(path, 1u << 20, &bytes, &size, NULL) == MH_OK) {
        kind = mh_media_detect(path, bytes, size);
        free(bytes);
    }
    switch (kind) {
    case MH_MEDIA_D64: return "disk";
    case MH_MEDIA_T64: return "tape";
    case MH_MEDIA_CRT: return "cartridge";
    default: return ends_with(path, ".tap") ? "tape" : "program";
    }
}

static void attach_result(tm_call *c, const char *kind, const char *path, int autostart)
{
    const mh_media_iface *media = c->iface;
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "kind");
    mh_json_write_string(w, kind);
    mh_json_write_key(w, "path");
    mh_json_write_string(w, path);
    mh_json_write_key(w, "autostart");
    mh_json_write_bool(w, autostart != 0);
    mh_json_write_key(w, "attached");
    mh_json_write_object_begin(w);
    for (size_t i = 0; i < KIND_COUNT; i++) {
        const char *p = media->attached(c->ctx, kinds[i]);
        mh_json_write_key(w, kinds[i]);
        if (p) mh_json_write_string(w, p);
        else mh_json_write_null(w);
    }
    mh_json_write_object_end(w);
    tm_write_state(c, w);
    mh_json_write_object_end(w);
    const char *state = tm_state(c);
    char text[PATH_SIZE + 256];
    if (!path[0]) {
        snprintf(text, sizeof text, "detached %s%s%s", strcmp(kind, "all") == 0 ? "all media" : kind,
                 state ? "; machine " : "", state ? state : "");
        tm_result(c, w, text);
        mh_json_writer_free(w);
        return;
    }
    snprintf(text, sizeof text, "attached %s %s%s%s%s%s", kind, path,
             autostart ? "; it starts at the READY prompt" : "",
             autostart && state && strcmp(state, "running") != 0
                 ? " once the machine runs (execution_run)"
                 : "",
             state ? "; machine " : "", state ? state : "");
    tm_result(c, w, text);
    mh_json_writer_free(w);
}

static void attach(tm_call *c, const char *kind, int autostart)
{
    char path[PATH_SIZE], error[1024] = "";
    if (tm_path(c, "path", 1, MH_FILES_READ, path, sizeof path) != 0) return;
    const mh_media_iface *media = c->iface;
    mh_status status = media->attach(c->ctx, kind, path, autostart, error, sizeof error);
    if (status != MH_OK) {
        tm_fail(c, "%s: cannot attach %s as %s: %s", c->tool, path, kind,
                error[0] ? error : mh_status_name(status));
        return;
    }
    attach_result(c, kind, path, autostart);
}

static int autostart_flag(tm_call *c, int def)
{
    bool b = def != 0;
    mh_status status = mh_args_bool(c->args, "autostart", &b, c->err, sizeof c->err);
    if (status == MH_ERR_NOT_FOUND) return def;
    if (status != MH_OK) return tm_fail_arg(c);
    return b ? 1 : 0;
}

#define BEGIN_MEDIA(name)                                                                    \
    tm_call c;                                                                               \
    if (tm_begin(&c, user, call, name, MH_IFACE_MEDIA, sizeof(mh_media_iface)) != 0) {       \
        tm_end(&c);                                                                          \
        return;                                                                              \
    }

static void files_attach_disk(void *user, mh_call *call)
{
    BEGIN_MEDIA("files_attach_disk")
    int64_t drive = 8;
    int autostart = autostart_flag(&c, 0);
    if (autostart >= 0 && tm_int(&c, "drive", 8, 8, 8, &drive) == 0) attach(&c, "disk", autostart);
    tm_end(&c);
}

static void files_attach_tape(void *user, mh_call *call)
{
    BEGIN_MEDIA("files_attach_tape")
    int autostart = autostart_flag(&c, 0);
    if (autostart >= 0) attach(&c, "tape", autostart);
    tm_end(&c);
}

static void files_attach_cartridge(void *user, mh_call *call)
{
    BEGIN_MEDIA("files_attach_cartridge")
    attach(&c, "cartridge", 0);
    tm_end(&c);
}

static void files_autostart(void *user, mh_call *call)
{
    BEGIN_MEDIA("files_autostart")
    char path[PATH_SIZE], error[1024] = "";
    const char *kind = NULL;
    size_t k = 0;
    mh_status status = MH_OK;
    if (tm_path(&c, "path", 1, MH_FILES_READ, path, sizeof path) != 0) goto done;
    status = mh_args_choice(c.args, "kind", kinds, KIND_COUNT, &k, c.err, sizeof c.err);
    if (status == MH_OK) kind = kinds[k];
    else if (status == MH_ERR_NOT_FOUND) kind = autostart_kind(path);
    else {
        tm_fail_arg(&c);
        goto done;
    }
    const mh_media_iface *media = c.iface;
    status = media->attach(c.ctx, kind, path, strcmp(kind, "cartridge") != 0, error, sizeof error);
    if (status != MH_OK) {
        tm_fail(&c, "files_autostart: cannot start %s as a %s: %s", path, kind,
                error[0] ? error : mh_status_name(status));
        goto done;
    }
    /* A cartridge starts by itself: attaching it power-cycles the machine. */
    if (strcmp(kind, "cartridge") == 0) tm_machine_changed(&c, "{\"reason\":\"cartridge\"}");
    attach_result(&c, kind, path, 1);
done:
    tm_end(&c);
}

static void files_detach(void *user, mh_call *call)
{
    BEGIN_MEDIA("files_detach")
    static const char *const choices[] = {"disk", "tape", "cartridge", "program", "all"};
    size_t k = 0;
    char error[1024] = "";
    mh_status status = mh_args_choice(c.args, "kind", choices, 5, &k, c.err, sizeof c.err);
    if (status != MH_OK) {
        if (status == MH_ERR_NOT_FOUND)
            tm_fail(&c, "kind: missing; give \"disk\", \"tape\", \"cartridge\", \"program\" or "
                        "\"all\"");
        else
            tm_fail_arg(&c);
        goto done;
    }
    const mh_media_iface *media = c.iface;
    int had_cart = media->attached(c.ctx, "cartridge") != NULL;
    for (size_t i = 0; i < KIND_COUNT; i++) {
        if (k != 4 && k != i) continue;
        if (k == 4 && !media->attached(c.ctx, kinds[i])) continue;
        status = media->detach(c.ctx, kinds[i], error, sizeof error);
        if (status != MH_OK) {
            tm_fail(&c, "files_detach: cannot detach the %s: %s", kinds[i],
                    error[0] ? error : mh_status_name(status));
            goto done;
        }
    }
    if (had_cart && (k == 2 || k == 4)) tm_machine_changed(&c, "{\"reason\":\"cartridge\"}");
    attach_result(&c, choices[k], "", 0);
done:
    tm_end(&c);
}

/* ---- files_list_disk ---- */

static void write_entry(mh_json_writer *w, const mh_d64_entry *e, tm_buf *text)
{
    const char *type = mh_cbm_file_type_name(e->type);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "name");
    mh_json_write_string(w, e->name);
    mh_json_write_key(w, "type");
    mh_json_write_string(w, type);
    mh_json_write_key(w, "blocks");
    mh_json_write_uint(w, e->blocks);
    mh_json_write_key(w, "closed");
    mh_json_write_bool(w, e->closed);
    mh_json_write_key(w, "locked");
    mh_json_write_bool(w, e->locked);
    mh_json_write_key(w, "track");
    mh_json_write_uint(w, e->track);
    mh_json_write_key(w, "sector");
    mh_json_write_uint(w, e->sector);
    mh_json_write_object_end(w);
    char quoted[24];
    snprintf(quoted, sizeof quoted, "\"%s\"", e->name);
    tm_buf_printf(text, "%-5u %-18s %s%s%s\n", (unsigned)e->blocks, quoted, e->closed ? " " : "*",
                  type, e->locked ? "<" : "");
}

static void files_list_disk(void *user, mh_call *call)
{
    tm_call c;
    char path[PATH_SIZE];
    uint8_t *bytes = NULL;
    size_t size = 0;
    mh_d64 *d64 = NULL;
    if (tm_begin(&c, user, call, "files_list_disk", NULL, 0) != 0) goto done;
    int r = tm_path(&c, "path", 0, MH_FILES_READ, path, sizeof path);
    if (r < 0) goto done;
    if (r == 1) {
        void *ctx = NULL;
        const mh_media_iface *media = tm_find(&c, MH_IFACE_MEDIA, sizeof(mh_media_iface), &ctx);
        const char *attached = media ? media->attached(ctx, "disk") : NULL;
        if (!attached) {
            tm_fail(&c, "files_list_disk: no disk is attached to session \"%s\"; give path (a "
                        ".d64 in an allowed directory) or attach one with files_attach_disk",
                    tm_session_name(&c));
            goto done;
        }
        snprintf(path, sizeof path, "%s", attached);
    }
    mh_media_error merr;
    memset(&merr, 0, sizeof merr);
    mh_status status = mh_media_load_file(path, MH_D64_SIZE_40_ERRORS, &bytes, &size, &merr);
    if (status != MH_OK) {
        tm_fail(&c, "files_list_disk: cannot read %s: %s", path,
                merr.message[0] ? merr.message : mh_status_name(status));
        goto done;
    }
    d64 = mh_d64_open(bytes, size, MH_D64_OPEN_PARTIAL, &merr);
    if (!d64) {
        tm_fail(&c, "files_list_disk: %s is not a usable D64 disk image: %s", path, merr.message);
        goto done;
    }
    mh_json_writer *w = mh_json_writer_new();
    tm_buf text = {0};
    tm_buf_printf(&text, "0 \"%-16s\" %s\n", d64->name, d64->id);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "path");
    mh_json_write_string(w, path);
    mh_json_write_key(w, "name");
    mh_json_write_string(w, d64->name);
    mh_json_write_key(w, "id");
    mh_json_write_string(w, d64->id);
    mh_json_write_key(w, "tracks");
    mh_json_write_uint(w, d64->tracks);
    mh_json_write_key(w, "blocks_free");
    mh_json_write_uint(w, d64->blocks_free);
    mh_json_write_key(w, "entries");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < d64->entry_count; i++) write_entry(w, &d64->entries[i], &text);
    mh_json_write_array_end(w);
    if (d64->directory_error[0]) {
        mh_json_write_key(w, "directory_error");
        mh_json_write_string(w, d64->directory_error);
        tm_buf_printf(&text, "(directory damaged: %s)\n", d64->directory_error);
    }
    mh_json_write_object_end(w);
    tm_buf_printf(&text, "%u BLOCKS FREE.", d64->blocks_free);
    tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
    tm_buf_free(&text);
    mh_json_writer_free(w);
done:
    mh_d64_free(d64);
    free(bytes);
    tm_end(&c);
}

/* ---- registration ---- */

static const char attach_output[] =
    "{\"type\":\"object\",\"required\":[\"kind\",\"attached\"]}";

static const mh_tool_desc tools[] = {
    {0, "files_autostart", "Autostart a file",
     "Loads and starts a program, disk, tape or cartridge as the machine's autostart does (a "
     "PRG is loaded and RUN, a D64 gets LOAD\"*\",8,1 and RUN, a CRT power-cycles into the "
     "cartridge).",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The file to start (in an allowed directory)\"},"
     "\"kind\":{\"type\":\"string\",\"description\":\"Override the kind detected from the "
     "file\",\"enum\":[\"disk\",\"tape\",\"cartridge\",\"program\"]}},\"required\":[\"path\"]}",
     attach_output,
     MH_TOOL_DESTRUCTIVE, 0, MH_IFACE_MEDIA,
     "vice.files.autostart", files_autostart, NULL},
    {0, "files_attach_disk", "Attach a disk image",
     "Inserts a D64 image into drive 8.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The .d64 image (in an allowed directory)\"},"
     "\"drive\":{\"type\":\"integer\",\"description\":\"Drive number; only 8\"},"
     "\"autostart\":{\"type\":\"boolean\",\"description\":\"Also LOAD\\\"*\\\",8,1 and RUN "
     "it\"}},\"required\":[\"path\"]}",
     attach_output,
     0, 0, MH_IFACE_MEDIA,
     "vice.files.attach_disk", files_attach_disk, NULL},
    {0, "files_attach_cartridge", "Attach a cartridge",
     "Plugs a CRT cartridge in; the machine power-cycles into it (RAM is lost).",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The .crt image (in an allowed directory)\"}},\"required\":[\"path\"]}",
     attach_output,
     MH_TOOL_DESTRUCTIVE, 0, MH_IFACE_MEDIA,
     "vice.files.attach_cartridge", files_attach_cartridge, NULL},
    {0, "files_attach_tape", "Attach a tape image",
     "Inserts a T64 image (its first program loads).",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The .t64 image (in an allowed directory)\"},"
     "\"autostart\":{\"type\":\"boolean\",\"description\":\"Also load and RUN it\"}},"
     "\"required\":[\"path\"]}",
     attach_output,
     0, 0, MH_IFACE_MEDIA,
     "vice.files.attach_tape", files_attach_tape, NULL},
    {0, "files_detach", "Detach media",
     "Removes media; a cartridge's removal power-cycles the machine.",
     "{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\","
     "\"description\":\"What to remove\",\"enum\":[\"disk\",\"tape\",\"cartridge\","
     "\"program\",\"all\"]}},\"required\":[\"kind\"]}",
     attach_output,
     MH_TOOL_DESTRUCTIVE, 0, MH_IFACE_MEDIA,
     "vice.files.detach", files_detach, NULL},
    {0, "files_list_disk", "List a disk's directory",
     "A D64's directory: name, id, files (name, type, blocks, track/sector), blocks free.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The .d64 image (default: the disk in drive 8) (in an allowed "
     "directory)\"}}}",
     "{\"type\":\"object\",\"required\":[\"name\",\"entries\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.files.list_disk", files_list_disk, NULL},
};

mh_status tm_register_media(tm_plugin *plugin)
{
    return tm_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
