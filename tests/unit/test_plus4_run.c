/* plus4.run - the plus4 machine through the real mcphost binary, as a test
 * runner uses it:
 *
 *   mcphost --machine plus4 --rom-dir ROMS --transport none --warp
 *           --debugcart --autostart X.prg --limit-cycles N [--ntsc]
 *
 * Each program in tests/plus4 is assembled here with the SDK assembler,
 * autostarted at the READY prompt (RUN typed), and reports through the
 * debug cart ($FDCF): exit code 0 = pass, anything else = the number of the
 * failing check (see the program's header comment). Needs the original
 * ROMs (../shared/roms/PLUS4 or $MCPHOST_TEST_ROMS/PLUS4): skipped, saying
 * so, when they are absent. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mh_test.h"
#include "run_mcphost.h"
#include "test_c64_common.h"

#ifndef MH_PLUS4_PROGRAM_DIR
#error "MH_PLUS4_PROGRAM_DIR (tests/plus4) must be defined by tests/CMakeLists.txt"
#endif

static char tmpdir[] = "/tmp/mh_plus4_run_XXXXXX";
static char rom_dir[PATH_MAX];

static int suite_init(void)
{
    char dir[1024];
    const char *env = getenv("MCPHOST_TEST_ROMS");
    if (env && *env) snprintf(dir, sizeof dir, "%s/PLUS4", env);
    else snprintf(dir, sizeof dir, "%s/../roms/PLUS4", MH_SHARED_TESTDATA_DIR);
    /* mcphost refuses paths with "..": the directory as an absolute path. */
    char resolved[PATH_MAX];
    snprintf(rom_dir, sizeof rom_dir, "%s", realpath(dir, resolved) ? resolved : dir);
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int suite_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static int have_roms(void)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/kernal-318004-05.bin", rom_dir);
    struct stat st;
    if (stat(path, &st) == 0) return 1;
    fprintf(stderr, "  (skipped: no Plus/4 ROMs at %s; set MCPHOST_TEST_ROMS) ", rom_dir);
    return 0;
}

/* tests/plus4/NAME assembled into tmpdir/NAME.prg. */
static int make_prg(const char *name, char *out, size_t out_size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", MH_PLUS4_PROGRAM_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char *source = calloc(1, 1 << 20);
    size_t n = source ? fread(source, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (!source || n == 0) {
        free(source);
        return -1;
    }
    static uint8_t image[65536];
    int lo, hi;
    int rc = c64t_assemble(source, image, &lo, &hi);
    free(source);
    if (rc != 0) return -1;
    snprintf(out, out_size, "%s/%.*s.prg", tmpdir, (int)(strlen(name) - 2), name);
    f = fopen(out, "wb");
    if (!f) return -1;
    const uint8_t header[2] = {(uint8_t)(lo & 0xFF), (uint8_t)(lo >> 8)};
    fwrite(header, 1, 2, f);
    fwrite(image + lo, 1, (size_t)(hi - lo + 1), f);
    return fclose(f);
}

/* Runs tests/plus4/NAME; returns its exit code. */
static int run_program(const char *name, const char *extra, mh_test_output *r)
{
    char prg[512];
    if (make_prg(name, prg, sizeof prg) != 0) return -100;
    const char *args[] = {"--machine", "plus4", "--rom-dir", rom_dir, "--transport", "none",
                          "--warp", "--debugcart", "--autostart", prg, "--limit-cycles",
                          "40000000", extra, NULL};
    if (mh_test_run_mcphost(args, 120, r) != 0) return -101;
    if (r->exit_code != 0) fprintf(stderr, "\n%s %s: exit %d\n%s\n", name, extra ? extra : "",
                                   r->exit_code, r->err);
    return r->exit_code;
}

/* The vertical counter written: longer and shorter frames, the 9-bit wrap,
 * $FF07 bit 6's line count (PAL and NTSC machines). */
static void test_vertical_counter(void)
{
    if (!have_roms()) return;
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("vcounter.s", NULL, &r), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "autostart"));
    CU_ASSERT_EQUAL(run_program("vcounter.s", "--ntsc", &r), 0);
}

/* The single-clock windows of a line: the refresh on every line, the
 * display lines' fetch window through the refresh (PAL and NTSC). */
static void test_clock_windows(void)
{
    if (!have_roms()) return;
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("clock_windows.s", NULL, &r), 0);
    CU_ASSERT_EQUAL(run_program("clock_windows.s", "--ntsc", &r), 0);
}

/* $FF07 bit 5: the beam and the timers stand, single clock, and the beam
 * runs again after (PAL and NTSC). */
static void test_freeze(void)
{
    if (!have_roms()) return;
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("freeze.s", NULL, &r), 0);
    CU_ASSERT_EQUAL(run_program("freeze.s", "--ntsc", &r), 0);
}

/* A timer's first step and its IRQ flag, to the cycle (PAL and NTSC). */
static void test_timer_start(void)
{
    if (!have_roms()) return;
    mh_test_output r;
    CU_ASSERT_EQUAL(run_program("timer_start.s", NULL, &r), 0);
    CU_ASSERT_EQUAL(run_program("timer_start.s", "--ntsc", &r), 0);
}

MH_SUITE("plus4.run", suite_init, suite_cleanup, MH_TEST(test_vertical_counter),
         MH_TEST(test_clock_windows), MH_TEST(test_freeze), MH_TEST(test_timer_start))
