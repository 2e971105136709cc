/* test_kit_drive.c - opening a disk image for the virtual drive
 * (mcphost/kernal.h: mh_kernal_drive_open): a D64 opens with a copy of its
 * path; a missing file and a file that is no D64 are refused with the
 * "drive8 \"PATH\": " messages the machines give. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcphost/kernal.h"
#include "mcphost/media_d64.h"
#include "mh_test.h"
#include "test_media_build.h"

static void write_file(const char *path, const uint8_t *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, size, f), size);
    fclose(f);
}

static void test_opens_d64(void)
{
    char path[] = "/tmp/mh_kit_drive_XXXXXX.d64";
    int fd = mkstemps(path, 4);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    tb_d64 b;
    tb_d64_init(&b, 35, false, "KIT", "01");
    static const uint8_t prg[] = {0x01, 0x08, 0x00};
    tb_d64_add_file(&b, "HELLO", 0x82, prg, sizeof prg);
    write_file(path, b.img, b.size);
    tb_d64_free(&b);

    mh_d64 *disk = NULL;
    char *disk_path = NULL;
    char error[300] = "";
    CU_ASSERT_EQUAL(mh_kernal_drive_open(path, 1, &disk, &disk_path, error, sizeof error), MH_OK);
    CU_ASSERT_PTR_NOT_NULL(disk);
    CU_ASSERT_PTR_NOT_NULL_FATAL(disk_path);
    CU_ASSERT_STRING_EQUAL(disk_path, path);
    CU_ASSERT_PTR_NOT_EQUAL(disk_path, path);
    mh_d64_free(disk);
    free(disk_path);
    remove(path);
}

static void test_refuses(void)
{
    char path[] = "/tmp/mh_kit_drive_XXXXXX.bin";
    int fd = mkstemps(path, 4);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    static const uint8_t junk[100] = {0};
    write_file(path, junk, sizeof junk);

    mh_d64 *disk = (mh_d64 *)1;
    char *disk_path = (char *)1;
    char error[400], want[400];
    CU_ASSERT_EQUAL(mh_kernal_drive_open(path, 0, &disk, &disk_path, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NULL(disk);
    CU_ASSERT_PTR_NULL(disk_path);
    snprintf(want, sizeof want, "drive8 \"%s\": not a D64 disk image (100 bytes)", path);
    CU_ASSERT_STRING_EQUAL(error, want);
    CU_ASSERT_EQUAL(mh_kernal_drive_open(path, 1, &disk, &disk_path, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    snprintf(want, sizeof want,
             "drive8 \"%s\": not a D64 disk image (100 bytes; expected 174848, 175531, 196608 "
             "or 197376)",
             path);
    CU_ASSERT_STRING_EQUAL(error, want);
    remove(path);

    CU_ASSERT_NOT_EQUAL(mh_kernal_drive_open(path, 1, &disk, &disk_path, error, sizeof error),
                        MH_OK);
    snprintf(want, sizeof want, "drive8 \"%s\": ", path);
    CU_ASSERT_EQUAL(strncmp(error, want, strlen(want)), 0);
    CU_ASSERT_PTR_NULL(disk);
}

MH_SUITE("sdk.kit_drive", NULL, NULL, MH_TEST(test_opens_d64), MH_TEST(test_refuses))
