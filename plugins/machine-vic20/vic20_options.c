/* vic20_options.c - the session's options (a JSON object from --config,
 * the CLI's machine flags or session_create's `options`) to a checked
 * vic20_config. An unknown name or a bad value is refused with a message
 * that names the option and lists what it takes.
 *
 *   rom_dir       directory with the ROMs under VICE's names (vic20_rom.c)
 *   video         "pal" (6561) | "ntsc" (6560)
 *   vic20_memory  none | 3k | 8k | 16k | 24k | all
 *   autostart     a .prg, .d64 or .crt to load and start
 *   drive8        a .d64 for the virtual drive 8
 *   cartridge     a cartridge image (raw at $A000 or a VICE .crt)
 *   debugcart     true: a write to $910F ends the run with that exit code
 *
 * vic20_options_confine() puts the paths through the host's mh.files/1
 * service (the allowed directories), as the C64 does.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcphost/args.h"
#include "mcphost/files.h"
#include "mcphost/json.h"
#include "mcphost/machine.h"
#include "vic20.h"

static const mh_config_item option_items[] = {
    {"rom_dir", "Directory with the VIC-20 ROMs (VICE names: basic-901486-01.bin, "
                "kernal.901486-07.bin / -06, chargen-901460-03.bin)", "a directory", 0},
    {"video", "Video standard (PAL: 6561, NTSC: 6560)", "pal|ntsc", 0},
    {"vic20_memory", "RAM expansion: 3k at $0400, 8k/16k/24k blocks 1-3 from $2000, all = "
                     "3k + blocks 1, 2, 3, 5", "none|3k|8k|16k|24k|all", 0},
    {"autostart", "Program (.prg, .d64, .crt) loaded and started at READY", "a path", 0},
    {"debugcart", "A write to $910F ends the run with that exit code", "true|false", 0},
    {"drive8", "D64 disk in the virtual drive 8 (\"\" detaches)", "a path", 1},
    {"cartridge", "Cartridge: raw image at $A000 or VICE .crt (setting it hard-resets)",
     "a path", 1},
};
#define OPTION_COUNT (sizeof option_items / sizeof option_items[0])

const mh_config_item *vic20_option_items(size_t *count)
{
    *count = OPTION_COUNT;
    return option_items;
}

typedef struct choice {
    const char *text;
    unsigned value;
} choice;

static const choice video_choices[] = {{"pal", M6561_MODEL_6561}, {"ntsc", M6561_MODEL_6560},
                                       {"6561", M6561_MODEL_6561}, {"6560", M6561_MODEL_6560},
                                       {NULL, 0}};
static const choice memory_choices[] = {
    {"none", 0},
    {"3k", VIC20_MEM_3K},
    {"8k", VIC20_MEM_BLK1},
    {"16k", VIC20_MEM_BLK1 | VIC20_MEM_BLK2},
    {"24k", VIC20_MEM_BLK1 | VIC20_MEM_BLK2 | VIC20_MEM_BLK3},
    {"all", VIC20_MEM_3K | VIC20_MEM_BLK1 | VIC20_MEM_BLK2 | VIC20_MEM_BLK3 | VIC20_MEM_BLK5},
    {NULL, 0}};

const char *vic20_memory_name(unsigned memory)
{
    for (const choice *c = memory_choices; c->text; c++)
        if (c->value == memory) return c->text;
    return "custom";
}

static mh_status check_names(const mh_json *root, char *error, size_t error_size)
{
    for (size_t i = 0; i < mh_json_object_size(root); i++) {
        size_t length = 0;
        const char *name = mh_json_object_key(root, i, &length);
        int known = 0;
        for (size_t k = 0; k < OPTION_COUNT; k++)
            if (strlen(option_items[k].name) == length &&
                memcmp(option_items[k].name, name, length) == 0)
                known = 1;
        if (known) continue;
        char list[200] = "";
        for (size_t k = 0; k < OPTION_COUNT; k++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", option_items[k].name);
        }
        snprintf(error, error_size, "unknown option \"%.*s\"; vic20 takes %s",
                 (int)(length > 64 ? 64 : length), name, list);
        return MH_ERR_INVALID_ARGUMENT;
    }
    return MH_OK;
}

static mh_status choice_option(const mh_json *root, const char *name, const choice *choices,
                               unsigned *out, char *error, size_t error_size)
{
    const mh_json *value = mh_json_object_get(root, name);
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
            *out = c->value;
            return MH_OK;
        }
    char list[160] = "";
    for (const choice *c = choices; c->text; c++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"", c == choices ? "" : ", ", c->text);
    }
    snprintf(error, error_size, "%s: expected one of %s, got %s%s%s", name, list,
             text[0] ? "\"" : "a ", text[0] ? text : mh_json_type_name(mh_json_typeof(value)),
             text[0] ? "\"" : "");
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

static mh_status read_options(const mh_json *root, vic20_config *config, char *error,
                              size_t error_size)
{
    mh_status status = check_names(root, error, error_size);
    unsigned model = config->vic_model;
    if (status == MH_OK)
        status = choice_option(root, "video", video_choices, &model, error, error_size);
    config->vic_model = (m6561_model)model;
    if (status == MH_OK)
        status = choice_option(root, "vic20_memory", memory_choices, &config->memory, error,
                               error_size);
    if (status == MH_OK)
        status = string_option(root, "rom_dir", "a directory holding the VIC-20 ROMs",
                               &config->rom_dir, error, error_size);
    if (status == MH_OK)
        status = string_option(root, "autostart", "the path of a .prg, .d64 or .crt file",
                               &config->autostart, error, error_size);
    if (status == MH_OK)
        status = string_option(root, "drive8", "the path of a .d64 disk image", &config->drive8,
                               error, error_size);
    if (status == MH_OK)
        status = string_option(root, "cartridge", "the path of a cartridge image",
                               &config->cartridge, error, error_size);
    if (status == MH_OK) {
        bool b = false;
        status = mh_args_bool(root, "debugcart", &b, error, error_size);
        if (status == MH_ERR_NOT_FOUND) status = MH_OK;
        else if (status != MH_OK) snprintf(error, error_size, "debugcart: expected true or false");
        config->debugcart = b;
    }
    return status;
}

mh_status vic20_options_parse(const char *options_json, vic20_config *config, char *error,
                              size_t error_size)
{
    memset(config, 0, sizeof *config);
    config->vic_model = M6561_MODEL_6561;
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
        if (status == MH_ERR_NO_MEMORY)
            snprintf(error, error_size, "out of memory reading the options");
        vic20_options_free(config);
    }
    return status;
}

mh_status vic20_options_confine(vic20_config *config, const mh_host *host, char *error,
                                size_t error_size)
{
    const mh_files_service *files = host ? host->get_service(host, MH_FILES_SERVICE_ID) : NULL;
    if (!files) return MH_OK;
    static const char *const options[] = {"autostart", "drive8", "cartridge", "rom_dir"};
    static const uint32_t modes[] = {MH_FILES_READ, MH_FILES_READ, MH_FILES_READ, MH_FILES_DIR};
    char **paths[] = {&config->autostart, &config->drive8, &config->cartridge, &config->rom_dir};
    mh_status status = MH_OK;
    for (size_t i = 0; status == MH_OK && i < sizeof paths / sizeof paths[0]; i++)
        status = mh_files_confine(files, host, options[i], paths[i], modes[i], error, error_size);
    return status;
}

void vic20_options_free(vic20_config *config)
{
    free(config->rom_dir);
    free(config->autostart);
    free(config->drive8);
    free(config->cartridge);
    config->rom_dir = config->autostart = config->drive8 = config->cartridge = NULL;
}
