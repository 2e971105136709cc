/* test_kit_rom.c - the machine kit's ROM file helpers (mcphost/kit_rom.h):
 * the first regular file of a name list is found, read at its exact size,
 * and each failure says what and where. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mcphost/kit_rom.h"
#include "mh_test.h"

static void make_file(const char *dir, const char *name, size_t size, uint8_t fill)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    for (size_t i = 0; f && i < size; i++) fputc(fill, f);
    if (f) fclose(f);
}

static void remove_file(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (remove(path) != 0) rmdir(path);
}

static void test_find_and_read(void)
{
    char dir[] = "/tmp/mh_kit_rom_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char sub[600];
    snprintf(sub, sizeof sub, "%s/kernal", dir); /* a directory: skipped */
    CU_ASSERT(mkdir(sub, 0700) == 0);
    make_file(dir, "kernal.bin", 16, 0xA5);
    make_file(dir, "basic.bin", 15, 0x11);

    static const char *const names[] = {"kernal", "kernal.rom", "kernal.bin", NULL, "basic.bin"};
    char path[600], error[700];
    CU_ASSERT(mh_kit_rom_find(dir, names, 5, path, sizeof path) == 1);
    char want[600];
    snprintf(want, sizeof want, "%s/kernal.bin", dir);
    CU_ASSERT(strcmp(path, want) == 0);
    CU_ASSERT(mh_kit_rom_find(dir, names, 2, path, sizeof path) == 0);
    CU_ASSERT(mh_kit_rom_find(dir, names + 3, 2, path, sizeof path) == 0); /* NULL ends it */

    uint8_t out[16] = {0};
    CU_ASSERT(mh_kit_rom_read("kernal ROM", want, out, sizeof out, NULL, error, sizeof error) ==
              MH_OK);
    CU_ASSERT(out[0] == 0xA5 && out[15] == 0xA5);

    snprintf(want, sizeof want, "%s/basic.bin", dir);
    CU_ASSERT(mh_kit_rom_read("basic ROM", want, out, sizeof out, " (note)", error,
                              sizeof error) == MH_ERR_INVALID_ARGUMENT);
    char msg[800];
    snprintf(msg, sizeof msg, "basic ROM %s is 15 bytes, expected 16 (note)", want);
    CU_ASSERT(strcmp(error, msg) == 0);

    snprintf(want, sizeof want, "%s/none", dir);
    CU_ASSERT(mh_kit_rom_read("BASIC", want, out, sizeof out, NULL, error, sizeof error) ==
              MH_ERR_NOT_FOUND);
    CU_ASSERT(strstr(error, "BASIC: ") == error && strstr(error, "/none: ") != NULL);

    remove_file(dir, "kernal.bin");
    remove_file(dir, "basic.bin");
    remove_file(dir, "kernal");
    rmdir(dir);
}

static void test_dir_check(void)
{
    char error[300];
    CU_ASSERT(mh_kit_rom_dir_check("/tmp", NULL, error, sizeof error) == MH_OK);
    CU_ASSERT(mh_kit_rom_dir_check("/nonexistent-mh-dir", " (hint)", error, sizeof error) ==
              MH_ERR_NOT_FOUND);
    CU_ASSERT(strcmp(error, "rom_dir /nonexistent-mh-dir: No such file or directory (hint)") == 0);
    CU_ASSERT(mh_kit_rom_dir_check("/dev/null", NULL, error, sizeof error) == MH_ERR_NOT_FOUND);
    CU_ASSERT(strcmp(error, "rom_dir /dev/null: not a directory") == 0);
}

MH_SUITE("sdk.kit_rom", NULL, NULL, MH_TEST(test_find_and_read), MH_TEST(test_dir_check))
