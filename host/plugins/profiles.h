/* host/plugins/profiles.h - machine profiles: named sets of session_create
 * options (machine model, video standard, chip models, memory, drives, ROM
 * directory). Built-in ones live in profiles.c; the user's are JSON files
 * in $XDG_CONFIG_HOME/mcphost/profiles (else ~/.config/mcphost/profiles),
 * written with the SDK's durable writer and read as hostile input.
 * The tools machine_profile_create/apply/list/delete are host tools
 * (profile_tools.c). [thread-safe]: no state but the files. */
#ifndef MH_HOST_PROFILES_H
#define MH_HOST_PROFILES_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "mcphost/tool.h"

/* A profile read and checked: machine, description, options (an object of
 * allowed keys with string, integer or boolean values). Owned by the caller
 * (mh_profile_free). builtin 1: one of mcphost's own. */
typedef struct mh_profile {
    char name[65];
    char machine[32];
    char *description;
    cJSON *options;
    int builtin;
} mh_profile;

void mh_profile_free(mh_profile *p);

/* 1 when name is a valid profile name: 1-64 of a-z A-Z 0-9 _ -. */
int mh_profile_name_valid(const char *name);

/* The profile directory (no trailing slash); -1 when neither
 * XDG_CONFIG_HOME (absolute) nor HOME is set. */
int mh_profile_dir(char *out, size_t size, char *error, size_t error_size);

/* Checks a profile's JSON text (from a file or a tool) and fills p.
 * Returns 0, or -1 with why in error. */
int mh_profile_from_json(const char *name, const char *text, size_t length, mh_profile *p,
                         char *error, size_t error_size);

/* Finds a profile: built-in first, then the user's file. Returns 0; 1 when
 * there is none; -1 when the file is there but refused (error says why). */
int mh_profile_load(const char *name, mh_profile *p, char *error, size_t error_size);

/* Writes a user profile (overwrite: an existing one may be replaced). */
int mh_profile_save(const mh_profile *p, int overwrite, char *error, size_t error_size);

/* Removes a user profile; 1 when there was none. */
int mh_profile_delete(const char *name, char *error, size_t error_size);

/* Every profile as a JSON array of {name, machine, description, builtin,
 * options} (and {name, error} for a user file that is refused). */
cJSON *mh_profile_list(void);

/* The four tools, registered by core_tools.c. */
extern const mh_tool_desc mh_profile_tools[];
extern const size_t mh_profile_tool_count;

#endif
