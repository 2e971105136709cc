/* mcphost/kit_options.h - reading a machine's session options (the JSON
 * object from --config, the CLI's machine flags or session_create's
 * `options`) the way every machine plugin does (static helper library
 * mh_machine_kit, link target mcphost::machine_kit; docs/machine-kit.md).
 *
 * A machine keeps its own config struct and its own option table (the
 * mh_config_item list mh.config/1 also shows); the kit gives it:
 *   mh_kit_options_parse()        the JSON text -> root object, then the
 *                                 machine's reader; every parse error and
 *                                 "out of memory" message
 *   mh_kit_options_check_names()  an unknown name is refused, listing the
 *                                 names the machine takes
 *   mh_kit_option_choice()        one of a fixed set of values, given as a
 *                                 string (any case) or a whole number
 *   mh_kit_option_on_off()        true/false or on/off/true/false
 *   mh_kit_option_flag()          true/false only
 *   mh_kit_option_paths()         a table of string options (paths and
 *                                 directories) read into malloc'ed copies
 *                                 at the table's offsets in the config;
 *   mh_kit_option_paths_confine() the same table through the host's
 *                                 mh.files/1 service (the allowed
 *                                 directories): files first, then
 *                                 directories, each in table order
 *   mh_kit_option_paths_free()    frees and clears them.
 * and, for the machine's mh.config/1 over the same option table (the
 * vtable stays the machine's: its context is the machine):
 *   mh_kit_config_at(), mh_kit_config_find()  item() and the name lookup
 *   mh_kit_config_get_check(), mh_kit_config_copy()  get()'s refusals and
 *                                 its answer
 *   mh_kit_config_set_media()     the whole set() of machines whose runtime
 *                                 settings are media (drive8: a disk, any
 *                                 other: a cartridge), through their
 *                                 mh.media/1 vtable.
 * Messages start with the option's name and say what it takes.
 *
 * Ownership: strings read are malloc'ed into the caller's config; the
 * caller frees them (mh_kit_option_paths_free). Nothing else is kept.
 * Threads: [thread-safe]: pure functions, no global state.
 */
#ifndef MCPHOST_KIT_OPTIONS_H
#define MCPHOST_KIT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcphost/json.h"
#include "mcphost/machine.h"
#include "mcphost/plugin.h"
#include "mcphost/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One accepted value of a choice option (lower case); lists end with
 * {NULL, 0}. */
typedef struct mh_kit_choice {
    const char *text;
    int value;
} mh_kit_choice;

/* How a refused choice echoes the value given: RAW repeats a string as
 * given (up to 40 characters) and a number as "a number N"; LOWER repeats
 * either in quotes as it was matched (lower-cased), or names the JSON type
 * when it could not be read as text. */
typedef enum mh_kit_echo { MH_KIT_ECHO_RAW, MH_KIT_ECHO_LOWER } mh_kit_echo;

/* Reads the machine's options from the root object into its config. */
typedef mh_status (*mh_kit_options_reader)(const mh_json *root, void *config, char *error,
                                           size_t error_size);

/* Parses options_json (NULL = "{}"), checks it is an object and calls
 * read(root, config, ...). On MH_ERR_NO_MEMORY the message is "out of
 * memory reading the options". The caller frees its config on failure. */
mh_status mh_kit_options_parse(const char *options_json, mh_kit_options_reader read,
                               void *config, char *error, size_t error_size);

/* MH_ERR_INVALID_ARGUMENT for the first member of root whose name is not
 * in items: 'unknown option "x"; MACHINE takes a, b, c'. */
mh_status mh_kit_options_check_names(const mh_json *root, const mh_config_item *items,
                                     size_t count, const char *machine, char *error,
                                     size_t error_size);

/* The member `name` as one of choices; *present = 0 (and *out untouched)
 * when absent or null. */
mh_status mh_kit_option_choice(const mh_json *root, const char *name,
                               const mh_kit_choice *choices, mh_kit_echo echo, int *present,
                               int *out, char *error, size_t error_size);

/* A JSON true/false or "on"/"off"/"true"/"false"; *out untouched when
 * absent. */
mh_status mh_kit_option_on_off(const mh_json *root, const char *name, int *out, char *error,
                               size_t error_size);

/* A JSON true/false as 1/0; *out = 0 when absent; otherwise
 * "NAME: expected true or false". */
mh_status mh_kit_option_flag(const mh_json *root, const char *name, int *out, char *error,
                             size_t error_size);

/* A string option stored as a malloc'ed char * at `offset` in the config. */
typedef struct mh_kit_path_option {
    const char *name;
    const char *what;  /* "the path of a .d64 disk image": for the message */
    uint32_t mode;     /* MH_FILES_READ or MH_FILES_DIR (mcphost/files.h) */
    size_t offset;     /* offsetof(config, member), a char * */
} mh_kit_path_option;

/* Reads each present option, in table order; an empty string is refused
 * ("NAME: expected WHAT, got an empty string"). */
mh_status mh_kit_option_paths(const mh_json *root, const mh_kit_path_option *table,
                              size_t count, void *config, char *error, size_t error_size);

/* Puts each set path through mh.files/1 (no-op without a host or the
 * service: in-process tests). */
mh_status mh_kit_option_paths_confine(const mh_kit_path_option *table, size_t count,
                                      void *config, const mh_host *host, char *error,
                                      size_t error_size);

void mh_kit_option_paths_free(const mh_kit_path_option *table, size_t count, void *config);

/* ---- mh.config/1 over the option table ---- */

/* items[index], NULL past the end. */
const mh_config_item *mh_kit_config_at(const mh_config_item *items, size_t count, size_t index);

/* The item named `name` (NULL: none). */
const mh_config_item *mh_kit_config_find(const mh_config_item *items, size_t count,
                                         const char *name);

/* get()'s checks before the value: MH_ERR_NOT_FOUND for an unknown name,
 * MH_ERR_INVALID_ARGUMENT without room for an answer. */
mh_status mh_kit_config_get_check(const mh_config_item *items, size_t count, const char *name,
                                  const char *out, size_t out_size);

/* Copies value into out; MH_ERR_INVALID_ARGUMENT when it does not fit. */
mh_status mh_kit_config_copy(const char *value, char *out, size_t out_size);

/* set(): refuses an unknown name (MH_ERR_NOT_FOUND, 'unknown setting "x"')
 * and a create-time one (MH_ERR_UNSUPPORTED, "NAME can only be chosen when
 * the session is created"); then "" (or NULL) detaches and a path attaches
 * through media (drive8: "disk", any other: "cartridge"). */
mh_status mh_kit_config_set_media(const mh_config_item *items, size_t count,
                                  const mh_media_iface *media, void *context, const char *name,
                                  const char *value, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
