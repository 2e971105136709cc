/* td_compare.c - memory_compare: a range against another range, or
 * against a named snapshot of a range saved earlier (save_as), kept per
 * session in the plugin's store (td_store.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "td_memory.h"
#include "td_store.h"
#include "td_util.h"

static int valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > TD_MAX_SNAPSHOT_NAME) return 0;
    for (const char *s = name; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return 0;
    return 1;
}

static int name_arg(td_call *c, const char *key, const char **out)
{
    mh_status status = mh_args_string(c->args, key, out, NULL, c->err, sizeof c->err);
    if (status == MH_ERR_NOT_FOUND) return 0;
    if (status != MH_OK) return td_fail_arg(c);
    if (!valid_name(*out))
        return td_fail(c, "%s: \"%.*s\" is not a snapshot name; use 1-%u letters, digits, '_', '.' "
                          "or '-'",
                       key, mh_utf8_prefix(*out, 80), *out, TD_MAX_SNAPSHOT_NAME);
    return 0;
}

static int read_range(td_call *c, const td_range *r, uint8_t **out)
{
    *out = malloc(r->length ? r->length : 1);
    if (!*out || c->mem->peek(c->mem_ctx, r->space, r->offset, *out, r->length) != MH_OK)
        return td_fail(c, "memory_compare: could not read %u bytes of \"%s\"", (unsigned)r->length,
                       r->info->name);
    return 0;
}

static int save(td_call *c, const char *name, const td_range *r, const uint8_t *bytes)
{
    td_snapshot snapshot = {0};
    snprintf(snapshot.name, sizeof snapshot.name, "%s", name);
    snprintf(snapshot.space_name, sizeof snapshot.space_name, "%s", r->info->name);
    snapshot.space = r->space;
    snapshot.offset = r->offset;
    snapshot.length = r->length;
    snapshot.shown = r->shown;
    td_session_state *state = td_store_lock(c->plugin->store, td_session_name(c), 1);
    mh_status status = state ? td_snapshot_put(state, &snapshot, bytes) : MH_ERR_NO_MEMORY;
    td_store_unlock(c->plugin->store);
    if (status == MH_ERR_LIMIT)
        return td_fail(c, "save_as: session \"%s\" already has %u snapshots; reuse a name to "
                          "replace one",
                       td_session_name(c), TD_MAX_SNAPSHOTS);
    if (status != MH_OK) return td_fail(c, "save_as: out of memory");
    return 0;
}

static void write_place(mh_json_writer *w, const char *key, const char *space, uint32_t first)
{
    mh_json_write_key(w, key);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "space");
    mh_json_write_string(w, space);
    mh_args_write_address(w, "address", first);
    mh_json_write_object_end(w);
}

/* Writes the differences of a and b (length bytes; addresses from first
 * in a's terms) and the text. */
static void report(td_call *c, mh_json_writer *w, td_buf *text, const uint8_t *a, const uint8_t *b,
                   uint32_t length, uint32_t first, uint32_t limit)
{
    uint32_t differences = 0;
    for (uint32_t i = 0; i < length; i++) differences += a[i] != b[i];
    if (differences)
        td_buf_printf(text, " %u byte%s differ%s (a>b)", (unsigned)differences,
                      differences == 1 ? "" : "s", differences == 1 ? "s" : "");
    else
        td_buf_printf(text, " identical");
    mh_json_write_key(w, "differences");
    mh_json_write_uint(w, differences);
    mh_json_write_key(w, "changes");
    mh_json_write_array_begin(w);
    uint32_t listed = 0;
    for (uint32_t i = 0; i < length && listed < limit; i++) {
        if (a[i] == b[i]) continue;
        mh_json_write_object_begin(w);
        mh_args_write_address(w, "address", first + i);
        td_write_byte(w, "a", a[i]);
        td_write_byte(w, "b", b[i]);
        mh_json_write_object_end(w);
        listed++;
    }
    mh_json_write_array_end(w);
    mh_json_write_key(w, "runs");
    mh_json_write_array_begin(w);
    uint32_t runs = 0;
    for (uint32_t i = 0; i < length;) {
        if (a[i] == b[i]) {
            i++;
            continue;
        }
        uint32_t j = i;
        while (j + 1 < length && a[j + 1] != b[j + 1]) j++;
        if (runs < limit) {
            mh_json_write_object_begin(w);
            mh_args_write_address(w, "start", first + i);
            mh_args_write_address(w, "end", first + j);
            mh_json_write_object_end(w);
        }
        if (runs < 32) {
            td_buf_printf(text, "\n  $%04X", (unsigned)(first + i));
            if (j > i) td_buf_printf(text, "-$%04X", (unsigned)(first + j));
            td_buf_printf(text, ":");
            for (uint32_t k = i; k <= j && k < i + 8; k++)
                td_buf_printf(text, " %02X>%02X", a[k], b[k]);
            if (j >= i + 8) td_buf_printf(text, " ...");
        }
        runs++;
        i = j + 1;
    }
    mh_json_write_array_end(w);
    if (runs > 32) td_buf_printf(text, "\n  ... %u more runs", (unsigned)(runs - 32));
    mh_json_write_key(w, "truncated");
    mh_json_write_bool(w, listed < differences || runs > limit);
    (void)c;
}

void td_memory_compare(void *user, mh_call *call)
{
    td_call c;
    td_range r, r2;
    uint8_t *a = NULL, *b = NULL;
    td_buf text = {0};
    mh_json_writer *w = NULL;
    if (td_begin(&c, user, call, "memory_compare", TD_NEED_MEMORY) != 0) goto done;
    const char *against = NULL, *save_as = NULL;
    if (name_arg(&c, "against", &against) != 0 || name_arg(&c, "save_as", &save_as) != 0) goto done;
    int has_with = mh_json_object_get(c.args, "with") != NULL;
    int64_t limit = 256;
    mh_status status = mh_args_int(c.args, "limit", 1, 65536, &limit, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        td_fail_arg(&c);
        goto done;
    }
    if (!against && !save_as && !has_with) {
        td_fail(&c, "memory_compare: give with (the start of a second range), against (a snapshot "
                    "saved earlier with save_as) or save_as (a name to save this range under)");
        goto done;
    }
    if (against && has_with) {
        td_fail(&c, "give either with (a second range) or against (a saved snapshot), not both");
        goto done;
    }
    w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    if (against) {
        /* The snapshot's own range, now, against what was saved. */
        td_session_state *state = td_store_lock(c.plugin->store, td_session_name(&c), 0);
        td_snapshot *snapshot = state ? td_snapshot_find(state, against) : NULL;
        td_snapshot copy = {0};
        if (snapshot) {
            copy = *snapshot;
            b = malloc(copy.length ? copy.length : 1);
            if (b) memcpy(b, snapshot->bytes, copy.length);
        }
        td_store_unlock(c.plugin->store);
        if (!snapshot) {
            td_fail(&c, "against: no snapshot \"%s\" in session \"%s\"; save one first with "
                        "memory_compare save_as",
                    against, td_session_name(&c));
            goto done;
        }
        if (!b) {
            td_fail(&c, "memory_compare: out of memory");
            goto done;
        }
        if (mh_json_object_get(c.args, "address") || mh_json_object_get(c.args, "space")) {
            td_fail(&c, "against compares the snapshot's own range (%s at $%04X, %u bytes); leave "
                        "out address and space",
                    copy.space_name, (unsigned)(copy.offset + copy.shown), (unsigned)copy.length);
            goto done;
        }
        r.space = copy.space;
        r.info = c.mem->space(c.mem_ctx, copy.space);
        r.offset = copy.offset;
        r.length = copy.length;
        r.shown = copy.shown;
        if (!r.info || (uint64_t)r.offset + r.length > r.info->size) {
            td_fail(&c, "against: snapshot \"%s\" no longer fits this machine's memory", against);
            goto done;
        }
        if (read_range(&c, &r, &a) != 0) goto done;
        uint32_t first = r.offset + r.shown;
        mh_json_write_key(w, "mode");
        mh_json_write_string(w, "snapshot");
        mh_json_write_key(w, "against");
        mh_json_write_string(w, against);
        td_write_range(w, &r);
        td_buf_printf(&text, "%s $%04X-$%04X now vs snapshot \"%s\" (a = saved, b = now):",
                      r.info->name, (unsigned)first, (unsigned)(first + r.length - 1), against);
        /* a = saved, b = now */
        report(&c, w, &text, b, a, r.length, first, (uint32_t)limit);
    } else {
        if (td_range_arg(&c, 0, 0, 1, &r) != 0 || read_range(&c, &r, &a) != 0) goto done;
        uint32_t first = r.offset + r.shown;
        if (has_with) {
            size_t with_space = r.space;
            if (mh_json_object_get(c.args, "with_space") && td_space(&c, "with_space", &with_space) != 0)
                goto done;
            memset(&r2, 0, sizeof r2);
            r2.space = with_space;
            r2.info = c.mem->space(c.mem_ctx, with_space);
            if (td_address_in_space(&c, "with", r.length, &r2) != 0 || read_range(&c, &r2, &b) != 0)
                goto done;
            uint32_t first2 = r2.offset + r2.shown;
            mh_json_write_key(w, "mode");
            mh_json_write_string(w, "ranges");
            td_write_range(w, &r);
            write_place(w, "a", r.info->name, first);
            write_place(w, "b", r2.info->name, first2);
            td_buf_printf(&text, "%s $%04X-$%04X (a) vs %s $%04X-$%04X (b):", r.info->name,
                          (unsigned)first, (unsigned)(first + r.length - 1), r2.info->name,
                          (unsigned)first2, (unsigned)(first2 + r.length - 1));
            report(&c, w, &text, a, b, r.length, first, (uint32_t)limit);
        } else {
            mh_json_write_key(w, "mode");
            mh_json_write_string(w, "saved");
            td_write_range(w, &r);
            td_buf_printf(&text, "saved %s $%04X-$%04X (%u bytes) as \"%s\"; compare later with "
                                 "against: \"%s\"",
                          r.info->name, (unsigned)first, (unsigned)(first + r.length - 1),
                          (unsigned)r.length, save_as, save_as);
        }
    }
    if (save_as) {
        if (save(&c, save_as, &r, a) != 0) goto done;
        mh_json_write_key(w, "saved");
        mh_json_write_string(w, save_as);
        if (against || has_with) td_buf_printf(&text, "\nsaved the range as \"%s\"", save_as);
    }
    mh_json_write_object_end(w);
    td_result(&c, w, text.text);
done:
    mh_json_writer_free(w);
    free(a);
    free(b);
    td_buf_free(&text);
    td_end(&c);
}
