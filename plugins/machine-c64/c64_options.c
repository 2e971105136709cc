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
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c64.h"
#include "mcphost/files.h"
#include "mcphost/kit_options.h"

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
    {"drive8",
     "D64 disk in the virtual drive 8, for LOAD and SAVE (a SAVE rewrites the file; \"\" "
     "detaches)",
     "a path", 1},
    {"cartridge", "Generic CRT cartridge (setting it hard-resets; \"\" detaches)", "a path", 1},
};
#define OPTION_COUNT (sizeof option_items / sizeof option_items[0])

const mh_config_item *c64_option_items(size_t *count)
{
    *count = OPTION_COUNT;
    return option_items;
}


static const mh_kit_choice video_choices[] = {{"pal", 0}, {"ntsc", 1}, {NULL, 0}};
static const mh_kit_choice vic_choices[] = {
    {"6569", M6569_MODEL_6569},         {"8565", M6569_MODEL_8565},
    {"6567", M6569_MODEL_6567R8},       {"6567r8", M6569_MODEL_6567R8},
    {"8562", M6569_MODEL_8562},         {"6567r56a", M6569_MODEL_6567R56A},
    {NULL, 0}};
static const mh_kit_choice cia_choices[] = {
    {"6526", M6526_MODEL_6526}, {"6526a", M6526_MODEL_6526A},
    {"8521", M6526_MODEL_6526A}, {NULL, 0}};
static const mh_kit_choice sid_choices[] = {{"6581", C64_SID_6581}, {"8580", C64_SID_8580},
                                            {NULL, 0}};

/* The path options, read in this order (confined: files, then rom_dir). */
static const mh_kit_path_option path_options[] = {
    {"rom_dir", "a directory holding kernal, basic and chargen", MH_FILES_DIR,
     offsetof(c64_config, rom_dir)},
    {"autostart", "the path of a .prg, .d64 or .t64 file", MH_FILES_READ,
     offsetof(c64_config, autostart)},
    {"drive8", "the path of a .d64 disk image", MH_FILES_READ, offsetof(c64_config, drive8)},
    {"cartridge", "the path of a .crt cartridge image", MH_FILES_READ,
     offsetof(c64_config, cartridge)},
};
#define PATH_COUNT (sizeof path_options / sizeof path_options[0])

static int is_ntsc(m6569_model model)
{
    return model == M6569_MODEL_6567R8 || model == M6569_MODEL_8562 ||
           model == M6569_MODEL_6567R56A;
}

static mh_status read_options(const mh_json *root, void *out, char *error, size_t error_size)
{
    c64_config *config = out;
    mh_status status = mh_kit_options_check_names(root, option_items, OPTION_COUNT, "c64", error,
                                                  error_size);
    int have_video = 0, video = 0, have_vic = 0, vic = 0, have = 0, value = 0;
    if (status == MH_OK)
        status = mh_kit_option_choice(root, "video", video_choices, MH_KIT_ECHO_RAW, &have_video,
                                      &video, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_choice(root, "vicii_model", vic_choices, MH_KIT_ECHO_RAW,
                                      &have_vic, &vic, error, error_size);
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
        status = mh_kit_option_choice(root, "cia_model", cia_choices, MH_KIT_ECHO_RAW, &have,
                                      &value, error, error_size);
        if (have) config->cia_model = (m6526_model)value;
    }
    if (status == MH_OK) {
        status = mh_kit_option_choice(root, "sid_model", sid_choices, MH_KIT_ECHO_RAW, &have,
                                      &value, error, error_size);
        if (have) config->sid_model = (c64_sid_model)value;
        else if (config->vic_model == M6569_MODEL_8565 || config->vic_model == M6569_MODEL_8562)
            config->sid_model = C64_SID_8580; /* the C64C pairing */
    }
    if (status == MH_OK) status = mh_kit_option_on_off(root, "sound", &config->sound, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_paths(root, path_options, PATH_COUNT, config, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_flag(root, "debugcart", &config->debugcart, error, error_size);
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
    mh_status status = mh_kit_options_parse(options_json, read_options, config, error, error_size);
    if (status != MH_OK) c64_options_free(config);
    return status;
}

mh_status c64_options_confine(c64_config *config, const mh_host *host, char *error,
                              size_t error_size)
{
    return mh_kit_option_paths_confine(path_options, PATH_COUNT, config, host, error,
                                       error_size);
}

void c64_options_free(c64_config *config)
{
    mh_kit_option_paths_free(path_options, PATH_COUNT, config);
}

const char *c64_cia_model_name(m6526_model model)
{
    return model == M6526_MODEL_6526A ? "6526A" : "6526";
}
