/* host.profiles: machine profiles (host/plugins/profiles.c) as hostile
 * input - names that would leave the directory, JSON that is not strict,
 * keys and values a profile may not hold - and the save/load/delete round
 * trip in a temporary XDG_CONFIG_HOME. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mh_test.h"
#include "profiles.h"

static char config_home[64];

static int setup(void)
{
    snprintf(config_home, sizeof config_home, "/tmp/mh_profiles_XXXXXX");
    if (!mkdtemp(config_home)) return -1;
    return setenv("XDG_CONFIG_HOME", config_home, 1);
}

static int teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", config_home);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_names(void)
{
    static const char *const bad[] = {"", "..", "../x", "a/b", ".hidden", "sp ace", "x\n",
                                      "\xc3\xa9t\xc3\xa9", "a.json"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_FALSE(mh_profile_name_valid(bad[i]));
    char long_name[66];
    memset(long_name, 'a', 65);
    long_name[65] = '\0';
    CU_ASSERT_FALSE(mh_profile_name_valid(long_name));
    long_name[64] = '\0';
    CU_ASSERT_TRUE(mh_profile_name_valid(long_name));
    CU_ASSERT_TRUE(mh_profile_name_valid("c64_ntsc-8580"));
}

static int refused(const char *json, size_t length, const char *needle)
{
    mh_profile p;
    char error[512] = "";
    int r = mh_profile_from_json("t", json, length, &p, error, sizeof error);
    mh_profile_free(&p);
    if (r == 0 || !strstr(error, needle)) {
        fprintf(stderr, "host.profiles: %.*s -> %d \"%s\" (wanted \"%s\")\n", (int)length, json, r,
                error, needle);
        return 0;
    }
    return 1;
}

static void test_hostile_json(void)
{
#define REFUSED(text, needle) CU_ASSERT_TRUE(refused(text, sizeof text - 1, needle))
    REFUSED("", "not valid JSON");
    REFUSED("{\"machine\":\"c64\",\"options\":{}", "not valid JSON");
    REFUSED("{\"machine\":\"c64\",\"machine\":\"c64\",\"options\":{}}", "not valid JSON");
    REFUSED("{\"machine\":\"c64\",\"options\":{}} trailing", "not valid JSON");
    REFUSED("{\"machine\":\"c\\u0000\",\"options\":{}}", "NUL");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"vi\\u0000deo\":\"pal\"}}", "NUL");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"video\":\"\xff\"}}", "not valid JSON");
    REFUSED("[]", "not a JSON object");
    REFUSED("\"c64\"", "not a JSON object");
    REFUSED("{\"options\":{}}", "\"machine\" must be");
    REFUSED("{\"machine\":64,\"options\":{}}", "\"machine\" must be");
    REFUSED("{\"machine\":\"../c64\",\"options\":{}}", "\"machine\" must be");
    REFUSED("{\"machine\":\"c64\"}", "\"options\" must be");
    REFUSED("{\"machine\":\"c64\",\"options\":[]}", "\"options\" must be");
    REFUSED("{\"machine\":\"c64\",\"options\":{},\"exec\":1}", "unknown key");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"autostart\":\"x.prg\"}}", "cannot be in a profile");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"debugcart\":true}}", "cannot be in a profile");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"video\":[1]}}", "string, whole number or boolean");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"video\":{}}}", "string, whole number or boolean");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"video\":null}}", "string, whole number or boolean");
    REFUSED("{\"machine\":\"c64\",\"options\":{\"video\":1.5}}", "string, whole number or boolean");
    REFUSED("{\"machine\":\"c64\",\"description\":7,\"options\":{}}", "\"description\" must be");
    /* nesting far deeper than any profile */
    char deep[4000];
    size_t n = 0;
    n += (size_t)snprintf(deep, sizeof deep, "{\"machine\":\"c64\",\"options\":{},\"description\":");
    for (int i = 0; i < 1000; i++) deep[n++] = '[';
    for (int i = 0; i < 1000; i++) deep[n++] = ']';
    deep[n++] = '}';
    CU_ASSERT_TRUE(refused(deep, n, "not valid JSON"));
#undef REFUSED
    mh_profile p;
    char error[256];
    const char good[] = "{\"machine\":\"vic20\",\"options\":{\"vic20_memory\":\"8k\",\"sound\":true}}";
    CU_ASSERT_EQUAL(mh_profile_from_json("g", good, sizeof good - 1, &p, error, sizeof error), 0);
    CU_ASSERT_STRING_EQUAL(p.machine, "vic20");
    mh_profile_free(&p);
}

static void test_round_trip(void)
{
    mh_profile p, back;
    char error[1200];
    CU_ASSERT_EQUAL(mh_profile_load("c16_pal", &p, error, sizeof error), 0);
    CU_ASSERT_TRUE(p.builtin);
    CU_ASSERT_STRING_EQUAL(p.machine, "plus4");
    /* a built-in name cannot be saved or deleted */
    CU_ASSERT_EQUAL(mh_profile_save(&p, 1, error, sizeof error), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "built-in"));
    CU_ASSERT_EQUAL(mh_profile_delete("c16_pal", error, sizeof error), -1);
    snprintf(p.name, sizeof p.name, "mine");
    CU_ASSERT_EQUAL(mh_profile_save(&p, 0, error, sizeof error), 0);
    CU_ASSERT_EQUAL(mh_profile_save(&p, 0, error, sizeof error), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "already exists"));
    CU_ASSERT_EQUAL(mh_profile_save(&p, 1, error, sizeof error), 0);
    CU_ASSERT_EQUAL(mh_profile_load("mine", &back, error, sizeof error), 0);
    CU_ASSERT_FALSE(back.builtin);
    CU_ASSERT_STRING_EQUAL(back.machine, "plus4");
    CU_ASSERT_TRUE(cJSON_Compare(p.options, back.options, 1));
    mh_profile_free(&back);
    char dir[4096], path[4200];
    CU_ASSERT_EQUAL(mh_profile_dir(dir, sizeof dir, error, sizeof error), 0);
    snprintf(path, sizeof path, "%s/mine.json", dir);
    struct stat st;
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(mh_profile_delete("mine", error, sizeof error), 0);
    CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(mh_profile_delete("mine", error, sizeof error), 1);
    CU_ASSERT_EQUAL(mh_profile_load("mine", &back, error, sizeof error), 1);
    mh_profile_free(&p);
    /* a link in place of a profile is refused, its target untouched */
    CU_ASSERT_EQUAL(symlink("/etc/hostname", path), 0);
    CU_ASSERT_EQUAL(mh_profile_load("mine", &back, error, sizeof error), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "symbolic link"));
    mh_profile_free(&back);
    cJSON *list = mh_profile_list();
    int listed_with_error = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        const cJSON *name = cJSON_GetObjectItem(item, "name");
        if (cJSON_IsString(name) && strcmp(name->valuestring, "mine") == 0)
            listed_with_error = cJSON_GetObjectItem(item, "error") != NULL;
    }
    CU_ASSERT_TRUE(listed_with_error);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(list), 7); /* six built in + the refused link */
    cJSON_Delete(list);
}

MH_SUITE("host.profiles", setup, teardown, MH_TEST(test_names), MH_TEST(test_hostile_json),
         MH_TEST(test_round_trip))
