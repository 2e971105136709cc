/* tm_snapshot.c - snapshot_save, snapshot_load and snapshot_list: the
 * machine's "mh.snapshot/1" blob in a file inside the allowed directories.
 *
 * The file is the blob as the machine made it: "MHSNAP\0\0", the machine
 * name (16 bytes, NUL-padded), the format version (u32 LE), the header size
 * (u32 LE), the state size (u64 LE), then the machine's checksum and state.
 * snapshot_list reads those first 40 bytes of every file in a directory
 * that starts with the magic. A save goes through the SDK's file writer
 * (mcphost/file_write.h): an unpredictable temporary file beside the target,
 * fsynced and renamed into place (without overwrite: true, a rename that
 * never replaces), so a failed save never leaves half a snapshot and a
 * planted link or FIFO cannot redirect or block it. A load is checked by
 * the machine before anything changes; the debug engine then gets a
 * "reset" event (machine_changed) and keeps its breakpoints.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mcphost/file_write.h>
#include <mcphost/media.h>

#include "tm.h"

#define PATH_SIZE 4096
#define SNAP_HEAD 40u
#define SNAP_MAX_FILE (64u * 1024u * 1024u)
#define LIST_MAX 500

typedef struct snap_head {
    char machine[17];
    uint32_t version;
    uint32_t header_size;
    uint64_t state_size;
} snap_head;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 1 when bytes (n of them) start with an MHSNAP header. */
static int parse_head(const uint8_t *bytes, size_t n, snap_head *h)
{
    if (n < SNAP_HEAD || memcmp(bytes, "MHSNAP\0\0", 8) != 0) return 0;
    memcpy(h->machine, bytes + 8, 16);
    h->machine[16] = '\0';
    for (char *p = h->machine; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7E) *p = '?';
    h->version = le32(bytes + 24);
    h->header_size = le32(bytes + 28);
    h->state_size = (uint64_t)le32(bytes + 32) | (uint64_t)le32(bytes + 36) << 32;
    return 1;
}

static void iso_time(time_t t, char out[32])
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- snapshot_save ---- */

/* The result of a save or load: the file, its header and the state. */
static mh_json_writer *snapshot_result(tm_call *c, const char *path, size_t size,
                                       const snap_head *h)
{
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "path");
    mh_json_write_string(w, path);
    mh_json_write_key(w, "size");
    mh_json_write_uint(w, size);
    mh_json_write_key(w, "machine");
    mh_json_write_string(w, h->machine);
    mh_json_write_key(w, "version");
    mh_json_write_uint(w, h->version);
    tm_write_state(c, w);
    mh_json_write_object_end(w);
    return w;
}

static void snapshot_save(void *user, mh_call *call)
{
    tm_call c;
    char path[PATH_SIZE];
    void *blob = NULL;
    size_t size = 0;
    if (tm_begin(&c, user, call, "snapshot_save", MH_IFACE_SNAPSHOT, sizeof(mh_snapshot_iface)) != 0)
        goto done;
    if (tm_path(&c, "path", 1, MH_FILES_WRITE, path, sizeof path) != 0) goto done;
    bool overwrite = false;
    mh_status status = mh_args_bool(c.args, "overwrite", &overwrite, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        tm_fail_arg(&c);
        goto done;
    }
    struct stat st;
    char what[PATH_SIZE + 64];
    snprintf(what, sizeof what, "%s exists and would be replaced", path);
    if (overwrite && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        !mh_toolkit_confirm(c.plugin->call, call, what))
        goto done;
    const mh_snapshot_iface *snap = c.iface;
    status = snap->save(c.ctx, &blob, &size);
    if (status != MH_OK || !blob) {
        tm_fail(&c, "snapshot_save: the machine could not save its state: %s",
                mh_status_name(status != MH_OK ? status : MH_ERR_INTERNAL));
        goto done;
    }
    char why[PATH_SIZE + 256] = "";
    status = mh_file_write(path, blob, size, overwrite ? MH_FILE_OVERWRITE : 0, why, sizeof why);
    if (status != MH_OK) {
        tm_fail(&c, "snapshot_save: %s%s", why,
                status == MH_ERR_EXISTS ? "; pass overwrite: true to replace it, or give another name"
                                        : "");
        goto done;
    }
    mh_toolkit_state_saved(c.plugin->call, call, 1);
    snap_head h = {{0}, 0, 0, 0};
    parse_head(blob, size, &h);
    mh_json_writer *w = snapshot_result(&c, path, size, &h);
    char text[PATH_SIZE + 128];
    snprintf(text, sizeof text, "saved %s (%zu bytes, %s snapshot version %u)", path, size,
             h.machine, (unsigned)h.version);
    tm_result(&c, w, text);
    mh_json_writer_free(w);
done:
    free(blob);
    tm_end(&c);
}

/* ---- snapshot_load ---- */

static void snapshot_load(void *user, mh_call *call)
{
    tm_call c;
    char path[PATH_SIZE];
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (tm_begin(&c, user, call, "snapshot_load", MH_IFACE_SNAPSHOT, sizeof(mh_snapshot_iface)) != 0)
        goto done;
    if (tm_path(&c, "path", 1, MH_FILES_READ, path, sizeof path) != 0) goto done;
    mh_media_error merr;
    memset(&merr, 0, sizeof merr);
    mh_status status = mh_media_load_file(path, SNAP_MAX_FILE, &bytes, &size, &merr);
    if (status != MH_OK) {
        tm_fail(&c, "snapshot_load: cannot read %s: %s", path, merr.message);
        goto done;
    }
    snap_head h;
    if (!parse_head(bytes, size, &h)) {
        tm_fail(&c, "snapshot_load: %s is not an mcphost snapshot (no MHSNAP header); "
                    "snapshot_list shows the snapshots in a directory",
                path);
        goto done;
    }
    /* Unsaved state (it ran, or a tool changed it, since the last snapshot
     * save or load) would be lost: ask. */
    if (!mh_toolkit_state_saved(c.plugin->call, call, 0) &&
        !mh_toolkit_confirm(c.plugin->call, call,
                            "loading a snapshot replaces the machine's current state, which "
                            "changed since the last snapshot save or load"))
        goto done;
    char error[1024] = "";
    const mh_snapshot_iface *snap = c.iface;
    status = snap->load(c.ctx, bytes, size, error, sizeof error);
    if (status != MH_OK) {
        tm_fail(&c, "snapshot_load: %s was not loaded (the machine is unchanged): %s", path,
                error[0] ? error : mh_status_name(status));
        goto done;
    }
    char detail[PATH_SIZE + 64];
    mh_json_writer *dw = mh_json_writer_new();
    mh_json_write_object_begin(dw);
    mh_json_write_key(dw, "reason");
    mh_json_write_string(dw, "snapshot_load");
    mh_json_write_key(dw, "path");
    mh_json_write_string(dw, path);
    mh_json_write_object_end(dw);
    char *detail_json = mh_json_writer_finish(dw, NULL);
    snprintf(detail, sizeof detail, "%s", detail_json ? detail_json : "{}");
    free(detail_json);
    mh_json_writer_free(dw);
    tm_machine_changed(&c, detail);
    mh_toolkit_state_saved(c.plugin->call, call, 1);

    mh_json_writer *w = snapshot_result(&c, path, size, &h);
    const char *state = tm_state(&c);
    char text[PATH_SIZE + 160];
    snprintf(text, sizeof text, "loaded %s (%s snapshot version %u); breakpoints kept%s%s", path,
             h.machine, (unsigned)h.version, state ? "; machine " : "", state ? state : "");
    tm_result(&c, w, text);
    mh_json_writer_free(w);
done:
    free(bytes);
    tm_end(&c);
}

/* ---- snapshot_list ---- */

typedef struct listed {
    char name[256];
    snap_head head;
    uint64_t size;
    time_t mtime;
} listed;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const listed *)a)->name, ((const listed *)b)->name);
}

static void snapshot_list(void *user, mh_call *call)
{
    tm_call c;
    char dir[PATH_SIZE];
    listed *items = NULL;
    DIR *d = NULL;
    if (tm_begin(&c, user, call, "snapshot_list", NULL, 0) != 0) goto done;
    int r = tm_path(&c, "directory", 0, MH_FILES_DIR, dir, sizeof dir);
    if (r < 0) goto done;
    if (r == 1) {
        const char *first =
            c.plugin->files ? c.plugin->files->dir_at(c.plugin->host, 0) : NULL;
        if (!first) {
            tm_fail(&c, "snapshot_list: no allowed directory; start mcphost with --allow-dir DIR");
            goto done;
        }
        snprintf(dir, sizeof dir, "%s", first);
    }
    d = opendir(dir);
    if (!d) {
        tm_fail(&c, "snapshot_list: cannot read the directory %s: %s", dir, strerror(errno));
        goto done;
    }
    items = calloc(LIST_MAX, sizeof *items);
    if (!items) {
        tm_fail(&c, "snapshot_list: out of memory");
        goto done;
    }
    size_t count = 0, skipped = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char full[PATH_SIZE + 260];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        struct stat st;
        /* lstat: a link is not followed (it could lead out of the directory). */
        if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        FILE *f = fopen(full, "rb");
        if (!f) continue;
        uint8_t head[SNAP_HEAD];
        size_t n = fread(head, 1, sizeof head, f);
        fclose(f);
        snap_head h;
        if (!parse_head(head, n, &h)) continue;
        if (count == LIST_MAX) {
            skipped++;
            continue;
        }
        snprintf(items[count].name, sizeof items[count].name, "%s", e->d_name);
        items[count].head = h;
        items[count].size = (uint64_t)st.st_size;
        items[count].mtime = st.st_mtime;
        count++;
    }
    qsort(items, count, sizeof *items, by_name);
    mh_json_writer *w = mh_json_writer_new();
    tm_buf text = {0};
    tm_buf_printf(&text, "%zu snapshot%s in %s", count, count == 1 ? "" : "s", dir);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "directory");
    mh_json_write_string(w, dir);
    mh_json_write_key(w, "snapshots");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < count; i++) {
        char when[32];
        iso_time(items[i].mtime, when);
        mh_json_write_object_begin(w);
        mh_json_write_key(w, "name");
        mh_json_write_string(w, items[i].name);
        mh_json_write_key(w, "machine");
        mh_json_write_string(w, items[i].head.machine);
        mh_json_write_key(w, "version");
        mh_json_write_uint(w, items[i].head.version);
        mh_json_write_key(w, "size");
        mh_json_write_uint(w, items[i].size);
        mh_json_write_key(w, "time");
        mh_json_write_string(w, when);
        mh_json_write_object_end(w);
        tm_buf_printf(&text, "\n%-32s %-8s v%u %10llu bytes  %s", items[i].name,
                      items[i].head.machine, (unsigned)items[i].head.version,
                      (unsigned long long)items[i].size, when);
    }
    mh_json_write_array_end(w);
    if (skipped) {
        mh_json_write_key(w, "not_listed");
        mh_json_write_uint(w, skipped);
        tm_buf_printf(&text, "\n(%zu more not listed: at most %d)", skipped, LIST_MAX);
    }
    mh_json_write_object_end(w);
    tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
    tm_buf_free(&text);
    mh_json_writer_free(w);
done:
    if (d) closedir(d);
    free(items);
    tm_end(&c);
}

static const char snap_output[] =
    "{\"type\":\"object\",\"required\":[\"path\",\"size\",\"machine\"]}";

static const mh_tool_desc tools[] = {
    {0, "snapshot_save", "Save a snapshot",
     "Saves the machine's state (CPU, chips, RAM; not ROMs or media) to a file. A running "
     "machine keeps running.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The file, e.g. \\\"level2.mhsnap\\\" (in an allowed directory)\"},"
     "\"overwrite\":{\"type\":\"boolean\",\"description\":\"Replace an existing file\"}},"
     "\"required\":[\"path\"]}",
     snap_output,
     0, 0, MH_IFACE_SNAPSHOT,
     "vice.snapshot.save", snapshot_save, NULL},
    {0, "snapshot_load", "Load a snapshot",
     "Restores a snapshot_save file; it is checked first and a mismatch changes nothing. "
     "Breakpoints stay.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\","
     "\"description\":\"The snapshot file (in an allowed directory)\"}},"
     "\"required\":[\"path\"]}",
     snap_output,
     MH_TOOL_DESTRUCTIVE, 0, MH_IFACE_SNAPSHOT,
     "vice.snapshot.load", snapshot_load, NULL},
    {0, "snapshot_list", "List snapshots",
     "The snapshots in a directory with machine, version, size and time (UTC).",
     "{\"type\":\"object\",\"properties\":{\"directory\":{\"type\":\"string\","
     "\"description\":\"An allowed directory or one inside it (default: the first)\"}}}",
     "{\"type\":\"object\",\"required\":[\"directory\",\"snapshots\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, NULL,
     "vice.snapshot.list", snapshot_list, NULL},
};

mh_status tm_register_snapshot(tm_plugin *plugin)
{
    return tm_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
