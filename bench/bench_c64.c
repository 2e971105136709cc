/* bench_c64 - emulated MHz of the c64 machine plugin, and how many times
 * real time that is (PAL: 985248 Hz).
 *
 * Measured:
 *   idle    the Open ROMs at the READY prompt (cursor blinking, the KERNAL's
 *           60 Hz IRQ, 25 bad lines per frame);
 *           (idle and busy are each measured with SID synthesis, the default,
 *           and with the option sound=off: no synthesis, registers only);
 *   busy    a program that keeps the VIC-II's DMA busy: 8 Y-expanded,
 *           multicolour sprites stacked down the screen (sprite DMA on
 *           nearly every line), a full text screen (bad lines), a raster
 *           IRQ each frame that moves the sprites and acknowledges through
 *           the KERNAL's IRQ entry, and a main loop that changes the
 *           background colour and scrolls;
 *   boot    cycles from power-on until the autostart saw the READY prompt
 *           (it typed RUN into the keyboard buffer), and the wall time that
 *           takes at the idle speed;
 *   mcphost the real binary booting and running 3 million cycles headless
 *           (`--transport none --warp --limit-cycles 3000000`), wall time
 *           including process start-up and ROM loading.
 * The plugin is dlopen()ed and driven through its mh_machine_desc by a
 * minimal host here, in the host's 5 ms slices (4926 cycles). Every figure
 * is the best of 3 runs (build machines are shared). Prints numbers only;
 * never asserts timing.
 *
 * Usage: bench_c64 [seconds [plugin.so [mcphost]]]
 *   defaults: 2 s per figure; the plugin and binary of this build tree.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_machine.h"
#include "mcphost/mcphost.h"


#define PAL_HZ 985248.0
#define SLICE 4926u /* the host's 5 ms slice at PAL */
#define REPEATS 3

static const bench_warp warp = {"bench_c64", SLICE, 3000000, REPEATS};

static const char busy_program[] =
    "        *= $0801\n"
    "        .word e\n"
    "        .word 10\n"
    "        .byte $9E\n"
    "        .text \"2064\"\n"
    "        .byte 0\n"
    "e:      .word 0\n"
    "        *= $0810\n"
    "        SEI\n"
    "        LDX #0\n"
    "fill:   TXA\n"                     /* a full screen of characters */
    "        STA $0400,X\n"
    "        STA $0500,X\n"
    "        STA $0600,X\n"
    "        STA $06E8,X\n"
    "        AND #15\n"
    "        STA $D800,X\n"
    "        STA $D900,X\n"
    "        STA $DA00,X\n"
    "        STA $DAE8,X\n"
    "        INX\n"
    "        BNE fill\n"
    "        LDX #62\n"                 /* sprite data at $0340 */
    "spr:    TXA\n"
    "        STA $0340,X\n"
    "        DEX\n"
    "        BPL spr\n"
    "        LDX #7\n"
    "setup:  LDA #13\n"
    "        STA $07F8,X\n"
    "        TXA\n"
    "        ASL A\n"
    "        TAY\n"
    "        TXA\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ADC #40\n"
    "        STA $D000,Y\n"             /* X */
    "        TXA\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ASL A\n"
    "        ADC #50\n"
    "        STA $D001,Y\n"             /* Y: stacked 32 lines apart, 42 tall */
    "        TXA\n"
    "        STA $D027,X\n"
    "        DEX\n"
    "        BPL setup\n"
    "        LDA #$FF\n"
    "        STA $D015\n"
    "        STA $D017\n"
    "        STA $D01C\n"
    "        STA $D01D\n"
    "        LDA #<irq\n"
    "        STA $0314\n"
    "        LDA #>irq\n"
    "        STA $0315\n"
    "        LDA #$F8\n"
    "        STA $D012\n"
    "        LDA #$1B\n"
    "        STA $D011\n"
    "        LDA #1\n"
    "        STA $D01A\n"
    "        CLI\n"
    "main:   INC $D021\n"
    "        LDX #0\n"
    "mloop:  LDA $0400,X\n"
    "        STA $0401,X\n"
    "        DEX\n"
    "        BNE mloop\n"
    "        JMP main\n"
    "irq:    LDX #14\n"
    "move:   INC $D000,X\n"
    "        DEX\n"
    "        DEX\n"
    "        BPL move\n"
    "        INC $D019\n"
    "        JMP $EA31\n";

/* The best of REPEATS runs of the real binary, in wall seconds. */
static double run_binary(const char *mcphost)
{
    const char *argv[] = {mcphost, "--machine", "c64", "--transport", "none", "--warp",
                          "--log-level", "warning", "--limit-cycles", "3000000", NULL};
    return bench_best_binary(&warp, argv);
}

int main(int argc, char **argv)
{
    int wrote = bench_write_busy_mode(argc, argv, warp.name, busy_program);
    if (wrote >= 0) return wrote;
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    if (seconds <= 0) seconds = 2.0;
    char exe_dir[PATH_MAX], plugin[PATH_MAX + 64], mcphost[PATH_MAX + 16];
    bench_exe_dir(exe_dir, sizeof exe_dir);
    snprintf(plugin, sizeof plugin, "%s", argc > 2 ? argv[2] : "");
    if (!plugin[0]) snprintf(plugin, sizeof plugin, "%s/../lib/mcphost/plugins/machine-c64.so", exe_dir);
    snprintf(mcphost, sizeof mcphost, "%s", argc > 3 ? argv[3] : "");
    if (!mcphost[0]) snprintf(mcphost, sizeof mcphost, "%s/mcphost", exe_dir);

    void *plugin_data = NULL;
    const mh_plugin_entry *entry = bench_load_machine(plugin, "c64", &plugin_data);
    char dir[] = "/tmp/bench_c64_XXXXXX", path[64], options[128];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/busy.prg", dir);
    if (bench_write_prg(warp.name, busy_program, path) != 0) return 1;
    snprintf(options, sizeof options, "{\"autostart\":\"%s\"}", path);

    uint64_t cycles = (uint64_t)(seconds * 25e6);
    printf("bench_c64: PAL C64 with the Open ROMs, %u-cycle slices, best of %d\n", SLICE, REPEATS);
    /* Warp speed with SID synthesis (the default) and with sound=off. */
    char options_off[160];
    snprintf(options_off, sizeof options_off, "{\"autostart\":\"%s\",\"sound\":\"off\"}", path);
    const char *const runs[4][2] = {
        {"{}", "idle at READY, sound on"},
        {"{\"sound\":\"off\"}", "idle at READY, sound=off"},
        {options, "busy (8 sprites, raster IRQ), sound on"},
        {options_off, "busy (8 sprites, raster IRQ), sound=off"},
    };
    double idle_mhz = 0;
    for (int k = 0; k < 4; k++) {
        bench_figure best = bench_best_of(&warp, runs[k][0], cycles);
        bench_report(runs[k][1], best.ran, best.wall, PAL_HZ);
        if (k == 0) idle_mhz = (double)best.ran / best.wall / 1e6;
    }

    /* Boot: cycles until the autostart saw READY and typed RUN (the
     * keyboard buffer at $0277 says "RUN"), polled every 1000 cycles. */
    void *instance = bench_create(&warp, options);
    uint64_t boot = 0;
    mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
    while (boot < 10000000) {
        bench_machine.run(instance, 1000, &result);
        boot += result.cycles;
        uint8_t buf[3] = {0, 0, 0};
        if (bench_memory_iface) bench_memory_iface->peek(bench_memory_context, 1, 0x0277, buf, 3);
        if (memcmp(buf, "RUN", 3) == 0) break;
    }
    bench_machine.destroy(instance);
    printf("  %-40s %6.3f ms of warp at the idle speed (%llu cycles, +-1000)\n",
           "power-on to READY (autostart typed RUN)", (double)boot / (idle_mhz * 1e6) * 1e3,
           (unsigned long long)boot);

    double best = run_binary(mcphost);
    printf("  %-40s %6.3f s wall (3000000 cycles: %.1f MHz with start-up)\n",
           "mcphost --warp --limit-cycles 3000000", best, 3.0 / best);
    bench_report_peak_rss();
    if (entry->deinit) entry->deinit(plugin_data);
    return bench_remove_dir(dir);
}
