/* profiles.c - machine profiles (profiles.h): the built-in table, where the
 * user's files are, and reading them as hostile input: a size limit, no
 * link, no FIFO, a regular file only, strict JSON, only known option names
 * with scalar values. Paths inside a profile (rom_dir, drive8, cartridge)
 * are confined like every client path when a machine opens them. */
#include "profiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mcphost/file_write.h"
#include "mcphost/json.h"

#define PROFILE_MAX_BYTES 65536
#define DESCRIPTION_MAX 200

/* Option names a profile may hold: what makes a machine model, never what
 * runs (autostart, debugcart). The machine checks the values at apply. */
static const char *const profile_keys[] = {
    "model", "video", "vicii_model", "cia_model", "sid_model", "sound",
    "vic20_memory", "drive8", "cartridge", "rom_dir",
};

typedef struct builtin_profile {
    const char *name, *machine, *description, *options;
} builtin_profile;

/* Option names and values as each machine takes them (docs/machine-*.md). */
static const builtin_profile builtins[] = {
    {"c64_pal_6581", "c64", "C64 PAL: VIC-II 6569, SID 6581, CIA 6526 (the breadbin)",
     "{\"video\":\"pal\",\"vicii_model\":\"6569\",\"sid_model\":\"6581\",\"cia_model\":\"6526\"}"},
    {"c64_ntsc_8580", "c64", "C64 NTSC: VIC-II 8562, SID 8580, CIA 6526A (the C64C)",
     "{\"video\":\"ntsc\",\"vicii_model\":\"8562\",\"sid_model\":\"8580\",\"cia_model\":\"6526a\"}"},
    {"vic20_pal_unexpanded", "vic20", "VIC-20 PAL (6561), 5 KiB as shipped",
     "{\"video\":\"pal\",\"vic20_memory\":\"none\"}"},
    {"vic20_8k", "vic20", "VIC-20 PAL with 8 KiB in block 1 ($2000)",
     "{\"video\":\"pal\",\"vic20_memory\":\"8k\"}"},
    {"plus4_pal", "plus4", "Plus/4 PAL: TED 7360, 64 KiB",
     "{\"video\":\"pal\",\"model\":\"plus4\"}"},
    {"c16_pal", "plus4", "C16 PAL: TED 7360, 16 KiB", "{\"video\":\"pal\",\"model\":\"c16\"}"},
};

void mh_profile_free(mh_profile *p)
{
    if (!p) return;
    free(p->description);
    cJSON_Delete(p->options);
    memset(p, 0, sizeof *p);
}

int mh_profile_name_valid(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 64) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

int mh_profile_dir(char *out, size_t size, char *error, size_t error_size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') /* the XDG spec: a relative value is ignored */
        n = snprintf(out, size, "%s/mcphost/profiles", xdg);
    else if (home && home[0] == '/')
        n = snprintf(out, size, "%s/.config/mcphost/profiles", home);
    else {
        snprintf(error, error_size, "no profile directory: neither XDG_CONFIG_HOME nor HOME is "
                                    "an absolute path");
        return -1;
    }
    if (n < 0 || (size_t)n >= size) {
        snprintf(error, error_size, "the profile directory's path is too long");
        return -1;
    }
    return 0;
}

static int allowed_key(const char *key)
{
    for (size_t i = 0; i < sizeof profile_keys / sizeof profile_keys[0]; i++)
        if (strcmp(key, profile_keys[i]) == 0) return 1;
    return 0;
}

static void allowed_keys_text(char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < sizeof profile_keys / sizeof profile_keys[0]; i++) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? ", " : "", profile_keys[i]);
    }
}

/* 1 when some string (key or value) holds a NUL byte: cJSON would cut it
 * there, so "c64\u0000..." must not pass as "c64". */
static int has_nul(const mh_json *v)
{
    size_t length = 0;
    switch (mh_json_typeof(v)) {
    case MH_JSON_STRING: {
        const char *s = mh_json_as_string(v, &length);
        return strlen(s) != length;
    }
    case MH_JSON_ARRAY:
        for (size_t i = 0; i < mh_json_array_size(v); i++)
            if (has_nul(mh_json_array_get(v, i))) return 1;
        return 0;
    case MH_JSON_OBJECT:
        for (size_t i = 0; i < mh_json_object_size(v); i++) {
            const char *key = mh_json_object_key(v, i, &length);
            if (strlen(key) != length || has_nul(mh_json_object_value(v, i))) return 1;
        }
        return 0;
    default:
        return 0;
    }
}

int mh_profile_from_json(const char *name, const char *text, size_t length, mh_profile *p,
                         char *error, size_t error_size)
{
    memset(p, 0, sizeof *p);
    mh_json_error jerr;
    mh_json_doc *doc = mh_json_parse(text, length, NULL, &jerr);
    if (!doc) { /* strict first: no duplicate keys, NUL bytes or bad UTF-8 */
        snprintf(error, error_size, "not valid JSON (%s)", jerr.message);
        return -1;
    }
    int nul = has_nul(mh_json_root(doc));
    mh_json_free(doc);
    if (nul) {
        snprintf(error, error_size, "a string holds a NUL byte (\\u0000)");
        return -1;
    }
    cJSON *root = cJSON_ParseWithLength(text, length);
    const cJSON *machine = cJSON_GetObjectItemCaseSensitive(root, "machine");
    const cJSON *description = cJSON_GetObjectItemCaseSensitive(root, "description");
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(root, "options");
    const cJSON *item;
    int fail = 0;
    char keys[256];
    if (!cJSON_IsObject(root)) {
        snprintf(error, error_size, "not a JSON object");
        fail = 1;
    }
    cJSON_ArrayForEach(item, (cJSON_IsObject(root) ? root : NULL))
    {
        if (fail) break;
        if (strcmp(item->string, "machine") && strcmp(item->string, "description") &&
            strcmp(item->string, "options") && strcmp(item->string, "name")) {
            snprintf(error, error_size, "unknown key \"%.40s\" (a profile has machine, options "
                                        "and description)", item->string);
            fail = 1;
        }
    }
    if (!fail && (!cJSON_IsString(machine) || !mh_profile_name_valid(machine->valuestring) ||
                  strlen(machine->valuestring) >= sizeof p->machine)) {
        snprintf(error, error_size, "\"machine\" must be a machine name such as \"c64\"");
        fail = 1;
    }
    if (!fail && description &&
        (!cJSON_IsString(description) || strlen(description->valuestring) > DESCRIPTION_MAX)) {
        snprintf(error, error_size, "\"description\" must be a string of at most %d bytes",
                 DESCRIPTION_MAX);
        fail = 1;
    }
    if (!fail && !cJSON_IsObject(options)) {
        snprintf(error, error_size, "\"options\" must be an object of machine options");
        fail = 1;
    }
    cJSON_ArrayForEach(item, (!fail ? options : NULL))
    {
        if (!allowed_key(item->string)) {
            allowed_keys_text(keys, sizeof keys);
            snprintf(error, error_size, "option \"%.40s\" cannot be in a profile; it may hold %s",
                     item->string, keys);
            fail = 1;
            break;
        }
        int scalar = cJSON_IsString(item) || cJSON_IsBool(item) ||
                     (cJSON_IsNumber(item) && item->valuedouble == (double)(long long)item->valuedouble);
        if (!scalar || (cJSON_IsString(item) && strlen(item->valuestring) > 4095)) {
            snprintf(error, error_size, "option \"%s\" must be a string, whole number or "
                                        "boolean", item->string);
            fail = 1;
            break;
        }
    }
    if (fail) {
        cJSON_Delete(root);
        return -1;
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->machine, sizeof p->machine, "%s", machine->valuestring);
    p->description = strdup(cJSON_IsString(description) ? description->valuestring : "");
    p->options = cJSON_DetachItemFromObjectCaseSensitive(root, "options");
    cJSON_Delete(root);
    return 0;
}

static const builtin_profile *find_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(builtins[i].name, name) == 0) return &builtins[i];
    return NULL;
}

static int builtin_profile_of(const builtin_profile *b, mh_profile *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", b->name);
    snprintf(p->machine, sizeof p->machine, "%s", b->machine);
    p->description = strdup(b->description);
    p->options = cJSON_Parse(b->options);
    p->builtin = 1;
    return p->options && p->description ? 0 : -1;
}

static int profile_path(const char *name, char *out, size_t size, char *error, size_t error_size)
{
    char dir[4096];
    if (mh_profile_dir(dir, sizeof dir, error, error_size) != 0) return -1;
    if ((size_t)snprintf(out, size, "%s/%s.json", dir, name) >= size) {
        snprintf(error, error_size, "the profile's path is too long");
        return -1;
    }
    return 0;
}

/* Reads a user profile file as hostile input. 0, 1 (none), -1 (refused). */
static int read_profile_file(const char *name, mh_profile *p, char *error, size_t error_size)
{
    memset(p, 0, sizeof *p); /* freeable whatever happens */
    char path[4200];
    if (profile_path(name, path, sizeof path, error, error_size) != 0) return -1;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return 1;
        snprintf(error, error_size, "profile \"%s\" (%s) cannot be read: %s%s", name, path,
                 strerror(errno), errno == ELOOP ? " (a symbolic link is refused)" : "");
        return -1;
    }
    struct stat st;
    char *text = NULL;
    int result = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "profile \"%s\" (%s) is not a regular file", name, path);
    } else if (st.st_size > PROFILE_MAX_BYTES) {
        snprintf(error, error_size, "profile \"%s\" (%s) is %lld bytes; a profile has at most %d",
                 name, path, (long long)st.st_size, PROFILE_MAX_BYTES);
    } else if ((text = malloc((size_t)st.st_size + 1)) == NULL) {
        snprintf(error, error_size, "out of memory");
    } else {
        size_t have = 0;
        ssize_t got;
        while (have <= (size_t)st.st_size &&
               (got = read(fd, text + have, (size_t)st.st_size + 1 - have)) > 0)
            have += (size_t)got;
        char why[300];
        if (have > (size_t)st.st_size)
            snprintf(error, error_size, "profile \"%s\" (%s) grew while it was read", name, path);
        else if (mh_profile_from_json(name, text, have, p, why, sizeof why) != 0)
            snprintf(error, error_size,
                     "profile \"%s\" (%s) is refused: %s; fix the file or delete it "
                     "(machine_profile_delete)", name, path, why);
        else
            result = 0;
    }
    free(text);
    close(fd);
    return result;
}

int mh_profile_load(const char *name, mh_profile *p, char *error, size_t error_size)
{
    memset(p, 0, sizeof *p);
    if (!mh_profile_name_valid(name)) {
        snprintf(error, error_size, "profile name \"%.64s\" is invalid: use 1-64 of a-z, A-Z, "
                                    "0-9, _ and -", name);
        return -1;
    }
    const builtin_profile *b = find_builtin(name);
    if (b) {
        if (builtin_profile_of(b, p) == 0) return 0;
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    return read_profile_file(name, p, error, error_size);
}

/* mkdir -p of the profile directory, private (0700) where it is made. */
static int make_dir(const char *dir, char *error, size_t error_size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash) *slash = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            snprintf(error, error_size, "cannot make the profile directory %s: %s", path,
                     strerror(errno));
            return -1;
        }
        if (!slash) break;
        *slash = '/';
    }
    return 0;
}

int mh_profile_save(const mh_profile *p, int overwrite, char *error, size_t error_size)
{
    if (find_builtin(p->name)) {
        snprintf(error, error_size, "\"%s\" is a built-in profile; choose another name",
                 p->name);
        return -1;
    }
    char dir[4096], path[4200];
    if (mh_profile_dir(dir, sizeof dir, error, error_size) != 0 ||
        make_dir(dir, error, error_size) != 0 ||
        profile_path(p->name, path, sizeof path, error, error_size) != 0)
        return -1;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "machine", p->machine);
    cJSON_AddStringToObject(root, "description", p->description ? p->description : "");
    cJSON_AddItemToObject(root, "options", cJSON_Duplicate(p->options, 1));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    char why[1024];
    mh_status status = mh_file_write(path, text, strlen(text), overwrite ? MH_FILE_OVERWRITE : 0,
                                     why, sizeof why);
    cJSON_free(text);
    if (status == MH_ERR_EXISTS) {
        snprintf(error, error_size, "profile \"%s\" already exists (%s); pass overwrite: true to "
                                    "replace it", p->name, path);
        return -1;
    }
    if (status != MH_OK) {
        snprintf(error, error_size, "%s", why);
        return -1;
    }
    return 0;
}

int mh_profile_delete(const char *name, char *error, size_t error_size)
{
    if (find_builtin(name)) {
        snprintf(error, error_size, "\"%s\" is a built-in profile and cannot be deleted", name);
        return -1;
    }
    char path[4200];
    if (profile_path(name, path, sizeof path, error, error_size) != 0) return -1;
    struct stat st;
    if (lstat(path, &st) != 0) return 1;
    if (S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "%s is a directory, not a profile", path);
        return -1;
    }
    if (unlink(path) != 0) {
        snprintf(error, error_size, "cannot delete %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static cJSON *profile_json(const mh_profile *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", p->name);
    cJSON_AddStringToObject(o, "machine", p->machine);
    cJSON_AddStringToObject(o, "description", p->description ? p->description : "");
    cJSON_AddBoolToObject(o, "builtin", p->builtin);
    cJSON_AddItemToObject(o, "options", cJSON_Duplicate(p->options, 1));
    return o;
}

cJSON *mh_profile_list(void)
{
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        mh_profile p;
        if (builtin_profile_of(&builtins[i], &p) == 0) cJSON_AddItemToArray(list, profile_json(&p));
        mh_profile_free(&p);
    }
    char dir[4096], error[512];
    DIR *d = mh_profile_dir(dir, sizeof dir, error, sizeof error) == 0 ? opendir(dir) : NULL;
    struct dirent *e;
    size_t listed = 0;
    while (d && (e = readdir(d)) != NULL && listed < 500) {
        size_t n = strlen(e->d_name);
        if (n < 6 || n > 69 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char name[65];
        snprintf(name, sizeof name, "%.*s", (int)(n - 5), e->d_name);
        if (!mh_profile_name_valid(name) || find_builtin(name)) continue;
        mh_profile p;
        char why[1024];
        if (read_profile_file(name, &p, why, sizeof why) == 0) {
            cJSON_AddItemToArray(list, profile_json(&p));
        } else {
            cJSON *bad = cJSON_CreateObject();
            cJSON_AddStringToObject(bad, "name", name);
            cJSON_AddStringToObject(bad, "error", why);
            cJSON_AddItemToArray(list, bad);
        }
        mh_profile_free(&p);
        listed++;
    }
    if (d) closedir(d);
    return list;
}
