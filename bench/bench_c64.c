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
 *        bench_c64 --profile idle|idle-off|busy|busy-off|sid [cycles]
 *   boots, then runs `cycles` (default 2000000) inside bench_profiled_run(),
 *   for `valgrind --tool=callgrind --toggle-collect=bench_profiled_run`:
 *   instruction counts per emulated cycle, free of the shared machine's
 *   noise.
 *        bench_c64 --hash [frames]
 *   the equality guard for speed work: runs each workload (idle, busy, the
 *   SID program below that reads OSC3/ENV3 onto the screen, on PAL and
 *   NTSC, sound on and off) for `frames` frames (default 500) and prints
 *   an FNV-1a hash of every frame's pixels and of all audio samples. An
 *   optimisation that keeps the chips exact leaves every line unchanged.
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

/* 10 SYS2064: the BASIC line in front of each workload's machine code. */
#define SYS2064_STUB                                                                             \
    "        *= $0801\n"                                                                          \
    "        .word e\n"                                                                           \
    "        .word 10\n"                                                                          \
    "        .byte $9E\n"                                                                         \
    "        .text \"2064\"\n"                                                                    \
    "        .byte 0\n"                                                                           \
    "e:      .word 0\n"

static const char busy_program[] =
    SYS2064_STUB
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

/* A SID workload: all three voices (saw/noise, pulse, ring-modulated
 * triangle), the filter, gates toggled every ~40000 cycles, and a main
 * loop that reads OSC3 and ENV3 into screen and colour RAM, so both the
 * audio and the picture depend on the exact synthesis. */
static const char sid_program[] =
    SYS2064_STUB
    "        *= $0810\n"
    "        SEI\n"
    "        LDX #$18\n"
    "init:   LDA regs,X\n"
    "        STA $D400,X\n"
    "        DEX\n"
    "        BPL init\n"
    "        LDX #0\n"
    "        LDY #0\n"
    "loop:   LDA $D41B\n"
    "        STA $0400,Y\n"
    "        LDA $D41C\n"
    "        STA $D800,Y\n"
    "        STA $D020\n"
    "        INY\n"
    "        BNE loop\n"
    "        INC $D401\n"
    "        INX\n"
    "        STX $D416\n"
    "        TXA\n"
    "        AND #7\n"
    "        BNE loop\n"
    "        LDA regs+4\n"
    "        EOR #$A1\n"
    "        STA regs+4\n"
    "        STA $D404\n"
    "        LDA regs+11\n"
    "        EOR #$01\n"
    "        STA regs+11\n"
    "        STA $D40B\n"
    "        LDA regs+18\n"
    "        EOR #$01\n"
    "        STA regs+18\n"
    "        STA $D412\n"
    "        JMP loop\n"
    "regs:   .byte $00,$10,$00,$00,$21,$09,$80\n"
    "        .byte $00,$08,$00,$08,$41,$22,$A4\n"
    "        .byte $45,$23,$00,$00,$15,$33,$53\n"
    "        .byte $03,$40,$F3,$1F\n";

/* Runs `cycles` in the host's slices: the one function callgrind collects
 * in --profile mode (not inlined, so --toggle-collect finds it). */
__attribute__((noinline)) static uint64_t bench_profiled_run(void *instance, uint64_t cycles)
{
    return bench_run_for(&warp, instance, cycles);
}

/* FNV-1a over bytes, continuing from hash. */
static uint64_t fnv1a(uint64_t hash, const void *data, size_t size)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < size; i++) hash = (hash ^ p[i]) * 1099511628211ull;
    return hash;
}

/* --hash: one line per workload, hashes of its frames and its audio. */
static int hash_mode(unsigned frames, const char *dir)
{
    char busy_path[64], sid_path[64];
    snprintf(busy_path, sizeof busy_path, "%s/busy.prg", dir);
    snprintf(sid_path, sizeof sid_path, "%s/sid.prg", dir);
    if (bench_write_prg(warp.name, busy_program, busy_path) != 0) return 1;
    if (bench_write_prg(warp.name, sid_program, sid_path) != 0) return 1;
    static const char *const videos[] = {"pal", "ntsc"};
    static const char *const sounds[] = {"on", "off"};
    const char *const programs[3][2] = {{"idle", NULL}, {"busy", busy_path}, {"sid", sid_path}};
    for (int p = 0; p < 3; p++)
        for (int v = 0; v < 2; v++)
            for (int o = 0; o < 2; o++) {
                char options[256];
                if (programs[p][1])
                    snprintf(options, sizeof options,
                             "{\"video\":\"%s\",\"sound\":\"%s\",\"autostart\":\"%s\"}",
                             videos[v], sounds[o], programs[p][1]);
                else
                    snprintf(options, sizeof options, "{\"video\":\"%s\",\"sound\":\"%s\"}",
                             videos[v], sounds[o]);
                void *instance = bench_create(&warp, options);
                uint32_t frame_cycles = bench_audio_iface->frame_cycles(bench_audio_context);
                uint64_t video_hash = 14695981039346656037ull, audio_hash = video_hash;
                uint64_t samples = 0;
                mh_run_result result = {sizeof result, 0, MH_RUN_BUDGET, 0};
                for (unsigned f = 0; f < frames; f++) {
                    uint64_t done = 0;
                    while (done < frame_cycles) {
                        bench_machine.run(instance, frame_cycles - (uint32_t)done, &result);
                        done += result.cycles;
                    }
                    mh_video_frame frame = {sizeof frame, 0, 0, 0, NULL, NULL, 0, 0, 0};
                    if (bench_video_iface->frame(bench_video_context, &frame) == MH_OK) {
                        video_hash = fnv1a(video_hash, &frame.frame_number, sizeof frame.frame_number);
                        for (uint32_t y = 0; y < frame.height; y++)
                            video_hash = fnv1a(video_hash, frame.pixels + (size_t)y * frame.pitch, frame.width);
                    }
                    int16_t buf[4096];
                    size_t n;
                    while ((n = bench_audio_iface->read(bench_audio_context, buf, 4096)) > 0) {
                        audio_hash = fnv1a(audio_hash, buf, n * sizeof buf[0]);
                        samples += n;
                    }
                }
                printf("%-5s %-4s sound %-3s  frames %016llx  audio %016llx (%llu samples)\n",
                       programs[p][0], videos[v], sounds[o], (unsigned long long)video_hash,
                       (unsigned long long)audio_hash, (unsigned long long)samples);
                bench_machine.destroy(instance);
            }
    return 0;
}

/* --profile: boot, then the measured run (see the usage above). */
static int profile_mode(const char *kind, uint64_t cycles, const char *dir)
{
    char path[64], options[256];
    int sid = strcmp(kind, "sid") == 0;
    snprintf(path, sizeof path, "%s/prog.prg", dir);
    if (bench_write_prg(warp.name, sid ? sid_program : busy_program, path) != 0) return 1;
    int off = strstr(kind, "-off") != NULL;
    if (strncmp(kind, "idle", 4) == 0)
        snprintf(options, sizeof options, "{\"sound\":\"%s\"}", off ? "off" : "on");
    else
        snprintf(options, sizeof options, "{\"sound\":\"%s\",\"autostart\":\"%s\"}",
                 off ? "off" : "on", path);
    void *instance = bench_create(&warp, options);
    bench_run_for(&warp, instance, warp.boot);
    uint64_t ran = bench_profiled_run(instance, cycles);
    bench_machine.destroy(instance);
    printf("bench_c64 --profile %s: %llu cycles measured\n", kind, (unsigned long long)ran);
    return 0;
}

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
    const int special = argc > 1 && (strcmp(argv[1], "--profile") == 0 || strcmp(argv[1], "--hash") == 0);
    if (special) snprintf(plugin, sizeof plugin, "%s/../lib/mcphost/plugins/machine-c64.so", exe_dir);
    const mh_plugin_entry *entry = bench_load_machine(plugin, "c64", &plugin_data);
    char dir[] = "/tmp/bench_c64_XXXXXX", path[64], options[128];
    if (!mkdtemp(dir)) return 1;
    if (special) {
        int rc = strcmp(argv[1], "--hash") == 0
                     ? hash_mode(argc > 2 ? (unsigned)atoi(argv[2]) : 500u, dir)
                     : profile_mode(argc > 2 ? argv[2] : "idle",
                                    argc > 3 ? strtoull(argv[3], NULL, 10) : 2000000u, dir);
        if (entry->deinit) entry->deinit(plugin_data);
        return bench_remove_dir(dir) || rc;
    }
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
        /* this thread's CPU time: steadier than wall time on a shared machine */
        printf("  %-40s %6.1f MHz of CPU time\n", "", (double)best.ran / best.cpu / 1e6);
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
