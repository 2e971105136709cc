/* c64.run - the c64 machine through the real mcphost binary, as a test
 * runner uses it:
 *
 *   mcphost --machine c64 --transport none --warp --autostart X.prg --debugcart
 *           --limit-cycles N
 *
 * Each program in tests/c64 is assembled here with the SDK assembler,
 * booted with the Open ROMs, autostarted at the READY prompt (RUN typed into
 * the keyboard buffer), and reports through the debug cart: exit code 0 =
 * pass, anything else = the number of the failing check (see the program's
 * header comment). Also: --limit-cycles, a jammed CPU, option and ROM
 * errors. Needs /usr/share/open-roms/C64 (Debian's open-roms). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mh_test.h"
#include "png_decode.h"
#include "test_c64_common.h"
#include "test_media_build.h"

static char tmpdir[] = "/tmp/mh_c64_run_XXXXXX";

static int suite_init(void) { return mkdtemp(tmpdir) ? 0 : -1; }

static int suite_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs tests/c64/NAME with autostart + debug cart; returns the exit code. */
static int run_program(const char *name, const char *extra, const char *extra2, mh_test_output *r)
{
    char prg[512];
    if (c64t_make_prg(tmpdir, name, prg, sizeof prg) != 0) return -100;
    const char *args[] = {"--machine", "c64", "--transport", "none", "--warp", "--debugcart",
                          "--autostart", prg, "--limit-cycles", "30000000",
                          extra, extra2, NULL};
    if (mh_test_run_mcphost(args, 60, r) != 0) return -101;
    if (r->exit_code != 0) fprintf(stderr, "\n%s: exit %d\n%s\n", name, r->exit_code, r->err);
    return r->exit_code;
}

/* Booted to READY: the program finds "READY." in screen memory. */
static void test_boot_ready(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("ready.s", NULL, NULL, &r), 0);
    CU_ASSERT_EQUAL(run_program("ready.s", "--ntsc", NULL, &r), 0);
}

static void test_raster_irq(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("raster_irq.s", NULL, NULL, &r), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "autostart"));
}

static void test_raster_irq_ntsc(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("raster_irq.s", "--ntsc", NULL, &r), 0);
    CU_ASSERT_EQUAL(run_program("raster_irq.s", "--vicii-model", "6567r56a", &r), 0);
}

static void test_badline(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("badline.s", NULL, NULL, &r), 0);
}

static void test_sprite_collision(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("sprites.s", NULL, NULL, &r), 0);
}

static void test_cia_timers(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("cia_timer.s", NULL, NULL, &r), 0);
}

static void test_cia_timers_6526a(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("cia_timer.s", "--cia-model", "6526a", &r), 0);
}

static void test_tod_alarm(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("tod.s", NULL, NULL, &r), 0);
}

static void test_banking(void)
{
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("banking.s", NULL, NULL, &r), 0);
}

/* Reads a whole file (the test's own .prg) into a malloc'ed buffer. */
static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = malloc(65538);
    *size = data ? fread(data, 1, 65538, f) : 0;
    fclose(f);
    return data;
}

static int write_image(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fwrite(data, 1, size, f);
    return fclose(f);
}

/* .d64 (the first PRG entry, after a SEQ file) and .t64 (the first entry)
 * autostart like a .prg; a .crt with no CHIP packet is refused. */
static void test_autostart_containers(void)
{
    char prg[512], path[600];
    CU_ASSERT_EQUAL_FATAL(c64t_make_prg(tmpdir, "banking.s", prg, sizeof prg), 0);
    size_t size = 0;
    uint8_t *data = slurp(prg, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);

    tb_d64 d64;
    tb_d64_init(&d64, 35, false, "TESTS", "C6");
    static const uint8_t text[] = {'H', 'I', 13};
    tb_d64_add_file(&d64, "README", 0x81, text, sizeof text);
    tb_d64_add_file(&d64, "BANKING", 0x82, data, size);
    snprintf(path, sizeof path, "%s/banking.d64", tmpdir);
    CU_ASSERT_EQUAL_FATAL(write_image(path, d64.img, d64.size), 0);
    tb_d64_free(&d64);
    const char *args[] = {"--machine", "c64", "--transport", "none", "--warp", "--debugcart",
                          "--autostart", path, "--limit-cycles", "30000000", NULL};
    mh_test_output r;
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "typed RUN"));

    tb_t64_file file = {"BANKING", (uint16_t)(data[0] | data[1] << 8),
                        (uint16_t)((data[0] | data[1] << 8) + size - 2), data + 2, size - 2};
    size_t t64_size = 0;
    uint8_t *t64 = tb_t64_build("C64S tape image file", 4, &file, 1, &t64_size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t64);
    snprintf(path, sizeof path, "%s/banking.t64", tmpdir);
    CU_ASSERT_EQUAL_FATAL(write_image(path, t64, t64_size), 0);
    free(t64);
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 0);
    free(data);

    snprintf(path, sizeof path, "%s/game.crt", tmpdir);
    static const char crt[64] = "C64 CARTRIDGE   ";
    CU_ASSERT_EQUAL_FATAL(write_image(path, (const uint8_t *)crt, sizeof crt), 0);
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cartridge \""));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "game.crt"));
}

/* --autostart cart.crt --debugcart: an 8K cartridge with the CBM80
 * signature at $8004; its cold start writes 42 to $D7FF. */
static void test_cartridge_exit(void)
{
    static const uint8_t rom[] = {0x09, 0x80, 0x09, 0x80, 0xC3, 0xC2, 0xCD, 0x38, 0x30,
                                  0xA9, 0x2A, 0x8D, 0xFF, 0xD7, 0x4C, 0x0E, 0x80};
    tb_crt_chip chip = {0, 0, 0x8000, 8192, 0, 0, false};
    size_t size = 0;
    uint8_t *crt = tb_crt_build(0, 0, 1, "TEST", &chip, 1, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(crt);
    memcpy(crt + 64 + 16, rom, sizeof rom);
    char path[600];
    snprintf(path, sizeof path, "%s/cart.crt", tmpdir);
    CU_ASSERT_EQUAL_FATAL(write_image(path, crt, size), 0);
    free(crt);
    const char *args[] = {"--machine", "c64", "--transport", "none", "--warp", "--debugcart",
                          "--autostart", path, "--limit-cycles", "30000000", NULL};
    mh_test_output r;
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 42);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "8K (EXROM=0 GAME=1), ROML"));
}

/* --autostart game.d64: the program (the first PRG) loads the disk's
 * second file with the KERNAL's LOAD from the virtual drive 8. */
static void test_drive_load(void)
{
    char prg[512], path[600];
    CU_ASSERT_EQUAL_FATAL(c64t_make_prg(tmpdir, "drive_load.s", prg, sizeof prg), 0);
    size_t size = 0;
    uint8_t *data = slurp(prg, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    tb_d64 d64;
    tb_d64_init(&d64, 35, false, "GAME", "G1");
    static const uint8_t bytes[] = {0x00, 0xC0, 0x11, 0x22, 0x33, 0x44};
    tb_d64_add_file(&d64, "LOADER", 0x82, data, size);
    tb_d64_add_file(&d64, "DATA", 0x82, bytes, sizeof bytes);
    snprintf(path, sizeof path, "%s/game.d64", tmpdir);
    CU_ASSERT_EQUAL_FATAL(write_image(path, d64.img, d64.size), 0);
    tb_d64_free(&d64);
    free(data);
    const char *args[] = {"--machine", "c64", "--transport", "none", "--warp", "--debugcart",
                          "--autostart", path, "--limit-cycles", "30000000", NULL};
    mh_test_output r;
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 0);
    if (r.exit_code != 0) fprintf(stderr, "\ndrive_load: exit %d\n%s\n", r.exit_code, r.err);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "drive 8: loaded \"DATA\" $C000-$C003"));
}

/* --exit-screenshot: the last frame as an indexed PNG when the run ends
 * (here by the debug cart; also by --limit-cycles). */
static void test_exit_screenshot(void)
{
    char png_path[600];
    snprintf(png_path, sizeof png_path, "%s/shot.png", tmpdir);
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("screenshot.s", "--exit-screenshot", png_path, &r), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wrote"));
    size_t size = 0;
    uint8_t *png = slurp(png_path, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(png);
    mh_test_png image;
    char error[256];
    int decoded = mh_test_png_decode(png, size, &image, error, sizeof error);
    free(png);
    CU_ASSERT_EQUAL_FATAL(decoded, 0);
    CU_ASSERT_EQUAL(image.width, 384);
    CU_ASSERT_EQUAL(image.height, 272);
    CU_ASSERT_EQUAL(image.color_type, 3);
    CU_ASSERT_EQUAL(image.palette_size, 16);
    /* Pepto: 2 red $68372B, 6 blue $352879, 5 green $588D43. */
    CU_ASSERT_EQUAL(image.palette[2 * 3], 0x68);
    CU_ASSERT_EQUAL(image.palette[2 * 3 + 1], 0x37);
    CU_ASSERT_EQUAL(image.palette[2 * 3 + 2], 0x2B);
    CU_ASSERT_EQUAL(image.pixels[0], 2);                         /* border, top left */
    CU_ASSERT_EQUAL(image.pixels[271 * 384 + 383], 2);           /* border, bottom right */
    CU_ASSERT_EQUAL(image.pixels[136 * 384 + 192], 6);           /* background, centre */
    unsigned green = 0, first = 0;
    for (unsigned i = 0; i < 384u * 272u; i++)
        if (image.pixels[i] == 5 && green++ == 0) first = i;
    CU_ASSERT_EQUAL(green, 64);                                  /* one 8x8 cell */
    CU_ASSERT_EQUAL(first % 384, 32);                            /* the left border is 32 wide */
    mh_test_png_free(&image);

    /* Ended by --limit-cycles, with no debug cart. */
    char prg[512];
    CU_ASSERT_EQUAL_FATAL(c64t_make_prg(tmpdir, "ready.s", prg, sizeof prg), 0);
    snprintf(png_path, sizeof png_path, "%s/limit.png", tmpdir);
    const char *args[] = {"--machine", "c64", "--transport", "none", "--warp",
                          "--limit-cycles", "3000000", "--exit-screenshot", png_path, NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 1);
    png = slurp(png_path, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(png);
    CU_ASSERT_EQUAL(mh_test_png_decode(png, size, &image, error, sizeof error), 0);
    CU_ASSERT_EQUAL(image.height, 272);
    mh_test_png_free(&image);
    free(png);

    /* An unwritable path: a clear log error, the run's code unchanged. */
    const char *bad[] = {"--machine", "c64", "--transport", "none", "--warp",
                         "--limit-cycles", "1000", "--exit-screenshot", "/nonexistent/x.png", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(bad, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--exit-screenshot: cannot write /nonexistent/x.png"));
}

static void test_limit_and_jam(void)
{
    /* A program that jams: --limit-cycles still ends the run (code 1). */
    static uint8_t image[65536];
    int lo, hi;
    CU_ASSERT_EQUAL_FATAL(c64t_assemble("*= $0801\n.word e\n.word 10\n.byte $9E\n.text \"2064\"\n"
                                        ".byte 0\ne: .word 0\n*= $0810\nJAM\n",
                                        image, &lo, &hi),
                          0);
    char prg[512];
    snprintf(prg, sizeof prg, "%s/jam.prg", tmpdir);
    FILE *f = fopen(prg, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    uint8_t header[2] = {(uint8_t)lo, (uint8_t)(lo >> 8)};
    fwrite(header, 1, 2, f);
    fwrite(image + lo, 1, (size_t)(hi - lo + 1), f);
    fclose(f);
    const char *args[] = {"--machine", "c64", "--transport", "none", "--warp", "--debugcart",
                          "--autostart", prg, "--limit-cycles", "5000000", NULL};
    mh_test_output r;
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(args, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "jam"));

    /* No program: the limit ends an idle machine with 1. */
    const char *idle[] = {"--machine", "c64", "--transport", "none", "--warp",
                          "--limit-cycles", "1000000", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(idle, 60, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 1);
}

static void test_option_errors(void)
{
    mh_test_output r;
    const char *bad_model[] = {"--machine", "c64", "--transport", "none", "--vicii-model", "6570",
                               "--limit-cycles", "1000", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(bad_model, 30, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "vicii_model: expected one of"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "\"6569\""));

    const char *unknown[] = {"--machine", "c64", "--transport", "none", "--config", "ram=64k",
                             "--limit-cycles", "1000", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(unknown, 30, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "unknown option \"ram\""));

    /* A ROM directory with a short KERNAL. */
    char dir[600], path[700];
    snprintf(dir, sizeof dir, "%s/roms", tmpdir);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/kernal", dir);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite("short", 1, 5, f);
    fclose(f);
    const char *short_rom[] = {"--machine", "c64", "--transport", "none", "--rom-dir", dir,
                               "--limit-cycles", "1000", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(short_rom, 30, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "kernal ROM"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "is 5 bytes, expected 8192"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, dir));

    const char *missing[] = {"--machine", "c64", "--transport", "none", "--autostart",
                             "/nonexistent/x.prg", "--limit-cycles", "1000", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(missing, 30, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/nonexistent/x.prg"));
}

MH_SUITE("c64.run", suite_init, suite_cleanup, MH_TEST(test_boot_ready), MH_TEST(test_raster_irq),
         MH_TEST(test_raster_irq_ntsc), MH_TEST(test_badline), MH_TEST(test_sprite_collision),
         MH_TEST(test_cia_timers), MH_TEST(test_cia_timers_6526a), MH_TEST(test_tod_alarm),
         MH_TEST(test_banking), MH_TEST(test_autostart_containers), MH_TEST(test_drive_load), MH_TEST(test_cartridge_exit),
         MH_TEST(test_exit_screenshot), MH_TEST(test_limit_and_jam), MH_TEST(test_option_errors))
