/* tm_machine.c - machine_reset (mh.machine/1) and config_list, config_get,
 * config_set, config_set_batch (mh.config/1). A setting whose allowed values are "a path"
 * (drive8, cartridge on the C64) is confined by mh.files/1 before the
 * machine sees it; "" detaches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"

#define VALUE_SIZE 4096

/* ---- machine_reset ---- */

static void machine_reset(void *user, mh_call *call)
{
    tm_call c;
    if (tm_begin(&c, user, call, "machine_reset", MH_IFACE_MACHINE, sizeof(mh_machine_iface)) != 0)
        goto done;
    static const char *const modes[] = {"soft", "hard"};
    size_t mode = 0;
    mh_status status = mh_args_choice(c.args, "mode", modes, 2, &mode, c.err, sizeof c.err);
    if (status != MH_OK && status != MH_ERR_NOT_FOUND) {
        tm_fail_arg(&c);
        goto done;
    }
    if (mode == 1 &&
        !mh_toolkit_confirm(c.plugin->call, call,
                            "a hard reset power-cycles the machine: its RAM goes back to the "
                            "power-on pattern and the program in memory is lost"))
        goto done;
    const mh_machine_iface *machine = c.iface;
    status = machine->reset(c.ctx, (int)mode);
    if (status != MH_OK) {
        tm_fail(&c, "machine_reset: the machine refused a %s reset: %s", modes[mode],
                mh_status_name(status));
        goto done;
    }
    tm_machine_changed(&c, mode ? "{\"reason\":\"reset\",\"mode\":\"hard\"}"
                                : "{\"reason\":\"reset\",\"mode\":\"soft\"}");
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "mode");
    mh_json_write_string(w, modes[mode]);
    tm_write_state(&c, w);
    mh_json_write_object_end(w);
    const char *state = tm_state(&c);
    char text[160];
    snprintf(text, sizeof text, "%s reset done (%s); breakpoints kept%s%s", modes[mode],
             mode ? "power cycle: RAM back to its power-on pattern" : "the CPU's reset line; RAM kept",
             state ? "; machine " : "", state ? state : "");
    tm_result(&c, w, text);
    mh_json_writer_free(w);
done:
    tm_end(&c);
}

/* ---- config ---- */

static const mh_config_item *find_item(tm_call *c, const char *name)
{
    const mh_config_iface *config = c->iface;
    for (size_t i = 0; i < config->count(c->ctx); i++) {
        const mh_config_item *item = config->item(c->ctx, i);
        if (item && item->name && strcmp(item->name, name) == 0) return item;
    }
    return NULL;
}

static int unknown_name(tm_call *c, const char *name)
{
    const mh_config_iface *config = c->iface;
    char list[1024] = "";
    for (size_t i = 0; i < config->count(c->ctx); i++) {
        const mh_config_item *item = config->item(c->ctx, i);
        size_t used = strlen(list);
        if (item && used + 40 < sizeof list)
            snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", item->name);
    }
    return tm_fail(c, "name: the %s machine has no setting \"%.*s\"; it has %s (config_list "
                      "describes them)",
                   c->plugin->sessions->machine(c->session), mh_utf8_prefix(name, 64), name, list);
}

static void write_item(tm_call *c, mh_json_writer *w, const mh_config_item *item, tm_buf *text)
{
    const mh_config_iface *config = c->iface;
    char value[VALUE_SIZE] = "";
    mh_status status = config->get(c->ctx, item->name, value, sizeof value);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "name");
    mh_json_write_string(w, item->name);
    mh_json_write_key(w, "value");
    if (status == MH_OK) mh_json_write_string(w, value);
    else mh_json_write_null(w);
    mh_json_write_key(w, "description");
    mh_json_write_string(w, item->description ? item->description : "");
    mh_json_write_key(w, "allowed");
    mh_json_write_string(w, item->allowed ? item->allowed : "");
    mh_json_write_key(w, "runtime");
    mh_json_write_bool(w, item->runtime != 0);
    mh_json_write_object_end(w);
    if (text)
        tm_buf_printf(text, "%-12s = %-20s %s [%s]%s\n", item->name,
                      status == MH_OK ? (value[0] ? value : "\"\"") : "(unreadable)",
                      item->description ? item->description : "",
                      item->allowed ? item->allowed : "", item->runtime ? " (settable)" : "");
}

#define BEGIN_CONFIG(name)                                                                  \
    tm_call c;                                                                              \
    if (tm_begin(&c, user, call, name, MH_IFACE_CONFIG, sizeof(mh_config_iface)) != 0) {    \
        tm_end(&c);                                                                         \
        return;                                                                             \
    }

static void config_list(void *user, mh_call *call)
{
    BEGIN_CONFIG("config_list")
    const mh_config_iface *config = c.iface;
    mh_json_writer *w = mh_json_writer_new();
    tm_buf text = {0};
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "settings");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < config->count(c.ctx); i++) {
        const mh_config_item *item = config->item(c.ctx, i);
        if (item && item->name) write_item(&c, w, item, &text);
    }
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    tm_buf_printf(&text, "(settable: changes on the running machine with config_set; the others "
                         "are chosen at session_create)");
    tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
    tm_buf_free(&text);
    mh_json_writer_free(w);
    tm_end(&c);
}

static void config_get(void *user, mh_call *call)
{
    BEGIN_CONFIG("config_get")
    const char *name = NULL;
    if (tm_string(&c, "name", 1, &name) == 0) {
        const mh_config_item *item = find_item(&c, name);
        if (!item) {
            unknown_name(&c, name);
        } else {
            mh_json_writer *w = mh_json_writer_new();
            tm_buf text = {0};
            write_item(&c, w, item, &text);
            tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
            tm_buf_free(&text);
            mh_json_writer_free(w);
        }
    }
    tm_end(&c);
}

/* The text a setting gets from a JSON value v (named `where` in messages),
 * checked as far as the tool can: the setting is runtime, the type fits,
 * a path is confined by mh.files/1. Returns 0, or -1 after an error result. */
static int value_text(tm_call *c, const char *where, const mh_config_item *item, const mh_json *v,
                      char *value, size_t size)
{
    const char *name = item->name;
    const char *allowed = item->allowed ? item->allowed : "a value";
    int is_path = item->allowed && strstr(item->allowed, "path") != NULL;
    if (!v) return tm_fail(c, "%s: missing; %s takes %s", where, name, allowed);
    if (is_path && mh_json_typeof(v) != MH_JSON_STRING)
        return tm_fail(c, "%s: %s takes a path (a string in an allowed directory; \"\" empties "
                          "it)", where, name);
    switch (mh_json_typeof(v)) {
    case MH_JSON_STRING: {
        size_t length = 0;
        const char *s = mh_json_as_string(v, &length);
        if (strlen(s) != length) return tm_fail(c, "%s: holds a NUL byte; remove it", where);
        if (length >= size) return tm_fail(c, "%s: too long (%zu bytes)", where, length);
        if (!is_path || !length) {
            memcpy(value, s, length + 1);
            break;
        }
        if (!c->plugin->files)
            return tm_fail(c, "%s: this host has no %s service, so no file can be opened", where,
                           MH_FILES_SERVICE_ID);
        char why[1536];
        if (c->plugin->files->resolve(c->plugin->host, s, MH_FILES_READ, value, size, why,
                                      sizeof why) != MH_OK)
            return tm_fail(c, "%s: %s", where, why);
        break;
    }
    case MH_JSON_BOOL: {
        bool b = false;
        mh_json_as_bool(v, &b);
        snprintf(value, size, "%s", b ? "true" : "false");
        break;
    }
    case MH_JSON_NUMBER: {
        int64_t n = 0;
        if (!mh_json_is_integer(v) || mh_json_as_int64(v, &n) != MH_OK)
            return tm_fail(c, "%s: %s takes %s, not a fraction", where, name,
                           item->allowed ? item->allowed : "a whole number");
        snprintf(value, size, "%lld", (long long)n);
        break;
    }
    default:
        return tm_fail(c, "%s: expected a string, number or boolean (%s takes %s)", where, name,
                       allowed);
    }
    if (!item->runtime)
        return tm_fail(c, "%s cannot change on a running machine; it is chosen when the session "
                          "is made: session_create with options {\"%s\": ...}",
                       name, name);
    return 0;
}

static void config_set(void *user, mh_call *call)
{
    BEGIN_CONFIG("config_set")
    const char *name = NULL;
    char value[VALUE_SIZE], error[1024] = "";
    if (tm_string(&c, "name", 1, &name) != 0) goto done;
    const mh_config_item *item = find_item(&c, name);
    if (!item) {
        unknown_name(&c, name);
        goto done;
    }
    if (value_text(&c, "value", item, mh_json_object_get(c.args, "value"), value, sizeof value))
        goto done;
    const mh_config_iface *config = c.iface;
    mh_status status = config->set(c.ctx, name, value, error, sizeof error);
    if (status != MH_OK) {
        tm_fail(&c, "config_set %s: %s", name, error[0] ? error : mh_status_name(status));
        goto done;
    }
    mh_json_writer *w = mh_json_writer_new();
    tm_buf text = {0};
    tm_buf_printf(&text, "set: ");
    write_item(&c, w, item, &text);
    tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
    tm_buf_free(&text);
    mh_json_writer_free(w);
done:
    tm_end(&c);
}

/* config_set_batch: every name and value is checked before the first is
 * set; should the machine refuse one anyway (a file that is no disk image),
 * the ones already set go back to their old values, so the call changes
 * all or nothing. */
#define BATCH_MAX 32

typedef struct batch_entry {
    const mh_config_item *item;
    char value[VALUE_SIZE], old[VALUE_SIZE];
} batch_entry;

static void config_set_batch(void *user, mh_call *call)
{
    BEGIN_CONFIG("config_set_batch")
    const mh_config_iface *config = c.iface;
    const mh_json *settings = mh_json_object_get(c.args, "settings");
    size_t count = settings ? mh_json_object_size(settings) : 0;
    batch_entry *entries = count ? calloc(count, sizeof *entries) : NULL;
    if (count == 0 || count > BATCH_MAX) {
        tm_fail(&c, "settings: give 1 to %d settings as {\"name\": value, ...} (config_list "
                    "names them)", BATCH_MAX);
        goto done;
    }
    if (!entries) {
        tm_fail(&c, "config_set_batch: out of memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        size_t length = 0;
        const char *name = mh_json_object_key(settings, i, &length);
        batch_entry *e = &entries[i];
        e->item = find_item(&c, name);
        if (!e->item) {
            unknown_name(&c, name);
            goto done;
        }
        char where[96];
        snprintf(where, sizeof where, "settings.%.*s", mh_utf8_prefix(name, 64), name);
        if (value_text(&c, where, e->item, mh_json_object_value(settings, i), e->value,
                       sizeof e->value))
            goto done;
        if (config->get(c.ctx, name, e->old, sizeof e->old) != MH_OK) e->old[0] = '\0';
    }
    for (size_t i = 0; i < count; i++) {
        char error[1024] = "";
        mh_status status = config->set(c.ctx, entries[i].item->name, entries[i].value, error,
                                       sizeof error);
        if (status == MH_OK) continue;
        for (size_t k = i; k-- > 0;) {
            char ignored[256];
            config->set(c.ctx, entries[k].item->name, entries[k].old, ignored, sizeof ignored);
        }
        tm_fail(&c, "config_set_batch: %s: %s; nothing was changed (%zu setting%s before it "
                    "went back to the old value)",
                entries[i].item->name, error[0] ? error : mh_status_name(status), i,
                i == 1 ? "" : "s");
        goto done;
    }
    mh_json_writer *w = mh_json_writer_new();
    tm_buf text = {0};
    tm_buf_printf(&text, "set %zu:\n", count);
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "settings");
    mh_json_write_array_begin(w);
    for (size_t i = 0; i < count; i++) write_item(&c, w, entries[i].item, &text);
    mh_json_write_array_end(w);
    mh_json_write_object_end(w);
    tm_result(&c, w, text.failed ? "(out of memory)" : text.text);
    tm_buf_free(&text);
    mh_json_writer_free(w);
done:
    free(entries);
    tm_end(&c);
}

static const char item_output[] =
    "{\"type\":\"object\",\"required\":[\"name\",\"value\"]}";

static const mh_tool_desc tools[] = {
    {0, "machine_reset", "Reset the machine",
     "soft (default): the reset line, RAM kept; hard: a power cycle. Media and breakpoints "
     "stay; a running machine keeps running.",
     "{\"type\":\"object\",\"properties\":{\"mode\":{\"type\":\"string\","
     "\"description\":\"soft (default) or hard\",\"enum\":[\"soft\",\"hard\"]}}}",
     "{\"type\":\"object\",\"required\":[\"mode\"],\"properties\":{\"state\":{}}}",
     MH_TOOL_DESTRUCTIVE, 0, MH_IFACE_MACHINE,
     "vice.machine.reset", machine_reset, NULL},
    {0, "config_list", "List the machine's settings",
     "Every setting with its value, description, allowed values and whether config_set can "
     "change it.",
     NULL,
     "{\"type\":\"object\",\"required\":[\"settings\"]}",
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, MH_IFACE_CONFIG,
     "vice.config.list", config_list, NULL},
    {0, "config_get", "Read a setting",
     "One setting: value, description, allowed values.",
     "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\","
     "\"description\":\"The setting (config_list names them)\"}},\"required\":[\"name\"]}",
     item_output,
     MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT, 0, MH_IFACE_CONFIG,
     "vice.config.get", config_get, NULL},
    {0, "config_set", "Change a setting",
     "Changes a setting a running machine allows (config_list says which), e.g. drive8 (a "
     ".d64 in an allowed directory; \"\" empties it).",
     "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\","
     "\"description\":\"The setting\"},\"value\":{\"type\":[\"string\",\"integer\","
     "\"boolean\"],\"description\":\"Its new value\"}},\"required\":[\"name\",\"value\"]}",
     item_output,
     0, 0, MH_IFACE_CONFIG,
     "vice.config.set", config_set, NULL},
    {0, "config_set_batch", "Change settings together",
     "config_set for several settings, all or nothing.",
     "{\"type\":\"object\",\"properties\":{\"settings\":{\"type\":\"object\","
     "\"description\":\"{\\\"name\\\": value, ...}\"}},\"required\":[\"settings\"]}",
     "{\"type\":\"object\",\"required\":[\"settings\"]}",
     0, 0, MH_IFACE_CONFIG,
     "vice.config.set_batch", config_set_batch, NULL},
};

mh_status tm_register_machine(tm_plugin *plugin)
{
    return tm_register_table(plugin, tools, sizeof tools / sizeof tools[0]);
}
