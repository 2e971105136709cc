/* bench_vic20 - emulated MHz of the vic20 machine plugin, and how many
 * times real time that is (PAL: 1108405 Hz).
 *
 * Measured (with the original ROMs: the machine has no free boot ROM yet):
 *   idle    the KERNAL at the READY prompt (cursor blinking, the 60 Hz
 *           VIA2 timer IRQ, the VIC fetching a 22x23 screen);
 *   busy    a full screen of characters, all four voices sounding, a VIA2
 *           timer IRQ every 2000 cycles that changes two voices, and a main
 *           loop that changes the border and scrolls the screen memory;
 *           each with VIC sound synthesis (the default) and with sound=off;
 *   boot    cycles from power-on until the autostart saw the READY prompt;
 *   mcphost the real binary booting and running 3 million cycles headless.
 * The plugin is dlopen()ed and driven through its mh_machine_desc by a
 * minimal host, in the host's 5 ms slices. Best of 3 runs. Prints numbers
 * only; never asserts timing.
 *
 * Usage: bench_vic20 [seconds [plugin.so [mcphost [rom_dir]]]]
 *   defaults: 2 s per figure; this build tree's plugin and binary; the ROMs
 *   in $MCPHOST_TEST_ROMS or ../shared/roms beside the repository (VIC20/
 *   inside either). Without ROMs it says so and exits 0.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_machine.h"
#include "mcphost/mcphost.h"


#define PAL_HZ 1108405.0
#define SLICE 5542u /* the host's 5 ms slice at PAL */
#define REPEATS 3

static const bench_warp warp = {"bench_vic20", SLICE, 3000000, REPEATS};

static const char busy_program[] =
    "        *= $1001\n"
    "        .word e\n"
    "        .word 10\n"
    "        .byte $9E\n"
    "        .text \"4110\"\n"
    "        .byte 0\n"
    "e:      .word 0\n"
    "        *= $100E\n"
    "        SEI\n"
    "        LDX #0\n"
    "fill:   TXA\n"                     /* a full screen of characters */
    "        STA $1E00,X\n"
    "        STA $1F00,X\n"
    "        AND #7\n"
    "        STA $9600,X\n"
    "        STA $9700,X\n"
    "        INX\n"
    "        BNE fill\n"
    "        LDA #$8F\n"               /* volume 15, all four voices on */
    "        STA $900E\n"
    "        LDA #$C0\n"
    "        STA $900A\n"
    "        LDA #$D0\n"
    "        STA $900B\n"
    "        LDA #$E0\n"
    "        STA $900C\n"
    "        LDA #$F0\n"
    "        STA $900D\n"
    "        LDA #<irq\n"
    "        STA $0314\n"
    "        LDA #>irq\n"
    "        STA $0315\n"
    "        LDA #$40\n"               /* VIA2 T1 free-running, every 2000 cycles */
    "        STA $912B\n"
    "        LDA #<2000\n"
    "        STA $9124\n"
    "        LDA #>2000\n"
    "        STA $9125\n"
    "        LDA #$C0\n"
    "        STA $912E\n"
    "        CLI\n"
    "main:   INC $900F\n"
    "        LDX #0\n"
    "mloop:  LDA $1E00,X\n"
    "        STA $1E01,X\n"
    "        DEX\n"
    "        BNE mloop\n"
    "        JMP main\n"
    "irq:    INC $900A\n"
    "        INC $900B\n"
    "        LDA $9124\n"
    "        JMP $EABF\n";

static const char *bench_rom_dir;

/* The best of REPEATS runs of the real binary, in wall seconds. */
static double run_binary(const char *mcphost)
{
    const char *argv[] = {mcphost, "--machine", "vic20", "--transport", "none", "--warp",
                          "--log-level", "warning", "--rom-dir", bench_rom_dir,
                          "--limit-cycles", "3000000", NULL};
    return bench_best_binary(&warp, argv);
}

/* The ROM directory: the argument, $MCPHOST_TEST_ROMS or ../shared/roms
 * beside the repository; its VIC20 folder when it has one. */
static int find_roms(const char *given, const char *exe_dir, char *out, size_t size)
{
    char base[PATH_MAX + 32];
    const char *env = getenv("MCPHOST_TEST_ROMS");
    if (given && given[0]) snprintf(base, sizeof base, "%s", given);
    else if (env && env[0]) snprintf(base, sizeof base, "%s", env);
    else if (snprintf(base, sizeof base, "%.*s/../../../shared/roms", PATH_MAX - 32, exe_dir) < 0)
        return -1;
    char probe[PATH_MAX + 64];
    snprintf(probe, sizeof probe, "%s/VIC20/basic-901486-01.bin", base);
    if (access(probe, R_OK) == 0) {
        return snprintf(out, size, "%s/VIC20", base) < (int)size ? 0 : -1;
    }
    snprintf(probe, sizeof probe, "%s/basic-901486-01.bin", base);
    if (access(probe, R_OK) == 0) {
        return snprintf(out, size, "%s", base) < (int)size ? 0 : -1;
    }
    return -1;
}

int main(int argc, char **argv)
{
    int wrote = bench_write_busy_mode(argc, argv, warp.name, busy_program);
    if (wrote >= 0) return wrote;
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    if (seconds <= 0) seconds = 2.0;
    char exe_dir[PATH_MAX], plugin[PATH_MAX + 64], mcphost[PATH_MAX + 16], roms[PATH_MAX + 64];
    bench_exe_dir(exe_dir, sizeof exe_dir);
    snprintf(plugin, sizeof plugin, "%s", argc > 2 ? argv[2] : "");
    if (!plugin[0]) snprintf(plugin, sizeof plugin, "%s/../lib/mcphost/plugins/machine-vic20.so", exe_dir);
    snprintf(mcphost, sizeof mcphost, "%s", argc > 3 ? argv[3] : "");
    if (!mcphost[0]) snprintf(mcphost, sizeof mcphost, "%s/mcphost", exe_dir);
    if (find_roms(argc > 4 ? argv[4] : NULL, exe_dir, roms, sizeof roms) != 0) {
        printf("bench_vic20: skipped: no VIC-20 ROMs (give a rom_dir argument or set "
               "MCPHOST_TEST_ROMS: the figures are for the original ROMs)\n");
        return 0;
    }
    static char real_roms[PATH_MAX];
    bench_rom_dir = realpath(roms, real_roms) ? real_roms : roms;

    void *plugin_data = NULL;
    const mh_plugin_entry *entry = bench_load_machine(plugin, "vic20", &plugin_data);
    char dir[] = "/tmp/bench_vic20_XXXXXX", path[64];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/busy.prg", dir);
    if (bench_write_prg(warp.name, busy_program, path) != 0) return 1;
    char idle[PATH_MAX + 128], busy[PATH_MAX + 256];
    char idle_off[PATH_MAX + 160], busy_off[PATH_MAX + 288];
    snprintf(idle, sizeof idle, "{\"rom_dir\":\"%s\"}", roms);
    snprintf(busy, sizeof busy, "{\"rom_dir\":\"%s\",\"autostart\":\"%s\"}", roms, path);
    snprintf(idle_off, sizeof idle_off, "{\"rom_dir\":\"%s\",\"sound\":\"off\"}", roms);
    snprintf(busy_off, sizeof busy_off, "{\"rom_dir\":\"%s\",\"autostart\":\"%s\",\"sound\":\"off\"}",
             roms, path);

    uint64_t cycles = (uint64_t)(seconds * 25e6);
    printf("bench_vic20: PAL VIC-20 (unexpanded) with the original ROMs, %u-cycle slices, best "
           "of %d\n", SLICE, REPEATS);
    const char *const runs[4][2] = {
        {idle, "idle at READY, sound on"},
        {idle_off, "idle at READY, sound=off"},
        {busy, "busy (4 voices, IRQ, scroll), sound on"},
        {busy_off, "busy (4 voices, IRQ, scroll), sound=off"},
    };
    double idle_mhz = 0;
    for (int k = 0; k < 4; k++) {
        bench_figure best = bench_best_of(&warp, runs[k][0], cycles);
        bench_report(runs[k][1], best.ran, best.wall, PAL_HZ);
        if (k == 0) idle_mhz = (double)best.ran / best.wall / 1e6;
    }

    /* Boot: cycles until the autostart saw READY and injected the program
     * (its SEI at $100E is in RAM), polled every 1000 cycles. */
    void *instance = bench_create(&warp, busy);
    uint64_t boot = 0;
    mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
    while (boot < 10000000) {
        bench_machine.run(instance, 1000, &result);
        boot += result.cycles;
        uint8_t sei = 0;
        if (bench_memory_iface) bench_memory_iface->peek(bench_memory_context, 1, 0x100E, &sei, 1);
        if (sei == 0x78) break;
    }
    bench_machine.destroy(instance);
    printf("  %-40s %6.3f ms of warp at the idle speed (%llu cycles, +-1000)\n",
           "power-on to READY (autostart injected)", (double)boot / (idle_mhz * 1e6) * 1e3,
           (unsigned long long)boot);

    double best = run_binary(mcphost);
    printf("  %-40s %6.3f s wall (3000000 cycles: %.1f MHz with start-up)\n",
           "mcphost --warp --limit-cycles 3000000", best, 3.0 / best);
    bench_report_peak_rss();
    if (entry->deinit) entry->deinit(plugin_data);
    return bench_remove_dir(dir);
}
