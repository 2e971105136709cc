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
#include <stddef.h>
#include <string.h>

#include "mcphost/files.h"
#include "mcphost/kit_options.h"
#include "plus4.h"

static const mh_config_item option_items[] = {
    {"rom_dir", "Directory with the Plus/4 ROMs (VICE names: basic-318006-01.bin, "
                "kernal-318004-05.bin ...)", "a directory", 0},
    {"video", "Video standard (the TED: 7360 PAL or 8360 NTSC)", "pal|ntsc", 0},
    {"model", "Plus/4 (64 KiB, 3-plus-1, ACIA) or C16 (16 KiB)", "plus4|c16", 0},
    {"sound", "TED sound synthesis and audio out", "on|off", 0},
    {"autostart", "Program (.prg, .d64) loaded and started at READY", "a path", 0},
    {"debugcart", "A write to $FDCF ends the run with that exit code", "true|false", 0},
    {"drive8",
     "D64 disk in the virtual drive 8, for LOAD and SAVE (a SAVE rewrites the file; \"\" "
     "detaches)",
     "a path", 1},
    {"cartridge", "Cartridge ROM image for slot 1 (setting it hard-resets; \"\" detaches)",
     "a path", 1},
};
#define OPTION_COUNT (sizeof option_items / sizeof option_items[0])

const mh_config_item *plus4_option_items(size_t *count)
{
    *count = OPTION_COUNT;
    return option_items;
}

static const mh_kit_choice video_choices[] = {{"pal", 0}, {"ntsc", 1}, {NULL, 0}};
static const mh_kit_choice model_choices[] = {
    {"plus4", PLUS4_MODEL_PLUS4}, {"plus/4", PLUS4_MODEL_PLUS4}, {"c16", PLUS4_MODEL_C16},
    {NULL, 0}};

/* The path options, read in this order (confined: files, then rom_dir). */
static const mh_kit_path_option path_options[] = {
    {"rom_dir", "a directory holding the Plus/4 ROMs", MH_FILES_DIR,
     offsetof(plus4_config, rom_dir)},
    {"autostart", "the path of a .prg or .d64 file", MH_FILES_READ,
     offsetof(plus4_config, autostart)},
    {"drive8", "the path of a .d64 disk image", MH_FILES_READ, offsetof(plus4_config, drive8)},
    {"cartridge", "the path of a cartridge ROM image", MH_FILES_READ,
     offsetof(plus4_config, cartridge)},
};
#define PATH_COUNT (sizeof path_options / sizeof path_options[0])

static mh_status read_options(const mh_json *root, void *out, char *error, size_t error_size)
{
    plus4_config *config = out;
    mh_status status = mh_kit_options_check_names(root, option_items, OPTION_COUNT, "plus4",
                                                  error, error_size);
    int have = 0, value = 0;
    if (status == MH_OK) {
        status = mh_kit_option_choice(root, "video", video_choices, MH_KIT_ECHO_RAW, &have,
                                      &value, error, error_size);
        if (have) config->ntsc = value;
    }
    if (status == MH_OK) {
        status = mh_kit_option_choice(root, "model", model_choices, MH_KIT_ECHO_RAW, &have,
                                      &value, error, error_size);
        if (have) config->model = (plus4_model)value;
    }
    if (status == MH_OK) status = mh_kit_option_on_off(root, "sound", &config->sound, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_paths(root, path_options, PATH_COUNT, config, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_flag(root, "debugcart", &config->debugcart, error, error_size);
    return status;
}

mh_status plus4_options_parse(const char *options_json, plus4_config *config, char *error,
                              size_t error_size)
{
    memset(config, 0, sizeof *config);
    config->sound = 1;
    mh_status status = mh_kit_options_parse(options_json, read_options, config, error, error_size);
    if (status != MH_OK) plus4_options_free(config);
    return status;
}

mh_status plus4_options_confine(plus4_config *config, const mh_host *host, char *error,
                                size_t error_size)
{
    return mh_kit_option_paths_confine(path_options, PATH_COUNT, config, host, error,
                                       error_size);
}

void plus4_options_free(plus4_config *config)
{
    mh_kit_option_paths_free(path_options, PATH_COUNT, config);
}
