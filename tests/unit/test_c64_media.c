/* c64.reset, c64.drive, c64.cartridge - the C64 machine in-process
 * (c64_core, no host): soft and hard reset; the virtual drive 8 trapping
 * the KERNAL's LOAD; cartridges. Needs /usr/share/open-roms/C64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c64.h"
#include "mcphost/machine.h"
#include "mh_test.h"
#include "test_c64_common.h"

#define BOOT_CYCLES 3000000u

static c64 *boot(const char *options)
{
    char error[512];
    c64 *m = c64_new(options, NULL, error, sizeof error);
    if (!m) {
        fprintf(stderr, "c64_new(%s): %s\n", options, error);
        return NULL;
    }
    mh_run_result r = {0};
    c64_run(m, BOOT_CYCLES, &r);
    return m;
}

static const char *screen(const c64 *m)
{
    static char text[25 * 41 + 1];
    c64t_screen_text(m->p.ram + 0x0400, text);
    return text;
}

static mh_run_result run(c64 *m, uint64_t cycles)
{
    mh_run_result r = {0};
    c64_run(m, cycles, &r);
    return r;
}

/* ---- c64.reset ---- */

static const uint8_t marker[4] = {0x12, 0x34, 0x56, 0x78};

static void test_soft_reset(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    memcpy(m->p.ram + 0xC000, marker, sizeof marker);
    memset(m->p.ram + 0x0400, 0x20, 1000); /* a blank screen: READY must come back */
    c64_io_write(m, 0xD020, 2);
    c64_bus_poke(m, 0x0001, 0x35); /* BASIC and KERNAL out: the reset banks them in */
    c64_reset(m, 0);
    CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&m->cpu) & 7, 7);
    CU_ASSERT_EQUAL(m->vic.reg[0x20] & 15, 0); /* the VIC's registers reset */
    run(m, BOOT_CYCLES);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    CU_ASSERT_EQUAL(memcmp(m->p.ram + 0xC000, marker, sizeof marker), 0);
    c64_free(m);
}

static void test_hard_reset(void)
{
    c64 *m = boot("{}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    memcpy(m->p.ram + 0xC000, marker, sizeof marker);
    memset(m->p.ram + 0x0400, 0x20, 1000);
    c64_reset(m, 1);
    CU_ASSERT_EQUAL(m->p.ram[0xC000], 0x00); /* VICE's pattern: $00 x 64, $FF x 64 */
    CU_ASSERT_EQUAL(m->p.ram[0xC040], 0xFF);
    CU_ASSERT_EQUAL(m->p.cycles, 0);
    run(m, BOOT_CYCLES);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    CU_ASSERT_NOT_EQUAL(memcmp(m->p.ram + 0xC000, marker, sizeof marker), 0);
    c64_free(m);
}

/* A reset right after a debug-cart exit: the halted bus is undone. */
static void test_reset_after_exit(void)
{
    c64 *m = boot("{\"debugcart\":true}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    static const uint8_t prg[] = {0xA9, 0x07, 0x8D, 0xFF, 0xD7, 0x4C, 0x05, 0xC0};
    memcpy(m->p.ram + 0xC000, prg, sizeof prg);
    m->cpu.pc = 0xC000;
    mh_run_result r = run(m, 1000);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_EXIT);
    CU_ASSERT_EQUAL(r.exit_code, 7);
    c64_reset(m, 0);
    r = run(m, BOOT_CYCLES);
    CU_ASSERT_EQUAL(r.stop, MH_RUN_BUDGET);
    CU_ASSERT_PTR_NOT_NULL(strstr(screen(m), "READY."));
    c64_free(m);
}

MH_SUITE("c64.reset", NULL, NULL, MH_TEST(test_soft_reset), MH_TEST(test_hard_reset),
         MH_TEST(test_reset_after_exit))
