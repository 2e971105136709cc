/* media.prg: PRG parsing, format detection, the file loader, PETSCII and
 * CBM DOS name matching (mcphost/media.h). */
#include "mh_test.h"
#include "test_media_build.h"

#include <mcphost/media.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK_CONTAINS(text, part) check_contains((text), (part), __LINE__, __FILE__)
static void check_contains(const char *text, const char *part, unsigned line, const char *file)
{
    char cond[600];
    snprintf(cond, sizeof cond, "\"%s\" should contain \"%s\"", text, part);
    CU_assertImplementation(strstr(text, part) ? CU_TRUE : CU_FALSE, line, cond, file, "", CU_FALSE);
}

static void test_prg_parse(void)
{
    const uint8_t bytes[] = {0x01, 0x08, 0x0b, 0x08, 0x0a, 0x00};
    uint8_t *b = tb_dup(bytes, sizeof bytes);
    mh_prg prg;
    mh_media_error e;
    CU_ASSERT_EQUAL(mh_prg_parse(b, sizeof bytes, &prg, &e), MH_OK);
    CU_ASSERT_EQUAL(e.status, MH_OK);
    CU_ASSERT_STRING_EQUAL(e.message, "");
    CU_ASSERT_EQUAL(prg.load_address, 0x0801);
    CU_ASSERT_EQUAL(prg.size, 4);
    CU_ASSERT_EQUAL(prg.end_address, 0x0805);
    CU_ASSERT_PTR_EQUAL(prg.data, b + 2);
    free(b);
}

static void test_prg_limits(void)
{
    uint8_t buf[300] = {0};
    mh_prg prg;
    mh_media_error e;
    for (size_t n = 0; n < 3; n++) {
        CU_ASSERT_EQUAL(mh_prg_parse(buf, n, &prg, &e), MH_ERR_INVALID_ARGUMENT);
        CU_ASSERT_EQUAL(e.status, MH_ERR_INVALID_ARGUMENT);
        CHECK_CONTAINS(e.message, "too short");
    }
    /* $FFFF + 1 byte ends exactly at $10000. */
    buf[0] = 0xff;
    buf[1] = 0xff;
    CU_ASSERT_EQUAL(mh_prg_parse(buf, 3, &prg, &e), MH_OK);
    CU_ASSERT_EQUAL(prg.end_address, 0x10000);
    CU_ASSERT_EQUAL(mh_prg_parse(buf, 4, &prg, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(e.message, "PRG: 2 data bytes loaded at $FFFF would end at $10000, past $FFFF");
    buf[0] = 0x00;
    buf[1] = 0xff; /* $FF00: 256 bytes fit, 257 do not */
    CU_ASSERT_EQUAL(mh_prg_parse(buf, 258, &prg, &e), MH_OK);
    CU_ASSERT_EQUAL(mh_prg_parse(buf, 259, &prg, &e), MH_ERR_INVALID_ARGUMENT);
    /* $0000 and a full 64K. */
    uint8_t *big = calloc(1, 0x10002 + 1);
    CU_ASSERT_EQUAL(mh_prg_parse(big, 0x10002, &prg, NULL), MH_OK);
    CU_ASSERT_EQUAL(prg.end_address, 0x10000);
    CU_ASSERT_EQUAL(mh_prg_parse(big, 0x10003, &prg, NULL), MH_ERR_INVALID_ARGUMENT);
    free(big);
    CU_ASSERT_EQUAL(mh_prg_parse(NULL, 5, &prg, &e), MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_EQUAL(mh_prg_parse(buf, 5, NULL, &e), MH_ERR_INVALID_ARGUMENT);
}

static void test_detect(void)
{
    uint8_t crt[64] = "C64 CARTRIDGE   ";
    uint8_t t64[64] = "C64S tape image file";
    uint8_t prg[4] = {1, 8, 0, 0};
    CU_ASSERT_EQUAL(mh_media_detect(NULL, crt, sizeof crt), MH_MEDIA_CRT);
    CU_ASSERT_EQUAL(mh_media_detect("x.prg", crt, sizeof crt), MH_MEDIA_CRT);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, t64, sizeof t64), MH_MEDIA_T64);
    memcpy(t64, "C64 TAPE IMAGE FILE", 19);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, t64, sizeof t64), MH_MEDIA_T64);
    uint8_t *d64 = calloc(1, 197376);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, d64, 174848), MH_MEDIA_D64);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, d64, 175531), MH_MEDIA_D64);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, d64, 196608), MH_MEDIA_D64);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, d64, 197376), MH_MEDIA_D64);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, d64, 174849), MH_MEDIA_UNKNOWN);
    CU_ASSERT_EQUAL(mh_media_detect("GAME.D64", d64, 1000), MH_MEDIA_D64);
    free(d64);
    CU_ASSERT_EQUAL(mh_media_detect("game.PRG", prg, sizeof prg), MH_MEDIA_PRG);
    CU_ASSERT_EQUAL(mh_media_detect("a.t64", prg, sizeof prg), MH_MEDIA_T64);
    CU_ASSERT_EQUAL(mh_media_detect("a.Crt", prg, sizeof prg), MH_MEDIA_CRT);
    CU_ASSERT_EQUAL(mh_media_detect("prg", prg, sizeof prg), MH_MEDIA_UNKNOWN);
    CU_ASSERT_EQUAL(mh_media_detect(".prg", prg, sizeof prg), MH_MEDIA_UNKNOWN);
    CU_ASSERT_EQUAL(mh_media_detect(NULL, NULL, 0), MH_MEDIA_UNKNOWN);
    CU_ASSERT_STRING_EQUAL(mh_media_kind_name(MH_MEDIA_D64), "D64");
    CU_ASSERT_STRING_EQUAL(mh_media_kind_name((mh_media_kind)99), "unknown");
}

static void test_load_file(void)
{
    char path[] = "/tmp/mh_media_test_XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    uint8_t data[200000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7);
    CU_ASSERT_EQUAL(write(fd, data, sizeof data), (ssize_t)sizeof data);
    close(fd);
    uint8_t *got = NULL;
    size_t size = 0;
    mh_media_error e;
    CU_ASSERT_EQUAL(mh_media_load_file(path, 0, &got, &size, &e), MH_OK);
    CU_ASSERT_EQUAL(size, sizeof data);
    CU_ASSERT(got && memcmp(got, data, sizeof data) == 0);
    free(got);
    CU_ASSERT_EQUAL(mh_media_load_file(path, sizeof data, &got, &size, &e), MH_OK);
    free(got);
    CU_ASSERT_EQUAL(mh_media_load_file(path, sizeof data - 1, &got, &size, &e), MH_ERR_LIMIT);
    CU_ASSERT_PTR_NULL(got);
    CHECK_CONTAINS(e.message, "larger than the 199999-byte limit");
    unlink(path);
    CU_ASSERT_EQUAL(mh_media_load_file(path, 0, &got, &size, &e), MH_ERR_IO);
    CHECK_CONTAINS(e.message, "cannot open /tmp/mh_media_test_");
    CHECK_CONTAINS(e.message, "No such file");
    /* Only regular files: a directory, a device (endless bytes) and a FIFO
     * (which would block a plain open) are refused at once. */
    CU_ASSERT_EQUAL(mh_media_load_file("/tmp", 0, &got, &size, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(e.message, "/tmp is not a regular file");
    CU_ASSERT_EQUAL(mh_media_load_file("/dev/zero", 0, &got, &size, &e), MH_ERR_INVALID_ARGUMENT);
    char fifo[] = "/tmp/mh_media_fifo_XXXXXX";
    int tmp = mkstemp(fifo);
    CU_ASSERT_FATAL(tmp >= 0);
    close(tmp);
    unlink(fifo);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    CU_ASSERT_EQUAL(mh_media_load_file(fifo, 0, &got, &size, &e), MH_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(e.message, "is not a regular file");
    unlink(fifo);
    CU_ASSERT_EQUAL(mh_media_load_file(NULL, 0, &got, &size, &e), MH_ERR_INVALID_ARGUMENT);
}

static void test_petscii(void)
{
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0x41), 'A');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0x5a), 'Z');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0xc1), 'a');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0x61), 'a');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0x20), ' ');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0x30), '0');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0xa0), ' ');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0x5c), '?'); /* pound */
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0x00), '?');
    CU_ASSERT_EQUAL(mh_petscii_to_ascii(0xff), '?');
    for (unsigned c = 0; c < 256; c++) {
        char a = mh_petscii_to_ascii((uint8_t)c);
        CU_ASSERT(a >= 0x20 && a < 0x7f);
    }
    CU_ASSERT_EQUAL(mh_petscii_from_ascii('A'), 0x41);
    CU_ASSERT_EQUAL(mh_petscii_from_ascii('a'), 0x41);
    CU_ASSERT_EQUAL(mh_petscii_from_ascii('*'), '*');
    CU_ASSERT_EQUAL(mh_petscii_from_ascii('$'), '$');
    CU_ASSERT_EQUAL(mh_petscii_from_ascii('_'), -1);
    CU_ASSERT_EQUAL(mh_petscii_from_ascii('\n'), -1);
    const uint8_t name[16] = {'G', 'A', 'M', 'E', 0xa0, 'X', 0xa0};
    CU_ASSERT_EQUAL(mh_petscii_name_length(name, 16), 4);
    CU_ASSERT_EQUAL(mh_petscii_name_length(name, 3), 3);
    CU_ASSERT_STRING_EQUAL(mh_cbm_file_type_name(MH_CBM_PRG), "PRG");
    CU_ASSERT_STRING_EQUAL(mh_cbm_file_type_name(MH_CBM_DEL), "DEL");
    CU_ASSERT_STRING_EQUAL(mh_cbm_file_type_name(5), "???");
}

static bool match(const char *pattern, const char *name)
{
    return mh_cbm_name_match((const uint8_t *)pattern, strlen(pattern), (const uint8_t *)name,
                             strlen(name));
}

static void test_name_match(void)
{
    CU_ASSERT(match("GAME", "GAME"));
    CU_ASSERT(!match("GAME", "GAMES"));
    CU_ASSERT(!match("GAMES", "GAME"));
    CU_ASSERT(match("*", "GAME"));
    CU_ASSERT(match("*", ""));
    CU_ASSERT(match("G*", "GAME"));
    CU_ASSERT(match("GAME*", "GAME"));
    CU_ASSERT(!match("GB*", "GAME"));
    CU_ASSERT(match("G?ME", "GAME"));
    CU_ASSERT(match("????", "GAME"));
    CU_ASSERT(!match("???", "GAME"));
    CU_ASSERT(!match("?????", "GAME"));
    CU_ASSERT(match("G*XYZ", "GAME")); /* the DOS ignores what follows '*' */
    CU_ASSERT(match("??M*", "GAME"));
    CU_ASSERT(!match("", "GAME"));
    CU_ASSERT(!match("", ""));
    CU_ASSERT(!match("game", "GAME")); /* bytes as they are */
    CU_ASSERT(!mh_cbm_name_match(NULL, 3, (const uint8_t *)"A", 1));
}

MH_SUITE("media.prg", NULL, NULL, MH_TEST(test_prg_parse), MH_TEST(test_prg_limits),
         MH_TEST(test_detect), MH_TEST(test_load_file), MH_TEST(test_petscii),
         MH_TEST(test_name_match))
