/* c64_options.c - the session's options (a JSON object from --config, the
 * CLI's machine flags or session_create's `options`) to a checked
 * c64_config. Every value is checked before anything is loaded; an unknown
 * name or a bad value is refused with a message that names the option and
 * lists what it takes.
 *
 *   rom_dir      directory with kernal/basic/chargen (c64_rom.c)
 *   video        "pal" | "ntsc"
 *   vicii_model  6569 | 8565 | 6567 (= 6567r8) | 8562 | 6567r56a
 *   cia_model    6526 | 6526a (8521 is accepted as 6526a)
 *   sid_model    6581 | 8580 (default: 8580 with an 8565/8562 VIC-II, else 6581)
 *   sound        on | off (also true/false; default on): SID synthesis and
 *                audio out; off keeps the SID as register storage
 *   autostart    a .prg, .d64 or .t64 file to load and start at READY
 *   debugcart    true: a write to $D7FF ends the run with that exit code
 *
 * The CLI turns `--vicii-model 6569` into the JSON number 6569, so model
 * values are taken as numbers or strings, case-insensitively.
 *
 * c64_options_confine() puts autostart, drive8, cartridge and rom_dir
 * through the host's mh.files/1 service (the allowed directories,
 * --allow-dir), so a client's session_create can neither read files
 * elsewhere nor learn whether a directory elsewhere exists. --rom-dir on
 * the command line may name any directory: the host allows exactly that
 * one (docs/architecture.md, "Files"). The default ROM directory is the
 * machine's own choice and not confined.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c64.h"
#include "mcphost/args.h"
#include "mcphost/files.h"
#include "mcphost/json.h"
#include "mcphost/machine.h"

/* The options: names, what they are and the values they take (also what
 * mh.config/1 lists, c64_ext.c). runtime 1: mh.config/1 can set it on a
 * running machine. */
static const mh_config_item option_items[] = {
    {"rom_dir", "Directory with the kernal, basic and chargen ROMs", "a directory", 0},
    {"video", "Video standard (picks the VIC-II: 6569 or 6567R8)", "pal|ntsc", 0},
    {"vicii_model", "VIC-II chip", "6569|8565|6567|6567r8|8562|6567r56a", 0},
    {"cia_model", "CIA chips (8521 = 6526a)", "6526|6526a|8521", 0},
    {"sid_model", "SID chip (default: 8580 with an 8565/8562 VIC-II, else 6581)", "6581|8580",
     0},
    {"sound", "SID synthesis and audio out (off: registers only, OSC3/ENV3 read 0)", "on|off",
     0},
    {"autostart", "Program (.prg, .d64, .t64, .crt) loaded and started at READY",
     "a path", 0},
    {"debugcart", "A write to $D7FF ends the run with that exit code", "true|false", 0},
    {"drive8", "D64 disk in the virtual drive 8 (\"\" detaches)", "a path", 1},
    {"cartridge", "Generic CRT cartridge (setting it hard-resets; \"\" detaches)", "a path", 1},
};
#define OPTION_COUNT (sizeof option_items / sizeof option_items[0])

const mh_config_item *c64_option_items(size_t *count)
{
    *count = OPTION_COUNT;
    return option_items;
}


typedef struct choice {
    const char *text;
    int value;
} choice;

static const choice video_choices[] = {{"pal", 0}, {"ntsc", 1}, {NULL, 0}};
static const choice vic_choices[] = {
    {"6569", M6569_MODEL_6569},         {"8565", M6569_MODEL_8565},
    {"6567", M6569_MODEL_6567R8},       {"6567r8", M6569_MODEL_6567R8},
    {"8562", M6569_MODEL_8562},         {"6567r56a", M6569_MODEL_6567R56A},
    {NULL, 0}};
static const choice cia_choices[] = {
    {"6526", M6526_MODEL_6526}, {"6526a", M6526_MODEL_6526A},
    {"8521", M6526_MODEL_6526A}, {NULL, 0}};
static const choice sid_choices[] = {{"6581", C64_SID_6581}, {"8580", C64_SID_8580}, {NULL, 0}};
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
        snprintf(error, error_size, "unknown option \"%.*s\"; c64 takes %s",
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

static int is_ntsc(m6569_model model)
{
    return model == M6569_MODEL_6567R8 || model == M6569_MODEL_8562 ||
           model == M6569_MODEL_6567R56A;
}

static mh_status read_options(const mh_json *root, c64_config *config, char *error,
                              size_t error_size)
{
    mh_status status = check_names(root, error, error_size);
    int have_video = 0, video = 0, have_vic = 0, vic = 0, have = 0, value = 0;
    if (status == MH_OK)
        status = choice_option(root, "video", video_choices, &have_video, &video, error, error_size);
    if (status == MH_OK)
        status = choice_option(root, "vicii_model", vic_choices, &have_vic, &vic, error, error_size);
    if (status == MH_OK) {
        if (have_vic) config->vic_model = (m6569_model)vic;
        else if (have_video && video == 1) config->vic_model = M6569_MODEL_6567R8;
        if (have_vic && have_video && is_ntsc(config->vic_model) != (video == 1)) {
            snprintf(error, error_size,
                     "vicii_model: %s is a%s chip but video is \"%s\"; give one of them, or a "
                     "%s model (%s)",
                     m6569_model_name(config->vic_model),
                     is_ntsc(config->vic_model) ? "n NTSC" : " PAL", video ? "ntsc" : "pal",
                     video ? "NTSC" : "PAL", video ? "6567, 8562, 6567r56a" : "6569, 8565");
            status = MH_ERR_INVALID_ARGUMENT;
        }
    }
    if (status == MH_OK) {
        status = choice_option(root, "cia_model", cia_choices, &have, &value, error, error_size);
        if (have) config->cia_model = (m6526_model)value;
    }
    if (status == MH_OK) {
        status = choice_option(root, "sid_model", sid_choices, &have, &value, error, error_size);
        if (have) config->sid_model = (c64_sid_model)value;
        else if (config->vic_model == M6569_MODEL_8565 || config->vic_model == M6569_MODEL_8562)
            config->sid_model = C64_SID_8580; /* the C64C pairing */
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
        status = string_option(root, "rom_dir", "a directory holding kernal, basic and chargen",
                               &config->rom_dir, error, error_size);
    if (status == MH_OK)
        status = string_option(root, "autostart", "the path of a .prg, .d64 or .t64 file",
                               &config->autostart, error, error_size);
    if (status == MH_OK)
        status = string_option(root, "drive8", "the path of a .d64 disk image", &config->drive8,
                               error, error_size);
    if (status == MH_OK)
        status = string_option(root, "cartridge", "the path of a .crt cartridge image",
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

mh_status c64_options_parse(const char *options_json, c64_config *config, char *error,
                            size_t error_size)
{
    memset(config, 0, sizeof *config);
    config->vic_model = M6569_MODEL_6569;
    config->cia_model = M6526_MODEL_6526;
    config->sid_model = C64_SID_6581;
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
        c64_options_free(config);
    }
    return status;
}

mh_status c64_options_confine(c64_config *config, const mh_host *host, char *error,
                              size_t error_size)
{
    const mh_files_service *files = host ? host->get_service(host, MH_FILES_SERVICE_ID) : NULL;
    if (!files) return MH_OK; /* in-process tests without a host */
    static const char *const options[] = {"autostart", "drive8", "cartridge", "rom_dir"};
    static const uint32_t modes[] = {MH_FILES_READ, MH_FILES_READ, MH_FILES_READ, MH_FILES_DIR};
    char **paths[] = {&config->autostart, &config->drive8, &config->cartridge, &config->rom_dir};
    mh_status status = MH_OK;
    for (size_t i = 0; status == MH_OK && i < sizeof paths / sizeof paths[0]; i++)
        status = mh_files_confine(files, host, options[i], paths[i], modes[i], error,
                                  error_size);
    return status;
}

void c64_options_free(c64_config *config)
{
    free(config->rom_dir);
    free(config->autostart);
    free(config->drive8);
    free(config->cartridge);
    config->drive8 = NULL;
    config->cartridge = NULL;
    config->rom_dir = NULL;
    config->autostart = NULL;
}

const char *c64_cia_model_name(m6526_model model)
{
    return model == M6526_MODEL_6526A ? "6526A" : "6526";
}
