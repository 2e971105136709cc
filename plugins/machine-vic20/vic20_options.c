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
 *   sound         on | off: VIC sound synthesis and audio out (off: the
 *                 registers only, as the C64's and Plus/4's sound=off)
 *
 * vic20_options_confine() puts the paths through the host's mh.files/1
 * service (the allowed directories), as the C64 does.
 */
#include <stddef.h>
#include <string.h>

#include "mcphost/files.h"
#include "mcphost/kit_options.h"
#include "vic20.h"

static const mh_config_item option_items[] = {
    {"rom_dir", "Directory with the VIC-20 ROMs (VICE names: basic-901486-01.bin, "
                "kernal.901486-07.bin / -06, chargen-901460-03.bin)", "a directory", 0},
    {"video", "Video standard (PAL: 6561, NTSC: 6560)", "pal|ntsc", 0},
    {"vic20_memory", "RAM expansion: 3k at $0400, 8k/16k/24k blocks 1-3 from $2000, all = "
                     "3k + blocks 1, 2, 3, 5", "none|3k|8k|16k|24k|all", 0},
    {"autostart", "Program (.prg, .d64, .crt) loaded and started at READY", "a path", 0},
    {"debugcart", "A write to $910F ends the run with that exit code", "true|false", 0},
    {"sound", "VIC sound synthesis and audio out (off: registers only)", "on|off", 0},
    {"drive8",
     "D64 disk in the virtual drive 8, for LOAD and SAVE (a SAVE rewrites the file; \"\" "
     "detaches)",
     "a path", 1},
    {"cartridge", "Cartridge: raw image at $A000 or VICE .crt (setting it hard-resets)",
     "a path", 1},
};
#define OPTION_COUNT (sizeof option_items / sizeof option_items[0])

const mh_config_item *vic20_option_items(size_t *count)
{
    *count = OPTION_COUNT;
    return option_items;
}

static const mh_kit_choice video_choices[] = {
    {"pal", M6561_MODEL_6561}, {"ntsc", M6561_MODEL_6560},
    {"6561", M6561_MODEL_6561}, {"6560", M6561_MODEL_6560}, {NULL, 0}};
static const mh_kit_choice memory_choices[] = {
    {"none", 0},
    {"3k", VIC20_MEM_3K},
    {"8k", VIC20_MEM_BLK1},
    {"16k", VIC20_MEM_BLK1 | VIC20_MEM_BLK2},
    {"24k", VIC20_MEM_BLK1 | VIC20_MEM_BLK2 | VIC20_MEM_BLK3},
    {"all", VIC20_MEM_3K | VIC20_MEM_BLK1 | VIC20_MEM_BLK2 | VIC20_MEM_BLK3 | VIC20_MEM_BLK5},
    {NULL, 0}};

const char *vic20_memory_name(unsigned memory)
{
    for (const mh_kit_choice *c = memory_choices; c->text; c++)
        if ((unsigned)c->value == memory) return c->text;
    return "custom";
}

/* The path options, read in this order (confined: files, then rom_dir). */
static const mh_kit_path_option path_options[] = {
    {"rom_dir", "a directory holding the VIC-20 ROMs", MH_FILES_DIR,
     offsetof(vic20_config, rom_dir)},
    {"autostart", "the path of a .prg, .d64 or .crt file", MH_FILES_READ,
     offsetof(vic20_config, autostart)},
    {"drive8", "the path of a .d64 disk image", MH_FILES_READ, offsetof(vic20_config, drive8)},
    {"cartridge", "the path of a cartridge image", MH_FILES_READ,
     offsetof(vic20_config, cartridge)},
};
#define PATH_COUNT (sizeof path_options / sizeof path_options[0])

static mh_status read_options(const mh_json *root, void *out, char *error, size_t error_size)
{
    vic20_config *config = out;
    mh_status status = mh_kit_options_check_names(root, option_items, OPTION_COUNT, "vic20",
                                                  error, error_size);
    int have = 0, value = 0;
    if (status == MH_OK) {
        status = mh_kit_option_choice(root, "video", video_choices, MH_KIT_ECHO_LOWER, &have,
                                      &value, error, error_size);
        if (have) config->vic_model = (m6561_model)value;
    }
    if (status == MH_OK) {
        status = mh_kit_option_choice(root, "vic20_memory", memory_choices, MH_KIT_ECHO_LOWER,
                                      &have, &value, error, error_size);
        if (have) config->memory = (unsigned)value;
    }
    if (status == MH_OK)
        status = mh_kit_option_paths(root, path_options, PATH_COUNT, config, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_flag(root, "debugcart", &config->debugcart, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_on_off(root, "sound", &config->sound, error, error_size);
    return status;
}

mh_status vic20_options_parse(const char *options_json, vic20_config *config, char *error,
                              size_t error_size)
{
    memset(config, 0, sizeof *config);
    config->vic_model = M6561_MODEL_6561;
    config->sound = 1;
    mh_status status = mh_kit_options_parse(options_json, read_options, config, error, error_size);
    if (status != MH_OK) vic20_options_free(config);
    return status;
}

mh_status vic20_options_confine(vic20_config *config, const mh_host *host, char *error,
                                size_t error_size)
{
    return mh_kit_option_paths_confine(path_options, PATH_COUNT, config, host, error,
                                       error_size);
}

void vic20_options_free(vic20_config *config)
{
    mh_kit_option_paths_free(path_options, PATH_COUNT, config);
}
