/* mh_asm.*: the build-time assembler tool (tools/mh-asm): joining files in
 * order with -D constants, the range image and fill, the C array, and its
 * error paths (assembler errors as file:line:column, bytes outside the
 * range, overlapping code, bad options, missing and hostile files). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mh_asm_tool.h"
#include "mh_test.h"

static char dir[256];

static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/mh_asm_test_XXXXXX");
    return mkdtemp(dir) ? 0 : 1;
}

static int teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

static const char *path(const char *name)
{
    static char buffers[8][320];
    static int next;
    char *p = buffers[next++ % 8];
    snprintf(p, 320, "%s/%s", dir, name);
    return p;
}

static void write_text(const char *name, const char *text, size_t length)
{
    FILE *f = fopen(path(name), "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(text, 1, length, f);
    fclose(f);
}

static void write_str(const char *name, const char *text)
{
    write_text(name, text, strlen(text));
}

/* Runs mh-asm with the arguments (NULL-terminated); messages into err. */
static int run(char *err, size_t err_size, ...)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "mh-asm";
    va_list ap;
    va_start(ap, err_size);
    for (char *a; (a = va_arg(ap, char *)) && argc < 31;) argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    FILE *f = tmpfile();
    int status = mh_asm_tool_run(argc, argv, f);
    rewind(f);
    size_t n = fread(err, 1, err_size - 1, f);
    err[n] = '\0';
    fclose(f);
    return status;
}

static long file_size(const char *p, unsigned char *out, size_t size)
{
    FILE *f = fopen(p, "rb");
    if (!f) return -1;
    long n = (long)fread(out, 1, size, f);
    fclose(f);
    return n;
}

static void test_files_in_order_with_defines(void)
{
    write_str("defs.s", "VALUE = BASE + 1\n");
    write_str("code.s", "  *= $E000\n  lda #VALUE\n  .byte NTSC\n  *= $E00F\n  .byte $EA\n");
    char err[512];
    int st = run(err, sizeof err, "-D", "BASE=$40", "-DNTSC=1", "--range", "$E000-$E00F",
                 "--fill", "$FF", "-o", (char *)path("out.bin"), "--c-array", "rom_x",
                 (char *)path("out.c"), (char *)path("defs.s"), (char *)path("code.s"), NULL);
    CU_ASSERT_EQUAL(st, 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    unsigned char bin[64];
    CU_ASSERT_EQUAL(file_size(path("out.bin"), bin, sizeof bin), 16);
    CU_ASSERT_EQUAL(bin[0], 0xA9);
    CU_ASSERT_EQUAL(bin[1], 0x41);
    CU_ASSERT_EQUAL(bin[2], 0x01);
    CU_ASSERT_EQUAL(bin[3], 0xFF); /* fill */
    CU_ASSERT_EQUAL(bin[15], 0xEA);
    char c[4096];
    long n = file_size(path("out.c"), (unsigned char *)c, sizeof c - 1);
    CU_ASSERT_TRUE(n > 0);
    c[n > 0 ? n : 0] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "const uint8_t rom_x[16] = {"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "0xA9, 0x41, 0x01, 0xFF"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "const size_t rom_x_size = 16;"));
}

static void test_error_names_file_and_line(void)
{
    write_str("a.s", "X = 1\nY = 2\n");
    write_str("b.s", "  *= $E000\n  nop\n  lda #(\n");
    char err[512];
    int st = run(err, sizeof err, "--range", "$E000-$E0FF", "-o", (char *)path("e.bin"),
                 (char *)path("a.s"), (char *)path("b.s"), NULL);
    CU_ASSERT_EQUAL(st, 1);
    char expect[400];
    snprintf(expect, sizeof expect, "%s:3:", path("b.s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, expect));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected"));
    CU_ASSERT_EQUAL(access(path("e.bin"), F_OK), -1); /* nothing written */
    /* an error in a -D value names the definition */
    write_str("c.s", "  *= $E000\n  .byte Z\n");
    st = run(err, sizeof err, "-D", "Z=(", "--range", "$E000-$E0FF", "-o",
             (char *)path("e.bin"), (char *)path("c.s"), NULL);
    CU_ASSERT_EQUAL(st, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "-D Z=(:"));
}

static void test_outside_range_and_overlap(void)
{
    write_str("o.s", "  *= $DFFF\nlow:  nop\n");
    char err[512];
    int st = run(err, sizeof err, "--range", "$E000-$FFFF", "-o", (char *)path("o.bin"),
                 (char *)path("o.s"), NULL);
    CU_ASSERT_EQUAL(st, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "byte at $DFFF is outside the range $E000-$FFFF"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "o.s:2"));
    write_str("v.s", "  *= $E000\nfirst: nop\n  nop\n  *= $E001\nsecond: rts\n");
    st = run(err, sizeof err, "--range", "$E000-$FFFF", "-o", (char *)path("o.bin"),
             (char *)path("v.s"), NULL);
    CU_ASSERT_EQUAL(st, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "$E001 is written twice"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "'second'"));
}

static void test_usage_errors(void)
{
    char err[512];
    write_str("ok.s", "  *= $E000\n  nop\n");
    const char *src = path("ok.s"), *out = path("u.bin");
    CU_ASSERT_EQUAL(run(err, sizeof err, "-o", (char *)out, (char *)src, NULL), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--range is required"));
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$FFFF-$E000", "-o", (char *)out,
                        (char *)src, NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$10000", "-o", (char *)out,
                        (char *)src, NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "E000", "-o", (char *)out, (char *)src,
                        NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$FFFF", "--fill", "$100", "-o",
                        (char *)out, (char *)src, NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$FFFF", "-o", (char *)out, NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$FFFF", (char *)src, NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "-D", "1X=2", "--range", "$E000-$FFFF", "-o",
                        (char *)out, (char *)src, NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "-D", "X", "--range", "$E000-$FFFF", "-o",
                        (char *)out, (char *)src, NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--bogus", NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$FFFF", "-o", (char *)out,
                        "--c-array", "not-an-identifier", (char *)path("x.c"), (char *)src,
                        NULL), 2);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$FFFF", "-o", (char *)out,
                        (char *)path("missing.s"), NULL), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot open"));
}

static void test_hostile_input(void)
{
    char err[512];
    /* a NUL byte: rejected, not silently cut */
    write_text("nul.s", "  *= $E000\n  nop\n\0  brk\n", 24);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$FFFF", "-o", (char *)path("h.bin"),
                        (char *)path("nul.s"), NULL), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "NUL"));
    /* binary garbage: an assembler error with a location, no crash */
    char junk[3000];
    unsigned seed = 12345;
    for (size_t i = 0; i < sizeof junk; i++) {
        seed = seed * 1103515245u + 12345u;
        junk[i] = (char)(1 + (seed >> 16) % 255);
    }
    write_text("junk.s", junk, sizeof junk);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$FFFF", "-o", (char *)path("h.bin"),
                        (char *)path("junk.s"), NULL), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "junk.s:"));
    /* an empty file assembles to the fill */
    write_text("empty.s", "", 0);
    CU_ASSERT_EQUAL(run(err, sizeof err, "--range", "$E000-$E003", "-o", (char *)path("h.bin"),
                        (char *)path("empty.s"), NULL), 0);
    unsigned char bin[8];
    CU_ASSERT_EQUAL(file_size(path("h.bin"), bin, sizeof bin), 4);
    CU_ASSERT_EQUAL(bin[0], 0);
}

MH_SUITE("mh_asm.tool", setup, teardown, MH_TEST(test_files_in_order_with_defines),
         MH_TEST(test_error_names_file_and_line), MH_TEST(test_outside_range_and_overlap),
         MH_TEST(test_usage_errors), MH_TEST(test_hostile_input))
