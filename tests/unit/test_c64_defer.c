/* c64.defer - the C64 with the VIC-II's deferred quiet cycles against the
 * same machine ticking the VIC-II every cycle (the SDK's bus loop through
 * the links, c64_bus_read/write). Three machines: a runs the engine
 * without hooks (c64_exec), b the per-cycle reference and c the engine
 * with hooks (c64_exec_hooks), b and c under the same debugger hooks that
 * look at the machine mid-run as the host's do: before every instruction
 * and after every access they peek I/O (open bus, colour RAM with the
 * VIC's phase-1 byte, the raster registers, a CIA) and the VIC-II's state
 * (bus_phi1, BA, AEC, the whole state now and then), and they stop the
 * run now and then (sync stops and stop requests from an access); the
 * access hook sees every access, only writes, or is off, run by run. A
 * program writes, at every point of the lines, what the VIC fetches: the
 * character set, the bitmap, the sprite pointers, $3FFF and $39FF,
 * switches text/bitmap/ECM and the VIC bank, moves sprites; between runs
 * of odd lengths (a's as long as b's, which the stops cut) RAM, colour
 * RAM, both framebuffers, the VIC-II's state and the CPU must be equal,
 * and what b's and c's hooks saw. Needs /usr/share/open-roms/C64 (skips
 * without it). */
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

/* b's bus: the per-cycle callbacks behind other pointers, so c64_run_cpu
 * leaves the run to the SDK's loop (mh_cpu6502_run), which ticks the
 * VIC-II every cycle. */
static uint8_t per_cycle_read(void *user, uint16_t addr) { return c64_bus_read(user, addr); }

static void per_cycle_write(void *user, uint16_t addr, uint8_t value)
{
    c64_bus_write(user, addr, value);
}

enum { ENGINE_PLAIN, ENGINE_PER_CYCLE, ENGINE_HOOKS };

static c64 *boot(const char *options, int engine)
{
    char error[512];
    c64 *m = c64_new(options, NULL, error, sizeof error);
    if (!m) {
        fprintf(stderr, "c64_new(%s): %s\n", options, error);
        return NULL;
    }
    if (engine != ENGINE_PLAIN) c64_set_debug_hooks(m, never_stop, NULL, NULL);
    if (engine == ENGINE_PER_CYCLE) mh_cpu6502_set_bus(&m->cpu, per_cycle_read, per_cycle_write, m);
    mh_run_result r = {0};
    c64_run(m, BOOT_CYCLES, &r);
    return m;
}

/* What a debugger's hooks saw: a hash over their peeks. */
typedef struct looker {
    c64 *m;
    uint64_t hash;
    uint32_t syncs, accesses;
} looker;

static void mix(looker *l, uint64_t value)
{
    l->hash = (l->hash ^ value) * 0x100000001B3ull;
}

/* I/O as c64_bus_peek gives it (the VIC's phase-1 byte in open bus and
 * colour RAM's upper nybble) and the VIC-II's state read directly. */
static void look(looker *l, uint16_t addr)
{
    const c64 *m = l->m;
    static const uint16_t io[] = {0xDE00, 0xDF80, 0xD012, 0xD011, 0xD019, 0xDC04, 0xD41B};
    for (size_t i = 0; i < sizeof io / sizeof io[0]; i++) mix(l, c64_bus_peek(m, io[i]));
    mix(l, c64_bus_peek(m, (uint16_t)(0xD800u | (addr & 0x3FFu))));
    mix(l, c64_bus_peek(m, addr));
    mix(l, (uint64_t)m->vic.bus_phi1 << 16 | (uint64_t)m->vic.ba << 8 | m->vic.aec);
    if (((l->syncs + l->accesses) & 255u) == 0) {
        const uint8_t *bytes = (const uint8_t *)&m->vic;
        for (size_t i = 0; i < offsetof(m6569, links); i++) mix(l, bytes[i]);
    }
}

static int look_sync(void *user, uint16_t pc)
{
    looker *l = user;
    l->syncs++;
    look(l, pc);
    return l->syncs % 4099u == 0; /* a sync stop now and then */
}

static int look_access(void *user, uint16_t addr, uint8_t value, int write)
{
    looker *l = user;
    l->accesses++;
    mix(l, (uint64_t)addr << 9 | (uint64_t)value << 1 | (unsigned)write);
    look(l, addr);
    return l->accesses % 7919u == 0; /* a stop request mid-instruction */
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
    c64 *a = boot(options, ENGINE_PLAIN);
    c64 *b = boot(options, ENGINE_PER_CYCLE);
    c64 *c = boot(options, ENGINE_HOOKS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NULL(a->cpu.links.sync); /* a: the deferring engine without hooks */
    CU_ASSERT_TRUE(b->cpu.links.read == per_cycle_read); /* b: the SDK's per-cycle loop */
    CU_ASSERT_TRUE(c->cpu.links.read == c64_bus_read);   /* c: the engine with hooks */
    CU_ASSERT_TRUE(same_machine(a, b)); /* the boot itself */
    CU_ASSERT_TRUE(same_machine(c, b));
    static uint8_t image[65536];
    int lo, hi;
    CU_ASSERT_EQUAL_FATAL(c64t_assemble(program, image, &lo, &hi), 0);
    for (int i = 0; i < 256; i++) image[0xC100 + i] = (uint8_t)(i * 37u + 11u);
    hi = 0xC1FF;
    c64 *all[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        c64 *m = all[k];
        memcpy(m->p.ram + lo, image + lo, (size_t)(hi - lo + 1));
        CU_ASSERT_TRUE(mh_cpu6502_at_boundary(&m->cpu));
        m->cpu.pc = 0xC000;
    }
    looker lb = {b, 14695981039346656037ull, 0, 0}, lc = {c, 14695981039346656037ull, 0, 0};
    uint64_t seed = 12345;
    int differ = 0;
    unsigned stops = 0;
    for (int i = 0; i < 60 && !differ; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t cycles = 1000u + (seed >> 33) % 40000u;
        mh_run_result ra = {0}, rb = {0}, rc = {0};
        /* The hooks as a debugger sets them: every read too (read
         * watchpoints), writes only (the write log, the default), no access
         * hook; with fewer hooks more cycles are deferred at a run's end. */
        const int mode = i % 3;
        c64_set_debug_hooks(b, look_sync, mode < 2 ? look_access : NULL, &lb);
        c64_set_debug_hooks(c, look_sync, mode < 2 ? look_access : NULL, &lc);
        mh_cpu6502_set_access_reads(&b->cpu, mode == 0, NULL);
        mh_cpu6502_set_access_reads(&c->cpu, mode == 0, NULL);
        c64_run(b, cycles, &rb);
        c64_run(c, cycles, &rc);
        c64_run(a, rb.cycles, &ra); /* as far as b got */
        CU_ASSERT_EQUAL(rc.cycles, rb.cycles);
        CU_ASSERT_EQUAL(ra.cycles, rb.cycles);
        stops += rb.cycles < cycles;
        if (!same_machine(a, b) || !same_machine(c, b) || lb.hash != lc.hash ||
            lb.syncs != lc.syncs || lb.accesses != lc.accesses) {
            fprintf(stderr, "\nc64.defer %s: machines differ after run %d (a %d, c %d, hooks %d)\n",
                    options, i, !same_machine(a, b), !same_machine(c, b), lb.hash != lc.hash);
            differ = 1;
        }
    }
    CU_ASSERT_FALSE(differ);
    CU_ASSERT_TRUE(stops >= 10); /* the hooks did stop runs */
    CU_ASSERT_TRUE(lb.syncs > 50000u && lb.accesses > 100000u);
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
    c64_free(c);
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
