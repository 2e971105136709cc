/* bench_plus4 - emulated speed of the plus4 machine plugin in times real
 * time (PAL: the TED's 1773447 Hz; the machine counts its cycles in those
 * ticks, as VICE's xplus4 does).
 *
 * Measured (warp, the plugin driven through its mh_machine_desc by a
 * minimal host in the host's 5 ms slices):
 *   idle  the original ROMs at the READY prompt (cursor flashing, the
 *         KERNAL's raster IRQs, 50 DMA lines per frame);
 *   busy  a program that runs with ROMs switched out: a full text screen
 *         it scrolls in a loop (DMA lines, single clock in the display),
 *         timer 1 and raster IRQs it acknowledges itself, sound on both
 *         voices and a changing border;
 *   each with TED sound synthesis (the default) and with sound=off;
 *   mcphost  the real binary booting and running 5 million ticks headless.
 * Every figure is the best of 3 runs, in wall time and (on a shared
 * machine, the fairer one) in this thread's CPU time. Prints numbers only;
 * never asserts timing.
 *
 * Needs the original ROMs (until the free boot ROM is in the build):
 * $MCPHOST_TEST_ROMS/PLUS4 or ../shared/roms/PLUS4 beside the source tree,
 * else it says so and exits 0.
 *
 * Usage: bench_plus4 [seconds [plugin.so [mcphost [romdir]]]]
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_machine.h"
#include "mcphost/mcphost.h"

#define PAL_HZ 1773447.0
#define SLICE 8867u /* the host's 5 ms slice at PAL */
#define REPEATS 3

static const bench_warp warp = {"bench_plus4", SLICE, 8000000, REPEATS};

static const char busy_program[] =
    "        *= $1001\n"
    "        .word e\n"
    "        .word 10\n"
    "        .byte $9E\n"
    "        .text \"4109\"\n"
    "        .byte 0\n"
    "e:      .word 0\n"
    "        *= $100D\n"
    "        SEI\n"
    "        STA $FF3F\n"               /* RAM everywhere: our own vectors */
    "        LDA #<irq\n"
    "        STA $FFFE\n"
    "        LDA #>irq\n"
    "        STA $FFFF\n"
    "        LDX #0\n"
    "fill:   TXA\n"
    "        STA $0C00,X\n"
    "        STA $0D00,X\n"
    "        STA $0E00,X\n"
    "        STA $0EE8,X\n"
    "        AND #$7F\n"
    "        STA $0800,X\n"
    "        STA $0900,X\n"
    "        STA $0A00,X\n"
    "        STA $0AE8,X\n"
    "        INX\n"
    "        BNE fill\n"
    "        LDA #$00\n"                /* timer 1: $2000 */
    "        STA $FF00\n"
    "        LDA #$20\n"
    "        STA $FF01\n"
    "        LDA #$80\n"                /* raster compare line $80 */
    "        STA $FF0B\n"
    "        LDA #$0A\n"                /* raster + timer 1 IRQs */
    "        STA $FF0A\n"
    "        LDA #$40\n"                /* voice 1 and 2 frequencies */
    "        STA $FF0E\n"
    "        STA $FF0F\n"
    "        LDA #$38\n"                /* both voices on, volume 8 */
    "        STA $FF11\n"
    "        CLI\n"
    "main:   INC $FF19\n"
    "        LDX #0\n"
    "mloop:  LDA $0C00,X\n"
    "        STA $0C01,X\n"
    "        DEX\n"
    "        BNE mloop\n"
    "        JMP main\n"
    "irq:    PHA\n"
    "        LDA $FF09\n"
    "        STA $FF09\n"
    "        INC $FF15\n"
    "        PLA\n"
    "        RTI\n";

static void report(const char *label, uint64_t cycles, double seconds, double cpu)
{
    double mhz = (double)cycles / seconds / 1e6;
    printf("  %-44s %6.1f MHz  %5.1fx real time  (%llu ticks in %.2f s; by CPU time %.1fx)\n",
           label, mhz, mhz * 1e6 / PAL_HZ, (unsigned long long)cycles, seconds,
           (double)cycles / cpu / PAL_HZ);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
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
    if (!plugin[0])
        snprintf(plugin, sizeof plugin, "%s/../lib/mcphost/plugins/machine-plus4.so", exe_dir);
    snprintf(mcphost, sizeof mcphost, "%s", argc > 3 ? argv[3] : "");
    if (!mcphost[0]) snprintf(mcphost, sizeof mcphost, "%s/mcphost", exe_dir);
    const char *env = getenv("MCPHOST_TEST_ROMS");
    if (argc > 4) snprintf(roms, sizeof roms, "%s", argv[4]);
    else if (env) snprintf(roms, sizeof roms, "%s/PLUS4", env);
    else snprintf(roms, sizeof roms, "%s/../../../shared/roms/PLUS4", exe_dir);
    if (!is_dir(roms)) {
        printf("bench_plus4: skipped: no Plus/4 ROMs at %s (set MCPHOST_TEST_ROMS)\n", roms);
        return 0;
    }
    char resolved[PATH_MAX];
    if (realpath(roms, resolved)) snprintf(roms, sizeof roms, "%s", resolved);

    void *plugin_data = NULL;
    const mh_plugin_entry *entry = bench_load_machine(plugin, "plus4", &plugin_data);
    char dir[] = "/tmp/bench_plus4_XXXXXX", path[64];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/busy.prg", dir);
    if (bench_write_prg(warp.name, busy_program, path) != 0) return 1;
    char opts[4][PATH_MAX + 256];
    snprintf(opts[0], sizeof opts[0], "{\"rom_dir\":\"%s\"}", roms);
    snprintf(opts[1], sizeof opts[1], "{\"rom_dir\":\"%s\",\"sound\":\"off\"}", roms);
    snprintf(opts[2], sizeof opts[2], "{\"rom_dir\":\"%s\",\"autostart\":\"%s\"}", roms, path);
    snprintf(opts[3], sizeof opts[3], "{\"rom_dir\":\"%s\",\"autostart\":\"%s\",\"sound\":\"off\"}",
             roms, path);
    const char *const labels[4] = {"idle at READY, sound on", "idle at READY, sound=off",
                                   "busy (DMA lines, IRQs, voices), sound on",
                                   "busy (DMA lines, IRQs, voices), sound=off"};
    uint64_t cycles = (uint64_t)(seconds * 60e6);
    printf("bench_plus4: PAL Plus/4 with the original ROMs (%s), %u-tick slices, best of %d\n",
           roms, SLICE, REPEATS);
    for (int k = 0; k < 4; k++) {
        bench_figure best = bench_best_of(&warp, opts[k], cycles);
        report(labels[k], best.ran, best.wall, best.cpu);
    }

    char romarg[PATH_MAX + 64];
    snprintf(romarg, sizeof romarg, "%s", roms);
    const char *bin_argv[] = {mcphost, "--machine", "plus4", "--transport", "none", "--warp",
                              "--rom-dir", romarg, "--log-level", "warning", "--limit-cycles",
                              "5000000", NULL};
    double best = bench_best_binary(&warp, bin_argv);
    printf("  %-44s %6.3f s wall (5000000 ticks: %.1f MHz with start-up)\n",
           "mcphost --warp --limit-cycles 5000000", best, 5.0 / best);
    bench_report_peak_rss();
    if (entry->deinit) entry->deinit(plugin_data);
    return bench_remove_dir(dir);
}
