/* plus4_options.c - the session's options (a JSON object from --config,
 * the CLI's machine flags or session_create's `options`) to a checked
 * plus4_config. An unknown name or a bad value is refused with a message
 * that names the option and lists what it takes.
 *
 *   rom_dir    directory with the ROMs under VICE's names (plus4_rom.c)
 *   video      "pal" (7360 TED) | "ntsc" (8360)
 *   model      "plus4" (64 KiB, 3-plus-1 ROMs, ACIA) | "c16" (16 KiB)
 *   sound      on | off: TED sound synthesis and audio out
 *   autostart  a .prg (or .d64: its first program) started at READY
 *   debugcart  true: a write to $FDCF ends the run with that exit code
 *   drive8     a .d64 in the virtual drive 8
 *   cartridge  a cartridge ROM image (plus4_machine.c)
 *
 * plus4_options_confine() puts the paths through the host's mh.files/1
 * service (the allowed directories), as the C64 does.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/args.h"
#include "mcphost/files.h"
#include "mcphost/json.h"
#include "mcphost/machine.h"
#include "plus4.h"

static const mh_config_item option_items[] = {
    {"rom_dir", "Directory with the Plus/4 ROMs (VICE names: basic-318006-01.bin, "
                "kernal-318004-05.bin ...)", "a directory", 0},
    {"video", "Video standard (the TED: 7360 PAL or 8360 NTSC)", "pal|ntsc", 0},
    {"model", "Plus/4 (64 KiB, 3-plus-1, ACIA) or C16 (16 KiB)", "plus4|c16", 0},
    {"sound", "TED sound synthesis and audio out", "on|off", 0},
    {"autostart", "Program (.prg, .d64) loaded and started at READY", "a path", 0},
    {"debugcart", "A write to $FDCF ends the run with that exit code", "true|false", 0},
    {"drive8", "D64 disk in the virtual drive 8 (\"\" detaches)", "a path", 1},
    {"cartridge", "Cartridge ROM image for slot 1 (setting it hard-resets; \"\" detaches)",
     "a path", 1},
};
#define OPTION_COUNT (sizeof option_items / sizeof option_items[0])

const mh_config_item *plus4_option_items(size_t *count)
{
    *count = OPTION_COUNT;
    return option_items;
}

typedef struct choice {
    const char *text;
    int value;
} choice;

static const choice video_choices[] = {{"pal", 0}, {"ntsc", 1}, {NULL, 0}};
static const choice model_choices[] = {{"plus4", PLUS4_MODEL_PLUS4}, {"plus/4", PLUS4_MODEL_PLUS4},
                                       {"c16", PLUS4_MODEL_C16}, {NULL, 0}};
static const choice sound_choices[] = {{"on", 1}, {"off", 0}, {"true", 1}, {"false", 0},
                                       {NULL, 0}};

static mh_status check_names(const mh_json *root, char *error, size_t error_size)
{
    for (size_t i = 0; i < mh_json_object_size(root); i++) {
        size_t length = 0;
        const char *name = mh_json_object_key(root, i, &length);
        int known = 0;
        for (size_t k = 0; k < OPTION_COUNT; k++)
            if (strlen(option_items[k].name) == length && memcmp(option_items[k].name, name, length) == 0)
                known = 1;
        if (known) continue;
        char list[200] = "";
        for (size_t k = 0; k < OPTION_COUNT; k++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", option_items[k].name);
        }
        snprintf(error, error_size, "unknown option \"%.*s\"; plus4 takes %s",
                 (int)(length > 64 ? 64 : length), name, list);
        return MH_ERR_INVALID_ARGUMENT;
    }
    return MH_OK;
}

/* A choice given as a string or a whole number; *present = 0 when absent. */
static mh_status choice_option(const mh_json *root, const char *name, const choice *choices,
                               int *present, int *out, char *error, size_t error_size)
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
    for (const choice *c = choices; text[0] && c->text; c++)
        if (strcmp(c->text, text) == 0) {
            *present = 1;
            *out = c->value;
            return MH_OK;
        }
    char list[160] = "";
    for (const choice *c = choices; c->text; c++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"", c == choices ? "" : ", ", c->text);
    }
    if (mh_json_typeof(value) == MH_JSON_STRING) {
        size_t length = 0;
        const char *s = mh_json_as_string(value, &length);
        snprintf(error, error_size, "%s: expected one of %s, got \"%.*s\"", name, list,
                 (int)(length > 40 ? 40 : length), s);
    } else {
        snprintf(error, error_size, "%s: expected one of %s, got a %s%s%s", name, list,
                 mh_json_type_name(mh_json_typeof(value)), text[0] ? " " : "", text);
    }
    return MH_ERR_INVALID_ARGUMENT;
}

static mh_status string_option(const mh_json *root, const char *name, const char *what,
                               char **out, char *error, size_t error_size)
{
    const char *s = NULL;
    size_t length = 0;
    mh_status status = mh_args_string(root, name, &s, &length, error, error_size);
    if (status == MH_ERR_NOT_FOUND) return MH_OK;
    if (status != MH_OK) return status;
    if (length == 0) {
        snprintf(error, error_size, "%s: expected %s, got an empty string", name, what);
        return MH_ERR_INVALID_ARGUMENT;
    }
    *out = malloc(length + 1);
    if (!*out) return MH_ERR_NO_MEMORY;
    memcpy(*out, s, length + 1);
    return MH_OK;
}

static mh_status read_options(const mh_json *root, plus4_config *config, char *error,
                              size_t error_size)
{
    mh_status status = check_names(root, error, error_size);
    int have = 0, value = 0;
    if (status == MH_OK) {
        status = choice_option(root, "video", video_choices, &have, &value, error, error_size);
        if (have) config->ntsc = value;
    }
    if (status == MH_OK) {
        status = choice_option(root, "model", model_choices, &have, &value, error, error_size);
        if (have) config->model = (plus4_model)value;
    }
    if (status == MH_OK) {
        const mh_json *sound = mh_json_object_get(root, "sound");
        bool b = true;
        if (sound && mh_json_typeof(sound) == MH_JSON_BOOL && mh_json_as_bool(sound, &b) == MH_OK) {
            config->sound = b;
        } else {
            status = choice_option(root, "sound", sound_choices, &have, &value, error, error_size);
            if (have) config->sound = value;
        }
    }
    if (status == MH_OK)
        status = string_option(root, "rom_dir", "a directory holding the Plus/4 ROMs",
                               &config->rom_dir, error, error_size);
    if (status == MH_OK)
        status = string_option(root, "autostart", "the path of a .prg or .d64 file",
                               &config->autostart, error, error_size);
    if (status == MH_OK)
        status = string_option(root, "drive8", "the path of a .d64 disk image", &config->drive8,
                               error, error_size);
    if (status == MH_OK)
        status = string_option(root, "cartridge", "the path of a cartridge ROM image",
                               &config->cartridge, error, error_size);
    if (status == MH_OK) {
        bool b = false;
        status = mh_args_bool(root, "debugcart", &b, error, error_size);
        if (status == MH_ERR_NOT_FOUND) status = MH_OK;
        else if (status != MH_OK)
            snprintf(error, error_size, "debugcart: expected true or false");
        config->debugcart = b;
    }
    return status;
}

mh_status plus4_options_parse(const char *options_json, plus4_config *config, char *error,
                              size_t error_size)
{
    memset(config, 0, sizeof *config);
    config->sound = 1;
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
        status = read_options(root, config, error, error_size);
    }
    mh_json_free(doc);
    if (status != MH_OK) {
        if (status == MH_ERR_NO_MEMORY) snprintf(error, error_size, "out of memory reading the options");
        plus4_options_free(config);
    }
    return status;
}

mh_status plus4_options_confine(plus4_config *config, const mh_host *host, char *error,
                                size_t error_size)
{
    const mh_files_service *files = host ? host->get_service(host, MH_FILES_SERVICE_ID) : NULL;
    if (!files) return MH_OK;
    static const char *const options[] = {"autostart", "drive8", "cartridge", "rom_dir"};
    static const uint32_t modes[] = {MH_FILES_READ, MH_FILES_READ, MH_FILES_READ, MH_FILES_DIR};
    char **paths[] = {&config->autostart, &config->drive8, &config->cartridge, &config->rom_dir};
    mh_status status = MH_OK;
    for (size_t i = 0; status == MH_OK && i < sizeof paths / sizeof paths[0]; i++)
        status = mh_files_confine(files, host, options[i], paths[i], modes[i], error,
                                  error_size);
    return status;
}

void plus4_options_free(plus4_config *config)
{
    free(config->rom_dir);
    free(config->autostart);
    free(config->drive8);
    free(config->cartridge);
    config->rom_dir = config->autostart = config->drive8 = config->cartridge = NULL;
}
