/* Tests of mcphost/kit_options.h, the machine kit's session-option reader:
 * a small made-up machine ("toy") with a choice, an on/off, a flag and two
 * path options, read, refused (every message exact), confined through a
 * fake mh.files/1 (files first, then directories) and freed; and the
 * mh.config/1 helpers over a fake mh.media/1 (kit.options). */
#include "mh_test.h"

#include <mcphost/files.h>
#include <mcphost/kit_options.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct toy_config {
    int model;
    int have_model;
    int sound;
    int debugcart;
    char *rom_dir;
    char *autostart;
} toy_config;

static const mh_config_item toy_items[] = {
    {"rom_dir", "ROMs", "a directory", 0},
    {"model", "Model", "a|b", 0},
    {"sound", "Sound", "on|off", 0},
    {"debugcart", "Exit register", "true|false", 0},
    {"autostart", "Program", "a path", 0},
};
static const mh_kit_choice toy_models[] = {{"a", 1}, {"b", 2}, {"6502", 3}, {NULL, 0}};
static const mh_kit_path_option toy_paths[] = {
    {"rom_dir", "a directory of ROMs", MH_FILES_DIR, offsetof(toy_config, rom_dir)},
    {"autostart", "the path of a .prg", MH_FILES_READ, offsetof(toy_config, autostart)},
};

static mh_kit_echo toy_echo = MH_KIT_ECHO_RAW;

static mh_status toy_read(const mh_json *root, void *out, char *error, size_t error_size)
{
    toy_config *config = out;
    mh_status status = mh_kit_options_check_names(root, toy_items, 5, "toy", error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_choice(root, "model", toy_models, toy_echo, &config->have_model,
                                      &config->model, error, error_size);
    if (status == MH_OK) status = mh_kit_option_on_off(root, "sound", &config->sound, error, error_size);
    if (status == MH_OK) status = mh_kit_option_paths(root, toy_paths, 2, config, error, error_size);
    if (status == MH_OK)
        status = mh_kit_option_flag(root, "debugcart", &config->debugcart, error, error_size);
    return status;
}

static char message[512];

static mh_status parse(const char *json, toy_config *config)
{
    memset(config, 0, sizeof *config);
    config->sound = 1;
    message[0] = '\0';
    mh_status status = mh_kit_options_parse(json, toy_read, config, message, sizeof message);
    if (status != MH_OK) mh_kit_option_paths_free(toy_paths, 2, config);
    return status;
}

#define REFUSED(json, text)                                                                    \
    do {                                                                                       \
        toy_config c_;                                                                         \
        CU_ASSERT_EQUAL(parse(json, &c_), MH_ERR_INVALID_ARGUMENT);                            \
        CU_ASSERT_STRING_EQUAL(message, text);                                                 \
        CU_ASSERT_PTR_NULL(c_.rom_dir);                                                        \
        CU_ASSERT_PTR_NULL(c_.autostart);                                                      \
    } while (0)

static void test_read(void)
{
    toy_config c;
    CU_ASSERT_EQUAL(parse(NULL, &c), MH_OK);
    CU_ASSERT_EQUAL(c.have_model, 0);
    CU_ASSERT_EQUAL(c.sound, 1);
    CU_ASSERT_EQUAL(c.debugcart, 0);
    CU_ASSERT_EQUAL(parse("{\"model\":\"B\",\"sound\":\"off\",\"debugcart\":true,"
                          "\"rom_dir\":\"roms\",\"autostart\":\"x.prg\"}", &c), MH_OK);
    CU_ASSERT_EQUAL(c.have_model, 1);
    CU_ASSERT_EQUAL(c.model, 2);
    CU_ASSERT_EQUAL(c.sound, 0);
    CU_ASSERT_EQUAL(c.debugcart, 1);
    CU_ASSERT_STRING_EQUAL(c.rom_dir, "roms");
    CU_ASSERT_STRING_EQUAL(c.autostart, "x.prg");
    mh_kit_option_paths_free(toy_paths, 2, &c);
    CU_ASSERT_PTR_NULL(c.rom_dir);
    CU_ASSERT_PTR_NULL(c.autostart);
    CU_ASSERT_EQUAL(parse("{\"model\":6502,\"sound\":false}", &c), MH_OK);
    CU_ASSERT_EQUAL(c.model, 3);
    CU_ASSERT_EQUAL(c.sound, 0);
    CU_ASSERT_EQUAL(parse("{\"sound\":\"TRUE\"}", &c), MH_OK);
    CU_ASSERT_EQUAL(c.sound, 1);
}

static void test_refused(void)
{
    toy_echo = MH_KIT_ECHO_RAW;
    REFUSED("[1]", "options: expected a JSON object of NAME: VALUE, got array");
    REFUSED("{\"speed\":1}",
            "unknown option \"speed\"; toy takes rom_dir, model, sound, debugcart, autostart");
    REFUSED("{\"model\":\"C\"}", "model: expected one of \"a\", \"b\", \"6502\", got \"C\"");
    REFUSED("{\"model\":7}", "model: expected one of \"a\", \"b\", \"6502\", got a number 7");
    REFUSED("{\"model\":[]}", "model: expected one of \"a\", \"b\", \"6502\", got a array");
    REFUSED("{\"sound\":2}",
            "sound: expected one of \"on\", \"off\", \"true\", \"false\", got a number 2");
    REFUSED("{\"debugcart\":1}", "debugcart: expected true or false");
    REFUSED("{\"rom_dir\":\"\"}", "rom_dir: expected a directory of ROMs, got an empty string");
    REFUSED("{\"rom_dir\":\"r\",\"autostart\":\"\"}",
            "autostart: expected the path of a .prg, got an empty string");
    toy_echo = MH_KIT_ECHO_LOWER;
    REFUSED("{\"model\":\"C\"}", "model: expected one of \"a\", \"b\", \"6502\", got \"c\"");
    REFUSED("{\"model\":7}", "model: expected one of \"a\", \"b\", \"6502\", got \"7\"");
    REFUSED("{\"model\":true}", "model: expected one of \"a\", \"b\", \"6502\", got a boolean");
    toy_echo = MH_KIT_ECHO_RAW;
}

/* A fake mh.files/1: refuses paths starting with "bad", else prefixes
 * "/ok/"; records the order of the calls. */
static char calls[128];

static mh_status fake_resolve(const mh_host *host, const char *path, uint32_t mode, char *out,
                              size_t out_size, char *error, size_t error_size)
{
    (void)host;
    size_t used = strlen(calls);
    snprintf(calls + used, sizeof calls - used, "%s%s:%u", used ? " " : "", path, (unsigned)mode);
    if (strncmp(path, "bad", 3) == 0) {
        snprintf(error, error_size, "not in an allowed directory");
        return MH_ERR_DENIED;
    }
    snprintf(out, out_size, "/ok/%s", path);
    return MH_OK;
}

static const mh_files_service fake_files = {sizeof fake_files, fake_resolve, NULL, NULL};

static const void *fake_get_service(const mh_host *host, const char *id)
{
    (void)host;
    return strcmp(id, MH_FILES_SERVICE_ID) == 0 ? &fake_files : NULL;
}

static void test_confine(void)
{
    mh_host host;
    memset(&host, 0, sizeof host);
    host.get_service = fake_get_service;
    toy_config c;
    CU_ASSERT_EQUAL(parse("{\"rom_dir\":\"roms\",\"autostart\":\"x.prg\"}", &c), MH_OK);
    CU_ASSERT_EQUAL(mh_kit_option_paths_confine(toy_paths, 2, &c, NULL, message, sizeof message),
                    MH_OK); /* no host: as given */
    CU_ASSERT_STRING_EQUAL(c.rom_dir, "roms");
    calls[0] = '\0';
    CU_ASSERT_EQUAL(mh_kit_option_paths_confine(toy_paths, 2, &c, &host, message, sizeof message),
                    MH_OK);
    CU_ASSERT_STRING_EQUAL(calls, "x.prg:1 roms:4"); /* files, then directories */
    CU_ASSERT_STRING_EQUAL(c.rom_dir, "/ok/roms");
    CU_ASSERT_STRING_EQUAL(c.autostart, "/ok/x.prg");
    mh_kit_option_paths_free(toy_paths, 2, &c);
    CU_ASSERT_EQUAL(parse("{\"rom_dir\":\"bad\"}", &c), MH_OK);
    CU_ASSERT_EQUAL(mh_kit_option_paths_confine(toy_paths, 2, &c, &host, message, sizeof message),
                    MH_ERR_DENIED);
    CU_ASSERT_STRING_EQUAL(message, "rom_dir: not in an allowed directory");
    mh_kit_option_paths_free(toy_paths, 2, &c);
}

/* mh.config/1 helpers: a fake mh.media/1 records what set() asked. */
static char media_calls[128];

static mh_status fake_attach(void *context, const char *kind, const char *path, int autostart,
                             char *error, size_t error_size)
{
    (void)context, (void)error, (void)error_size;
    snprintf(media_calls, sizeof media_calls, "attach %s %s %d", kind, path, autostart);
    return MH_OK;
}

static mh_status fake_detach(void *context, const char *kind, char *error, size_t error_size)
{
    (void)context, (void)error, (void)error_size;
    snprintf(media_calls, sizeof media_calls, "detach %s", kind);
    return MH_OK;
}

static const mh_media_iface fake_media = {sizeof fake_media, fake_attach, fake_detach, NULL};

static void test_config(void)
{
    static const mh_config_item items[] = {
        {"video", "", "pal|ntsc", 0}, {"drive8", "", "a path", 1}, {"cartridge", "", "a path", 1}};
    char out[8];
    CU_ASSERT_PTR_EQUAL(mh_kit_config_at(items, 3, 2), &items[2]);
    CU_ASSERT_PTR_NULL(mh_kit_config_at(items, 3, 3));
    CU_ASSERT_PTR_EQUAL(mh_kit_config_find(items, 3, "drive8"), &items[1]);
    CU_ASSERT_PTR_NULL(mh_kit_config_find(items, 3, NULL));
    CU_ASSERT_EQUAL(mh_kit_config_get_check(items, 3, "speed", out, sizeof out), MH_ERR_NOT_FOUND);
    CU_ASSERT_EQUAL(mh_kit_config_get_check(items, 3, "video", NULL, 0), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_kit_config_get_check(items, 3, "video", out, sizeof out), MH_OK);
    CU_ASSERT_EQUAL(mh_kit_config_copy("pal", out, sizeof out), MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "pal");
    CU_ASSERT_EQUAL(mh_kit_config_copy("12345678", out, sizeof out), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_kit_config_set_media(items, 3, &fake_media, NULL, "speed", "1", message,
                                            sizeof message), MH_ERR_NOT_FOUND);
    CU_ASSERT_STRING_EQUAL(message, "unknown setting \"speed\"");
    CU_ASSERT_EQUAL(mh_kit_config_set_media(items, 3, &fake_media, NULL, "video", "ntsc", message,
                                            sizeof message), MH_ERR_UNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(message, "video can only be chosen when the session is created");
    CU_ASSERT_EQUAL(mh_kit_config_set_media(items, 3, &fake_media, NULL, "drive8", "a.d64",
                                            message, sizeof message), MH_OK);
    CU_ASSERT_STRING_EQUAL(media_calls, "attach disk a.d64 0");
    CU_ASSERT_EQUAL(mh_kit_config_set_media(items, 3, &fake_media, NULL, "cartridge", NULL,
                                            message, sizeof message), MH_OK);
    CU_ASSERT_STRING_EQUAL(media_calls, "detach cartridge");
}

MH_SUITE("kit.options", NULL, NULL, MH_TEST(test_read), MH_TEST(test_refused),
         MH_TEST(test_confine), MH_TEST(test_config))
