/* kit_options.c - a machine's session options read the shared way: parse,
 * unknown names, choices, on/off, flags and a table of path options, with
 * the messages every machine gives (mcphost/kit_options.h). */
#include "mcphost/kit_options.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/args.h"
#include "mcphost/files.h"

mh_status mh_kit_options_parse(const char *options_json, mh_kit_options_reader read,
                               void *config, char *error, size_t error_size)
{
    mh_json_error jerr;
    const char *text = options_json ? options_json : "{}";
    mh_json_doc *doc = mh_json_parse(text, strlen(text), NULL, &jerr);
    if (!doc) {
        snprintf(error, error_size, "options: %s", jerr.message);
        return jerr.status == MH_ERR_NO_MEMORY ? MH_ERR_NO_MEMORY : MH_ERR_INVALID_ARGUMENT;
    }
    const mh_json *root = mh_json_root(doc);
    mh_status status;
    if (mh_json_typeof(root) != MH_JSON_OBJECT) {
        snprintf(error, error_size, "options: expected a JSON object of NAME: VALUE, got %s",
                 mh_json_type_name(mh_json_typeof(root)));
        status = MH_ERR_INVALID_ARGUMENT;
    } else {
        status = read(root, config, error, error_size);
    }
    mh_json_free(doc);
    if (status == MH_ERR_NO_MEMORY) snprintf(error, error_size, "out of memory reading the options");
    return status;
}

mh_status mh_kit_options_check_names(const mh_json *root, const mh_config_item *items,
                                     size_t count, const char *machine, char *error,
                                     size_t error_size)
{
    for (size_t i = 0; i < mh_json_object_size(root); i++) {
        size_t length = 0;
        const char *name = mh_json_object_key(root, i, &length);
        int known = 0;
        for (size_t k = 0; k < count; k++)
            if (strlen(items[k].name) == length && memcmp(items[k].name, name, length) == 0)
                known = 1;
        if (known) continue;
        char list[200] = "";
        for (size_t k = 0; k < count; k++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", items[k].name);
        }
        snprintf(error, error_size, "unknown option \"%.*s\"; %s takes %s",
                 (int)(length > 64 ? 64 : length), name, machine, list);
        return MH_ERR_INVALID_ARGUMENT;
    }
    return MH_OK;
}

static void choice_refused(const mh_json *value, const char *name, const mh_kit_choice *choices,
                           mh_kit_echo echo, const char *text, char *error, size_t error_size)
{
    char list[160] = "";
    for (const mh_kit_choice *c = choices; c->text; c++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"", c == choices ? "" : ", ", c->text);
    }
    const char *type = mh_json_type_name(mh_json_typeof(value));
    if (echo == MH_KIT_ECHO_LOWER) {
        snprintf(error, error_size, "%s: expected one of %s, got %s%s%s", name, list,
                 text[0] ? "\"" : "a ", text[0] ? text : type, text[0] ? "\"" : "");
    } else if (mh_json_typeof(value) == MH_JSON_STRING) {
        size_t length = 0;
        const char *s = mh_json_as_string(value, &length);
        snprintf(error, error_size, "%s: expected one of %s, got \"%.*s\"", name, list,
                 (int)(length > 40 ? 40 : length), s);
    } else {
        snprintf(error, error_size, "%s: expected one of %s, got a %s%s%s", name, list, type,
                 text[0] ? " " : "", text);
    }
}

mh_status mh_kit_option_choice(const mh_json *root, const char *name,
                               const mh_kit_choice *choices, mh_kit_echo echo, int *present,
                               int *out, char *error, size_t error_size)
{
    const mh_json *value = mh_json_object_get(root, name);
    *present = 0;
    if (!value || mh_json_is_null(value)) return MH_OK;
    char text[32] = "";
    if (mh_json_typeof(value) == MH_JSON_STRING) {
        size_t length = 0;
        const char *s = mh_json_as_string(value, &length);
        if (length < sizeof text) {
            for (size_t i = 0; i < length; i++) text[i] = (char)tolower((unsigned char)s[i]);
            text[length] = '\0';
        }
    } else if (mh_json_is_integer(value)) {
        int64_t n = 0;
        if (mh_json_as_int64(value, &n) == MH_OK) snprintf(text, sizeof text, "%lld", (long long)n);
    }
    for (const mh_kit_choice *c = choices; text[0] && c->text; c++)
        if (strcmp(c->text, text) == 0) {
            *present = 1;
            *out = c->value;
            return MH_OK;
        }
    choice_refused(value, name, choices, echo, text, error, error_size);
    return MH_ERR_INVALID_ARGUMENT;
}

static const mh_kit_choice on_off_choices[] = {{"on", 1}, {"off", 0}, {"true", 1},
                                               {"false", 0}, {NULL, 0}};

mh_status mh_kit_option_on_off(const mh_json *root, const char *name, int *out, char *error,
                               size_t error_size)
{
    const mh_json *value = mh_json_object_get(root, name);
    bool b = true;
    if (value && mh_json_typeof(value) == MH_JSON_BOOL && mh_json_as_bool(value, &b) == MH_OK) {
        *out = b;
        return MH_OK;
    }
    int have = 0, v = 0;
    mh_status status = mh_kit_option_choice(root, name, on_off_choices, MH_KIT_ECHO_RAW, &have,
                                            &v, error, error_size);
    if (have) *out = v;
    return status;
}

mh_status mh_kit_option_flag(const mh_json *root, const char *name, int *out, char *error,
                             size_t error_size)
{
    bool b = false;
    mh_status status = mh_args_bool(root, name, &b, error, error_size);
    if (status == MH_ERR_NOT_FOUND) status = MH_OK;
    else if (status != MH_OK) snprintf(error, error_size, "%s: expected true or false", name);
    *out = b;
    return status;
}

static char **path_at(void *config, const mh_kit_path_option *option)
{
    return (char **)(void *)((unsigned char *)config + option->offset);
}

static mh_status path_option(const mh_json *root, const mh_kit_path_option *option,
                             char **out, char *error, size_t error_size)
{
    const char *s = NULL;
    size_t length = 0;
    mh_status status = mh_args_string(root, option->name, &s, &length, error, error_size);
    if (status == MH_ERR_NOT_FOUND) return MH_OK;
    if (status != MH_OK) return status;
    if (length == 0) {
        snprintf(error, error_size, "%s: expected %s, got an empty string", option->name,
                 option->what);
        return MH_ERR_INVALID_ARGUMENT;
    }
    *out = malloc(length + 1);
    if (!*out) return MH_ERR_NO_MEMORY;
    memcpy(*out, s, length + 1);
    return MH_OK;
}

mh_status mh_kit_option_paths(const mh_json *root, const mh_kit_path_option *table,
                              size_t count, void *config, char *error, size_t error_size)
{
    mh_status status = MH_OK;
    for (size_t i = 0; status == MH_OK && i < count; i++)
        status = path_option(root, &table[i], path_at(config, &table[i]), error, error_size);
    return status;
}

mh_status mh_kit_option_paths_confine(const mh_kit_path_option *table, size_t count,
                                      void *config, const mh_host *host, char *error,
                                      size_t error_size)
{
    const mh_files_service *files = host ? host->get_service(host, MH_FILES_SERVICE_ID) : NULL;
    if (!files) return MH_OK; /* in-process tests without a host */
    static const uint32_t passes[] = {MH_FILES_READ, MH_FILES_DIR}; /* files, then dirs */
    mh_status status = MH_OK;
    for (size_t p = 0; p < sizeof passes / sizeof passes[0]; p++)
        for (size_t i = 0; status == MH_OK && i < count; i++)
            if ((table[i].mode == MH_FILES_DIR) == (passes[p] == MH_FILES_DIR))
                status = mh_files_confine(files, host, table[i].name,
                                          path_at(config, &table[i]), table[i].mode, error,
                                          error_size);
    return status;
}

void mh_kit_option_paths_free(const mh_kit_path_option *table, size_t count, void *config)
{
    for (size_t i = 0; i < count; i++) {
        char **path = path_at(config, &table[i]);
        free(*path);
        *path = NULL;
    }
}
