/* c64.defer - the C64 with the VIC-II's deferred quiet cycles (the CPU
 * engine without hooks, c64_exec) against the same machine ticking the
 * VIC-II every cycle (the hooks' engine, c64_exec_hooks, with a sync hook
 * that never stops). A program writes, at every point of the lines, what
 * the VIC fetches: the character set, the bitmap, the sprite pointers,
 * $3FFF and $39FF, switches text/bitmap/ECM and the VIC bank, moves
 * sprites; between runs of odd lengths RAM, colour RAM, both framebuffers,
 * the VIC-II's state and the CPU must be equal. Needs
 * /usr/share/open-roms/C64 (skips without it). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c64.h"
#include "mh_test.h"
#include "test_c64_common.h"

#define BOOT_CYCLES 3000000u

static int never_stop(void *user, uint16_t pc)
{
    (void)user;
    (void)pc;
    return 0;
}

static c64 *boot(const char *options, int per_cycle)
{
    char error[512];
    c64 *m = c64_new(options, NULL, error, sizeof error);
    if (!m) {
        fprintf(stderr, "c64_new(%s): %s\n", options, error);
        return NULL;
    }
    if (per_cycle) c64_set_debug_hooks(m, never_stop, NULL, NULL);
    mh_run_result r = {0};
    c64_run(m, BOOT_CYCLES, &r);
    return m;
}

/* The machines' visible state equal (the VIC-II's without its links). */
static int same_machine(const c64 *a, const c64 *b)
{
    return memcmp(a->p.ram, b->p.ram, sizeof a->p.ram) == 0 &&
           memcmp(a->p.color, b->p.color, sizeof a->p.color) == 0 &&
           memcmp(a->p.fb, b->p.fb, sizeof a->p.fb) == 0 &&
           memcmp(&a->vic, &b->vic, offsetof(m6569, links)) == 0 && a->cpu.pc == b->cpu.pc &&
           a->cpu.a == b->cpu.a && a->cpu.x == b->cpu.x && a->cpu.y == b->cpu.y &&
           a->cpu.cycles == b->cpu.cycles;
}

/* Writes at every raster position (the loop's length is not a divisor of
 * the line's), all over what the VIC fetches, with the mode, the bases,
 * the bank and the sprites changing from frame to frame. */
static const char program[] =
    "        *= $C000\n"
    "        SEI\n"
    "        LDA #$35\n"
    "        STA $01\n"
    "        LDA #$FF\n"
    "        STA $D015\n"
    "        STA $D01C\n"
    "        LDX #15\n"
    "pos:    TXA\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ADC #$40\n"
    "        STA $D000,X\n"
    "        DEX\n"
    "        BPL pos\n"
    "        LDX #0\n"
    "        LDY #0\n"
    "loop:   LDA $D012\n"
    "        STA $3000,X\n"  /* the character set ($D018 = $1C) */
    "        EOR $C100,Y\n"
    "        STA $2000,Y\n"  /* the bitmap */
    "        STA $3FFF\n"    /* idle and refresh */
    "        STA $39FF\n"    /* ECM idle */
    "        STA $07F8,Y\n"  /* sprite pointers (Y wraps past them too) */
    "        STA $4400,X\n"  /* bank 1's screen */
    "        STA $7000,Y\n"  /* bank 1's character set */
    "        STA $0100,X\n"  /* the stack page: not fetched */
    "        INC $D800,X\n"  /* colour RAM */
    "        INX\n"
    "        INY\n"
    "        INY\n"
    "        INY\n"
    "        BNE loop\n"
    "        LDA $D012\n"    /* a new mode at a random raster position */
    "        AND #$60\n"
    "        ORA #$1B\n"
    "        STA $D011\n"
    "        LDA $D012\n"
    "        AND #$1F\n"
    "        ORA #$C8\n"
    "        STA $D016\n"
    "        LDA $D012\n"
    "        AND #$F0\n"
    "        ORA #$0C\n"
    "        STA $D018\n"
    "        LDA $D012\n"
    "        AND #$01\n"
    "        ORA #$02\n"     /* bank 0 or 1 */
    "        STA $DD00\n"
    "        INC $D000\n"
    "        INC $D001\n"
    "        JMP loop\n";

static void run_compare(const char *options)
{
    c64 *a = boot(options, 0);
    c64 *b = boot(options, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NULL(a->cpu.links.sync);     /* a: the deferring engine */
    CU_ASSERT_PTR_NOT_NULL(b->cpu.links.sync); /* b: the per-cycle one */
    CU_ASSERT_TRUE(same_machine(a, b));        /* the boot itself */
    static uint8_t image[65536];
    int lo, hi;
    CU_ASSERT_EQUAL_FATAL(c64t_assemble(program, image, &lo, &hi), 0);
    for (int i = 0; i < 256; i++) image[0xC100 + i] = (uint8_t)(i * 37u + 11u);
    hi = 0xC1FF;
    c64 *both[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        c64 *m = both[k];
        memcpy(m->p.ram + lo, image + lo, (size_t)(hi - lo + 1));
        CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
        m->cpu.pc = 0xC000;
    }
    uint64_t seed = 12345;
    int differ = 0;
    for (int i = 0; i < 60 && !differ; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t cycles = 1000u + (seed >> 33) % 40000u;
        mh_run_result ra = {0}, rb = {0};
        c64_run(a, cycles, &ra);
        c64_run(b, cycles, &rb);
        CU_ASSERT_EQUAL(ra.cycles, rb.cycles);
        if (!same_machine(a, b)) {
            fprintf(stderr, "\nc64.defer %s: machines differ after run %d\n", options, i);
            differ = 1;
        }
    }
    CU_ASSERT_FALSE(differ);
    /* a snapshot taken after a deferring run equals one of its restore:
     * the deferred stretch's plan is not state */
    c64_snapshot *s1 = malloc(sizeof *s1), *s2 = malloc(sizeof *s2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s1 && s2);
    c64_snapshot_save(a, s1);
    c64_snapshot_restore(a, s1);
    c64_snapshot_save(a, s2);
    CU_ASSERT_EQUAL(memcmp(&s1->vic, &s2->vic, sizeof s1->vic), 0);
    free(s1);
    free(s2);
    /* the program got around: bitmap mode and bank 1 were on at some point
     * (the last frame's screen differs from a blank one) */
    CU_ASSERT_NOT_EQUAL(a->p.ram[0x3000], image[0x3000]);
    c64_free(a);
    c64_free(b);
}

static int have_roms(void)
{
    struct stat st;
    if (stat(C64_ROM_DIR "/kernal", &st) == 0) return 1;
    fprintf(stderr, "\nc64.defer: %s missing, skipped\n", C64_ROM_DIR);
    return 0;
}

static void test_deferred_matches_per_cycle_pal(void)
{
    if (have_roms()) run_compare("{\"sound\":false}");
}

static void test_deferred_matches_per_cycle_ntsc(void)
{
    if (have_roms()) run_compare("{\"sound\":false,\"vicii_model\":\"6567r8\"}");
}

static void test_deferred_matches_per_cycle_old_ntsc(void)
{
    if (have_roms()) run_compare("{\"vicii_model\":\"6567r56a\"}");
}

MH_SUITE("c64.defer", NULL, NULL, MH_TEST(test_deferred_matches_per_cycle_pal),
         MH_TEST(test_deferred_matches_per_cycle_ntsc),
         MH_TEST(test_deferred_matches_per_cycle_old_ntsc))
